package main

import (
	"maps"
	"math"
	"testing"
	"time"

	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

func stats(total, conns int64, routes map[string]int64) *wire.Stats {
	return &wire.Stats{Requests: wire.StatsRequests{Total: total, ByRoute: routes}, Connections: conns}
}

func TestDiffStats_Deltas(t *testing.T) {
	for _, tc := range []struct {
		name          string
		before, after *wire.Stats
		want          statsDelta
	}{
		{
			name:   "from nothing",
			before: stats(0, 1, nil),
			after:  stats(4, 11, map[string]int64{"POST /v1/customers": 2, "POST /v1/customers/:id/sources": 2}),
			want: statsDelta{Total: 4, Connections: 10,
				Requests: map[string]int64{"POST /v1/customers": 2, "POST /v1/customers/:id/sources": 2}},
		},
		{
			name:   "unchanged routes left out",
			before: stats(4, 11, map[string]int64{"POST /v1/customers": 2, "POST /v1/customers/:id/sources": 2}),
			after:  stats(8, 12, map[string]int64{"POST /v1/customers": 2, "POST /v1/customers/:id/sources": 2, "GET /v1/customers/:id": 4}),
			want:   statsDelta{Total: 4, Connections: 1, Requests: map[string]int64{"GET /v1/customers/:id": 4}},
		},
		{
			name:   "nothing",
			before: stats(3, 2, map[string]int64{"GET /v1/customers/:id": 3}),
			after:  stats(3, 2, map[string]int64{"GET /v1/customers/:id": 3}),
			want:   statsDelta{Requests: map[string]int64{}},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := diffStats(tc.before, tc.after)
			if got.Total != tc.want.Total || got.Connections != tc.want.Connections || !maps.Equal(got.Requests, tc.want.Requests) {
				t.Errorf("got %+v, want %+v", got, tc.want)
			}
		})
	}
}

func TestPerResource_ByRoute(t *testing.T) {
	got := perResource(map[string]int64{"POST /v1/customers": 100, "GET /v1/customers/:id": 50}, 200)
	want := map[string]float64{"POST /v1/customers": 0.5, "GET /v1/customers/:id": 0.25}
	if !maps.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}

func TestMedian_Values(t *testing.T) {
	for _, tc := range []struct {
		xs   []float64
		want float64
	}{
		{nil, 0},
		{[]float64{3}, 3},
		{[]float64{5, 1, 3}, 3},
		{[]float64{4, 1, 3, 2}, 2.5},
	} {
		if got := median(tc.xs); got != tc.want {
			t.Errorf("median(%v) = %v, want %v", tc.xs, got, tc.want)
		}
	}
}

func TestLatencyBound_Formula(t *testing.T) {
	for _, tc := range []struct {
		floor       float64
		requests    int64
		latency     time.Duration
		parallelism int
		want        float64
	}{
		{10, 1000, 50 * time.Millisecond, 10, 15},
		{10, 1000, 20 * time.Millisecond, 10, 12},
		{2, 0, 50 * time.Millisecond, 10, 2},
		{0, 100, 100 * time.Millisecond, 1, 10},
	} {
		if got := latencyBound(tc.floor, tc.requests, tc.latency, tc.parallelism); math.Abs(got-tc.want) > 1e-9 {
			t.Errorf("latencyBound(%v, %d, %v, %d) = %v, want %v", tc.floor, tc.requests, tc.latency, tc.parallelism, got, tc.want)
		}
	}
}
