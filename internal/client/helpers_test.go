package client_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/paymentsdev/terraform-provider-payments/internal/client"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/sandboxtest"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandboxclient"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// Fast retry settings: the package must stay quick under -race on 2 cores.
const (
	testRetries  = 3
	testWaitMin  = time.Millisecond
	testWaitMax  = 10 * time.Millisecond
	testUA       = "payments-client-test/1.0"
	mediumAmount = 1000
)

// env is one test's sandbox and account.
type env struct {
	sb  *sandboxtest.Sandbox
	key string
	c   *client.Client
}

// newEnv starts an in-process sandbox and a fresh account on it.
func newEnv(tb testing.TB, opts ...func(*client.Config)) *env {
	tb.Helper()
	sb := sandboxtest.Start(tb)
	key := sandboxtest.NewKey(tb)
	return &env{sb: sb, key: key, c: newClient(tb, sb.URL, key, opts...)}
}

// client returns another client of the same account with other options.
func (e *env) client(tb testing.TB, opts ...func(*client.Config)) *client.Client {
	tb.Helper()
	return newClient(tb, e.sb.URL, e.key, opts...)
}

// newClient returns a client with fast retries; opts adjust the config.
func newClient(tb testing.TB, baseURL, key string, opts ...func(*client.Config)) *client.Client {
	tb.Helper()
	cfg := client.Config{
		BaseURL:      baseURL,
		SecretKey:    key,
		UserAgent:    testUA,
		MaxRetries:   testRetries,
		RetryWaitMin: testWaitMin,
		RetryWaitMax: testWaitMax,
	}
	for _, o := range opts {
		o(&cfg)
	}
	c, err := client.New(cfg)
	if err != nil {
		tb.Fatalf("client.New: %v", err)
	}
	return c
}

func noRetries(cfg *client.Config) { cfg.MaxRetries = -1 }

func withRetries(n int) func(*client.Config) {
	return func(cfg *client.Config) { cfg.MaxRetries = n }
}

func withTransport(rt http.RoundTripper) func(*client.Config) {
	return func(cfg *client.Config) { cfg.HTTPClient = &http.Client{Transport: rt} }
}

func newBaseTransport() *http.Transport {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.MaxIdleConnsPerHost = 32
	return t
}

// exchange is one attempt seen by a recorder.
type exchange struct {
	Method, Path, Query string
	ReqHeader           http.Header
	ReqBody             string
	Status              int
	RespHeader          http.Header
	Err                 error
}

// IdemKey is the attempt's Idempotency-Key.
func (x exchange) IdemKey() string { return x.ReqHeader.Get(wire.HeaderIdempotencyKey) }

// recorder is a RoundTripper that records every attempt the client makes
// and can rewrite requests on the way out (to send what the client never
// would: no key, an unknown parameter, a fixed Idempotency-Key).
type recorder struct {
	base    http.RoundTripper
	rewrite func(*http.Request)
	after   func(exchange)

	mu  sync.Mutex
	log []exchange
	// openBodies counts answer bodies not yet closed.
	openBodies atomic.Int64
}

// trackedBody counts its Close in the recorder, to catch leaked answers.
type trackedBody struct {
	io.ReadCloser
	open   *atomic.Int64
	closed atomic.Bool
}

func (b *trackedBody) Close() error {
	if b.closed.CompareAndSwap(false, true) {
		b.open.Add(-1)
	}
	return b.ReadCloser.Close()
}

func newRecorder() *recorder { return &recorder{base: newBaseTransport()} }

func (r *recorder) RoundTrip(req *http.Request) (*http.Response, error) {
	var body []byte
	if req.Body != nil {
		b, err := io.ReadAll(req.Body)
		req.Body.Close()
		if err != nil {
			return nil, err
		}
		body = b
	}
	out := req.Clone(req.Context())
	setBody(out, body)
	if r.rewrite != nil {
		r.rewrite(out)
		if out.Body != nil {
			body, _ = io.ReadAll(out.Body)
			setBody(out, body)
		}
	}
	x := exchange{Method: out.Method, Path: out.URL.Path, Query: out.URL.RawQuery, ReqHeader: out.Header.Clone(), ReqBody: string(body)}
	resp, err := r.base.RoundTrip(out)
	if err != nil {
		x.Err = err
	} else {
		x.Status, x.RespHeader = resp.StatusCode, resp.Header.Clone()
		resp.Body = &trackedBody{ReadCloser: resp.Body, open: &r.openBodies}
		r.openBodies.Add(1)
	}
	r.mu.Lock()
	r.log = append(r.log, x)
	r.mu.Unlock()
	if r.after != nil {
		r.after(x)
	}
	return resp, err
}

func setBody(req *http.Request, body []byte) {
	if body == nil {
		req.Body, req.GetBody, req.ContentLength = nil, nil, 0
		return
	}
	req.Body = io.NopCloser(bytes.NewReader(body))
	req.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(body)), nil }
	req.ContentLength = int64(len(body))
}

func (r *recorder) exchanges() []exchange {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]exchange(nil), r.log...)
}

// appendBody returns a rewrite that adds s to every POST body.
func appendBody(s string) func(*http.Request) {
	return func(req *http.Request) {
		if req.Method != http.MethodPost {
			return
		}
		b, _ := io.ReadAll(req.Body)
		if len(b) > 0 {
			b = append(b, '&')
		}
		setBody(req, append(b, s...))
	}
}

// fixedIdemKey returns a rewrite that sends k as every POST's Idempotency-Key.
func fixedIdemKey(k string) func(*http.Request) {
	return func(req *http.Request) {
		if req.Method == http.MethodPost {
			req.Header.Set(wire.HeaderIdempotencyKey, k)
		}
	}
}

// rawResp is the answer to a raw request.
type rawResp = *sandboxtest.Response

// doRaw sends one request outside the client (no retries). idemKey "" sends none.
func doRaw(tb testing.TB, baseURL, key, method, path string, form url.Values, idemKey string) (rawResp, error) {
	tb.Helper()
	return sandboxtest.Do(nil, baseURL, sandboxtest.Request{Method: method, Path: path, Key: key, Form: form, IdempotencyKey: idemKey})
}

// mustRaw is doRaw that fails the test on transport errors.
func mustRaw(tb testing.TB, baseURL, key, method, path string, form url.Values, idemKey string) rawResp {
	tb.Helper()
	r, err := doRaw(tb, baseURL, key, method, path, form, idemKey)
	if err != nil {
		tb.Fatalf("%s %s: %v", method, path, err)
	}
	if r.Header.Get(wire.HeaderRequestID) == "" {
		tb.Errorf("%s %s: answer %d has no %s header", method, path, r.Status, wire.HeaderRequestID)
	}
	return r
}

// wantErr describes an expected *client.Error. Empty strings are not checked,
// except that every error must have a Message, a Type and a RequestID.
type wantErr struct {
	status      int
	typ         string
	code        string
	param       string
	paramPrefix string
}

// checkAPIError asserts that err is a *client.Error matching w, and that
// neither its text nor its fields leak the secret key.
func checkAPIError(tb testing.TB, err error, key string, w wantErr) *client.Error {
	tb.Helper()
	if err == nil {
		tb.Fatalf("got no error, want HTTP %d %s %s", w.status, w.typ, w.code)
	}
	noKeyIn(tb, "error", err.Error(), key)
	e, ok := client.AsError(err)
	if !ok {
		tb.Fatalf("error %T %q is not a *client.Error", err, err)
	}
	if w.status != 0 && e.HTTPStatus != w.status {
		tb.Errorf("HTTPStatus = %d, want %d (%v)", e.HTTPStatus, w.status, err)
	}
	if w.typ != "" && e.Type != w.typ {
		tb.Errorf("Type = %q, want %q (%v)", e.Type, w.typ, err)
	}
	if w.code != "" && e.Code != w.code {
		tb.Errorf("Code = %q, want %q (%v)", e.Code, w.code, err)
	}
	if w.param != "" && e.Param != w.param {
		tb.Errorf("Param = %q, want %q (%v)", e.Param, w.param, err)
	}
	if w.paramPrefix != "" && !strings.HasPrefix(e.Param, w.paramPrefix) {
		tb.Errorf("Param = %q, want it to start with %q (%v)", e.Param, w.paramPrefix, err)
	}
	if e.Type == "" || e.Message == "" {
		tb.Errorf("Type %q and Message %q must not be empty", e.Type, e.Message)
	}
	if e.RequestID == "" {
		tb.Errorf("RequestID is empty (%v)", err)
	}
	return e
}

// noKeyIn fails when s holds the key or its Basic-auth encoding.
func noKeyIn(tb testing.TB, what, s, key string) {
	tb.Helper()
	basic := base64.StdEncoding.EncodeToString([]byte(key + ":"))
	if strings.Contains(s, key) || strings.Contains(s, basic) {
		tb.Errorf("%s leaks the secret key: %q", what, s)
	}
}

// stats reads the account's sandbox counters.
func stats(tb testing.TB, c *client.Client) *wire.Stats {
	tb.Helper()
	s, err := sandboxclient.New(c).Stats(context.Background())
	if err != nil {
		tb.Fatalf("SandboxStats: %v", err)
	}
	return s
}

// setFaults sets the account's faults; injected at a rate, they are
// seeded from testSeed, so that the test can be replayed.
func setFaults(tb testing.TB, c *client.Client, p sandboxclient.FaultsParams) {
	tb.Helper()
	if p.Seed == nil && (p.ErrorRate != nil || p.DropRate != nil) {
		p.Seed = new(testSeed(tb))
	}
	if _, err := sandboxclient.New(c).SetFaults(context.Background(), p); err != nil {
		tb.Fatalf("SandboxSetFaults: %v", err)
	}
}

// fakeID is a well-formed identifier that no account has.
func fakeID(prefix string) string { return prefix + strings.Repeat("Z", wire.IDRandomLength) }

func mustCustomer(tb testing.TB, c *client.Client, p *client.CustomerParams) *client.Customer {
	tb.Helper()
	cus, err := c.CreateCustomer(context.Background(), p)
	if err != nil {
		tb.Fatalf("CreateCustomer: %v", err)
	}
	return cus
}

func mustSource(tb testing.TB, c *client.Client, customerID, token string) *client.Source {
	tb.Helper()
	src, err := c.AddSource(context.Background(), customerID, token)
	if err != nil {
		tb.Fatalf("AddSource(%s): %v", token, err)
	}
	return src
}

func mustPayment(tb testing.TB, c *client.Client, p *client.PaymentParams) *client.Payment {
	tb.Helper()
	pay, err := c.CreatePayment(context.Background(), p)
	if err != nil {
		tb.Fatalf("CreatePayment: %v", err)
	}
	return pay
}

func atoi(tb testing.TB, s string) int {
	tb.Helper()
	n, err := strconv.Atoi(s)
	if err != nil {
		tb.Fatalf("%q is not an integer", s)
	}
	return n
}
