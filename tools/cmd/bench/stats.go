package main

import (
	"maps"
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
