package client_test

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/paymentsdev/terraform-provider-payments/internal/client"
)

// sandboxCounts reads the account's stats outside the client.
func sandboxCounts(t *testing.T, e *env) (customers, total, refused int) {
	t.Helper()
	r, err := doRaw(t, e.sb.URL, e.key, http.MethodGet, "/_sandbox/stats", nil, "")
	if err != nil || r.Status != http.StatusOK {
		t.Fatalf("GET /_sandbox/stats: %v %d %s", err, r.Status, r.Body)
	}
	m := r.JSON(t)
	req, _ := m["requests"].(map[string]any)
	faults, _ := m["faults"].(map[string]any)
	num := func(v any) int { f, _ := v.(float64); return int(f) }
	return num(m["customers"]), num(req["total"]), num(faults["rate_limited"])
}

func setRateLimit(t *testing.T, e *env, perSecond int) {
	t.Helper()
	r, err := doRaw(t, e.sb.URL, e.key, http.MethodPost, "/_sandbox/faults", url.Values{"rate_limit": {fmt.Sprint(perSecond)}}, "")
	if err != nil || r.Status != http.StatusOK {
		t.Fatalf("POST /_sandbox/faults: %v %d %s", err, r.Status, r.Body)
	}
}

// createConcurrently makes n customers from workers goroutines, as
// Terraform's parallelism does, and fails on any error.
func createConcurrently(t *testing.T, c *client.Client, n, workers int) {
	t.Helper()
	next := make(chan int)
	var wg sync.WaitGroup
	var mu sync.Mutex
	var errs []error
	for range workers {
		wg.Go(func() {
			for i := range next {
				if _, err := c.CreateCustomer(context.Background(), &client.CustomerParams{Email: new(fmt.Sprintf("c%d@example.com", i))}); err != nil {
					mu.Lock()
					errs = append(errs, err)
					mu.Unlock()
				}
			}
		})
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
	for _, err := range errs {
		t.Errorf("create: %v", err)
	}
}

// TestRateLimit_SharedAwareness: ten workers of one client against a
// sandbox limit: the first 429 teaches the whole client, so few requests
// are refused (each worker learning on its own had half of them refused),
// and every create is made exactly once.
func TestRateLimit_SharedAwareness(t *testing.T) {
	t.Parallel()
	const n, limit = 120, 40
	e := newEnv(t)
	setRateLimit(t, e, limit)
	c := e.client(t, withRetries(10), func(cfg *client.Config) { cfg.RetryWaitMin, cfg.RetryWaitMax = 100*time.Millisecond, time.Second })
	createConcurrently(t, c, n, 10)
	customers, total, refused := sandboxCounts(t, e)
	if customers != n {
		t.Errorf("%d customers at the sandbox, want %d", customers, n)
	}
	// The discovery costs up to one refusal per worker; after it, the
	// learned rate keeps refusals rare.
	if refused > 10+n/20 {
		t.Errorf("%d of %d requests refused, want at most %d", refused, total, 10+n/20)
	}
	t.Logf("%d of %d requests refused", refused, total)
}

// TestRateLimit_MaxRequestsPerSecond: with the cap at the service's limit,
// nothing is refused.
func TestRateLimit_MaxRequestsPerSecond(t *testing.T) {
	t.Parallel()
	const n, limit = 60, 40
	e := newEnv(t)
	setRateLimit(t, e, limit)
	c := e.client(t, withRetries(10), func(cfg *client.Config) { cfg.MaxRequestsPerSecond = limit })
	createConcurrently(t, c, n, 10)
	customers, total, refused := sandboxCounts(t, e)
	if customers != n || refused > 1 {
		t.Errorf("%d customers (want %d), %d of %d requests refused (want at most 1)", customers, n, refused, total)
	}
}

func TestNew_MaxRequestsPerSecondInvalid(t *testing.T) {
	t.Parallel()
	for _, v := range []float64{-1, -0.5} {
		_, err := client.New(client.Config{BaseURL: "http://127.0.0.1:1", SecretKey: "sk_sandbox_testtesttest", MaxRequestsPerSecond: v})
		if err == nil || !strings.Contains(err.Error(), "max requests per second") {
			t.Errorf("MaxRequestsPerSecond %v: err = %v, want a refusal", v, err)
		}
	}
}

// hungServer accepts requests and answers none until the test ends, or
// sends the headers and then stalls the body; it counts the requests.
type hungServer struct {
	url string
	n   atomic.Int32
}

func newHungServer(t *testing.T, headersFirst bool) *hungServer {
	t.Helper()
	h := &hungServer{}
	done := make(chan struct{})
	h.url = fakeAPI(t, func(w http.ResponseWriter, r *http.Request) {
		h.n.Add(1)
		if headersFirst {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusOK)
			_, _ = w.Write([]byte(`{"id":`))
			if f, ok := w.(http.Flusher); ok {
				f.Flush()
			}
		}
		select {
		case <-r.Context().Done():
		case <-done:
		}
	})
	// Registered after fakeAPI's Close, so it runs first and frees the
	// handlers that Close waits for.
	t.Cleanup(func() { close(done) })
	return h
}

// TestClient_RequestTimeout: an attempt that gets no complete answer within
// RequestTimeout ends and is retried like a network error; a POST keeps
// its Idempotency-Key across the attempts; the error says it timed out.
// The attempts are counted where the client sends them, not where the
// server receives them: on a loaded machine an attempt may end before the
// server has read it, which is the same timeout.
func TestClient_RequestTimeout(t *testing.T) {
	t.Parallel()
	key := "sk_sandbox_" + strings.Repeat("t", 16)
	// Long enough that the stalled answer's headers arrive within it on a
	// loaded machine, so that "headers first" times out on the body.
	const timeout = time.Second
	for _, headersFirst := range []bool{false, true} {
		t.Run(fmt.Sprintf("headers first %v", headersFirst), func(t *testing.T) {
			t.Parallel()
			h := newHungServer(t, headersFirst)
			rec := newRecorder()
			c := newClient(t, h.url, key, withRetries(2), withTransport(rec), func(cfg *client.Config) { cfg.RequestTimeout = timeout })
			_, err := c.CreateCustomer(context.Background(), &client.CustomerParams{Email: new("a@example.com")})
			if !client.IsAttemptTimeout(err) {
				t.Fatalf("err = %v, want an attempt timeout", err)
			}
			for _, want := range []string{"POST /v1/customers", "3 attempt", "timed out", "within 1 second"} {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error %q does not say %q", err, want)
				}
			}
			if client.IsUnreachable(err) {
				t.Errorf("a server that accepted the connection is reported unreachable")
			}
			xs := rec.exchanges()
			if len(xs) != 3 {
				t.Fatalf("%d attempts sent, want 3", len(xs))
			}
			gotHeaders := false
			for _, x := range xs {
				if x.IdemKey() == "" || x.IdemKey() != xs[0].IdemKey() {
					t.Errorf("attempt's Idempotency-Key %q, want one key on every attempt (first %q)", x.IdemKey(), xs[0].IdemKey())
				}
				gotHeaders = gotHeaders || x.Status == http.StatusOK
			}
			if headersFirst && !gotHeaders {
				t.Errorf("no attempt got the stalled answer's headers within %v; the test did not try a stalled body", timeout)
			}
			if got := h.n.Load(); got < 1 || got > 3 {
				t.Errorf("the server received %d attempts, want 1 to 3", got)
			}
		})
	}
}

// TestUnreachable_FailFast: twenty calls from ten workers against an
// address where nothing listens: every call fails with one message naming
// the address, and once the breaker opens no attempt reaches the network,
// so the attempts are a fraction of the 11 per call that retries allow.
func TestUnreachable_FailFast(t *testing.T) {
	t.Parallel()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	rec := newRecorder()
	key := "sk_sandbox_" + strings.Repeat("u", 16)
	c := newClient(t, "http://"+addr, key, withTransport(rec), withRetries(10), func(cfg *client.Config) {
		cfg.RetryWaitMin, cfg.RetryWaitMax = 100*time.Millisecond, 5*time.Second
	})
	const calls, workers = 20, 10
	next := make(chan int)
	errs := make([]error, calls)
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for i := range next {
				_, errs[i] = c.GetCustomer(context.Background(), fmt.Sprintf("cus_%024d", i))
			}
		})
	}
	for i := range calls {
		next <- i
	}
	close(next)
	wg.Wait()
	for i, err := range errs {
		if !client.IsUnreachable(err) || !strings.Contains(err.Error(), "cannot connect to the payments API at http://"+addr) {
			t.Errorf("call %d: %v, want the unreachable error naming http://%s", i, err, addr)
		}
	}
	attempts := len(rec.exchanges())
	// Until the breaker opens (5 failures over at least a second), each of
	// the ten in-flight calls retries with backoff from 100ms: about five
	// attempts each. Then none.
	if attempts > 8*workers {
		t.Errorf("%d attempts for %d calls, want at most %d (without the breaker: %d)", attempts, calls, 8*workers, calls*11)
	}
	t.Logf("%d attempts for %d calls", attempts, calls)
}
