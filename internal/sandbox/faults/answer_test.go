package faults

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/form"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// TestParse_Settings: the named settings change, the others stay, an
// empty value turns one off, and a bad value is refused naming it.
func TestParse_Settings(t *testing.T) {
	start := Settings{ErrorRate: 0.5, DropRate: 0.25, LatencyMS: 10, RateLimit: 5}
	for _, tc := range []struct {
		raw   string
		want  Settings
		seed  int64
		param string // the refusal's param, "" when accepted
	}{
		{"", start, -1, ""},
		{"error_rate=0.1", Settings{ErrorRate: 0.1, DropRate: 0.25, LatencyMS: 10, RateLimit: 5}, -1, ""},
		{"error_rate=&rate_limit=", Settings{DropRate: 0.25, LatencyMS: 10}, -1, ""},
		{"latency_ms=60000&drop_rate=1", Settings{ErrorRate: 0.5, DropRate: 1, LatencyMS: MaxLatencyMS, RateLimit: 5}, -1, ""},
		{"seed=42", start, 42, ""},
		{"seed=", start, 0, ""},
		{"error_rate=1.5", Settings{}, 0, wire.ParamErrorRate},
		{"drop_rate=NaN", Settings{}, 0, wire.ParamDropRate},
		{"latency_ms=60001", Settings{}, 0, wire.ParamLatencyMS},
		{"rate_limit=-1", Settings{}, 0, wire.ParamRateLimit},
		{"seed=x", Settings{}, 0, wire.ParamSeed},
	} {
		t.Run(tc.raw, func(t *testing.T) {
			f, fe := form.Parse(nil, tc.raw)
			if fe != nil {
				t.Fatal(fe)
			}
			s := start
			seed, e := Parse(f, &s)
			if tc.param != "" {
				if e == nil || e.Param != tc.param || !strings.Contains(e.Message, tc.param) {
					t.Fatalf("got %+v, %v; want a refusal naming %s", s, e, tc.param)
				}
				return
			}
			if e != nil || s != tc.want || seed != tc.seed {
				t.Errorf("got %+v seed %d (%v), want %+v seed %d", s, seed, e, tc.want, tc.seed)
			}
		})
	}
}

func TestSettings_AppendJSON(t *testing.T) {
	s := Settings{ErrorRate: 0.25, DropRate: 0.001, LatencyMS: 30, RateLimit: 2, Seed: 7}
	want := `{"object":"faults","error_rate":0.25,"drop_rate":0.001,"latency_ms":30,"rate_limit":2,"seed":7}`
	if got := string(s.AppendJSON(nil)); got != want {
		t.Errorf("AppendJSON = %s, want %s", got, want)
	}
}

func TestDecision_Refusals(t *testing.T) {
	for _, tc := range []struct {
		name   string
		d      Decision
		retry  int
		phrase string
	}{
		{"one per second", Decision{Limited: true, Wait: 200 * time.Millisecond, RateLimit: 1}, 1, "limited to 1 request per second"},
		{"rounded up", Decision{Limited: true, Wait: 1200 * time.Millisecond, RateLimit: 3}, 2, "limited to 3 requests per second (the rate_limit fault). Retry in 2 seconds"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := tc.d.RateLimited()
			if e.Status != http.StatusTooManyRequests || e.Code != wire.ErrorCodeRateLimited || e.RetryAfter != tc.retry || !strings.Contains(e.Message, tc.phrase) {
				t.Errorf("got %+v, want 429 Retry-After %d and %q", e, tc.retry, tc.phrase)
			}
		})
	}
	d := Decision{Fail: true, Status: http.StatusServiceUnavailable}
	if e := d.Failure(http.MethodPost); e.Status != http.StatusServiceUnavailable || e.Code != wire.ErrorCodeServerError || !strings.HasSuffix(e.Message, "Retry it with the same "+wire.HeaderIdempotencyKey+".") {
		t.Errorf("POST: %+v", e)
	}
	if e := d.Failure(http.MethodGet); !strings.HasSuffix(e.Message, "the request did nothing. Retry it.") {
		t.Errorf("GET: %+v", e)
	}
}
