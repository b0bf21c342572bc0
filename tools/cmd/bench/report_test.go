package main

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fakeSamples are two repetitions at N=10: the payments provider at twice
// the floor's apply time, one request per resource on create, and the
// request floor between them.
func fakeSamples() []sample {
	var out []sample
	for rep := range 2 {
		for _, op := range operations {
			d := &statsDelta{Total: 20, Connections: int64(10 + rep),
				Requests: map[string]int64{"POST /v1/customers": 10, "POST /v1/customers/:id/sources": 10}}
			out = append(out,
				sample{N: 10, Op: op, Provider: paymentsLocal, Rep: rep, Resources: 20, Seconds: 2 + float64(rep), CPUSeconds: 3, SandboxCPUSeconds: 0.5, Delta: d},
				sample{N: 10, Op: op, Provider: floorLocal, Rep: rep, Resources: 20, Seconds: 1 + float64(rep), CPUSeconds: 2},
				sample{N: 10, Op: op, Provider: requestFloorName, Rep: rep, Resources: 20, Seconds: 1.5 + float64(rep), CPUSeconds: 2.5, SandboxCPUSeconds: 0.25})
		}
	}
	return append(out,
		sample{N: 10, Op: opApply, Provider: paymentsLocal, LatencyMS: 50, Seconds: 2.5, Delta: &statsDelta{Total: 20}},
		sample{N: 10, Op: opApply, Provider: paymentsLocal, LatencyMS: 50, Seconds: 3.5, Delta: &statsDelta{Total: 20}})
}

func TestAggregate_PerOperation(t *testing.T) {
	rows := aggregate(fakeSamples(), []int{10, 20})
	if len(rows) != len(operations) {
		t.Fatalf("got %d rows, want one per operation at N=10 and none at N=20 (no samples)", len(rows))
	}
	r := rows[0]
	if r.N != 10 || r.Op != opApply || r.Runs != 2 {
		t.Fatalf("first row is %+v", r)
	}
	// Medians: payments (2+3)/2, floor (1+2)/2; the latency samples are left out.
	if r.Payments != 2.5 || r.Floor != 1.5 || math.Abs(r.Ratio-2.5/1.5) > 1e-9 {
		t.Errorf("times: got payments %v floor %v ratio %v", r.Payments, r.Floor, r.Ratio)
	}
	if r.PaymentsCPU != 3 || r.FloorCPU != 2 || r.CPURatio != 1.5 || r.SandboxCPU != 0.5 {
		t.Errorf("CPU: got payments %v floor %v ratio %v sandbox %v", r.PaymentsCPU, r.FloorCPU, r.CPURatio, r.SandboxCPU)
	}
	if r.Requests != 1 || r.PerResource["POST /v1/customers"] != 0.5 {
		t.Errorf("requests per resource: got %v by route %v, want 1 and 0.5 each", r.Requests, r.PerResource)
	}
	if r.Connections != 10.5 {
		t.Errorf("connections: got %v, want the median 10.5", r.Connections)
	}
	// The request floor: (1.5+2.5)/2 = 2 seconds, 2.5 CPU, 0.25 sandbox.
	if r.RequestFloor != 2 || r.RequestFloorCPU != 2.5 || r.RequestFloorSandboxCPU != 0.25 ||
		r.RatioToRequestFloor != 1.25 || math.Abs(r.RequestFloorRatio-2/1.5) > 1e-9 ||
		r.CPURatioToRequestFloor != 1.2 || r.RequestFloorCPURatio != 1.25 {
		t.Errorf("request floor: got %v s, %v CPU, %v sandbox, ratios %v %v %v %v", r.RequestFloor, r.RequestFloorCPU,
			r.RequestFloorSandboxCPU, r.RatioToRequestFloor, r.RequestFloorRatio, r.CPURatioToRequestFloor, r.RequestFloorCPURatio)
	}
	// Run by run: payments 2/1 and 3/2 over the floor, 2/1.5 and 3/2.5
	// over the request floor, which is 1.5/1 and 2.5/2 over the floor.
	want := paired{Ratio: 1.75, CPURatio: 1.5, RatioToRequestFloor: (2/1.5 + 3/2.5) / 2, CPURatioToRequestFloor: 1.2,
		RequestFloorRatio: 1.375, RequestFloorCPURatio: 1.25, Runs: 2}
	got := r.Paired
	for _, d := range [][2]float64{{got.Ratio, want.Ratio}, {got.CPURatio, want.CPURatio}, {got.RatioToRequestFloor, want.RatioToRequestFloor},
		{got.CPURatioToRequestFloor, want.CPURatioToRequestFloor}, {got.RequestFloorRatio, want.RequestFloorRatio},
		{got.RequestFloorCPURatio, want.RequestFloorCPURatio}} {
		if math.Abs(d[0]-d[1]) > 1e-9 {
			t.Errorf("paired ratios: got %+v, want %+v", got, want)
			break
		}
	}
	if got.Runs != 2 {
		t.Errorf("paired runs: got %d, want 2", got.Runs)
	}
}

func TestLatencyRows_Bound(t *testing.T) {
	rows := latencyRows(fakeSamples(), 10, []int64{20, 50}, 10)
	if len(rows) != 1 {
		t.Fatalf("got %d rows, want 1 (no samples at 20 ms)", len(rows))
	}
	r := rows[0]
	// bound = floor apply median 1.5 + 20 requests × 0.05 s ÷ 10 = 1.6
	if r.FloorApply != 1.5 || r.Requests != 20 || math.Abs(r.Bound-1.6) > 1e-9 || r.Apply != 3 || math.Abs(r.Ratio-3/1.6) > 1e-9 {
		t.Errorf("got %+v", r)
	}
}

func TestChecks_Thresholds(t *testing.T) {
	rows := []row{
		// The thresholds read the paired ratios, not the ratios of medians.
		{N: 500, Op: opApply, Ratio: 1.2, Requests: 1, Connections: 12, RequestFloor: 1, RatioToRequestFloor: 1,
			Paired: paired{Ratio: 1.04, RatioToRequestFloor: 1.06}},
		{N: 500, Op: opPlan, Ratio: 1, Requests: 1.5, RequestFloor: 1, RatioToRequestFloor: 1.2,
			Paired: paired{Ratio: 1.06, RatioToRequestFloor: 1.01}},
		{N: 100, Op: opApply, Ratio: 3},
	}
	lrows := []latencyRow{{N: 500, LatencyMS: 20, Ratio: 2}, {N: 500, LatencyMS: 50, Ratio: 1.2}}
	got := map[string]string{}
	for _, c := range checks(rows, lrows, 500, 10) {
		got[c.Name] = c.Verdict()
	}
	want := map[string]string{
		"apply time ÷ floor (paired) at N=500":                "PASS",
		"refresh-plan time ÷ floor (paired) at N=500":         "FAIL",
		"requests per resource, create (apply) at N=500":      "PASS",
		"requests per resource, refresh (plan) at N=500":      "FAIL",
		"connections per apply at N=500 (≤ 2 × parallelism)":  "PASS",
		"apply at 50 ms latency ÷ bound at N=500":             "PASS",
		"apply time ÷ request floor (paired) at N=500":        "FAIL",
		"refresh-plan time ÷ request floor (paired) at N=500": "PASS",
	}
	for name, v := range want {
		if got[name] != v {
			t.Errorf("%s: got %q, want %q (all: %v)", name, got[name], v, got)
		}
	}

	for _, c := range checks(rows, nil, 1000, 10) {
		if c.Measured {
			t.Errorf("%s: measured without rows at N=1000 or latency rows", c.Name)
		}
	}
}

func TestWriteOutputs_Files(t *testing.T) {
	dir := t.TempDir()
	samples := fakeSamples()
	rows := aggregate(samples, []int{10})
	lrows := latencyRows(samples, 10, []int64{50}, 10)
	if err := writeCSVs(dir, rows, lrows, samples); err != nil {
		t.Fatal(err)
	}
	if err := writePlot(filepath.Join(dir, "bench.png"), rows); err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{
		"bench.csv": "10,apply,2,2.5000,1.5000,1.6667,3.0000,2.0000,1.5000,0.5000,1.0000,10.5000,POST /v1/customers 0.50; POST /v1/customers/:id/sources 0.50," +
			"2.0000,2.5000,0.2500,1.2500,1.3333,1.7500,1.5000,1.2667,1.3750\n",
		"latency.csv": "10,50,1.5000,20,1.6000,3.0000,1.8750\n",
		"samples.csv": "10,apply,payments,1,0,2.0000,3.0000,0.5000,20,10\n",
		"bench.png":   "\x89PNG",
	} {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(b), want) {
			t.Errorf("%s lacks %q:\n%s", name, want, b[:min(len(b), 400)])
		}
	}
}
