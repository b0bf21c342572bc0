package sandbox_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"testing"
	"time"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/sandboxtest"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

var (
	reCustomerID = regexp.MustCompile(`^cus_[A-Za-z0-9]{24}$`)
	reSourceID   = regexp.MustCompile(`^src_[A-Za-z0-9]{24}$`)
	rePaymentID  = regexp.MustCompile(`^pay_[A-Za-z0-9]{24}$`)
	reRequestID  = regexp.MustCompile(`^req_[A-Za-z0-9]{24}$`)
	reTimestamp  = regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$`)
	reEndpointID = regexp.MustCompile(`^we_[A-Za-z0-9]{24}$`)
	reEventID    = regexp.MustCompile(`^evt_[A-Za-z0-9]{24}$`)
	reSecret     = regexp.MustCompile(`^whsec_[A-Za-z0-9]{32}$`)
)

// env is one test's account on a sandbox.
type env struct {
	t   testing.TB
	url string
	key string
	hc  *http.Client
	srv *sandbox.Server
}

// newEnv starts a sandbox of its own, with opts, and a fresh account on it.
func newEnv(t testing.TB, opts ...sandboxtest.Option) *env {
	t.Helper()
	return envOn(t, sandboxtest.Start(t, opts...), sandboxtest.NewKey(t))
}

// envOn is the account of key on a running sandbox.
func envOn(t testing.TB, sb *sandboxtest.Sandbox, key string) *env {
	return &env{t: t, url: sb.URL, key: key, hc: sb.HTTP.Client(), srv: sb.Server}
}

// other is another account on the same sandbox.
func (e *env) other() *env {
	return &env{t: e.t, url: e.url, key: sandboxtest.NewKey(e.t), hc: e.hc, srv: e.srv}
}

type result struct {
	t      testing.TB
	status int
	header http.Header
	body   []byte
}

// req sets one option of a request.
type req func(*sandboxtest.Request)

func idemKey(k string) req {
	return func(r *sandboxtest.Request) { r.IdempotencyKey = k }
}

// header sends one more header, or replaces one the request would send.
func header(name, value string) req {
	return func(r *sandboxtest.Request) {
		if r.Header == nil {
			r.Header = http.Header{}
		}
		r.Header.Set(name, value)
	}
}

func (e *env) do(method, path string, form url.Values, opts ...req) *result {
	e.t.Helper()
	return e.doRaw(method, path, form.Encode(), opts...)
}

func (e *env) doRaw(method, path, body string, opts ...req) *result {
	e.t.Helper()
	r := sandboxtest.Request{Method: method, Path: path, Key: e.key, Raw: &body}
	for _, o := range opts {
		o(&r)
	}
	resp, err := sandboxtest.Do(checked(e.t, e.hc), e.url, r)
	if err != nil {
		e.t.Fatalf("%s %s: %v", method, path, err)
	}
	res := &result{t: e.t, status: resp.Status, header: resp.Header, body: resp.Body}
	if !reRequestID.MatchString(resp.Header.Get(wire.HeaderRequestID)) {
		e.t.Errorf("%s %s: Request-Id %q is not req_ + 24 alphanumerics", method, path, resp.Header.Get(wire.HeaderRequestID))
	}
	if ct := resp.Header.Get("Content-Type"); ct != "application/json" {
		e.t.Errorf("%s %s: Content-Type %q", method, path, ct)
	}
	return res
}

func (e *env) get(path string, q url.Values) *result {
	e.t.Helper()
	return e.do(http.MethodGet, path, q)
}

func (e *env) post(path string, f url.Values, opts ...req) *result {
	e.t.Helper()
	return e.do(http.MethodPost, path, f, opts...)
}

func (e *env) del(path string) *result { e.t.Helper(); return e.do(http.MethodDelete, path, nil) }

// ok decodes a 200 answer into v, strictly: a field the client's types do
// not know is an error, so the sandbox cannot drift from types.go.
func (r *result) ok(v any) *result {
	r.t.Helper()
	if r.status != http.StatusOK {
		r.t.Fatalf("status %d, want 200: %s", r.status, r.body)
	}
	if v != nil {
		dec := json.NewDecoder(bytes.NewReader(r.body))
		dec.DisallowUnknownFields()
		if err := dec.Decode(v); err != nil {
			r.t.Fatalf("decoding %s: %v", r.body, err)
		}
	}
	return r
}

// fails checks an error answer's status, type, code and param.
func (r *result) fails(status int, typ, code, param string) wire.ErrorBody {
	r.t.Helper()
	var eb wire.ErrorBody
	dec := json.NewDecoder(bytes.NewReader(r.body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&eb); err != nil {
		r.t.Fatalf("status %d, decoding error body %s: %v", r.status, r.body, err)
	}
	if eb.Error == nil {
		r.t.Fatalf("status %d: the body %s has no error object", r.status, r.body)
	}
	if r.status != status || eb.Error.Type != typ || eb.Error.Code != code || eb.Error.Param != param {
		r.t.Fatalf("got %d %s/%s param %q (%s); want %d %s/%s param %q",
			r.status, eb.Error.Type, eb.Error.Code, eb.Error.Param, eb.Error.Message, status, typ, code, param)
	}
	if eb.Error.Message == "" {
		r.t.Errorf("error %s has no message", code)
	}
	return eb
}

func (e *env) customer(f url.Values) *wire.Customer {
	e.t.Helper()
	var c wire.Customer
	e.post("/v1/customers", f).ok(&c)
	return &c
}

func (e *env) payment(f url.Values) *wire.Payment {
	e.t.Helper()
	var p wire.Payment
	e.post("/v1/payments", f).ok(&p)
	return &p
}

func (e *env) stats() *wire.Stats {
	e.t.Helper()
	var s wire.Stats
	e.get("/_sandbox/stats", nil).ok(&s)
	return &s
}

// seedFlag is how a test that draws random numbers is replayed: each one
// takes its seed from testSeed, which logs it, and
//
//	go test -run 'TestX$' ./internal/sandbox/ -seed=N
//
// runs it again with the same draws (the sandbox's injected faults
// included, through POST /_sandbox/faults seed).
var seedFlag = flag.Int64("seed", 0, "replay the random draws of the tests run from this seed, 1 to 2^53-1 (0: a random seed per test, logged)")

// testSeed is the seed of a test's random draws: -seed, or a random one,
// the same for every call in one test.
func testSeed(t testing.TB) int64 {
	t.Helper()
	return sandboxtest.Seed(t, *seedFlag)
}

// faults changes the account's fault settings. Settings that make the
// sandbox draw (error_rate, drop_rate) get a seed from testSeed unless f
// names one, so that the faults a test meets can be replayed.
func (e *env) faults(f url.Values) *wire.Faults {
	e.t.Helper()
	if (f.Has(wire.ParamErrorRate) || f.Has(wire.ParamDropRate)) && !f.Has(wire.ParamSeed) {
		f.Set(wire.ParamSeed, strconv.FormatInt(testSeed(e.t), 10))
	}
	var fs wire.Faults
	e.post("/_sandbox/faults", f).ok(&fs)
	return &fs
}

// waitFor polls cond until it holds, and fails the test when it still
// does not after within. Tests wait on the condition they assert, never
// sleep and then assert.
func waitFor(t testing.TB, within time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(within)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("still not %s after %v", what, within)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// vals builds url.Values from name, value pairs.
func vals(kv ...string) url.Values {
	v := url.Values{}
	for i := 0; i+1 < len(kv); i += 2 {
		v.Add(kv[i], kv[i+1])
	}
	return v
}

func pay(amount, currency, source string, more ...string) url.Values {
	v := vals(more...)
	v.Set("amount", amount)
	v.Set("currency", currency)
	if source != "" {
		v.Set("source", source)
	}
	return v
}
