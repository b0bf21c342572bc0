package main

import (
	"maps"
	"math/rand/v2"
	"slices"
	"sort"
	"time"

	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// statsDelta is what the sandbox counted between two reads of its stats.
type statsDelta struct {
	// Requests is the number of /v1 requests by route pattern.
	Requests map[string]int64
	// Total is the number of /v1 requests.
	Total int64
	// Connections is the number of TCP connections the sandbox accepted.
	Connections int64
}

// diffStats returns after minus before. Routes whose count did not move are
// left out.
func diffStats(before, after *wire.Stats) statsDelta {
	d := statsDelta{
		Requests:    map[string]int64{},
		Total:       after.Requests.Total - before.Requests.Total,
		Connections: after.Connections - before.Connections,
	}
	for route, n := range after.Requests.ByRoute {
		if n -= before.Requests.ByRoute[route]; n != 0 {
			d.Requests[route] = n
		}
	}
	return d
}

// perResource divides each route's count by the number of resources.
func perResource(requests map[string]int64, resources int) map[string]float64 {
	out := make(map[string]float64, len(requests))
	for route, n := range requests {
		out[route] = float64(n) / float64(resources)
	}
	return out
}

// sortedRoutes returns the routes of m in a stable order.
func sortedRoutes[V any](m map[string]V) []string {
	return slices.Sorted(maps.Keys(m))
}

// median returns the median of xs (the mean of the middle two for an even
// count) and 0 for none.
func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	sort.Float64s(s)
	m := len(s) / 2
	if len(s)%2 == 1 {
		return s[m]
	}
	return (s[m-1] + s[m]) / 2
}

// latencyBound is the fastest an apply can be when every request waits
// latency: the floor's time plus the requests' waiting, spread over
// Terraform's parallel operations.
func latencyBound(floorSeconds float64, requests int64, latency time.Duration, parallelism int) float64 {
	return floorSeconds + float64(requests)*latency.Seconds()/float64(parallelism)
}

// percentile returns the p-th percentile (0 ≤ p ≤ 1) of sorted, by linear
// interpolation between the closest ranks; 0 for none.
func percentile(sorted []float64, p float64) float64 {
	if len(sorted) == 0 {
		return 0
	}
	x := p * float64(len(sorted)-1)
	i := int(x)
	if i >= len(sorted)-1 {
		return sorted[len(sorted)-1]
	}
	return sorted[i] + (x-float64(i))*(sorted[i+1]-sorted[i])
}

// bootstrapResamples is how many resamples medianCI draws: enough for
// the 2.5th and 97.5th percentiles to move by less than the last digit
// the reports print.
const bootstrapResamples = 10000

// medianCI returns the median of xs and a 95 % confidence interval for
// it by the percentile bootstrap: the median of resamples of xs (drawn
// with replacement by rng, so a seed replays it), whose 2.5th and 97.5th
// percentiles bound it. It assumes nothing of how xs is distributed,
// which a busy machine's timings are not (normal).
func medianCI(xs []float64, rng *rand.Rand) (med, lo, hi float64) {
	if len(xs) == 0 {
		return 0, 0, 0
	}
	meds := make([]float64, bootstrapResamples)
	re := make([]float64, len(xs))
	for i := range meds {
		for j := range re {
			re[j] = xs[rng.IntN(len(xs))]
		}
		meds[i] = median(re)
	}
	sort.Float64s(meds)
	return median(xs), percentile(meds, 0.025), percentile(meds, 0.975)
}
