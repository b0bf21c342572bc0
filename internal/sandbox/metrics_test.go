package sandbox_test

import (
	"bufio"
	"encoding/json"
	"io"
	"net/http"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/sandboxtest"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/storage"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// getOperational GETs an operational path without a key, the exchange
// checked against api/openapi.yaml.
func getOperational(t *testing.T, sb *sandboxtest.Sandbox, path string) (int, string) {
	t.Helper()
	resp, err := checked(t, sb.HTTP.Client()).Get(sb.URL + path)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, string(b)
}

// scrape reads /metrics into sample -> value, the sample as exposed
// (name{label="value",...}).
func scrape(t *testing.T, sb *sandboxtest.Sandbox) (map[string]float64, string) {
	t.Helper()
	st, body := getOperational(t, sb, wire.PathMetrics)
	if st != 200 {
		t.Fatalf("GET /metrics: %d %s", st, body)
	}
	m := map[string]float64{}
	sc := bufio.NewScanner(strings.NewReader(body))
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		i := strings.LastIndexByte(line, ' ')
		v, err := strconv.ParseFloat(line[i+1:], 64)
		if err != nil {
			t.Fatalf("metrics line %q: %v", line, err)
		}
		m[line[:i]] = v
	}
	return m, body
}

// TestHealth_Answers: /healthz needs no key and is 200 while the store
// answers, with or without a data file, and 503 naming why once it does
// not.
func TestHealth_Answers(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name      string
		store     bool
		breakIt   bool
		status    int
		wantInErr string
	}{
		{"memory", false, false, 200, ""},
		{"data file", true, false, 200, ""},
		{"data file closed", true, true, 503, "data file"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var opts []sandboxtest.Option
			if tc.store {
				st, err := storage.Open(filepath.Join(t.TempDir(), "h.db"))
				if err != nil {
					t.Fatal(err)
				}
				opts = append(opts, sandboxtest.WithStore(st))
			}
			sb := sandboxtest.Start(t, opts...)
			if tc.breakIt {
				if err := sb.Server.Close(); err != nil {
					t.Fatal(err)
				}
			}
			st, body := getOperational(t, sb, wire.PathHealth)
			var h struct{ Status, Reason string }
			if err := json.Unmarshal([]byte(body), &h); err != nil {
				t.Fatalf("%s: %v", body, err)
			}
			if st != tc.status || (st == 200) != (h.Status == "ok") || !strings.Contains(h.Reason, tc.wantInErr) {
				t.Errorf("GET /healthz: %d %s, want %d", st, body, tc.status)
			}
		})
	}
}

// TestMetrics_Counts: requests by route and status, latency by route,
// refusals by limit, accounts and bytes; no label holds a key or an id;
// /healthz and /metrics count neither there nor in /_sandbox/stats.
func TestMetrics_Counts(t *testing.T) {
	t.Parallel()
	sb := sandboxtest.Start(t, sandboxtest.WithOptions(sandbox.Options{Limits: sandbox.Limits{MaxAccounts: 2}}))
	a, b := envOn(t, sb, sandboxtest.NewKey(t)), envOn(t, sb, sandboxtest.NewKey(t))
	var cu wire.Customer
	a.post(wire.PathCustomers, vals("email", "jo@example.com")).ok(&cu)
	a.get(wire.PathCustomers+"/"+cu.ID, nil).ok(nil)
	a.get(wire.PathCustomers+"/cus_"+strings.Repeat("x", 24), nil).fails(404, wire.ErrorTypeInvalidRequest, wire.ErrorCodeResourceMissing, "")
	b.post(wire.PathSandboxFaults, vals(wire.ParamRateLimit, "1")).ok(nil)
	b.get(wire.PathCustomers, nil).ok(nil)
	b.get(wire.PathCustomers, nil).fails(429, wire.ErrorTypeRateLimit, wire.ErrorCodeRateLimited, "")
	a.doRaw(http.MethodPost, wire.PathCustomers, "name="+strings.Repeat("n", wire.MaxRequestBodyBytes)).fails(413, wire.ErrorTypeInvalidRequest, wire.ErrorCodeRequestTooLarge, "")
	third := envOn(t, sb, sandboxtest.NewKey(t))
	third.get(wire.PathCustomers, nil).fails(403, wire.ErrorTypeInvalidRequest, wire.ErrorCodeSandboxLimitExceeded, "")
	a.post(wire.PathWebhookEndpoints, vals(wire.ParamURL, "http://192.0.2.1/hooks", wire.ParamEnabledEventsItem, "*")).fails(400, wire.ErrorTypeInvalidRequest, wire.ErrorCodeParameterInvalid, wire.ParamURL)
	var before wire.Stats
	a.get(wire.PathSandboxStats, nil).ok(&before)
	for range 3 {
		getOperational(t, sb, wire.PathHealth)
		scrape(t, sb)
	}
	var after wire.Stats
	a.get(wire.PathSandboxStats, nil).ok(&after)

	m, body := scrape(t, sb)
	for _, tc := range []struct {
		sample string
		want   float64
	}{
		{`payments_sandbox_requests_total{route="POST /v1/customers",status="200"}`, 1},
		{`payments_sandbox_requests_total{route="GET /v1/customers/:id",status="200"}`, 1},
		{`payments_sandbox_requests_total{route="GET /v1/customers/:id",status="404"}`, 1},
		{`payments_sandbox_requests_total{route="GET /v1/customers",status="429"}`, 1},
		{`payments_sandbox_requests_total{route="GET /_sandbox/stats",status="200"}`, 2},
		{`payments_sandbox_request_duration_seconds_count{route="GET /v1/customers/:id"}`, 2},
		{`payments_sandbox_refusals_total{limit="rate_limit"}`, 1},
		{`payments_sandbox_refusals_total{limit="body_bytes"}`, 1},
		{`payments_sandbox_refusals_total{limit="accounts"}`, 1},
		{`payments_sandbox_refusals_total{limit="webhook_target"}`, 1},
		{`payments_sandbox_refusals_total{limit="account_bytes"}`, 0},
		{`payments_sandbox_refusals_total{limit="connections"}`, 0},
		{`payments_sandbox_accounts`, 2},
	} {
		if got, ok := m[tc.sample]; !ok || got != tc.want {
			t.Errorf("%s = %v (present %v), want %v", tc.sample, got, ok, tc.want)
		}
	}
	if m["payments_sandbox_bytes"] <= 0 {
		t.Errorf("payments_sandbox_bytes = %v with a customer kept", m["payments_sandbox_bytes"])
	}
	for _, name := range []string{"go_goroutines", "process_cpu_seconds_total"} {
		if _, ok := m[name]; !ok {
			t.Errorf("no %s: the Go and process collectors are missing", name)
		}
	}
	for _, leak := range []string{a.key, b.key, third.key, cu.ID, "healthz", "/metrics", "cus_x"} {
		if strings.Contains(body, leak) {
			t.Errorf("/metrics holds %q", leak)
		}
	}
	if after.Requests.Total != before.Requests.Total {
		t.Errorf("/_sandbox/stats counted /healthz or /metrics: %d requests, then %d", before.Requests.Total, after.Requests.Total)
	}
	// Every route label is a name of the route table (or unknown), never a raw path.
	routeLabel := regexp.MustCompile(`route="([^"]*)"`)
	routeName := regexp.MustCompile(`^(unknown|(GET|POST|DELETE) (/v1|/_sandbox)(/[a-z_]+|/:[a-z]+)*)$`)
	for _, sm := range routeLabel.FindAllStringSubmatch(body, -1) {
		if !routeName.MatchString(sm[1]) {
			t.Errorf("route label %q is not a route name", sm[1])
		}
	}
}

// TestMetrics_PerServer: each server has its own registry; two in one
// process neither share counts nor clash registering.
func TestMetrics_PerServer(t *testing.T) {
	t.Parallel()
	one, two := sandboxtest.Start(t), sandboxtest.Start(t)
	envOn(t, one, sandboxtest.NewKey(t)).get(wire.PathCustomers, nil).ok(nil)
	m1, _ := scrape(t, one)
	m2, _ := scrape(t, two)
	sample := `payments_sandbox_requests_total{route="GET /v1/customers",status="200"}`
	if m1[sample] != 1 || m2[sample] != 0 {
		t.Errorf("%s: %v on the server called, %v on the other", sample, m1[sample], m2[sample])
	}
}

// TestMetrics_Deliveries: webhook delivery attempts by outcome.
func TestMetrics_Deliveries(t *testing.T) {
	t.Parallel()
	sb := sandboxtest.Start(t, sandboxtest.WithOptions(sandbox.Options{Webhooks: fastHooks}))
	e := envOn(t, sb, sandboxtest.NewKey(t))
	rc := newReceiver(t)
	var n atomic.Int32
	rc.handle = func(w http.ResponseWriter, _ *http.Request, _ hit) {
		if n.Add(1) <= 2 {
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		w.WriteHeader(http.StatusNoContent)
	}
	gone := newReceiver(t)
	gone.Close()
	e.endpoint(rc.URL, "*")
	e.endpoint(gone.URL, "*")
	e.customer(nil)
	want := map[string]float64{"success": 1, "failure": 2, "error": 1}
	deadline := time.Now().Add(15 * time.Second)
	for {
		m, _ := scrape(t, sb)
		done := true
		for outcome, n := range want {
			if m[`payments_sandbox_webhook_deliveries_total{outcome="`+outcome+`"}`] < n {
				done = false
			}
		}
		if done {
			if got := m[`payments_sandbox_webhook_deliveries_total{outcome="success"}`]; got != 1 {
				t.Errorf("%v successful deliveries, want 1", got)
			}
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("deliveries by outcome after 15s: %v, want at least %v", m, want)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
