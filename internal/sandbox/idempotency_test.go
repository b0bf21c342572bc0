package sandbox_test

import (
	"bytes"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/clock"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/sandboxtest"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

func TestIdempotency_Replay(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	f := vals("email", "jo@example.com", "metadata[a]", "1")
	first := e.post("/v1/customers", f, idemKey("create-jo")).ok(nil)
	if first.header.Get(wire.HeaderIdempotentReplayed) != "" {
		t.Error("the first answer says it is replayed")
	}
	// The same parameters in another order are the same request.
	again := e.doRaw(http.MethodPost, "/v1/customers", "metadata%5Ba%5D=1&email=jo%40example.com", idemKey("create-jo")).ok(nil)
	if !bytes.Equal(first.body, again.body) || again.header.Get(wire.HeaderIdempotentReplayed) != "true" {
		t.Errorf("replay: %s (replayed %q), want %s", again.body, again.header.Get(wire.HeaderIdempotentReplayed), first.body)
	}
	if again.header.Get(wire.HeaderRequestID) == first.header.Get(wire.HeaderRequestID) {
		t.Error("a replay reuses the first Request-Id; each answer should have its own")
	}
	if st := e.stats(); st.Customers != 1 {
		t.Errorf("a replay created another customer: %d", st.Customers)
	}
	// The key is per account: another account runs it afresh.
	o := e.other()
	if res := o.post("/v1/customers", f, idemKey("create-jo")).ok(nil); res.header.Get(wire.HeaderIdempotentReplayed) != "" || bytes.Equal(res.body, first.body) {
		t.Error("another account got this account's stored answer")
	}

	// The same key with other parameters, path or method: 400 reused, as
	// Stripe answers it, and not stored: the first request still replays.
	e.post("/v1/customers", vals("email", "other@example.com"), idemKey("create-jo")).
		fails(400, wire.ErrorTypeIdempotency, wire.ErrorCodeIdempotencyKeyReused, "")
	e.post("/v1/payments", pay("100", "USD", sandbox.TokenVisa), idemKey("create-jo")).
		fails(400, wire.ErrorTypeIdempotency, wire.ErrorCodeIdempotencyKeyReused, "")
	e.post("/v1/customers", nil, idemKey("create-jo")).
		fails(400, wire.ErrorTypeIdempotency, wire.ErrorCodeIdempotencyKeyReused, "")
	if res := e.post("/v1/customers", f, idemKey("create-jo")).ok(nil); res.header.Get(wire.HeaderIdempotentReplayed) != "true" || !bytes.Equal(res.body, first.body) {
		t.Errorf("after the reuses the key answers %s, want the replay of %s", res.body, first.body)
	}

	// Stored answers: 400, 402, 404, 413 replay too, and change nothing.
	for _, tc := range []struct {
		name, path, body string
		status           int
	}{
		{"400", "/v1/customers", "email=nope", 400},
		{"400 undecodable", "/v1/customers", "email=%zz", 400},
		{"402", "/v1/payments", "amount=100&currency=USD&source=tok_declined", 402},
		{"404", "/v1/customers/cus_AAAAAAAAAAAAAAAAAAAAAAAA", "name=x", 404},
		{"413", "/v1/customers", "name=" + strings.Repeat("x", wire.MaxRequestBodyBytes), 413},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := &env{t: t, url: e.url, key: e.key, hc: e.hc}
			before := e.stats()
			key := "stored-" + tc.name
			r1 := e.doRaw(http.MethodPost, tc.path, tc.body, idemKey(key))
			r2 := e.doRaw(http.MethodPost, tc.path, tc.body, idemKey(key))
			if r1.status != tc.status || r2.status != tc.status || !bytes.Equal(r1.body, r2.body) ||
				r2.header.Get(wire.HeaderIdempotentReplayed) != "true" {
				t.Errorf("got %d then %d (replayed %q)\n%s\n%s", r1.status, r2.status, r2.header.Get(wire.HeaderIdempotentReplayed), r1.body, r2.body)
			}
			after := e.stats()
			if tc.status == 402 && after.Payments != before.Payments+1 {
				t.Errorf("declined payments made: %d, want 1", after.Payments-before.Payments)
			}
		})
	}

	// A key over the limit is refused; at the limit it works.
	e.post("/v1/customers", nil, idemKey(strings.Repeat("k", wire.IdempotencyKeyMaxLength+1))).
		fails(400, wire.ErrorTypeInvalidRequest, wire.ErrorCodeParameterInvalid, "")
	e.post("/v1/customers", nil, idemKey(strings.Repeat("k", wire.IdempotencyKeyMaxLength))).ok(nil)
	// The header means nothing on a GET or DELETE.
	e.get("/_sandbox/stats", nil).ok(nil)
	cu := e.customer(nil)
	e.do(http.MethodDelete, "/v1/customers/"+cu.ID, nil, idemKey("k1")).ok(nil)
	e.do(http.MethodDelete, "/v1/customers/"+cu.ID, nil, idemKey("k1")).fails(404, wire.ErrorTypeInvalidRequest, wire.ErrorCodeResourceMissing, "")
}

// TestIdempotency_KeyInUse holds the first request between reserving its
// key and acting, and sends the repeat then.
func TestIdempotency_KeyInUse(t *testing.T) {
	t.Parallel()
	sb := sandboxtest.Start(t)
	entered, release := make(chan struct{}), make(chan struct{})
	var once sync.Once
	sandbox.SetAfterReserve(sb.Server, func() {
		once.Do(func() {
			close(entered)
			<-release
		})
	})
	e := envOn(t, sb, sandboxtest.NewKey(t))

	first := make(chan *result)
	go func() {
		first <- e.post("/v1/payments", pay("100", "USD", sandbox.TokenVisa), idemKey("slow"))
	}()
	<-entered
	e.post("/v1/payments", pay("100", "USD", sandbox.TokenVisa), idemKey("slow")).
		fails(409, wire.ErrorTypeIdempotency, wire.ErrorCodeIdempotencyKeyInUse, "")
	// Other parameters under a running key: reused, not in use.
	e.post("/v1/payments", pay("200", "USD", sandbox.TokenVisa), idemKey("slow")).
		fails(400, wire.ErrorTypeIdempotency, wire.ErrorCodeIdempotencyKeyReused, "")
	close(release)
	r1 := <-first
	r1.ok(nil)
	r2 := e.post("/v1/payments", pay("100", "USD", sandbox.TokenVisa), idemKey("slow")).ok(nil)
	if !bytes.Equal(r1.body, r2.body) || r2.header.Get(wire.HeaderIdempotentReplayed) != "true" {
		t.Errorf("after the first finished: %s, want the replay of %s", r2.body, r1.body)
	}
	if st := e.stats(); st.Payments != 1 {
		t.Errorf("payments = %d, want 1", st.Payments)
	}
}

// TestIdempotency_NotStored: 5xx and 429 are not stored, so a retry with
// the same key runs; faults act before the key is looked up.
func TestIdempotency_NotStored(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.faults(vals("error_rate", "1"))
	for range 3 {
		res := e.post("/v1/customers", vals("name", "A"), idemKey("k"))
		if res.status != 500 && res.status != 503 {
			t.Fatalf("error_rate 1: status %d", res.status)
		}
		res.fails(res.status, wire.ErrorTypeAPI, wire.ErrorCodeServerError, "")
	}
	e.faults(vals("error_rate", "0", "rate_limit", "1"))
	if st := e.stats(); st.Customers != 0 {
		t.Fatalf("an injected 5xx acted: %d customers", st.Customers)
	}
	r1 := e.post("/v1/customers", vals("name", "A"), idemKey("k")).ok(nil)
	if r1.header.Get(wire.HeaderIdempotentReplayed) != "" {
		t.Error("a 5xx answer was stored and replayed")
	}
	// Over the rate limit: 429, not stored, then the key replays the 200.
	res := e.post("/v1/customers", vals("name", "B"), idemKey("k2"))
	res.fails(429, wire.ErrorTypeRateLimit, wire.ErrorCodeRateLimited, "")
	e.faults(vals("rate_limit", "0"))
	if r := e.post("/v1/customers", vals("name", "B"), idemKey("k2")).ok(nil); r.header.Get(wire.HeaderIdempotentReplayed) != "" {
		t.Error("a 429 answer was stored")
	}
	// 401 and 403 are not stored: they never reach an account.
	anon := &env{t: t, url: e.url, hc: e.hc}
	anon.post("/v1/customers", vals("name", "C"), idemKey("k3")).fails(401, wire.ErrorTypeAuthentication, wire.ErrorCodeMissingAPIKey, "")
	if r := e.post("/v1/customers", vals("name", "C"), idemKey("k3")).ok(nil); r.header.Get(wire.HeaderIdempotentReplayed) != "" {
		t.Error("a 401 answer was stored")
	}
	if st := e.stats(); st.Customers != 3 {
		t.Errorf("customers = %d, want 3", st.Customers)
	}
}

func TestIdempotency_Expiry(t *testing.T) {
	t.Parallel()
	e, clk := listEnv(t)
	r1 := e.post("/v1/customers", nil, idemKey("day")).ok(nil)
	clk.Advance(sandbox.IdempotencyKeyRetention - time.Second)
	if r := e.post("/v1/customers", nil, idemKey("day")).ok(nil); !bytes.Equal(r.body, r1.body) {
		t.Error("a key was forgotten before its retention")
	}
	clk.Advance(time.Second)
	if r := e.post("/v1/customers", nil, idemKey("day")).ok(nil); bytes.Equal(r.body, r1.body) {
		t.Error("a key was replayed after its retention")
	}
	// A later write sweeps expired keys; the sweep must not lose live ones.
	e.post("/v1/customers", nil, idemKey("fresh")).ok(nil)
	clk.Advance(sandbox.IdempotencyKeyRetention / 2)
	e.post("/v1/customers", nil, idemKey("other")).ok(nil)
	if r := e.post("/v1/customers", nil, idemKey("fresh")).ok(nil); r.header.Get(wire.HeaderIdempotentReplayed) != "true" {
		t.Error("a live key was swept")
	}
	if st := e.stats(); st.Customers != 4 {
		t.Errorf("customers = %d, want 4", st.Customers)
	}
}

// TestIdempotency_RealTimeWhateverTheTestClock: keys are kept and swept on
// the sandbox's clock, whatever test clock a keyed request moves its
// objects' time to. A keyed request on a clock years ahead once swept
// every key of the account, its own included: a payment retried with its
// key was made twice, and the request itself ran again when retried.
func TestIdempotency_RealTimeWhateverTheTestClock(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		// keyed is the keyed request on the clock k: its path, its
		// parameters, and other parameters for the same key.
		keyed func(e *env, k *wire.TestClock) (path string, f, other url.Values)
	}{
		{"advance", func(e *env, k *wire.TestClock) (string, url.Values, url.Values) {
			p := wire.PathTestClocks + "/" + k.ID + "/advance"
			return p, vals("frozen_time", "2031-01-15T00:00:00Z"), vals("frozen_time", "2031-01-20T00:00:00Z")
		}},
		{"subscription of a customer on the clock", func(e *env, k *wire.TestClock) (string, url.Values, url.Values) {
			pr := e.plan("1500")
			cu := e.customer(vals("source", sandbox.TokenVisa, "test_clock", k.ID))
			f := vals("customer", cu.ID, "items[0][price]", pr.ID)
			return wire.PathSubscriptions, f, vals("customer", cu.ID, "items[0][price]", pr.ID, "items[0][quantity]", "2")
		}},
		{"customer on the clock", func(e *env, k *wire.TestClock) (string, url.Values, url.Values) {
			return wire.PathCustomers, vals("test_clock", k.ID), vals("test_clock", k.ID, "name", "Other")
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			clk := clock.NewFake(time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC))
			e := newEnv(t, sandboxtest.WithClock(clk))
			k := e.testClock("frozen_time", "2031-01-01T00:00:00Z")
			payment := pay("100", "USD", sandbox.TokenVisa)
			paid := e.post(wire.PathPayments, payment, idemKey("pay")).ok(nil)
			path, f, other := tc.keyed(e, k)
			first := e.post(path, f, idemKey("clock")).ok(nil)
			payments := e.stats().Payments

			if r := e.post(wire.PathPayments, payment, idemKey("pay")).ok(nil); !bytes.Equal(r.body, paid.body) || r.header.Get(wire.HeaderIdempotentReplayed) != "true" {
				t.Errorf("the payment retried with its key was not replayed:\n%s\nwant\n%s", r.body, paid.body)
			}
			if r := e.post(path, f, idemKey("clock")); r.status != http.StatusOK || !bytes.Equal(r.body, first.body) || r.header.Get(wire.HeaderIdempotentReplayed) != "true" {
				t.Errorf("the keyed request retried with its key got %d (replayed %q):\n%s\nwant\n%s",
					r.status, r.header.Get(wire.HeaderIdempotentReplayed), r.body, first.body)
			}
			e.post(path, other, idemKey("clock")).fails(400, wire.ErrorTypeIdempotency, wire.ErrorCodeIdempotencyKeyReused, "")
			if got := e.stats().Payments; got != payments {
				t.Errorf("the retries made %d payments more", got-payments)
			}

			// Past their retention on the sandbox's clock the keys go.
			clk.Advance(sandbox.IdempotencyKeyRetention)
			if r := e.post(wire.PathPayments, payment, idemKey("pay")).ok(nil); r.header.Get(wire.HeaderIdempotentReplayed) != "" {
				t.Error("a key was replayed after its retention on the sandbox's clock")
			}
		})
	}
}
