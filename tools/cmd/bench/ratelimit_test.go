package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestRateLimitRun_UsefulAndBound(t *testing.T) {
	t.Parallel()
	// The baseline before the rate gate, at 10/s: 310 requests, 150 refused, 15.9 s.
	r := rateLimitRun{N: 80, Limit: 10, Seconds: 15.9, Total: 310, Refused: 150}
	if r.Useful() != 160 || r.Bound() != 16 {
		t.Fatalf("useful %d, bound %v; want 160 and 16", r.Useful(), r.Bound())
	}
	if got := r.Ratio(); got < 0.99 || got > 0.995 {
		t.Errorf("ratio %v, want 15.9/16", got)
	}
	if got := r.RefusedShare(); got < 0.48 || got > 0.49 {
		t.Errorf("refused share %v, want 150/310", got)
	}
	cs := rateLimitChecks([]rateLimitRun{r, {N: 80, Limit: 10, MaxRPS: 10, Seconds: 17.0, Total: 161, Refused: 1}})
	want := []struct {
		name string
		pass bool
	}{
		{"apply time ÷ bound at 10/s, N=80, default settings", true},
		{"share of requests refused (429) at 10/s, N=80, default settings", false},
		{"apply time ÷ bound at 10/s, N=80, max_requests_per_second = 10", true},
		{"share of requests refused (429) at 10/s, N=80, max_requests_per_second = 10", true},
	}
	if len(cs) != len(want) {
		t.Fatalf("%d checks, want %d", len(cs), len(want))
	}
	for i, w := range want {
		if cs[i].Name != w.name || cs[i].Pass() != w.pass {
			t.Errorf("check %d: %q pass %v (%v ≤ %v), want %q pass %v", i, cs[i].Name, cs[i].Pass(), cs[i].Value, cs[i].Limit, w.name, w.pass)
		}
	}
}

func TestRateLimitMedians_PerMode(t *testing.T) {
	t.Parallel()
	runs := []rateLimitRun{
		{Limit: 10, Seconds: 18, Total: 170, Refused: 10},
		{Limit: 10, Seconds: 17, Total: 165, Refused: 5},
		{Limit: 10, Seconds: 30, Total: 200, Refused: 40},
		{Limit: 10, MaxRPS: 10, Seconds: 16.5, Total: 160},
		{Limit: 25, Seconds: 7, Total: 161, Refused: 1},
	}
	got := rateLimitMedians(runs)
	if len(got) != 3 {
		t.Fatalf("%d rows, want one per limit and mode (3)", len(got))
	}
	if got[0].Seconds != 18 || got[0].Refused != 10 {
		t.Errorf("median run %+v, want the 18 s run with its own counts", got[0])
	}
	floors := []floorPacedRun{{Limit: 10, Seconds: 16.4}, {Limit: 10, Seconds: 16}, {Limit: 10, Seconds: 17}}
	if m := floorPacedMedians(floors); len(m) != 1 || m[[2]int64{0, 10}] != 16.4 {
		t.Errorf("floor medians %v, want 16.4 s at 10/s", m)
	}
	var b bytes.Buffer
	writeRateLimitTable(&b, got, floors)
	// 18 ÷ 16.4 and 16.5 ÷ 16.4 against the floor at 10/s; none at 25/s.
	for _, s := range []string{"limit /s", "unset", "1.125", "1.031", "5.9%", "0.6%", "floor paced s", "16.40", "1.098", "1.006"} {
		if !strings.Contains(b.String(), s) {
			t.Errorf("table lacks %q:\n%s", s, b.String())
		}
	}
}

func TestWriteRateLimitPlot_PNG(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "ratelimit.png")
	rows := []rateLimitRun{
		{N: 80, Limit: 0, Seconds: 3, Total: 160},
		{N: 80, Limit: 10, Seconds: 17, Total: 161, Refused: 1},
		{N: 80, Limit: 10, MaxRPS: 10, Seconds: 17.1, Total: 160},
		{N: 80, Limit: 25, Seconds: 7.7, Total: 161, Refused: 1},
		{N: 80, Limit: 25, MaxRPS: 25, Seconds: 7.5, Total: 160},
	}
	if err := writeRateLimitPlot(path, rows); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil || len(b) < 1000 || !bytes.HasPrefix(b, []byte("\x89PNG")) {
		t.Fatalf("plot: %d bytes, %v; want a PNG", len(b), err)
	}
}
