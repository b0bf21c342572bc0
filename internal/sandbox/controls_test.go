package sandbox_test

import (
	"bytes"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/sandboxtest"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

func TestFaults_Settings(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	var f wire.Faults
	e.get("/_sandbox/faults", nil).ok(&f)
	seed := f.Seed
	if seed < 1 || seed > wire.FaultSeedMax {
		t.Errorf("a new account's seed %d is not one from 1 to %d", seed, int64(wire.FaultSeedMax))
	}
	if f != (wire.Faults{Object: "faults", Seed: seed}) {
		t.Errorf("default faults = %+v", f)
	}
	// Each POST changes the named settings only.
	e.post("/_sandbox/faults", vals("latency_ms", "5")).ok(&f)
	e.post("/_sandbox/faults", vals("drop_rate", "0.25", "rate_limit", "1000")).ok(&f)
	want := wire.Faults{Object: "faults", DropRate: 0.25, LatencyMS: 5, RateLimit: 1000, Seed: seed}
	if f != want {
		t.Errorf("faults = %+v, want %+v", f, want)
	}
	e.get("/_sandbox/faults", nil).ok(&f)
	if f != want {
		t.Errorf("read back = %+v", f)
	}
	for _, tc := range []struct{ name, value string }{
		{"error_rate", "1.5"}, {"error_rate", "-0.1"}, {"error_rate", "NaN"}, {"error_rate", "half"},
		{"drop_rate", "2"}, {"latency_ms", "-1"}, {"latency_ms", "1.5"}, {"latency_ms", "600001"},
		{"rate_limit", "-1"}, {"rate_limit", "x"}, {"rate_limit", "100000000"},
		{"seed", "-1"}, {"seed", "x"}, {"seed", "9007199254740992"}, {"seed", "1.5"},
	} {
		e.post("/_sandbox/faults", vals(tc.name, tc.value)).fails(400, wire.ErrorTypeInvalidRequest, wire.ErrorCodeParameterInvalid, tc.name)
	}
	e.post("/_sandbox/faults", vals("chaos", "1")).fails(400, wire.ErrorTypeInvalidRequest, wire.ErrorCodeParameterUnknown, "chaos")
	e.get("/_sandbox/faults", nil).ok(&f)
	if f != want {
		t.Errorf("refused settings changed the faults: %+v", f)
	}
	// A seed is kept as sent; 0 or empty picks a random one.
	want.Seed = wire.FaultSeedMax
	if e.post("/_sandbox/faults", vals("seed", "9007199254740991")).ok(&f); f != want {
		t.Errorf("after seed=%d: %+v", int64(wire.FaultSeedMax), f)
	}
	for _, v := range []string{"0", ""} {
		if e.post("/_sandbox/faults", vals("seed", v)).ok(&f); f.Seed < 1 || f.Seed > wire.FaultSeedMax {
			t.Errorf("seed=%q gave seed %d", v, f.Seed)
		}
	}
	// Faults belong to one account.
	var o wire.Faults
	e.other().get("/_sandbox/faults", nil).ok(&o)
	if o.Seed == f.Seed || o != (wire.Faults{Object: "faults", Seed: o.Seed}) {
		t.Errorf("another account sees %+v", o)
	}
}

// TestFaults_SeedReplays: the same seed and the same requests meet the
// same faults, whether the seed is posted or the server's.
func TestFaults_SeedReplays(t *testing.T) {
	t.Parallel()
	seed := testSeed(t)
	run := func(e *env, f url.Values) []int {
		e.t.Helper()
		e.post("/_sandbox/faults", f).ok(nil) // not e.faults, which would add a seed
		var statuses []int
		for range 60 {
			statuses = append(statuses, e.get("/v1/payments", nil).status)
		}
		return statuses
	}
	rates := func(more ...string) url.Values { return vals(append([]string{"error_rate", "0.5"}, more...)...) }
	e := newEnv(t)
	first := run(e, rates("seed", strconv.FormatInt(seed, 10)))
	if !slices.Contains(first, 200) || !slices.Contains(first, 500) || !slices.Contains(first, 503) {
		t.Fatalf("error_rate 0.5 gave %v; want 200, 500 and 503 among them", first)
	}
	if again := run(e, rates("seed", strconv.FormatInt(seed, 10))); !slices.Equal(again, first) {
		t.Errorf("the same seed posted again:\n got %v\nwant %v", again, first)
	}
	// A server started with the seed gives each account the same faults.
	sb := sandboxtest.Start(t, sandboxtest.WithFaultSeed(seed))
	for range 2 {
		e := envOn(t, sb, sandboxtest.NewKey(t))
		var f wire.Faults
		if e.get("/_sandbox/faults", nil).ok(&f); f.Seed != seed {
			t.Errorf("an account of a server seeded %d has seed %d", seed, f.Seed)
		}
		if got := run(e, rates()); !slices.Equal(got, first) {
			t.Errorf("an account of a server seeded %d:\n got %v\nwant %v", seed, got, first)
		}
	}
	if _, err := sandbox.New(sandbox.Options{FaultSeed: wire.FaultSeedMax + 1}); err == nil {
		t.Error("New took a fault seed past wire.FaultSeedMax")
	}
}

func TestFaults_ErrorRate(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.faults(vals("error_rate", "1"))
	seen := map[int]bool{}
	for range 40 {
		res := e.post("/v1/payments", pay("100", "USD", sandbox.TokenVisa))
		res.fails(res.status, wire.ErrorTypeAPI, wire.ErrorCodeServerError, "")
		seen[res.status] = true
	}
	if !seen[500] || !seen[503] || len(seen) != 2 {
		t.Errorf("statuses %v; want both 500 and 503 only", seen)
	}
	// Faults touch /v1 only: the controls keep working, and nothing acted.
	if st := e.stats(); st.Payments != 0 || st.Requests.Total != 40 {
		t.Errorf("stats = %+v", st)
	}
	// Another account is untouched.
	e.other().post("/v1/customers", nil).ok(nil)
	// About half at 0.5.
	e.faults(vals("error_rate", "0.5"))
	fails := 0
	for range 200 {
		if e.get("/v1/payments", nil).status != 200 {
			fails++
		}
	}
	if fails < 60 || fails > 140 {
		t.Errorf("error_rate 0.5: %d of 200 failed", fails)
	}
}

func TestFaults_DropRate(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.faults(vals("drop_rate", "1"))
	// A client of its own without keep-alive: Go's transport retries an
	// idempotent-looking request on a reused connection by itself.
	hc := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
	send := func() (*http.Response, error) {
		r, _ := http.NewRequest(http.MethodPost, e.url+"/v1/customers", strings.NewReader("name=Dropped"))
		r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		r.Header.Set(wire.HeaderIdempotencyKey, "drop-1")
		r.SetBasicAuth(e.key, "")
		return hc.Do(r)
	}
	if resp, err := send(); err == nil {
		resp.Body.Close()
		t.Fatalf("drop_rate 1 answered %d", resp.StatusCode)
	}
	e.faults(vals("drop_rate", "0"))
	// The request acted, and its answer was stored: the retry replays it.
	if st := e.stats(); st.Customers != 1 {
		t.Errorf("customers = %d after a dropped create, want 1", st.Customers)
	}
	resp, err := send()
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 || resp.Header.Get(wire.HeaderIdempotentReplayed) != "true" {
		t.Errorf("retry after drop: %d replayed %q", resp.StatusCode, resp.Header.Get(wire.HeaderIdempotentReplayed))
	}
	if st := e.stats(); st.Customers != 1 {
		t.Errorf("customers = %d after the retry, want 1", st.Customers)
	}
}

func TestFaults_Latency(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.faults(vals("latency_ms", "150"))
	start := time.Now()
	e.get("/v1/payments", nil).ok(nil)
	if d := time.Since(start); d < 150*time.Millisecond {
		t.Errorf("latency_ms 150 answered in %v", d)
	}
	// A latency long enough that even a loaded machine tells it apart.
	e.faults(vals("latency_ms", "5000"))
	start = time.Now()
	e.get("/_sandbox/stats", nil).ok(nil)
	if d := time.Since(start); d > 2500*time.Millisecond {
		t.Errorf("a control waited %v; faults apply to /v1 only", d)
	}
}

func TestFaults_RateLimit(t *testing.T) {
	t.Parallel()
	e, clk := listEnv(t) // the window is on the sandbox's clock, which only the test moves
	e.faults(vals("rate_limit", "3"))
	for i := range 3 {
		if res := e.get("/v1/payments", nil); res.status != 200 {
			t.Fatalf("request %d within the limit: %d", i+1, res.status)
		}
	}
	res := e.get("/v1/payments", nil)
	eb := res.fails(429, wire.ErrorTypeRateLimit, wire.ErrorCodeRateLimited, "")
	if want := "limited to 3 requests per second (the rate_limit fault). Retry in 1 second, as the Retry-After header says."; !strings.Contains(eb.Error.Message, want) {
		t.Errorf("429 message %q, want it to say %q", eb.Error.Message, want)
	}
	ra, err := strconv.Atoi(res.header.Get(wire.HeaderRetryAfter))
	if err != nil || ra < 1 {
		t.Errorf("Retry-After = %q, want whole seconds >= 1", res.header.Get(wire.HeaderRetryAfter))
	}
	// Controls are not limited.
	e.get("/_sandbox/stats", nil).ok(nil)
	// A second later the window has room again, not a moment before.
	clk.Advance(time.Second - time.Millisecond)
	e.get("/v1/payments", nil).fails(429, wire.ErrorTypeRateLimit, wire.ErrorCodeRateLimited, "")
	clk.Advance(time.Millisecond)
	e.get("/v1/payments", nil).ok(nil)
	e.faults(vals("rate_limit", "0"))
	for range 10 {
		e.get("/v1/payments", nil).ok(nil)
	}
}

// TestStats_Counts: counts of objects, /v1 requests by route pattern, and
// connections.
func TestStats_Counts(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	cu := e.customer(vals("source", sandbox.TokenVisa))
	e.post("/v1/customers/"+cu.ID+"/sources", vals("source", sandbox.TokenAmex)).ok(nil)
	e.get("/v1/customers/"+cu.ID, nil).ok(nil)
	e.get("/v1/customers/cus_AAAAAAAAAAAAAAAAAAAAAAAA", nil)
	p := e.payment(pay("100", "USD", "", "customer", cu.ID))
	e.get("/v1/payments/"+p.ID, nil).ok(nil)
	e.get("/v1/payments", nil).ok(nil)
	e.post("/v1/customers/"+cu.ID, vals("bogus", "1"))
	e.get("/_sandbox/faults", nil).ok(nil)
	e.get("/v1/nowhere", nil)
	st := e.stats()
	want := map[string]int64{
		"POST /v1/customers":             1,
		"POST /v1/customers/:id/sources": 1,
		"GET /v1/customers/:id":          2,
		"POST /v1/payments":              1,
		"GET /v1/payments/:id":           1,
		"GET /v1/payments":               1,
		"POST /v1/customers/:id":         1,
	}
	if fmt.Sprint(st.Requests.ByRoute) != fmt.Sprint(want) || st.Requests.Total != 8 {
		t.Errorf("requests = %+v, want total 8 and %v", st.Requests, want)
	}
	if st.Object != "stats" || st.Customers != 1 || st.Sources != 2 || st.Payments != 1 {
		t.Errorf("stats = %+v", st)
	}
	// Every new TCP connection counts, across accounts.
	before := st.Connections
	hc := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
	o := &env{t: t, url: e.url, key: e.other().key, hc: hc}
	for range 3 {
		o.get("/v1/payments", nil).ok(nil)
	}
	if after := e.stats().Connections; after < before+3 {
		t.Errorf("connections %d -> %d after 3 fresh connections", before, after)
	}
}

func TestReset_Account(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	o := e.other()
	keep := o.customer(nil)
	cu := e.customer(vals("source", sandbox.TokenVisa))
	p := e.payment(pay("100", "USD", sandbox.TokenVisa))
	first := e.post("/v1/customers", vals("name", "idem"), idemKey("before-reset")).ok(nil)
	e.faults(vals("latency_ms", "1"))
	requests := e.stats().Requests.Total

	var r struct {
		Object  string `json:"object"`
		Deleted bool   `json:"deleted"`
	}
	e.post("/_sandbox/reset", nil).ok(&r)
	if r.Object != "reset" || !r.Deleted {
		t.Errorf("reset = %+v", r)
	}
	st := e.stats()
	if st.Customers != 0 || st.Sources != 0 || st.Payments != 0 {
		t.Errorf("after reset: %+v", st)
	}
	if st.Requests.Total != requests {
		t.Errorf("reset cleared counters: %d -> %d", requests, st.Requests.Total)
	}
	var f wire.Faults
	e.get("/_sandbox/faults", nil).ok(&f)
	if f.LatencyMS != 1 {
		t.Errorf("reset cleared faults: %+v", f)
	}
	e.get("/v1/customers/"+cu.ID, nil).fails(404, wire.ErrorTypeInvalidRequest, wire.ErrorCodeResourceMissing, "")
	e.get("/v1/payments/"+p.ID, nil).fails(404, wire.ErrorTypeInvalidRequest, wire.ErrorCodeResourceMissing, "")
	// Idempotency keys are gone: the same key runs again.
	if again := e.post("/v1/customers", vals("name", "idem"), idemKey("before-reset")).ok(nil); bytes.Equal(again.body, first.body) {
		t.Error("an idempotency key survived the reset")
	}
	// Other accounts keep their objects.
	o.get("/v1/customers/"+keep.ID, nil).ok(nil)
	e.post("/_sandbox/reset", vals("all", "true")).fails(400, wire.ErrorTypeInvalidRequest, wire.ErrorCodeParameterUnknown, "all")
}

func TestPipeline_BodyLimitAndEncoding(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	// Exactly at the limit is read; one byte over is 413.
	at := "name=x&metadata[a]=" + strings.Repeat("v", wire.MaxRequestBodyBytes-len("name=x&metadata[a]="))
	e.doRaw(http.MethodPost, "/v1/customers", at).fails(400, wire.ErrorTypeInvalidRequest, wire.ErrorCodeParameterInvalid, "metadata[a]")
	e.doRaw(http.MethodPost, "/v1/customers", at+"v").fails(413, wire.ErrorTypeInvalidRequest, wire.ErrorCodeRequestTooLarge, "")
	if st := e.stats(); st.Customers != 0 {
		t.Errorf("customers = %d", st.Customers)
	}
	// A body in another encoding is refused, not guessed at.
	e.doRaw(http.MethodPost, "/v1/customers", `{"name":"x"}`, header("Content-Type", "application/json")).
		fails(400, wire.ErrorTypeInvalidRequest, wire.ErrorCodeParameterInvalid, "")
	// A charset parameter is fine.
	e.doRaw(http.MethodPost, "/v1/customers", "name=x", header("Content-Type", "application/x-www-form-urlencoded; charset=utf-8")).ok(nil)
	// Query parameters of a POST count as parameters.
	e.doRaw(http.MethodPost, "/v1/customers?name=q", "name=b").fails(400, wire.ErrorTypeInvalidRequest, wire.ErrorCodeParameterInvalid, "name")
	var c wire.Customer
	e.doRaw(http.MethodPost, "/v1/customers?name=q", "").ok(&c)
	if c.Name != "q" {
		t.Errorf("name from the query = %q", c.Name)
	}
	// Escapes decode: + is a space, %2B a plus, brackets may be escaped.
	e.doRaw(http.MethodPost, "/v1/customers", "name=Jo+Doe&phone=%2B14155550123&metadata%5Bk%5D=a%26b").ok(&c)
	if c.Name != "Jo Doe" || c.Phone != "+14155550123" || c.Metadata["k"] != "a&b" {
		t.Errorf("decoded = %q %q %v", c.Name, c.Phone, c.Metadata)
	}
	// HTML-significant and non-ASCII text comes back intact.
	e.post("/v1/customers", vals("name", `<b>"Zoë" & co</b>`+"\u2028")).ok(&c)
	if c.Name != `<b>"Zoë" & co</b>`+"\u2028" {
		t.Errorf("name round trip = %q", c.Name)
	}
}

// TestSandbox_ConcurrentAccounts hammers one account from many goroutines and
// others beside it; run with -race.
func TestSandbox_ConcurrentAccounts(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	cu := e.customer(vals("source", sandbox.TokenVisa))
	accounts := []*env{e, e.other(), e.other()}
	var wg sync.WaitGroup
	const workers, each = 8, 25
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			a := accounts[w%len(accounts)]
			for i := range each {
				switch i % 5 {
				case 0:
					a.post("/v1/customers", vals("name", "c"), idemKey(fmt.Sprintf("w%d-%d", w, i)))
				case 1:
					if a == e {
						a.post("/v1/payments", pay("100", "USD", "", "customer", cu.ID))
					} else {
						a.post("/v1/payments", pay("100", "USD", sandbox.TokenVisa))
					}
				case 2:
					a.get("/v1/payments", vals("limit", "5"))
				case 3:
					a.get("/_sandbox/stats", nil)
				case 4:
					a.post("/v1/customers/"+cu.ID, vals("metadata[w]", strconv.Itoa(w)))
				}
			}
		}()
	}
	wg.Wait()
	var total int64
	for _, a := range accounts {
		st := a.stats()
		total += st.Payments
		var l wire.PaymentList
		a.get("/v1/payments", vals("limit", "100")).ok(&l)
		if int64(len(l.Data)) != st.Payments {
			t.Errorf("list has %d payments, stats %d", len(l.Data), st.Payments)
		}
	}
	if total != workers*each/5 {
		t.Errorf("payments = %d, want %d", total, workers*each/5)
	}
}
