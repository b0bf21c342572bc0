package dashboard_test

import (
	"bytes"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/clock"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/dashboard"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/sandboxtest"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// site is a sandbox with its dashboard, composed as payments-sandbox
// composes them, on a test server.
type site struct {
	t   testing.TB
	url string
	// logs is the file the sandbox and the dashboard log to; os.File
	// writes are safe from the handlers' goroutines while the test reads.
	logs string
}

// logText is what has been logged so far.
func (s *site) logText() string {
	b, err := os.ReadFile(s.logs)
	if err != nil {
		s.t.Fatal(err)
	}
	return string(b)
}

type siteOptions struct {
	sandbox sandbox.Options
	idle    time.Duration
	clock   clock.Clock
}

func newSite(t testing.TB, o siteOptions) *site {
	t.Helper()
	logs, err := os.CreateTemp(t.TempDir(), "log")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { logs.Close() })
	logger := slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	o.sandbox.Logger = logger
	if o.sandbox.Webhooks.RetryBase == 0 {
		o.sandbox.Webhooks.RetryBase = 20 * time.Millisecond
		o.sandbox.Webhooks.Timeout = 2 * time.Second
	}
	srv, err := sandbox.New(o.sandbox)
	if err != nil {
		t.Fatal(err)
	}
	dash, err := dashboard.New(dashboard.Options{API: srv.Internal(), Fallback: srv, Logger: logger, IdleTimeout: o.idle, Clock: o.clock})
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.Handle(wire.APIVersionPrefix+"/", srv)
	mux.Handle(wire.PathSandbox+"/", srv)
	mux.Handle("/", dash)
	ts := httptest.NewServer(mux)
	t.Cleanup(func() {
		ts.Close()
		srv.Close()
	})
	return &site{t: t, url: ts.URL, logs: logs.Name()}
}

// api calls the API with key and decodes a 200 answer into out.
func (s *site) api(key, method, path string, form url.Values, out any) {
	s.t.Helper()
	resp, err := sandboxtest.Do(http.DefaultClient, s.url, sandboxtest.Request{Method: method, Path: path, Key: key, Form: form})
	if err != nil {
		s.t.Fatal(err)
	}
	if resp.Status != http.StatusOK {
		s.t.Fatalf("%s %s: %d %s", method, path, resp.Status, resp.Body)
	}
	if out != nil {
		if err := json.Unmarshal(resp.Body, out); err != nil {
			s.t.Fatal(err)
		}
	}
}

// browser is a cookie-keeping client, as a browser is; it does not follow
// redirects, so that tests see them.
type browser struct {
	s  *site
	hc *http.Client
}

func (s *site) browser() *browser {
	jar, _ := cookiejar.New(nil)
	return &browser{s: s, hc: &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error {
		return http.ErrUseLastResponse
	}}}
}

type answer struct {
	status int
	header http.Header
	body   string
}

func (b *browser) do(method, path string, form url.Values, header ...string) answer {
	b.s.t.Helper()
	var body io.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	}
	req, err := http.NewRequest(method, b.s.url+path, body)
	if err != nil {
		b.s.t.Fatal(err)
	}
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := b.hc.Do(req)
	if err != nil {
		b.s.t.Fatal(err)
	}
	defer resp.Body.Close()
	var buf bytes.Buffer
	if _, err := io.Copy(&buf, resp.Body); err != nil {
		b.s.t.Fatal(err)
	}
	return answer{status: resp.StatusCode, header: resp.Header, body: buf.String()}
}

func (b *browser) get(path string) answer {
	b.s.t.Helper()
	return b.do(http.MethodGet, path, nil)
}

// post posts a form as a same-origin page of the dashboard would.
func (b *browser) post(path string, form url.Values) answer {
	b.s.t.Helper()
	return b.do(http.MethodPost, path, form, "Origin", b.s.url, "Sec-Fetch-Site", "same-origin")
}

// signIn signs in with key and checks that it worked.
func (b *browser) signIn(key string) {
	b.s.t.Helper()
	p := b.post("/sign-in", url.Values{"key": {key}})
	if p.status != http.StatusSeeOther || p.header.Get("Location") != "/" {
		b.s.t.Fatalf("sign-in: %d to %q: %s", p.status, p.header.Get("Location"), p.body)
	}
}

// follow gets the page a redirect points at.
func (b *browser) follow(p answer) answer {
	b.s.t.Helper()
	if p.status != http.StatusSeeOther {
		b.s.t.Fatalf("status %d, want a 303: %s", p.status, p.body)
	}
	return b.get(p.header.Get("Location"))
}
