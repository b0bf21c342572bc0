package metrics_test

import (
	"bytes"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/metrics"
)

// scrape answers one GET /metrics of m and returns its lines.
func scrape(t *testing.T, m *metrics.Metrics) string {
	t.Helper()
	rec := httptest.NewRecorder()
	m.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/metrics", nil))
	if rec.Code != http.StatusOK {
		t.Fatalf("scrape: %d %s", rec.Code, rec.Body)
	}
	b, _ := io.ReadAll(rec.Body)
	return string(b)
}

func TestMetrics_Counts(t *testing.T) {
	t.Parallel()
	m := metrics.New(metrics.Gauges{
		Accounts:    func() float64 { return 3 },
		Bytes:       func() float64 { return 4096 },
		Connections: func() float64 { return 7 },
	}, slog.New(slog.DiscardHandler))
	fresh := scrape(t, m)
	m.Observe("GET /v1/customers/:id", 200, 20*time.Millisecond)
	m.Observe("GET /v1/customers/:id", 404, time.Millisecond)
	m.Refused(metrics.LimitRateLimit)
	m.Refused(metrics.LimitRateLimit)
	m.Delivered(200, "")
	m.Delivered(500, "answered 500")
	m.Delivered(0, "connection refused")
	m.Delivered(0, "timeout")
	after := scrape(t, m)
	for _, tc := range []struct {
		text        string
		fresh, more bool // shown before anything was counted, and after
	}{
		// Every limit and outcome is there from the start, at 0.
		{`payments_sandbox_refusals_total{limit="` + metrics.LimitConnections + `"} 0`, true, true},
		{`payments_sandbox_refusals_total{limit="` + metrics.LimitRateLimit + `"} 0`, true, false},
		{`payments_sandbox_refusals_total{limit="` + metrics.LimitRateLimit + `"} 2`, false, true},
		{`payments_sandbox_webhook_deliveries_total{outcome="success"} 0`, true, false},
		{`payments_sandbox_webhook_deliveries_total{outcome="success"} 1`, false, true},
		{`payments_sandbox_webhook_deliveries_total{outcome="failure"} 1`, false, true},
		{`payments_sandbox_webhook_deliveries_total{outcome="error"} 2`, false, true},
		{`payments_sandbox_requests_total{route="GET /v1/customers/:id",status="200"} 1`, false, true},
		{`payments_sandbox_requests_total{route="GET /v1/customers/:id",status="404"} 1`, false, true},
		{`payments_sandbox_request_duration_seconds_count{route="GET /v1/customers/:id"} 2`, false, true},
		{"payments_sandbox_accounts 3", true, true},
		{"payments_sandbox_bytes 4096", true, true},
		{"payments_sandbox_connections_accepted_total 7", true, true},
		{"go_goroutines ", true, true},
	} {
		if got := strings.Contains(fresh, tc.text); got != tc.fresh {
			t.Errorf("before counting, %q shown = %v, want %v", tc.text, got, tc.fresh)
		}
		if got := strings.Contains(after, tc.text); got != tc.more {
			t.Errorf("after counting, %q shown = %v, want %v", tc.text, got, tc.more)
		}
	}
}

// Two Metrics share nothing: what one counts, the other does not show.
func TestMetrics_OwnRegistry(t *testing.T) {
	t.Parallel()
	g := metrics.Gauges{Accounts: func() float64 { return 0 }, Bytes: func() float64 { return 0 }, Connections: func() float64 { return 0 }}
	var buf bytes.Buffer
	a, b := metrics.New(g, slog.New(slog.NewTextHandler(&buf, nil))), metrics.New(g, slog.New(slog.DiscardHandler))
	a.Refused(metrics.LimitAccounts)
	if !strings.Contains(scrape(t, a), `payments_sandbox_refusals_total{limit="accounts"} 1`) {
		t.Error("the first Metrics did not count its refusal")
	}
	if !strings.Contains(scrape(t, b), `payments_sandbox_refusals_total{limit="accounts"} 0`) {
		t.Error("the second Metrics shows the first one's refusal")
	}
	if buf.Len() != 0 {
		t.Errorf("a good scrape logged: %s", buf.String())
	}
}
