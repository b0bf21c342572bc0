package sandbox_test

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/clock"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/sandboxtest"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/storage"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandboxclient"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// bigMeta is metadata of n keys with values of size characters.
func bigMeta(n, size int) url.Values {
	v := url.Values{}
	for i := range n {
		v.Set(fmt.Sprintf("metadata[k%02d]", i), strings.Repeat(string(rune('a'+i%26)), size))
	}
	return v
}

// fillAccount creates customers with large metadata until a write is
// refused, and returns the refusal and how many were made.
func fillAccount(t *testing.T, e *env, opts ...req) (*result, int) {
	t.Helper()
	for i := range 10_000 {
		r := e.post("/v1/customers", bigMeta(10, 400), opts...)
		if r.status != http.StatusOK {
			return r, i
		}
	}
	t.Fatal("10,000 customers and no refusal")
	return nil, 0
}

func TestLimits_AccountBytes(t *testing.T) {
	const limit = 256 << 10
	sb := sandboxtest.Start(t, sandboxtest.WithLimits(sandbox.Limits{MaxAccountBytes: limit}))
	e := envOn(t, sb, sandboxtest.NewKey(t))
	var first wire.Customer
	e.post("/v1/customers", bigMeta(10, 400)).ok(&first)
	refused, made := fillAccount(t, e)
	eb := refused.fails(http.StatusForbidden, wire.ErrorTypeInvalidRequest, wire.ErrorCodeAccountLimitExceeded, "")
	for _, want := range []string{"-max-account-bytes 256 KiB", wire.PathSandboxReset} {
		if !strings.Contains(eb.Error.Message, want) {
			t.Errorf("message %q does not name %q", eb.Error.Message, want)
		}
	}
	running, recounted := sandbox.AccountBytes(sb.Server, e.key)
	t.Logf("%d customers made; the account keeps %d bytes (recount %d)", made+1, running, recounted)
	if running != recounted {
		t.Errorf("running count %d, recount %d", running, recounted)
	}
	// The write that crosses the limit runs; nothing after it.
	if running < limit || running > limit+64<<10 {
		t.Errorf("the account keeps %d bytes; want the limit %d plus at most one request's records", running, limit)
	}

	// Refused are writes of every kind, idempotent ones included, and the
	// refusal is not stored under the key.
	e.post("/v1/payments", pay("100", "USD", sandbox.TokenVisa)).fails(http.StatusForbidden, wire.ErrorTypeInvalidRequest, wire.ErrorCodeAccountLimitExceeded, "")
	e.post("/v1/customers", vals("name", "Jo"), idemKey("k1")).fails(http.StatusForbidden, wire.ErrorTypeInvalidRequest, wire.ErrorCodeAccountLimitExceeded, "")
	// Reads, deletes, the stats and the other accounts go on.
	e.get("/v1/customers/"+first.ID, nil).ok(nil)
	e.get("/v1/customers", nil).ok(nil)
	e.stats()
	other := e.other()
	other.customer(vals("name", "Other"))
	e.del("/v1/customers/" + first.ID).ok(nil)
	// A reset empties the account; the refused idempotent request runs.
	e.post("/_sandbox/reset", nil).ok(nil)
	// What stays is the request log (a few hundred bytes a line).
	if running, _ := sandbox.AccountBytes(sb.Server, e.key); running > 32<<10 {
		t.Errorf("after a reset the account keeps %d bytes", running)
	}
	if r := e.post("/v1/customers", vals("name", "Jo"), idemKey("k1")).ok(nil); r.header.Get(wire.HeaderIdempotentReplayed) != "" {
		t.Error("the refused request was replayed, not run")
	}
}

// Events are a log: a write at the limit drops the oldest, and is refused
// only when the objects themselves fill the account.
func TestLimits_EventsMakeRoom(t *testing.T) {
	const limit = 128 << 10
	sb := sandboxtest.Start(t, sandboxtest.WithLimits(sandbox.Limits{MaxAccountBytes: limit}))
	e := envOn(t, sb, sandboxtest.NewKey(t))
	for i := range 150 { // about 2 MB of events without the limit
		var cu wire.Customer
		e.post("/v1/customers", bigMeta(10, 400)).ok(&cu)
		e.del("/v1/customers/" + cu.ID).ok(nil)
		if running, recounted := sandbox.AccountBytes(sb.Server, e.key); running != recounted || running > limit+64<<10 {
			t.Fatalf("after %d creates and deletes the account keeps %d bytes (recount %d); limit %d", i+1, running, recounted, limit)
		}
	}
	var list struct {
		Data []any `json:"data"`
	}
	if err := json.Unmarshal(e.get("/v1/events", vals("limit", "100")).ok(nil).body, &list); err != nil {
		t.Fatal(err)
	}
	if len(list.Data) == 0 || len(list.Data) == 100 {
		t.Errorf("%d events kept; want the newest few that fit", len(list.Data))
	}
}

func TestLimits_TotalBytes(t *testing.T) {
	const limit = 256 << 10
	sb := sandboxtest.Start(t, sandboxtest.WithLimits(sandbox.Limits{MaxTotalBytes: limit}))
	a := envOn(t, sb, sandboxtest.NewKey(t))
	b := a.other()
	var bc wire.Customer
	b.post("/v1/customers", vals("name", "B")).ok(&bc)
	refused, _ := fillAccount(t, a)
	eb := refused.fails(http.StatusForbidden, wire.ErrorTypeInvalidRequest, wire.ErrorCodeSandboxLimitExceeded, "")
	if !strings.Contains(eb.Error.Message, "-max-total-bytes 256 KiB") {
		t.Errorf("message %q does not name -max-total-bytes", eb.Error.Message)
	}
	if total := sandbox.TotalBytes(sb.Server); total < limit || total > limit+64<<10 {
		t.Errorf("the sandbox keeps %d bytes; want the limit %d plus at most one request's records", total, limit)
	}
	b.post("/v1/customers", vals("name", "B2")).fails(http.StatusForbidden, wire.ErrorTypeInvalidRequest, wire.ErrorCodeSandboxLimitExceeded, "")
	b.get("/v1/customers/"+bc.ID, nil).ok(nil)
	b.del("/v1/customers/" + bc.ID).ok(nil)
	a.post("/_sandbox/reset", nil).ok(nil)
	b.post("/v1/customers", vals("name", "B3")).ok(nil)
}

func TestLimits_MaxAccounts(t *testing.T) {
	sb := sandboxtest.Start(t, sandboxtest.WithLimits(sandbox.Limits{MaxAccounts: 2}))
	a := envOn(t, sb, sandboxtest.NewKey(t))
	b := a.other()
	a.stats()
	b.customer(vals("name", "B"))
	c := a.other()
	for _, r := range []*result{c.get("/v1/customers", nil), c.post("/v1/customers", vals("name", "C")), c.post("/_sandbox/reset", nil)} {
		eb := r.fails(http.StatusForbidden, wire.ErrorTypeInvalidRequest, wire.ErrorCodeSandboxLimitExceeded, "")
		if !strings.Contains(eb.Error.Message, "-max-accounts 2") {
			t.Errorf("message %q does not name -max-accounts", eb.Error.Message)
		}
	}
	// Existing accounts go on.
	a.customer(vals("name", "A"))

	// Keys named at start are not made on first use: no account limit.
	keys := []string{sandboxtest.NewKey(t), sandboxtest.NewKey(t), sandboxtest.NewKey(t)}
	named := sandboxtest.Start(t, sandboxtest.WithKeys(keys...), sandboxtest.WithLimits(sandbox.Limits{MaxAccounts: 1}))
	for _, k := range keys {
		envOn(t, named, k).customer(vals("name", "N"))
	}
}

func TestLimits_AccountIdle(t *testing.T) {
	clk := clock.NewFake(time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC))
	path := filepath.Join(t.TempDir(), "sandbox.db")
	st, err := storage.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	limits := sandbox.Limits{MaxAccounts: 2, AccountIdle: time.Hour}
	sb := sandboxtest.Start(t, sandboxtest.WithStore(st), sandboxtest.WithClock(clk), sandboxtest.WithLimits(limits))
	idle := envOn(t, sb, sandboxtest.NewKey(t))
	busy := idle.other()
	gone := idle.customer(vals("name", "Idle"))
	kept := busy.customer(vals("name", "Busy"))
	before := sandbox.TotalBytes(sb.Server)

	// The sweeper runs on the sandbox's clock: each step moves it and
	// waits for the sweep it makes, which arms the next one.
	advance := func(d time.Duration) {
		t.Helper()
		armed := clk.Armed()
		clk.Advance(d)
		select {
		case <-armed:
		case <-time.After(10 * time.Second):
			t.Fatalf("no sweep 10 s after moving the clock %v", d)
		}
	}
	advance(40 * time.Minute)
	idle.get("/v1/customers/"+gone.ID, nil).ok(nil) // not idle long enough yet
	busy.stats()
	advance(30 * time.Minute)
	if running, _ := sandbox.AccountBytes(sb.Server, idle.key); running == -1 {
		t.Fatal("an account idle for 30 minutes was removed; the limit is an hour")
	}
	busy.stats()
	advance(31 * time.Minute) // the idle key unused for 61 minutes, the busy one 31
	busy.stats()
	if running, _ := sandbox.AccountBytes(sb.Server, idle.key); running != -1 {
		t.Fatalf("the idle account is still there, keeping %d bytes", running)
	}
	if after := sandbox.TotalBytes(sb.Server); after >= before {
		t.Errorf("the sandbox keeps %d bytes after removing an account, %d before", after, before)
	}
	// Its slot is free: a third key gets an account, and the idle key a
	// new, empty one once there is room again.
	third := busy.other()
	third.stats()
	idle.get("/v1/customers", nil).fails(http.StatusForbidden, wire.ErrorTypeInvalidRequest, wire.ErrorCodeSandboxLimitExceeded, "")
	busy.get("/v1/customers/"+kept.ID, nil).ok(nil)

	// On disk too: after a restart, the idle account's customer is gone.
	if err := sb.Close(); err != nil {
		t.Fatal(err)
	}
	st, err = storage.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	sb2 := sandboxtest.Start(t, sandboxtest.WithStore(st))
	envOn(t, sb2, idle.key).get("/v1/customers/"+gone.ID, nil).fails(http.StatusNotFound, wire.ErrorTypeInvalidRequest, wire.ErrorCodeResourceMissing, "")
	envOn(t, sb2, busy.key).get("/v1/customers/"+kept.ID, nil).ok(nil)
}

func TestLimits_AccountIdle_NamedKeysStay(t *testing.T) {
	clk := clock.NewFake(time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC))
	key := sandboxtest.NewKey(t)
	sb := sandboxtest.Start(t, sandboxtest.WithKeys(key), sandboxtest.WithClock(clk),
		sandboxtest.WithLimits(sandbox.Limits{AccountIdle: time.Minute}))
	e := envOn(t, sb, key)
	cu := e.customer(vals("name", "Named"))
	clk.Advance(time.Hour)
	sandbox.SweepIdle(sb.Server)
	e.get("/v1/customers/"+cu.ID, nil).ok(nil)
}

// The running count follows every kind of change, and equals a count from
// scratch of what the account keeps.
func TestAccountBytes_RunningEqualsRecount(t *testing.T) {
	seed := uint64(testSeed(t)) //nolint:gosec // seeds are positive
	rng := rand.New(rand.NewPCG(seed, seed))
	clk := clock.NewFake(time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC))
	sb := sandboxtest.Start(t, sandboxtest.WithClock(clk))
	e := envOn(t, sb, sandboxtest.NewKey(t))
	var customers, payments, endpoints, products, prices []string
	pick := func(ids []string) string { return ids[rng.IntN(len(ids))] }
	text := func() string { return strings.Repeat("x", rng.IntN(300)) }
	for i := range 400 {
		var opts []req
		if rng.IntN(2) == 0 {
			opts = append(opts, idemKey(fmt.Sprintf("k%d", rng.IntN(50))))
		}
		switch op := rng.IntN(14); {
		case op < 3 || len(customers) == 0:
			var cu wire.Customer
			if r := e.post("/v1/customers", vals("name", text(), "metadata[a]", text(), "source", sandbox.TokenVisa), opts...); r.status == 200 {
				r.ok(&cu)
				customers = append(customers, cu.ID)
			}
		case op == 3:
			e.post("/v1/customers/"+pick(customers), vals("email", "a@example.com", "metadata[b]", text(), "metadata[a]", ""), opts...)
		case op == 4:
			e.del("/v1/customers/" + pick(customers))
		case op == 5:
			e.post("/v1/customers/"+pick(customers)+"/sources", vals("source", sandbox.TokenAmex), opts...)
		case op == 6:
			var p wire.Payment
			if r := e.post("/v1/payments", pay("100", "USD", sandbox.TokenVisa, "description", text(), "capture", "false"), opts...); r.status == 200 {
				r.ok(&p)
				payments = append(payments, p.ID)
			}
		case op == 7 && len(payments) > 0:
			id := pick(payments)
			e.post("/v1/payments/"+id, vals("description", text(), "metadata[m]", text()), opts...)
			e.post("/v1/payments/"+id+"/capture", nil, opts...)
		case op == 8:
			var ep struct {
				ID string `json:"id"`
			}
			if r := e.post("/v1/webhook_endpoints", vals("url", "http://127.0.0.1:9/h", "enabled_events[]", "customer.created", "description", text())); r.status == 200 {
				if err := json.Unmarshal(r.body, &ep); err != nil {
					t.Fatal(err)
				}
				endpoints = append(endpoints, ep.ID)
			}
		case op == 9 && len(endpoints) > 0:
			id := pick(endpoints)
			e.post("/v1/webhook_endpoints/"+id, vals("description", text(), "disabled", "true"))
			if rng.IntN(2) == 0 {
				e.del("/v1/webhook_endpoints/" + id)
			}
		case op == 10:
			clk.Advance(time.Duration(rng.IntN(5)) * time.Hour) // idempotency records expire
		case op == 11 && rng.IntN(10) == 0:
			e.post("/_sandbox/reset", nil)
			customers, payments, endpoints, products, prices = nil, nil, nil, nil, nil
		case op == 12:
			var p wire.Product
			if r := e.post(wire.PathProducts, vals("name", "n"+text(), "description", text()), opts...); r.status == 200 {
				r.ok(&p)
				products = append(products, p.ID)
			}
			if len(products) > 0 && rng.IntN(3) == 0 {
				e.del(wire.PathProducts + "/" + pick(products)) // refused while it has prices
			}
		case op == 13 && len(products) > 0:
			var pr wire.Price
			if r := e.post(wire.PathPrices, vals("product", pick(products), "currency", "USD", "unit_amount", "5",
				"nickname", text(), "lookup_key", fmt.Sprint("k", rng.IntN(5)), "transfer_lookup_key", "true"), opts...); r.status == 200 {
				r.ok(&pr)
				prices = append(prices, pr.ID)
			}
			if len(prices) > 0 {
				e.post(wire.PathPrices+"/"+pick(prices), vals("active", fmt.Sprint(rng.IntN(2) == 0), "lookup_key", fmt.Sprint("k", rng.IntN(5)),
					"transfer_lookup_key", "true", "metadata[m]", text()))
			}
		}
		if running, recounted := sandbox.AccountBytes(sb.Server, e.key); running != recounted {
			t.Fatalf("after step %d the running count is %d, a recount %d", i, running, recounted)
		}
	}
	// The last request is logged just after its answer: wait for the
	// log to settle before comparing.
	deadline := time.Now().Add(5 * time.Second)
	for {
		running, _ := sandbox.AccountBytes(sb.Server, e.key)
		total := sandbox.TotalBytes(sb.Server)
		if total == running {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the total is %d, the only account's count %d", total, running)
		}
		time.Sleep(time.Millisecond)
	}
}

// The count is a faithful estimate of the heap the records hold: within
// a third of what the runtime measures for many large customers.
func TestAccountBytes_Faithful(t *testing.T) {
	sb := sandboxtest.Start(t)
	e := envOn(t, sb, sandboxtest.NewKey(t))
	e.stats()
	heap := func() int64 {
		var ms runtime.MemStats
		runtime.GC()
		runtime.GC()
		runtime.ReadMemStats(&ms)
		return int64(ms.HeapAlloc) //nolint:gosec // far below 2^63
	}
	counted0, _ := sandbox.AccountBytes(sb.Server, e.key)
	heap0 := heap()
	for i := range 300 {
		f := bigMeta(20, 300)
		f.Set("name", "Customer "+fmt.Sprint(i))
		f.Set("source", sandbox.TokenVisa)
		e.post("/v1/customers", f, idemKey(fmt.Sprintf("create-%d", i))).ok(nil)
		e.post("/v1/payments", pay("100", "USD", sandbox.TokenVisa, "description", strings.Repeat("d", 200))).ok(nil)
	}
	heap1 := heap()
	counted1, _ := sandbox.AccountBytes(sb.Server, e.key)
	counted, measured := counted1-counted0, heap1-heap0
	t.Logf("counted %d bytes, the heap grew %d (%.2f)", counted, measured, float64(counted)/float64(measured))
	if float64(counted) < 0.67*float64(measured) || float64(counted) > 1.33*float64(measured) {
		t.Errorf("counted %d bytes for a heap growth of %d: not within a third", counted, measured)
	}
}

// Reads are never refused, so the request log stops growing at the total
// limit: each new line then replaces the oldest.
func TestLimits_RequestLogStopsAtTotal(t *testing.T) {
	const limit = 128 << 10
	sb := sandboxtest.Start(t, sandboxtest.WithLimits(sandbox.Limits{MaxTotalBytes: limit}))
	e := envOn(t, sb, sandboxtest.NewKey(t))
	idem := strings.Repeat("i", wire.IdempotencyKeyMaxLength)
	for range 2 * wire.RequestLogSize {
		e.do(http.MethodGet, "/v1/customers", nil, idemKey(idem))
	}
	// Wait for the last request's line, logged after its answer.
	deadline := time.Now().Add(5 * time.Second)
	for {
		running, recounted := sandbox.AccountBytes(sb.Server, e.key)
		if running == recounted && running == sandbox.TotalBytes(sb.Server) {
			if running > limit+4<<10 {
				t.Errorf("the account keeps %d bytes; want the limit %d and at most a line more", running, limit)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("running count %d, recount %d, total %d", running, recounted, sandbox.TotalBytes(sb.Server))
		}
		time.Sleep(time.Millisecond)
	}
	lines := sandbox.RequestLogLines(sb.Server, e.key)
	if lines == 0 || lines >= wire.RequestLogSize {
		t.Errorf("the log keeps %d lines; want fewer than %d, the ones that fit", lines, wire.RequestLogSize)
	}
	// The newest request is there, first.
	e.post("/v1/customers", vals("name", "Newest")).fails(http.StatusForbidden, wire.ErrorTypeInvalidRequest, wire.ErrorCodeSandboxLimitExceeded, "")
	var got struct {
		Data []struct {
			Method string `json:"method"`
			Path   string `json:"path"`
			Status int    `json:"status"`
		} `json:"data"`
	}
	deadline = time.Now().Add(5 * time.Second)
	for {
		if err := json.Unmarshal(e.get(wire.PathSandboxRequests, nil).ok(nil).body, &got); err != nil {
			t.Fatal(err)
		}
		if len(got.Data) > 0 && got.Data[0].Method == http.MethodPost {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the newest line is %+v, want the refused POST", got.Data[:min(1, len(got.Data))])
		}
		time.Sleep(time.Millisecond)
	}
	if got.Data[0].Status != http.StatusForbidden || got.Data[1].Method != http.MethodGet {
		t.Errorf("the newest lines are %+v", got.Data[:2])
	}
}

// TestAccountBytes_ChargesEscapedJSON: metadata of '<' is kept in the
// customer, its event and its idempotency record, each sent as JSON where
// every '<' takes six bytes: the account is charged at least that.
func TestAccountBytes_ChargesEscapedJSON(t *testing.T) {
	sb := sandboxtest.Start(t)
	e := envOn(t, sb, sandboxtest.NewKey(t))
	e.stats()
	f := url.Values{}
	for i := range 20 { // within the body limit, each '<' sent as %3C
		f.Set(fmt.Sprintf("metadata[k%02d]", i), strings.Repeat("<", wire.MetadataValueMaxLength))
	}
	before, _ := sandbox.AccountBytes(sb.Server, e.key)
	r := e.post("/v1/customers", f, idemKey("escaped")).ok(nil)
	after, _ := sandbox.AccountBytes(sb.Server, e.key)
	// The customer, the customer.created event and the stored answer.
	kept := 3 * int64(len(r.body))
	t.Logf("a form body of %d bytes, an answer of %d; charged %d", len(f.Encode()), len(r.body), after-before)
	if after-before < kept {
		t.Errorf("charged %d bytes for three copies of a %d-byte answer: escapes are not counted", after-before, len(r.body))
	}
}

// Pending webhook deliveries count toward their account's bytes: an
// account whose receivers never answer fills up with them, and past its
// limit the sandbox stops queueing new ones, saying so, and why, in
// /_sandbox/deliveries.
func TestLimits_PendingDeliveries(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	never := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { <-release }))
	t.Cleanup(never.Close)
	t.Cleanup(func() { close(release) })
	const limit = 256 << 10
	sb := sandboxtest.Start(t, sandboxtest.WithOptions(sandbox.Options{
		Limits:   sandbox.Limits{MaxAccountBytes: limit},
		Webhooks: sandbox.WebhookOptions{Timeout: time.Minute},
	}))
	e := envOn(t, sb, sandboxtest.NewKey(t))
	for i := range wire.MaxWebhookEndpoints {
		e.endpoint(fmt.Sprintf("%s/%d", never.URL, i), "*")
	}
	var notQueued *sandboxclient.Delivery
	for i := 0; notQueued == nil; i++ {
		if i == 2000 {
			running, _ := sandbox.AccountBytes(sb.Server, e.key)
			t.Fatalf("2,000 writes later, no delivery was refused; the account keeps %d bytes, %d deliveries pending", running, sandbox.PendingDeliveries(sb.Server, e.key))
		}
		// Refusals (403) are expected once the account is full.
		e.post("/v1/customers", vals("name", fmt.Sprint("c", i)))
		if i%10 != 9 {
			continue
		}
		for _, d := range e.deliveries(nil) {
			if d.Attempt == 0 {
				notQueued = d
				break
			}
		}
	}
	if notQueued.Status != 0 || !strings.HasPrefix(notQueued.Error, "not queued: ") || !strings.Contains(notQueued.Error, "-max-account-bytes 256 KiB") {
		t.Errorf("a delivery not queued is shown as %+v; want attempt 0, status 0 and an error naming -max-account-bytes", notQueued)
	}
	running, recounted := sandbox.AccountBytes(sb.Server, e.key)
	if running != recounted {
		t.Errorf("running count %d, recount %d", running, recounted)
	}
	if running < limit {
		t.Errorf("the account keeps %d bytes with %d deliveries pending, under its limit %d: they are not counted", running, sandbox.PendingDeliveries(sb.Server, e.key), limit)
	}
	t.Logf("%d deliveries pending, the account counted at %d bytes", sandbox.PendingDeliveries(sb.Server, e.key), running)
}
