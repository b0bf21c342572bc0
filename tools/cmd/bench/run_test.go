package main

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/paymentsdev/terraform-provider-payments/internal/tfcli"
)

func TestTerraformArgs_PerOperation(t *testing.T) {
	tf := &tfcli.Runner{Parallelism: 10}
	for op, want := range map[string]string{
		opApply:   "apply -auto-approve -input=false -no-color -parallelism=10",
		opPlan:    "plan -detailed-exitcode -input=false -no-color -parallelism=10 -refresh=true",
		opDestroy: "destroy -auto-approve -input=false -no-color -parallelism=10",
	} {
		if got := strings.Join(terraformArgs(tf, op), " "); got != want {
			t.Errorf("%s: got %q, want %q", op, got, want)
		}
	}
}

func TestParseFlags_Lists(t *testing.T) {
	for _, tc := range []struct {
		args        []string
		ns, repeats []int
		latencies   []int64
		err         bool
	}{
		{args: nil, ns: []int{100, 500, 1000}, repeats: []int{3, 3, 1}, latencies: []int64{20, 50}},
		{args: []string{"-n", "20", "-repeat", "1", "-latency", ""}, ns: []int{20}, repeats: []int{1}},
		{args: []string{"-n", "10,20", "-repeat", "2"}, ns: []int{10, 20}, repeats: []int{2, 2}, latencies: []int64{20, 50}},
		{args: []string{"-n", "10,20", "-repeat", "1,2,3"}, err: true},
		{args: []string{"-n", "0"}, err: true},
		{args: []string{"-latency", "fast"}, err: true},
	} {
		o, err := parseFlags(tc.args)
		if tc.err {
			if err == nil {
				t.Errorf("%q: want an error", tc.args)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: %v", tc.args, err)
			continue
		}
		if !slices.Equal(o.ns, tc.ns) || !slices.Equal(o.repeats, tc.repeats) || !slices.Equal(o.latencies, tc.latencies) {
			t.Errorf("%q: got n %v repeat %v latency %v", tc.args, o.ns, o.repeats, o.latencies)
		}
	}
}

func TestProcStatCPU_Fields(t *testing.T) {
	for _, tc := range []struct {
		stat string
		want time.Duration
	}{
		{"16634 (cat) R 16576 16576 12188 0 -1 4194304 99 0 0 0 150 25 0 0 20 0 1 0", 1750 * time.Millisecond},
		{"7 (a (weird) name) S 1 7 7 0 -1 0 0 0 0 0 3 2 0 0", 50 * time.Millisecond},
		{"garbage", 0},
		{"1 (x) S 1 2", 0},
	} {
		if got := procStatCPU(tc.stat); got != tc.want {
			t.Errorf("procStatCPU(%q) = %v, want %v", tc.stat, got, tc.want)
		}
	}
}

func TestParseFlags_JournalPhase(t *testing.T) {
	o, err := parseFlags([]string{"-journal-rounds", "40", "-journal-n", "20", "-seed", "7"})
	if err != nil || o.journalRounds != 40 || o.journalN != 20 || o.seed != 7 {
		t.Errorf("got rounds %d, n %d, seed %d, %v; want 40, 20, 7", o.journalRounds, o.journalN, o.seed, err)
	}
	if o, err := parseFlags(nil); err != nil || o.journalRounds != 0 || o.seed == 0 {
		t.Errorf("by default: rounds %d, seed %d, %v; want no journal phase and a seed drawn", o.journalRounds, o.seed, err)
	}
	for _, args := range [][]string{{"-journal-rounds", "-1"}, {"-journal-n", "0"}} {
		if _, err := parseFlags(args); err == nil {
			t.Errorf("%q: want an error", args)
		}
	}
}
