package client_test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/paymentsdev/terraform-provider-payments/internal/client"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/sandboxtest"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandboxclient"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// TestClient_IdempotencyKeyPerCall: one Idempotency-Key per logical POST,
// reused across its retries, different between calls, absent on GET and
// DELETE.
func TestClient_IdempotencyKeyPerCall(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := newEnv(t)
	setFaults(t, e.c, sandboxclient.FaultsParams{ErrorRate: new(1.0)})
	rec := newRecorder()
	c := e.client(t, withTransport(rec), withRetries(3))
	for range 2 {
		if _, err := c.CreateCustomer(ctx, &client.CustomerParams{Name: new("Same")}); err == nil {
			t.Fatal("want an error with error_rate 1")
		}
	}
	_, _ = c.GetCustomer(ctx, fakeID(wire.CustomerIDPrefix))
	_, _ = c.DeleteCustomer(ctx, fakeID(wire.CustomerIDPrefix))
	xs := rec.exchanges()
	if len(xs) != 16 {
		t.Fatalf("%d attempts, want 4 per call", len(xs))
	}
	first, second := xs[0].IdemKey(), xs[4].IdemKey()
	if first == "" || second == "" || first == second || len(first) > wire.IdempotencyKeyMaxLength {
		t.Errorf("keys %q and %q: want two different non-empty keys of at most %d characters", first, second, wire.IdempotencyKeyMaxLength)
	}
	for i, x := range xs {
		want := ""
		switch {
		case i < 4:
			want = first
		case i < 8:
			want = second
		}
		if x.IdemKey() != want {
			t.Errorf("attempt %d (%s %s): key %q, want %q", i, x.Method, x.Path, x.IdemKey(), want)
		}
		if i < 8 && x.ReqBody != "name=Same" {
			t.Errorf("attempt %d: body %q, want the same body on every retry", i, x.ReqBody)
		}
	}
}

// TestClient_RequestHeaders: User-Agent, Basic auth with an empty password,
// form content type.
func TestClient_RequestHeaders(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := newEnv(t)
	for _, tc := range []struct{ ua, want string }{{testUA, testUA}, {"", client.DefaultUserAgent}} {
		rec := newRecorder()
		c := e.client(t, withTransport(rec), func(cfg *client.Config) { cfg.UserAgent = tc.ua })
		cus, err := c.CreateCustomer(ctx, &client.CustomerParams{Name: new("H")})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := c.GetCustomer(ctx, cus.ID); err != nil {
			t.Fatal(err)
		}
		for _, x := range rec.exchanges() {
			r := &http.Request{Header: x.ReqHeader}
			user, pass, ok := r.BasicAuth()
			if !ok || user != e.key || pass != "" {
				t.Errorf("%s %s: Basic auth %v user ok=%v, password %q; want the key and an empty password", x.Method, x.Path, user == e.key, ok, pass)
			}
			if got := x.ReqHeader.Get("User-Agent"); got != tc.want {
				t.Errorf("%s %s: User-Agent %q, want %q", x.Method, x.Path, got, tc.want)
			}
			if ct := x.ReqHeader.Get("Content-Type"); x.Method == http.MethodPost && ct != "application/x-www-form-urlencoded" {
				t.Errorf("POST Content-Type %q", ct)
			}
			if x.RespHeader.Get(wire.HeaderRequestID) == "" {
				t.Errorf("%s %s: no Request-Id in the answer", x.Method, x.Path)
			}
		}
	}
}

// TestClient_RetryAfter: a 429's Retry-After is what Backoff waits, and the
// client waits it before succeeding.
func TestClient_RetryAfter(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := newEnv(t)
	setFaults(t, e.c, sandboxclient.FaultsParams{RateLimit: new(int64(1))})
	rec := newRecorder()
	c := e.client(t, withTransport(rec), withRetries(3))
	start := time.Now()
	for i := range 2 {
		if _, err := c.ListPayments(ctx, nil); err != nil {
			t.Fatalf("call %d: %v", i, err)
		}
	}
	elapsed := time.Since(start)
	var limited *exchange
	for _, x := range rec.exchanges() {
		if x.Status == http.StatusTooManyRequests {
			limited = &x
			break
		}
	}
	if limited == nil {
		t.Fatalf("no 429 with rate_limit 1 and two requests: %+v", rec.exchanges())
	}
	ra := limited.RespHeader.Get(wire.HeaderRetryAfter)
	secs := atoi(t, ra)
	if secs < 1 {
		t.Errorf("Retry-After %q, want whole seconds, at least 1", ra)
	}
	want := time.Duration(secs) * time.Second
	resp := &http.Response{StatusCode: http.StatusTooManyRequests, Header: limited.RespHeader}
	if got := client.Backoff(testWaitMin, testWaitMax, 0, resp); got != want {
		t.Errorf("Backoff = %v, want the Retry-After %v", got, want)
	}
	if elapsed < want-50*time.Millisecond {
		t.Errorf("two calls took %v: the client did not wait Retry-After %v", elapsed, want)
	}
}

// TestBackoff_JitterCapAndRetryAfter: exponential from min, capped at max,
// equal jitter (between half and all of the step), and Retry-After when the
// answer has one.
func TestBackoff_JitterCapAndRetryAfter(t *testing.T) {
	t.Parallel()
	const lo, hi = 100 * time.Millisecond, 2 * time.Second
	withHeader := func(v string) *http.Response {
		return &http.Response{StatusCode: 429, Header: http.Header{wire.HeaderRetryAfter: {v}}}
	}
	tests := []struct {
		name     string
		attempt  int
		resp     *http.Response
		min, max time.Duration
	}{
		{"first retry", 0, nil, lo / 2, lo},
		{"second retry", 1, nil, lo, 2 * lo},
		{"third retry", 2, nil, 2 * lo, 4 * lo},
		{"capped", 5, nil, hi / 2, hi},
		{"far past the cap", 1000, nil, hi / 2, hi},
		{"5xx without header", 1, &http.Response{StatusCode: 503, Header: http.Header{}}, lo, 2 * lo},
		{"Retry-After seconds", 0, withHeader("3"), 3 * time.Second, 3 * time.Second},
		{"Retry-After with spaces", 4, withHeader(" 2 "), 2 * time.Second, 2 * time.Second},
		{"Retry-After zero", 3, withHeader("0"), 0, 0},
		{"Retry-After negative falls back", 0, withHeader("-1"), lo / 2, lo},
		{"Retry-After garbage falls back", 1, withHeader("soon"), lo, 2 * lo},
		{"Retry-After date in the past", 0, withHeader(time.Now().Add(-time.Hour).UTC().Format(http.TimeFormat)), 0, 0},
		{"Retry-After date ahead", 0, withHeader(time.Now().Add(5 * time.Second).UTC().Format(http.TimeFormat)), 3 * time.Second, 5 * time.Second},
	}
	for _, tc := range tests {
		var seenLow, seenHigh bool
		for range 500 {
			got := client.Backoff(lo, hi, tc.attempt, tc.resp)
			if got < tc.min || got > tc.max {
				t.Errorf("%s: Backoff = %v, want within [%v, %v]", tc.name, got, tc.min, tc.max)
				break
			}
			seenLow = seenLow || got < tc.min+(tc.max-tc.min)/4
			seenHigh = seenHigh || got > tc.max-(tc.max-tc.min)/4
		}
		if tc.min != tc.max && tc.resp == nil && (!seenLow || !seenHigh) {
			t.Errorf("%s: 500 draws did not spread over [%v, %v] (low %v, high %v)", tc.name, tc.min, tc.max, seenLow, seenHigh)
		}
	}
}

// TestClient_ContextCancellation: retries stop when the context ends, and a
// POST whose context ended before anything was sent sends nothing.
func TestClient_ContextCancellation(t *testing.T) {
	t.Parallel()
	t.Run("cancelled between attempts", func(t *testing.T) {
		t.Parallel()
		e := newEnv(t)
		setFaults(t, e.c, sandboxclient.FaultsParams{ErrorRate: new(1.0)})
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		rec := newRecorder()
		var n atomic.Int32
		rec.after = func(exchange) {
			if n.Add(1) == 2 {
				cancel()
			}
		}
		_, err := e.client(t, withTransport(rec), withRetries(50)).GetCustomer(ctx, fakeID(wire.CustomerIDPrefix))
		if !errors.Is(err, context.Canceled) {
			t.Errorf("err = %v, want context.Canceled", err)
		}
		if got := len(rec.exchanges()); got != 2 {
			t.Errorf("%d attempts, want 2 (none after the cancellation)", got)
		}
	})
	t.Run("cancelled as the answer arrives, the answer is closed", func(t *testing.T) {
		t.Parallel()
		e := newEnv(t)
		for _, post := range []bool{false, true} {
			ctx, cancel := context.WithCancel(context.Background())
			rec := newRecorder()
			rec.after = func(exchange) { cancel() }
			c := e.client(t, withTransport(rec), withRetries(0))
			var err error
			if post {
				_, err = c.CreateCustomer(ctx, nil)
			} else {
				_, err = c.GetCustomer(ctx, fakeID(wire.CustomerIDPrefix))
			}
			cancel()
			if !post && !errors.Is(err, context.Canceled) {
				t.Errorf("GET: err = %v, want context.Canceled", err)
			}
			if n := rec.openBodies.Load(); n != 0 {
				t.Errorf("post %v: %d answer bodies left open (a leaked connection)", post, n)
			}
		}
	})
	t.Run("deadline during a backoff wait", func(t *testing.T) {
		t.Parallel()
		e := newEnv(t)
		setFaults(t, e.c, sandboxclient.FaultsParams{ErrorRate: new(1.0)})
		rec := newRecorder()
		c := e.client(t, withTransport(rec), withRetries(50), func(cfg *client.Config) {
			cfg.RetryWaitMin, cfg.RetryWaitMax = 10*time.Second, 10*time.Second
		})
		ctx, cancel := context.WithTimeout(context.Background(), 150*time.Millisecond)
		defer cancel()
		start := time.Now()
		_, err := c.ListPayments(ctx, nil)
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("err = %v, want context.DeadlineExceeded", err)
		}
		if d := time.Since(start); d > 3*time.Second {
			t.Errorf("returned after %v, want about the 150ms deadline", d)
		}
		if got := len(rec.exchanges()); got != 1 {
			t.Errorf("%d attempts, want 1", got)
		}
	})
	t.Run("POST with a context already done sends nothing", func(t *testing.T) {
		t.Parallel()
		e := newEnv(t)
		rec := newRecorder()
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		_, err := e.client(t, withTransport(rec)).CreateCustomer(ctx, &client.CustomerParams{Name: new("Never")})
		if !errors.Is(err, context.Canceled) {
			t.Errorf("err = %v, want context.Canceled", err)
		}
		for _, x := range rec.exchanges() {
			if x.Err == nil || x.Status != 0 {
				t.Errorf("an attempt was answered %d (%v), want none sent", x.Status, x.Err)
			}
		}
		if n := stats(t, e.c).Customers; n != 0 {
			t.Errorf("stats.customers = %d, want 0", n)
		}
	})
	t.Run("POST interrupted after it was sent is finished with its key", func(t *testing.T) {
		t.Parallel()
		e := newEnv(t)
		// The deadline leaves a loaded machine time to send the attempt,
		// and the latency holds its answer well past the deadline.
		setFaults(t, e.c, sandboxclient.FaultsParams{LatencyMS: new(int64(1500))})
		rec := newRecorder()
		ctx, cancel := context.WithTimeout(context.Background(), 250*time.Millisecond)
		defer cancel()
		cus, err := e.client(t, withTransport(rec)).CreateCustomer(ctx, &client.CustomerParams{Name: new("Interrupted")})
		keys := map[string]bool{}
		for _, x := range rec.exchanges() {
			keys[x.IdemKey()] = true
		}
		if len(keys) != 1 {
			t.Errorf("attempts used keys %v, want one", keys)
		}
		setFaults(t, e.c, sandboxclient.FaultsParams{LatencyMS: new(int64(0))})
		if n := stats(t, e.c).Customers; n != 1 {
			t.Errorf("stats.customers = %d, want 1", n)
		}
		if err == nil {
			if _, gerr := e.c.GetCustomer(context.Background(), cus.ID); gerr != nil {
				t.Errorf("the recovered customer %q: %v", cus.ID, gerr)
			}
		} else if !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("err = %v, want success (recovered) or the deadline", err)
		}
	})
}

// TestClient_SecretNeverLeaks runs the failure paths with a Log callback
// and checks that neither the log fields nor the errors hold the key.
func TestClient_SecretNeverLeaks(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := newEnv(t)
	var mu sync.Mutex
	var logs []string
	logf := func(_ context.Context, msg string, fields map[string]any) {
		mu.Lock()
		defer mu.Unlock()
		logs = append(logs, fmt.Sprintf("%s %#v", msg, fields))
	}
	withLog := func(cfg *client.Config) { cfg.Log = logf }
	c := e.client(t, withLog, withRetries(2))
	var errs []error
	keep := func(_ any, err error) { errs = append(errs, err) }

	keep(c.CreateCustomer(ctx, &client.CustomerParams{Email: new("bad")}))
	keep(c.GetCustomer(ctx, fakeID(wire.CustomerIDPrefix)))
	keep(c.CreatePayment(ctx, &client.PaymentParams{Amount: 1, Currency: "USD", Source: sandbox.TokenDeclined}))
	setFaults(t, e.c, sandboxclient.FaultsParams{ErrorRate: new(1.0)})
	keep(c.CreateCustomer(ctx, nil))
	setFaults(t, e.c, sandboxclient.FaultsParams{ErrorRate: new(0.0), DropRate: new(1.0)})
	keep(c.CreateCustomer(ctx, nil))
	keep(c.GetPayment(ctx, fakeID(wire.PaymentIDPrefix)))
	setFaults(t, e.c, sandboxclient.FaultsParams{DropRate: new(0.0), RateLimit: new(int64(1))})
	noRetry := e.client(t, withLog, noRetries)
	for range 3 {
		keep(noRetry.ListPayments(ctx, nil))
	}
	setFaults(t, e.c, sandboxclient.FaultsParams{RateLimit: new(int64(0))})
	// A wrong key must not leak either, nor a dead server's address error.
	wrong := wire.SecretKeySandboxPrefix + "x"
	keep(newClient(t, e.sb.URL, wrong, withLog).CreateCustomer(ctx, nil))
	dead := httptest.NewServer(http.NotFoundHandler())
	deadURL := dead.URL
	dead.Close()
	keep(newClient(t, deadURL, e.key, withLog, withRetries(1)).CreateCustomer(ctx, nil))
	// A live key's sandbox 403.
	live := wire.SecretKeyLivePrefix + "abcdefgh12345678"
	keep(newClient(t, e.sb.URL, live, withLog).GetCustomer(ctx, fakeID(wire.CustomerIDPrefix)))

	var nonNil int
	for _, err := range errs {
		if err == nil {
			continue
		}
		nonNil++
		for _, k := range []string{e.key, wrong, live} {
			noKeyIn(t, "error", err.Error(), k)
			noKeyIn(t, "error detail", fmt.Sprintf("%+v %#v", err, err), k)
		}
	}
	if nonNil < 9 {
		t.Errorf("only %d of %d calls failed; the failure paths did not run", nonNil, len(errs))
	}
	mu.Lock()
	defer mu.Unlock()
	var sawAttempt, sawStatus, sawTransport bool
	for _, l := range logs {
		for _, k := range []string{e.key, wrong, live} {
			noKeyIn(t, "log entry", l, k)
		}
		sawAttempt = sawAttempt || strings.Contains(l, `"attempt"`)
		sawStatus = sawStatus || strings.Contains(l, `"status":503`) || strings.Contains(l, `"status":500`)
		sawTransport = sawTransport || strings.Contains(l, "transport error")
	}
	if !sawAttempt || !sawStatus || !sawTransport {
		t.Errorf("logs lack attempts (%v), 5xx statuses (%v) or transport errors (%v): %d entries", sawAttempt, sawStatus, sawTransport, len(logs))
	}
}

// TestNew_RefusesUnsafeBaseURLs: New refuses base URLs it cannot use
// safely, without echoing credentials.
func TestNew_RefusesUnsafeBaseURLs(t *testing.T) {
	t.Parallel()
	key := wire.SecretKeySandboxPrefix + "abcdefgh12345678"
	tests := []struct {
		base, key string
		ok        bool
	}{
		{"http://127.0.0.1:12111", key, true},
		{"https://api.example.com/", key, true},
		{"https://api.example.com/base/path", key, true},
		{"", key, false},
		{"127.0.0.1:12111", key, false},
		{"localhost:12111", key, false},
		{"api.example.com", key, false},
		{"/v1", key, false},
		{"ftp://api.example.com", key, false},
		{"http://", key, false},
		{"https://user:hunter2@api.example.com", key, false},
		{"https://" + key + "@api.example.com", key, false},
		{"ftp://user:hunter2@api.example.com", key, false},
		{"http://user:hun ter2@api.example.com", key, false},
		{"https://api.example.com?key=hunter2", key, false},
		{"https://api.example.com/?x=1", key, false},
		{"https://api.example.com/#frag", key, false},
		{"http://127.0.0.1:12111", "", false},
		{key, key, false}, // the key pasted into the wrong field
		{"mailto:" + key, key, false},
	}
	for _, tc := range tests {
		c, err := client.New(client.Config{BaseURL: tc.base, SecretKey: tc.key})
		if tc.ok {
			if err != nil || c == nil {
				t.Errorf("New(%q) = %v, want a client", tc.base, err)
			}
			continue
		}
		if err == nil {
			t.Errorf("New(%q) accepted it", tc.base)
			continue
		}
		for _, secret := range []string{"hunter2", "hun ter2", key} {
			if strings.Contains(err.Error(), secret) {
				t.Errorf("New(%q) error %q echoes the credentials", tc.base, err)
			}
		}
	}
	if c, _ := client.New(client.Config{BaseURL: "https://x.example", SecretKey: wire.SecretKeyLivePrefix + "abcdefgh"}); c == nil || !c.Livemode() {
		t.Error("a live key's client must report Livemode")
	}
	if c, _ := client.New(client.Config{BaseURL: "https://x.example", SecretKey: key}); c == nil || c.Livemode() {
		t.Error("a sandbox key's client must not report Livemode")
	}
}

// fakeAPI is an httptest server answering canned bodies per path, for the
// cases the sandbox never produces.
func fakeAPI(t *testing.T, handler http.HandlerFunc) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set(wire.HeaderRequestID, "req_fake")
		handler(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// TestClient_LivemodeMismatch: an answer in the other mode than the key's
// is refused.
func TestClient_LivemodeMismatch(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	answer := func(livemode bool) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			switch {
			case r.URL.Path == wire.PathPayments && r.Method == http.MethodGet:
				fmt.Fprintf(w, `{"object":"list","data":[{"id":"pay_1","object":"payment","livemode":%v}],"has_more":false,"url":"/v1/payments"}`, livemode)
			case strings.HasPrefix(r.URL.Path, wire.PathPayments):
				fmt.Fprintf(w, `{"id":"pay_1","object":"payment","livemode":%v}`, livemode)
			case strings.Contains(r.URL.Path, "/sources/"):
				fmt.Fprintf(w, `{"id":"src_1","object":"source","livemode":%v}`, livemode)
			default:
				fmt.Fprintf(w, `{"id":"cus_1","object":"customer","livemode":%v}`, livemode)
			}
		}
	}
	sandboxKey := wire.SecretKeySandboxPrefix + "abcdefgh12345678"
	liveKey := wire.SecretKeyLivePrefix + "abcdefgh12345678"
	for _, tc := range []struct {
		key          string
		answerLive   bool
		wantMismatch bool
	}{
		{sandboxKey, true, true},
		{liveKey, false, true},
		{sandboxKey, false, false},
		{liveKey, true, false},
	} {
		c := newClient(t, fakeAPI(t, answer(tc.answerLive)), tc.key)
		calls := map[string]func() error{
			"GetCustomer":    func() error { _, err := c.GetCustomer(ctx, "cus_1"); return err },
			"CreateCustomer": func() error { _, err := c.CreateCustomer(ctx, nil); return err },
			"GetSource":      func() error { _, err := c.GetSource(ctx, "cus_1", "src_1"); return err },
			"GetPayment":     func() error { _, err := c.GetPayment(ctx, "pay_1"); return err },
			"ListPayments":   func() error { _, err := c.ListPayments(ctx, nil); return err },
			"AllPayments": func() error {
				for _, err := range c.AllPayments(ctx, nil) {
					if err != nil {
						return err
					}
				}
				return nil
			},
		}
		for name, call := range calls {
			err := call()
			var lm *client.LivemodeMismatchError
			if got := errors.As(err, &lm); got != tc.wantMismatch {
				t.Errorf("%s (live key %v, live answer %v): err %v, want mismatch %v", name, tc.key == liveKey, tc.answerLive, err, tc.wantMismatch)
				continue
			}
			if lm != nil {
				if lm.KeyLivemode != (tc.key == liveKey) || !strings.Contains(lm.Error(), "base_url") {
					t.Errorf("%s: %+v %q", name, lm, lm.Error())
				}
				noKeyIn(t, "mismatch error", lm.Error(), tc.key)
			}
		}
	}
}

// TestClient_UnexpectedAnswers: bodies that are not the documented shape still
// give useful errors; 409 in_use is retried, a reused key (400, or 409) is not.
func TestClient_UnexpectedAnswers(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	key := wire.SecretKeySandboxPrefix + "abcdefgh12345678"

	t.Run("HTML 502 from a proxy", func(t *testing.T) {
		url := fakeAPI(t, func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "text/html")
			w.WriteHeader(http.StatusBadGateway)
			fmt.Fprint(w, "<html><body>Bad Gateway\x1b[31m</body></html>")
		})
		_, err := newClient(t, url, key, withRetries(1)).GetCustomer(ctx, "cus_1")
		e := checkAPIError(t, err, key, wantErr{status: 502, typ: wire.ErrorTypeAPI})
		if !strings.Contains(e.Message, "Bad Gateway") || strings.Contains(e.Message, "\x1b") {
			t.Errorf("Message %q: want a printable excerpt of the body", e.Message)
		}
	})
	t.Run("200 that is not JSON", func(t *testing.T) {
		url := fakeAPI(t, func(w http.ResponseWriter, _ *http.Request) { fmt.Fprint(w, "OK") })
		_, err := newClient(t, url, key).GetCustomer(ctx, "cus_1")
		if err == nil || !strings.Contains(err.Error(), "req_fake") {
			t.Errorf("err = %v, want a decoding error naming the request id", err)
		}
	})
	t.Run("409 in use is retried with the same key", func(t *testing.T) {
		var n atomic.Int32
		var keys sync.Map
		url := fakeAPI(t, func(w http.ResponseWriter, r *http.Request) {
			keys.Store(r.Header.Get(wire.HeaderIdempotencyKey), true)
			if n.Add(1) < 3 {
				w.WriteHeader(http.StatusConflict)
				fmt.Fprintf(w, `{"error":{"type":%q,"code":%q,"message":"in flight"}}`, wire.ErrorTypeIdempotency, wire.ErrorCodeIdempotencyKeyInUse)
				return
			}
			fmt.Fprint(w, `{"id":"cus_1","object":"customer","livemode":false}`)
		})
		cus, err := newClient(t, url, key, withRetries(5)).CreateCustomer(ctx, nil)
		var distinct int
		keys.Range(func(any, any) bool { distinct++; return true })
		if err != nil || cus.ID != "cus_1" || n.Load() != 3 || distinct != 1 {
			t.Errorf("got %+v, %v after %d attempts with %d keys; want cus_1 after 3 attempts with one key", cus, err, n.Load(), distinct)
		}
	})
	// A key reused with other parameters is the caller's mistake: retried,
	// with that key or a fresh one, it could only fail again or make a
	// duplicate. Stripe answers it 400; the sandbox once answered 409.
	for _, status := range []int{http.StatusBadRequest, http.StatusConflict} {
		t.Run(fmt.Sprintf("%d reused is not retried", status), func(t *testing.T) {
			var n atomic.Int32
			url := fakeAPI(t, func(w http.ResponseWriter, _ *http.Request) {
				n.Add(1)
				w.WriteHeader(status)
				fmt.Fprintf(w, `{"error":{"type":%q,"code":%q,"message":"reused"}}`, wire.ErrorTypeIdempotency, wire.ErrorCodeIdempotencyKeyReused)
			})
			_, err := newClient(t, url, key, withRetries(5)).CreateCustomer(ctx, nil)
			checkAPIError(t, err, key, wantErr{status: status, typ: wire.ErrorTypeIdempotency, code: wire.ErrorCodeIdempotencyKeyReused})
			if n.Load() != 1 {
				t.Errorf("%d attempts, want 1", n.Load())
			}
		})
	}
	t.Run("4xx is not retried", func(t *testing.T) {
		var n atomic.Int32
		url := fakeAPI(t, func(w http.ResponseWriter, _ *http.Request) {
			n.Add(1)
			w.WriteHeader(http.StatusBadRequest)
		})
		_, err := newClient(t, url, key, withRetries(5)).CreateCustomer(ctx, nil)
		checkAPIError(t, err, key, wantErr{status: 400, typ: wire.ErrorTypeInvalidRequest})
		if n.Load() != 1 {
			t.Errorf("%d attempts, want 1", n.Load())
		}
	})
	t.Run("unreachable server", func(t *testing.T) {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		addr := l.Addr().String()
		l.Close()
		rec := newRecorder()
		_, err = newClient(t, "http://"+addr, key, withTransport(rec), withRetries(2)).CreateCustomer(ctx, nil)
		if err == nil || !strings.Contains(err.Error(), "3 attempt") {
			t.Errorf("err = %v, want a failure after 3 attempts", err)
		}
		if _, ok := client.AsError(err); ok {
			t.Errorf("a transport failure must not be a *client.Error")
		}
		if n := len(rec.exchanges()); n != 3 {
			t.Errorf("%d attempts, want 3", n)
		}
	})
}

// TestClient_OddIDs: an identifier from user input addresses only its own path
// segment; whatever it holds, the answer is a 404 resource_missing. An
// empty id is refused before any request: an empty segment addresses no
// object, and the answer (unrecognized_url, or another route's after the
// server cleans the path) must not read as not found.
func TestClient_OddIDs(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := newEnv(t)
	cus := mustCustomer(t, e.c, &client.CustomerParams{Source: new(sandbox.TokenVisa)})
	mustPayment(t, e.c, &client.PaymentParams{Amount: 1, Currency: "USD", Customer: cus.ID})
	for name, call := range map[string]func() error{
		"GetCustomer":    func() error { _, err := e.c.GetCustomer(ctx, ""); return err },
		"DeleteCustomer": func() error { _, err := e.c.DeleteCustomer(ctx, ""); return err },
		"UpdateCustomer": func() error { _, err := e.c.UpdateCustomer(ctx, "", nil); return err },
		"GetPayment":     func() error { _, err := e.c.GetPayment(ctx, ""); return err },
		"RefundPayment":  func() error { _, err := e.c.RefundPayment(ctx, "", nil); return err },
		"GetSource":      func() error { _, err := e.c.GetSource(ctx, cus.ID, ""); return err },
		"DeleteSource":   func() error { _, err := e.c.DeleteSource(ctx, "", "src_x"); return err },
	} {
		err := call()
		if _, isAPI := client.AsError(err); err == nil || isAPI || client.IsNotFound(err) || !strings.Contains(err.Error(), "id in the path is empty") {
			t.Errorf("%s(\"\") = %v, want a refusal before any request", name, err)
		}
	}
	for _, id := range []string{"..", ".", "../payments", "../../_sandbox/stats", "a/b", "a b", "%2e%2e", "cus_ü", cus.ID + "/sources", cus.ID + "?x=1", cus.ID + "#f", strings.ToLower(cus.ID)} {
		for name, call := range map[string]func() error{
			"GetCustomer":    func() error { _, err := e.c.GetCustomer(ctx, id); return err },
			"DeleteCustomer": func() error { _, err := e.c.DeleteCustomer(ctx, id); return err },
			"UpdateCustomer": func() error { _, err := e.c.UpdateCustomer(ctx, id, nil); return err },
			"GetPayment":     func() error { _, err := e.c.GetPayment(ctx, id); return err },
			"RefundPayment":  func() error { _, err := e.c.RefundPayment(ctx, id, nil); return err },
			"GetSource":      func() error { _, err := e.c.GetSource(ctx, cus.ID, id); return err },
		} {
			if err := call(); !client.IsNotFound(err) {
				t.Errorf("%s(%q) = %v, want a 404", name, id, err)
			}
		}
	}
	if s := stats(t, e.c); s.Customers != 1 || s.Payments != 1 || s.Sources != 1 {
		t.Errorf("stats after odd ids: %+v", s)
	}
}

// TestClassifyKey_AgreesWithSandbox: the sandbox admits exactly the keys
// ClassifyKey calls sandbox secret keys, and refuses the others with the
// contract's errors.
func TestClassifyKey_AgreesWithSandbox(t *testing.T) {
	t.Parallel()
	sb := newEnv(t).sb
	rest := strings.Repeat("k", wire.MinKeySecretLength)
	for _, key := range []string{
		wire.SecretKeySandboxPrefix + rest,
		wire.SecretKeySandboxPrefix + rest[1:],
		wire.SecretKeySandboxPrefix + "Ab_3" + rest,
		wire.SecretKeySandboxPrefix + rest + "-x",
		wire.SecretKeySandboxPrefix + rest + ".x",
		wire.SecretKeyLivePrefix + rest,
		wire.PublicKeySandboxPrefix + rest,
		wire.PublicKeyLivePrefix + rest,
		"sk_test_" + rest,
		"SK_SANDBOX_" + rest,
	} {
		r := mustRaw(t, sb.URL, key, http.MethodGet, wire.PathPayments, nil, "")
		var want int
		switch wire.ClassifyKey(key) {
		case wire.KeySecretSandbox:
			want = 200
		case wire.KeySecretLive, wire.KeyPublicSandbox, wire.KeyPublicLive:
			want = 403
		default:
			want = 401
		}
		if r.Status != want {
			t.Errorf("key %q (kind %v): sandbox answers %d %s, want %d", key, wire.ClassifyKey(key), r.Status, r.Body, want)
		}
		noKeyIn(t, "answer", string(r.Body), key)
	}
	// The same key as a Bearer token is the same account.
	bearer := sandboxtest.Request{Method: http.MethodGet, Path: wire.PathPayments,
		Header: http.Header{"Authorization": {"Bearer " + wire.SecretKeySandboxPrefix + rest}}}
	if resp, err := sandboxtest.Do(nil, sb.URL, bearer); err != nil {
		t.Fatal(err)
	} else if resp.Status != 200 {
		t.Errorf("the key as a Bearer token: %d %s, want 200", resp.Status, resp.Body)
	}
	// Missing, empty and malformed credentials, and other schemes, are 401
	// missing or invalid.
	for _, auth := range []string{"", "Basic ", "Bearer ", "Bearer  " + wire.SecretKeySandboxPrefix + rest,
		"Digest " + wire.SecretKeySandboxPrefix + rest, "Basic !!!notbase64"} {
		r := sandboxtest.Request{Method: http.MethodGet, Path: wire.PathPayments}
		if auth != "" {
			r.Header = http.Header{"Authorization": {auth}}
		}
		resp, err := sandboxtest.Do(nil, sb.URL, r)
		if err != nil {
			t.Fatal(err)
		}
		if resp.Status != 401 || resp.Header.Get(wire.HeaderRequestID) == "" {
			t.Errorf("Authorization %q: %d (Request-Id %q), want 401 with a Request-Id", auth, resp.Status, resp.Header.Get(wire.HeaderRequestID))
		}
	}
}

// TestClient_BodyLimitBoundary: 64 KiB exactly is read (and here refused
// for its content), one byte more is 413 before any other check.
func TestClient_BodyLimitBoundary(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	pad := func(n int) url.Values { return url.Values{"name": {strings.Repeat("a", n-len("name="))}} }
	at := mustRaw(t, e.sb.URL, e.key, http.MethodPost, wire.PathCustomers, pad(wire.MaxRequestBodyBytes), "")
	if at.Status != 400 || at.ErrorField(t, "param") != "name" {
		t.Errorf("a %d-byte body: %d %s, want 400 for the name", wire.MaxRequestBodyBytes, at.Status, at.Body)
	}
	over := mustRaw(t, e.sb.URL, e.key, http.MethodPost, wire.PathCustomers, pad(wire.MaxRequestBodyBytes+1), "")
	if over.Status != 413 || over.ErrorField(t, "type") != wire.ErrorTypeInvalidRequest {
		t.Errorf("a %d-byte body: %d %s, want 413 invalid_request_error", wire.MaxRequestBodyBytes+1, over.Status, over.Body)
	}
}

// TestClient_UnknownRoutes: paths and methods outside the contract are
// errors in the contract's shape, with a Request-Id.
func TestClient_UnknownRoutes(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	for _, tc := range []struct{ method, path string }{
		{http.MethodGet, "/v1/unknown"},
		{http.MethodGet, "/v2/customers"},
		{http.MethodGet, "/"},
		{http.MethodPut, wire.PathCustomers},
		{http.MethodDelete, wire.PathCustomers},
		{http.MethodGet, "/v1/customers/cus_AAAAAAAAAAAAAAAAAAAAAAAA/sources"},
		{http.MethodPatch, wire.PathPayments},
	} {
		r := mustRaw(t, e.sb.URL, e.key, tc.method, tc.path, nil, "")
		if r.Status < 400 || r.Status >= 500 || r.ErrorField(t, "type") == "" || r.ErrorField(t, "message") == "" {
			t.Errorf("%s %s: %d %s, want a 4xx error body", tc.method, tc.path, r.Status, r.Body)
		}
	}
}
