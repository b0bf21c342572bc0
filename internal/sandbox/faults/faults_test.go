package faults_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/faults"
)

// draw returns n decisions of a gate whose error and drop rates are set,
// seeded by seed.
func draw(t *testing.T, seed int64, errorRate, dropRate float64, n int) []faults.Decision {
	t.Helper()
	var g faults.Gate
	g.Update(seed, func(f *faults.Settings) (int64, bool) {
		f.ErrorRate, f.DropRate = errorRate, dropRate
		return -1, true
	})
	out := make([]faults.Decision, n)
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range out {
		out[i] = g.Decide(now, seed)
	}
	return out
}

// TestGate_SeedReplays: the same seed draws the same faults; another
// seed other ones; the rates hold roughly over many draws.
func TestGate_SeedReplays(t *testing.T) {
	t.Parallel()
	const seed, n = 42, 2000
	t.Logf("seed %d", seed)
	a, b, other := draw(t, seed, 0.3, 0.2, n), draw(t, seed, 0.3, 0.2, n), draw(t, seed+1, 0.3, 0.2, n)
	same, fails, drops, unavailable := true, 0, 0, 0
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("decision %d: %+v, then %+v with the same seed", i, a[i], b[i])
		}
		same = same && a[i] == other[i]
		if a[i].Fail {
			fails++
			if a[i].Status == http.StatusServiceUnavailable {
				unavailable++
			} else if a[i].Status != http.StatusInternalServerError {
				t.Errorf("decision %d fails with %d", i, a[i].Status)
			}
		}
		if a[i].Drop {
			drops++
			if a[i].Fail {
				t.Errorf("decision %d both fails and drops", i)
			}
		}
	}
	if same {
		t.Error("another seed drew the same faults")
	}
	// 30% fail; 20% of the rest drop (14%); half the failures are 503.
	if fails < n*25/100 || fails > n*35/100 || drops < n*10/100 || drops > n*18/100 || unavailable < fails/3 || unavailable > fails*2/3 {
		t.Errorf("of %d: %d failures (%d of them 503), %d drops", n, fails, unavailable, drops)
	}
}

func TestGate_NoFaults(t *testing.T) {
	t.Parallel()
	for i, d := range draw(t, 7, 0, 0, 100) {
		if d.Fail || d.Drop || d.Limited || d.Latency != 0 {
			t.Fatalf("decision %d of a zero gate: %+v", i, d)
		}
	}
}

// TestGate_RateLimit: a sliding window of one second, not buckets; a new
// limit starts a new window.
func TestGate_RateLimit(t *testing.T) {
	t.Parallel()
	var g faults.Gate
	set := func(n int64) {
		g.Update(1, func(f *faults.Settings) (int64, bool) { f.RateLimit = n; return -1, true })
	}
	set(2)
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		after   time.Duration
		limited bool
		wait    time.Duration
	}{
		{0, false, 0},
		{600 * time.Millisecond, false, 0},
		{900 * time.Millisecond, true, 100 * time.Millisecond}, // a third within the second of the first
		{1000 * time.Millisecond, false, 0},                    // the first is a second old
		{1500 * time.Millisecond, true, 100 * time.Millisecond},
		{1600 * time.Millisecond, false, 0},
	} {
		d := g.Decide(t0.Add(tc.after), 1)
		if d.Limited != tc.limited || d.Wait != tc.wait || d.RateLimit != 2 {
			t.Errorf("at %v: limited %v, wait %v, limit %d; want %v, %v, 2", tc.after, d.Limited, d.Wait, d.RateLimit, tc.limited, tc.wait)
		}
	}
	set(1)
	if d := g.Decide(t0.Add(1700*time.Millisecond), 1); d.Limited {
		t.Errorf("a new limit kept the old window: %+v", d)
	}
}

// TestGate_Update: a refused edit changes nothing; a seed restarts the
// decisions; the first seed is the one the caller gives.
func TestGate_Update(t *testing.T) {
	t.Parallel()
	var g faults.Gate
	if f := g.Settings(99); f.Seed != 99 {
		t.Errorf("first seed %d, want the caller's 99", f.Seed)
	}
	before := g.Update(5, func(f *faults.Settings) (int64, bool) {
		f.LatencyMS = 250
		return -1, true
	})
	if before.LatencyMS != 250 || before.Seed != 99 {
		t.Errorf("after an update: %+v", before)
	}
	after := g.Update(5, func(f *faults.Settings) (int64, bool) {
		f.LatencyMS, f.ErrorRate = 1, 1
		return 3, false
	})
	if after != before || g.Settings(5) != before {
		t.Errorf("a refused edit changed the settings: %+v, want %+v", after, before)
	}
	if d := g.Decide(time.Now(), 5); d.Latency != 250*time.Millisecond {
		t.Errorf("latency %v, want 250ms", d.Latency)
	}
	if f := g.Update(5, func(*faults.Settings) (int64, bool) { return 12345, true }); f.Seed != 12345 {
		t.Errorf("seed %d after reseeding with 12345", f.Seed)
	}
	if f := g.Update(5, func(*faults.Settings) (int64, bool) { return 0, true }); f.Seed < 1 {
		t.Errorf("seed %d after asking for a random one", f.Seed)
	}
}
