package sandbox_test

import (
	"bytes"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/sandboxtest"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// syncBuffer is a log destination that requests write to concurrently.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// A key pasted into a path (whole or inside a segment), a query or an
// Idempotency-Key, or sent as a Bearer token, reaches neither the debug log, 401s included, nor the
// request log, nor an error's message.
func TestKeyMasking_LogsAndRequestLog(t *testing.T) {
	t.Parallel()
	logs := &syncBuffer{}
	e := newEnv(t, sandboxtest.WithLogger(slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))))
	pasted := []string{
		sandboxtest.NewKey(t),
		wire.SecretKeyLivePrefix + "livelivelive1234",
		derivePublishable(sandboxtest.NewKey(t)),
		wire.PublicKeyLivePrefix + "publiclive123456",
	}
	for _, key := range pasted {
		for name, res := range map[string]*result{
			"whole segment":   e.get("/v1/nowhere/"+key, nil),
			"in a segment":    e.get("/v1/customers/key="+key, nil),
			"query":           e.get(wire.PathCustomers, url.Values{"limit": {"x" + key}}),
			"query name":      e.get(wire.PathCustomers, url.Values{key: {"1"}}),
			"idempotency key": e.post(wire.PathCustomers, vals("name", "n"), idemKey("retry-"+key+"-2")),
			"idempotency key, percent-encoded": e.post(wire.PathCustomers, vals("name", "n"),
				idemKey("encoded-"+strings.ReplaceAll(key, "_", "%5F")+"-2")),
			"401": e.srvDo(http.MethodGet, "/v1/customers/key="+key, "bad auth"),
			// The key itself as a Bearer token, well-formed or not.
			"bearer":          e.srvDo(http.MethodGet, "/v1/customers/cus_x", wire.BearerAuthorization(key)),
			"bearer, spaced":  e.srvDo(http.MethodGet, "/v1/customers/cus_x", "Bearer  "+key),
			"bearer, 2 words": e.srvDo(http.MethodGet, "/v1/customers/cus_x", "Bearer "+key+" "+key),
		} {
			if strings.Contains(string(res.body), key) {
				t.Errorf("%s: the answer holds the key: %s", name, res.body)
			}
		}
	}
	raw := string(e.get(wire.PathSandboxRequests, nil).body)
	for _, key := range pasted {
		rest := key[strings.LastIndexByte(key[:len(key)-8], '_')+1:]
		if strings.Contains(raw, rest) {
			t.Errorf("the request log holds %q: %s", key, raw)
		}
		if strings.Contains(logs.String(), rest) {
			t.Errorf("the debug log holds %q:\n%s", key, logs)
		}
	}
	if !strings.Contains(raw, `"path":"/v1/customers/key=[redacted key]"`) || !strings.Contains(raw, `"idempotency_key":"retry-[redacted key]-2"`) ||
		!strings.Contains(raw, `"idempotency_key":"encoded-[redacted key]-2"`) {
		t.Errorf("the request log does not show the masked path and Idempotency-Key: %s", raw)
	}
	if !strings.Contains(logs.String(), `path="/v1/customers/key=[redacted key]"`) || !strings.Contains(logs.String(), "status=401") {
		t.Errorf("the debug log lacks the masked path or the 401:\n%s", logs)
	}
}

// srvDo sends a request whose Authorization is auth as it is.
func (e *env) srvDo(method, path, auth string) *result {
	e.t.Helper()
	return e.do(method, path, nil, header("Authorization", auth))
}

func TestMaskKeys_Strings(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ in, want string }{
		{"", ""},
		{"/v1/customers/cus_123", "/v1/customers/cus_123"},
		{"/v1/x/sk_sandbox_abcdefgh12", "/v1/x/[redacted key]"},
		{"key=sk_sandbox_abcdefgh12&b=pk_live_zz", "key=[redacted key]&b=[redacted key]"},
		{"retry-pk_sandbox_0123456789abcdef-2", "retry-[redacted key]-2"},
		{"xsk_live_abc", "x[redacted key]"},
		{"sk_sandbox_", "sk_sandbox_"},
		{"sk_sandbox", "sk_sandbox"},
		// Rather too much than too little.
		{"task_sandbox_ok", "ta[redacted key]"},
	} {
		if got := wire.MaskKeys(tc.in); got != tc.want {
			t.Errorf("MaskKeys(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
