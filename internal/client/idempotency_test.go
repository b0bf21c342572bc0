package client_test

import (
	"bytes"
	"context"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/paymentsdev/terraform-provider-payments/internal/client"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/sandboxtest"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandboxclient"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// TestIdempotency_Replay: a repeat with the same key and parameters returns the
// stored status and body with Idempotent-Replayed: true and changes nothing,
// for every stored status (200, 400, 402, 404).
func TestIdempotency_Replay(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		path       string
		form       url.Values
		wantStatus int
		customers  int64
		payments   int64
	}{
		{name: "200 create", path: wire.PathCustomers, form: url.Values{"email": {"ada@example.com"}}, wantStatus: 200, customers: 1},
		{name: "400 invalid", path: wire.PathCustomers, form: url.Values{"email": {"nope"}}, wantStatus: 400},
		{name: "402 declined", path: wire.PathPayments, form: url.Values{"amount": {"500"}, "currency": {"USD"}, "source": {sandbox.TokenDeclined}}, wantStatus: 402, payments: 1},
		{name: "404 missing", path: wire.PathCustomers + "/" + fakeID(wire.CustomerIDPrefix), form: url.Values{"name": {"x"}}, wantStatus: 404},
		{name: "413 too large", path: wire.PathCustomers, form: url.Values{"name": {strings.Repeat("n", wire.MaxRequestBodyBytes)}}, wantStatus: 413},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t)
			first := mustRaw(t, e.sb.URL, e.key, http.MethodPost, tc.path, tc.form, "replay-key")
			if first.Status != tc.wantStatus {
				t.Fatalf("first answer %d, want %d: %s", first.Status, tc.wantStatus, first.Body)
			}
			if h := first.Header.Get(wire.HeaderIdempotentReplayed); h != "" {
				t.Errorf("first answer has %s: %q", wire.HeaderIdempotentReplayed, h)
			}
			for i := range 2 {
				again := mustRaw(t, e.sb.URL, e.key, http.MethodPost, tc.path, tc.form, "replay-key")
				if again.Status != first.Status || !bytes.Equal(again.Body, first.Body) {
					t.Errorf("replay %d = %d %s, want %d %s", i, again.Status, again.Body, first.Status, first.Body)
				}
				if h := again.Header.Get(wire.HeaderIdempotentReplayed); h != "true" {
					t.Errorf("replay %d: %s = %q, want true", i, wire.HeaderIdempotentReplayed, h)
				}
			}
			s := stats(t, e.c)
			if s.Customers != tc.customers || s.Payments != tc.payments {
				t.Errorf("stats = %d customers, %d payments; want %d, %d", s.Customers, s.Payments, tc.customers, tc.payments)
			}
		})
	}
}

// TestIdempotency_ReplayThroughClient: two client calls forced onto one key
// return the same object, and the second answer is marked replayed.
func TestIdempotency_ReplayThroughClient(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	rec := newRecorder()
	rec.rewrite = fixedIdemKey("client-fixed-key")
	c := e.client(t, withTransport(rec))
	ctx := context.Background()
	p := &client.PaymentParams{Amount: 700, Currency: "EUR", Source: sandbox.TokenVisa, Metadata: map[string]string{"order": "42"}}
	a, err := c.CreatePayment(ctx, p)
	if err != nil {
		t.Fatal(err)
	}
	b, err := c.CreatePayment(ctx, p)
	if err != nil {
		t.Fatal(err)
	}
	if a.ID != b.ID || a.CreatedAt != b.CreatedAt || a.Status != b.Status {
		t.Errorf("replayed payment differs: %+v vs %+v", a, b)
	}
	xs := rec.exchanges()
	if len(xs) != 2 || xs[1].RespHeader.Get(wire.HeaderIdempotentReplayed) != "true" {
		t.Errorf("exchanges %+v: want 2, the second replayed", xs)
	}
	if n := stats(t, e.c).Payments; n != 1 {
		t.Errorf("stats.payments = %d, want 1", n)
	}
}

// TestIdempotency_KeyReused: the same key with other parameters or another
// path is 400 idempotency_error, code idempotency_key_reused, as Stripe
// answers it, and changes nothing.
func TestIdempotency_KeyReused(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	first := mustRaw(t, e.sb.URL, e.key, http.MethodPost, wire.PathCustomers, url.Values{"name": {"A"}}, "k1")
	if first.Status != 200 {
		t.Fatalf("first: %d %s", first.Status, first.Body)
	}
	cusID, _ := first.JSON(t)["id"].(string)
	for _, tc := range []struct {
		name, path string
		form       url.Values
	}{
		{"other parameters", wire.PathCustomers, url.Values{"name": {"B"}}},
		{"an extra parameter", wire.PathCustomers, url.Values{"name": {"A"}, "email": {"a@example.com"}}},
		{"another path", wire.PathCustomers + "/" + cusID, url.Values{"name": {"A"}}},
	} {
		r := mustRaw(t, e.sb.URL, e.key, http.MethodPost, tc.path, tc.form, "k1")
		if r.Status != 400 || r.ErrorField(t, "type") != wire.ErrorTypeIdempotency || r.ErrorField(t, "code") != wire.ErrorCodeIdempotencyKeyReused {
			t.Errorf("%s: got %d %s, want 400 %s %s", tc.name, r.Status, r.Body, wire.ErrorTypeIdempotency, wire.ErrorCodeIdempotencyKeyReused)
		}
	}
	// The refusal is not stored: the original request still replays.
	r := mustRaw(t, e.sb.URL, e.key, http.MethodPost, wire.PathCustomers, url.Values{"name": {"A"}}, "k1")
	if r.Status != 200 || !bytes.Equal(r.Body, first.Body) {
		t.Errorf("after the refusals the original key gives %d %s, want the stored answer", r.Status, r.Body)
	}
	cus, err := e.c.GetCustomer(context.Background(), cusID)
	if err != nil || cus.Name != "A" {
		t.Errorf("customer after reuse attempts: %+v, %v; want name A unchanged", cus, err)
	}
	if n := stats(t, e.c).Customers; n != 1 {
		t.Errorf("stats.customers = %d, want 1", n)
	}
}

// TestIdempotency_KeysPerAccount: another account may use the same key.
func TestIdempotency_KeysPerAccount(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	other := sandboxtest.NewKey(t)
	a := mustRaw(t, e.sb.URL, e.key, http.MethodPost, wire.PathCustomers, url.Values{"name": {"A"}}, "shared")
	b := mustRaw(t, e.sb.URL, other, http.MethodPost, wire.PathCustomers, url.Values{"name": {"A"}}, "shared")
	if a.Status != 200 || b.Status != 200 || b.Header.Get(wire.HeaderIdempotentReplayed) != "" || a.JSON(t)["id"] == b.JSON(t)["id"] {
		t.Errorf("two accounts, one key: %d %s / %d %s (replayed %q); want two distinct objects",
			a.Status, a.Body, b.Status, b.Body, b.Header.Get(wire.HeaderIdempotentReplayed))
	}
}

// TestIdempotency_Faults: an injected 5xx is not stored (the retry runs); a
// dropped answer is stored (the retry replays it).
func TestIdempotency_Faults(t *testing.T) {
	t.Parallel()
	t.Run("5xx not stored", func(t *testing.T) {
		t.Parallel()
		e := newEnv(t)
		setFaults(t, e.c, sandboxclient.FaultsParams{ErrorRate: new(1.0)})
		form := url.Values{"name": {"Faulty"}}
		r := mustRaw(t, e.sb.URL, e.key, http.MethodPost, wire.PathCustomers, form, "k5xx")
		if r.Status != 500 && r.Status != 503 || r.ErrorField(t, "type") != wire.ErrorTypeAPI {
			t.Fatalf("with error_rate 1: %d %s, want 500/503 api_error", r.Status, r.Body)
		}
		setFaults(t, e.c, sandboxclient.FaultsParams{ErrorRate: new(0.0)})
		r = mustRaw(t, e.sb.URL, e.key, http.MethodPost, wire.PathCustomers, form, "k5xx")
		if r.Status != 200 || r.Header.Get(wire.HeaderIdempotentReplayed) != "" {
			t.Errorf("retry after 5xx: %d replayed=%q, want a fresh 200", r.Status, r.Header.Get(wire.HeaderIdempotentReplayed))
		}
		if n := stats(t, e.c).Customers; n != 1 {
			t.Errorf("stats.customers = %d, want 1", n)
		}
	})
	t.Run("dropped answer stored", func(t *testing.T) {
		t.Parallel()
		e := newEnv(t)
		setFaults(t, e.c, sandboxclient.FaultsParams{DropRate: new(1.0)})
		form := url.Values{"name": {"Dropped"}}
		if r, err := doRaw(t, e.sb.URL, e.key, http.MethodPost, wire.PathCustomers, form, "kdrop"); err == nil {
			t.Fatalf("with drop_rate 1 got an answer %d %s, want the connection closed", r.Status, r.Body)
		}
		setFaults(t, e.c, sandboxclient.FaultsParams{DropRate: new(0.0)})
		r := mustRaw(t, e.sb.URL, e.key, http.MethodPost, wire.PathCustomers, form, "kdrop")
		if r.Status != 200 || r.Header.Get(wire.HeaderIdempotentReplayed) != "true" {
			t.Errorf("retry after a drop: %d replayed=%q %s, want the stored 200", r.Status, r.Header.Get(wire.HeaderIdempotentReplayed), r.Body)
		}
		if n := stats(t, e.c).Customers; n != 1 {
			t.Errorf("stats.customers = %d, want 1", n)
		}
	})
	t.Run("429 not stored", func(t *testing.T) {
		t.Parallel()
		e := newEnv(t)
		setFaults(t, e.c, sandboxclient.FaultsParams{RateLimit: new(int64(1))})
		mustRaw(t, e.sb.URL, e.key, http.MethodGet, wire.PathPayments, nil, "")
		r := mustRaw(t, e.sb.URL, e.key, http.MethodPost, wire.PathCustomers, url.Values{"name": {"R"}}, "k429")
		if r.Status != 429 {
			t.Fatalf("second request within a second with rate_limit 1: %d %s, want 429", r.Status, r.Body)
		}
		setFaults(t, e.c, sandboxclient.FaultsParams{RateLimit: new(int64(0))})
		r = mustRaw(t, e.sb.URL, e.key, http.MethodPost, wire.PathCustomers, url.Values{"name": {"R"}}, "k429")
		if r.Status != 200 || r.Header.Get(wire.HeaderIdempotentReplayed) != "" {
			t.Errorf("after a 429: %d replayed=%q", r.Status, r.Header.Get(wire.HeaderIdempotentReplayed))
		}
	})
}

// TestIdempotency_Concurrent: eight concurrent requests with one key make one
// object; each answer is that object or 409 idempotency_key_in_use.
func TestIdempotency_Concurrent(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	// Latency widens the window in which the first request is in flight.
	setFaults(t, e.c, sandboxclient.FaultsParams{LatencyMS: new(int64(30))})
	form := url.Values{"email": {"race@example.com"}, "metadata[n]": {"1"}}
	const n = 8
	answers := make([]rawResp, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			r, err := doRaw(t, e.sb.URL, e.key, http.MethodPost, wire.PathCustomers, form, "concurrent-key")
			if err != nil {
				t.Errorf("request %d: %v", i, err)
			}
			answers[i] = r
		})
	}
	wg.Wait()
	var id any
	for i, r := range answers {
		switch r.Status {
		case 200:
			got := r.JSON(t)["id"]
			if id == nil {
				id = got
			} else if got != id {
				t.Errorf("answer %d has id %v, another has %v", i, got, id)
			}
		case 409:
			if c := r.ErrorField(t, "code"); c != wire.ErrorCodeIdempotencyKeyInUse {
				t.Errorf("answer %d: 409 with code %q, want %s", i, c, wire.ErrorCodeIdempotencyKeyInUse)
			}
		case 0: // transport error, reported above
		default:
			t.Errorf("answer %d: %d %s, want 200 or 409", i, r.Status, r.Body)
		}
	}
	if id == nil {
		t.Error("no answer was 200")
	}
	if got := stats(t, e.c).Customers; got != 1 {
		t.Errorf("stats.customers = %d, want 1", got)
	}

	// The client retries 409 idempotency_key_in_use, so eight calls forced
	// onto one key all get the one object.
	rec := newRecorder()
	rec.rewrite = fixedIdemKey("concurrent-client-key")
	c := e.client(t, withTransport(rec), withRetries(50))
	ids := make([]string, n)
	errs := make([]error, n)
	for i := range n {
		wg.Go(func() {
			cus, err := c.CreateCustomer(context.Background(), &client.CustomerParams{Name: new("Same")})
			ids[i], errs[i] = cus.ID, err
		})
	}
	wg.Wait()
	for i := range n {
		if errs[i] != nil || ids[i] != ids[0] {
			t.Errorf("client call %d: id %q err %v, want %q", i, ids[i], errs[i], ids[0])
		}
	}
	if got := stats(t, e.c).Customers; got != 2 {
		t.Errorf("stats.customers = %d, want 2", got)
	}
}

// TestIdempotency_KeyLength: at most IdempotencyKeyMaxLength characters.
func TestIdempotency_KeyLength(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ok := mustRaw(t, e.sb.URL, e.key, http.MethodPost, wire.PathCustomers, nil, strings.Repeat("a", wire.IdempotencyKeyMaxLength))
	if ok.Status != 200 {
		t.Errorf("%d-character key: %d %s, want 200", wire.IdempotencyKeyMaxLength, ok.Status, ok.Body)
	}
	long := mustRaw(t, e.sb.URL, e.key, http.MethodPost, wire.PathCustomers, nil, strings.Repeat("a", wire.IdempotencyKeyMaxLength+1))
	if long.Status != 400 || long.ErrorField(t, "type") != wire.ErrorTypeInvalidRequest {
		t.Errorf("%d-character key: %d %s, want 400 invalid_request_error", wire.IdempotencyKeyMaxLength+1, long.Status, long.Body)
	}
	if n := stats(t, e.c).Customers; n != 1 {
		t.Errorf("stats.customers = %d, want 1", n)
	}
}
