package main

import (
	"context"
	"fmt"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandboxclient"
	"strings"

	"github.com/paymentsdev/terraform-provider-payments/internal/client"
)

// mix is one fault setting of the sandbox, applied to a fresh account.
type mix struct {
	Name      string
	ErrorRate float64
	DropRate  float64
	LatencyMS int64
	RateLimit int64
	// Interrupt sends SIGINT to terraform once a share of the customers
	// exist, then compares state with the service before converging.
	Interrupt bool
}

// mixes are the fault mixes the soak runs, in order.
var mixes = []mix{
	{Name: "baseline"},
	{Name: "errors-20%", ErrorRate: 0.2},
	{Name: "drops-10%", DropRate: 0.1},
	{Name: "ratelimit-20/s", RateLimit: 20},
	{Name: "combined", ErrorRate: 0.1, DropRate: 0.05, RateLimit: 20, LatencyMS: 20},
	{Name: "interrupt", ErrorRate: 0.05, DropRate: 0.05, LatencyMS: 100, Interrupt: true},
}

// selectMixes returns the mixes -mixes names, in the soak's order, or all
// of them for "". A name that is no mix is an error, not a run of nothing.
func selectMixes(only string) ([]mix, error) {
	if strings.TrimSpace(only) == "" {
		return mixes, nil
	}
	want := map[string]bool{}
	for name := range strings.SplitSeq(only, ",") {
		want[strings.TrimSpace(name)] = true
	}
	var out []mix
	var names []string
	for _, m := range mixes {
		names = append(names, m.Name)
		if want[m.Name] {
			out = append(out, m)
			delete(want, m.Name)
		}
	}
	for name := range want {
		return nil, fmt.Errorf("-mixes: no mix %q; the mixes are %s", name, strings.Join(names, ", "))
	}
	return out, nil
}

// faults switches one mix's faults on and off in its account.
type faults struct {
	api *client.Client
	mix mix
}

func (f faults) on(ctx context.Context) error {
	m := f.mix
	_, err := sandboxclient.New(f.api).SetFaults(ctx, sandboxclient.FaultsParams{
		ErrorRate: &m.ErrorRate, DropRate: &m.DropRate, LatencyMS: &m.LatencyMS, RateLimit: &m.RateLimit,
	})
	return err
}

func (f faults) off(ctx context.Context) error {
	var zf float64
	var zi int64
	_, err := sandboxclient.New(f.api).SetFaults(ctx, sandboxclient.FaultsParams{ErrorRate: &zf, DropRate: &zf, LatencyMS: &zi, RateLimit: &zi})
	return err
}

// faultsString describes a mix's faults for the table.
func faultsString(m mix) string {
	var parts []string
	if m.ErrorRate > 0 {
		parts = append(parts, fmt.Sprintf("err %g", m.ErrorRate))
	}
	if m.DropRate > 0 {
		parts = append(parts, fmt.Sprintf("drop %g", m.DropRate))
	}
	if m.RateLimit > 0 {
		parts = append(parts, fmt.Sprintf("%d/s", m.RateLimit))
	}
	if m.LatencyMS > 0 {
		parts = append(parts, fmt.Sprintf("%dms", m.LatencyMS))
	}
	if m.Interrupt {
		parts = append(parts, "SIGINT")
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, " ")
}
