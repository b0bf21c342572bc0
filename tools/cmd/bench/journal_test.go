package main

import (
	"math/rand/v2"
	"strings"
	"testing"
)

func TestPercentile_Interpolates(t *testing.T) {
	xs := []float64{1, 2, 3, 4, 5}
	for p, want := range map[float64]float64{0: 1, 0.5: 3, 1: 5, 0.25: 2, 0.1: 1.4} {
		if got := percentile(xs, p); got != want {
			t.Errorf("percentile(%v, %v) = %v, want %v", xs, p, got, want)
		}
	}
	if got := percentile(nil, 0.5); got != 0 {
		t.Errorf("percentile of none = %v, want 0", got)
	}
}

func TestMedianCI_CoversTheMedianAndNarrowsWithMoreRounds(t *testing.T) {
	const seed = 1
	t.Logf("seed %d", seed)
	noisy := func(n int, rng *rand.Rand) []float64 {
		xs := make([]float64, n)
		for i := range xs {
			xs[i] = 1 + 0.1*rng.NormFloat64()
		}
		return xs
	}
	rng := rand.New(rand.NewPCG(seed, 0))
	few, many := noisy(10, rng), noisy(200, rng)
	m1, lo1, hi1 := medianCI(few, rng)
	m2, lo2, hi2 := medianCI(many, rng)
	if lo1 > m1 || m1 > hi1 || lo2 > m2 || m2 > hi2 {
		t.Fatalf("an interval misses its median: %v in %v–%v, %v in %v–%v", m1, lo1, hi1, m2, lo2, hi2)
	}
	if hi2-lo2 >= hi1-lo1 {
		t.Errorf("200 rounds gave an interval %v–%v no narrower than 10 rounds' %v–%v", lo2, hi2, lo1, hi1)
	}
	if lo2 > 1 || hi2 < 1 {
		t.Errorf("200 rounds of 1 ± 0.1 gave %v–%v, which misses 1", lo2, hi2)
	}
	_, a, b := medianCI(few, rand.New(rand.NewPCG(seed, 0)))
	_, c, d := medianCI(few, rand.New(rand.NewPCG(seed, 0)))
	if a != c || b != d {
		t.Errorf("one seed gave two intervals: %v–%v and %v–%v", a, b, c, d)
	}
}

func TestJournalResults_PairsRoundByRound(t *testing.T) {
	var samples []sample
	// Round 2's apply is slow for every arm (the machine was busy): a
	// ratio of the round's runs cancels it.
	for round, slow := range []float64{1, 3, 1} {
		samples = append(samples,
			sample{Provider: armOn, Rep: round, Seconds: 1.01 * slow, CPUSeconds: 2.02 * slow},
			sample{Provider: armOff, Rep: round, Seconds: 1 * slow, CPUSeconds: 2 * slow},
			sample{Provider: armOffAgain, Rep: round, Seconds: 1 * slow, CPUSeconds: 2 * slow})
	}
	rs := journalResults(samples, rand.New(rand.NewPCG(1, 0)))
	for i, want := range []float64{1.01, 1, 1.01, 1} {
		r := rs[i]
		if len(r.Ratios) != 3 || !near(r.Median, want) || !near(r.Lo, want) || !near(r.Hi, want) || !near(r.MinRatio, want) {
			t.Errorf("%s: %+v, want every ratio %v", r.Name, r, want)
		}
	}
}

func near(a, b float64) bool { return a-b < 1e-9 && b-a < 1e-9 }

func TestJournalVerdict_PassFailOrNotShown(t *testing.T) {
	aa := journalRatios{Ratios: []float64{1}, Lo: 0.97, Hi: 1.03}
	for _, tc := range []struct {
		on   journalRatios
		want string
	}{
		{journalRatios{Ratios: []float64{1}, Lo: 0.99, Hi: 1.015}, "PASS"},
		{journalRatios{Ratios: []float64{1}, Lo: 1.03, Hi: 1.05}, "FAIL"},
		{journalRatios{Ratios: []float64{1}, Lo: 0.98, Hi: 1.04}, "NOT SHOWN"},
		{journalRatios{}, "not measured"},
	} {
		if got := journalVerdict(tc.on, aa, maxJournalRatio); !strings.HasPrefix(got, tc.want) {
			t.Errorf("interval %v–%v: %q, want %s", tc.on.Lo, tc.on.Hi, got, tc.want)
		}
	}
	if got := journalVerdict(journalRatios{Ratios: []float64{1}, Lo: 0.98, Hi: 1.04}, aa, maxJournalRatio); !strings.Contains(got, "±3.0 %") {
		t.Errorf("the verdict does not give the A/A resolution: %q", got)
	}
}
