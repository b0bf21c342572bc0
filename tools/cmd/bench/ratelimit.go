package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"text/tabwriter"

	"github.com/paymentsdev/terraform-provider-payments/internal/provider"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandboxclient"
	"github.com/paymentsdev/terraform-provider-payments/internal/tfcli"
	"github.com/paymentsdev/terraform-provider-payments/tools/internal/floor"
)

// The rate-limit phase: apply N customers with a card each
// against the sandbox limited to R requests a second, with the provider's
// defaults and with max_requests_per_second = R, and compare the time with
// the bound (useful requests ÷ R: no client can be faster) and count the
// requests the sandbox refused with 429.

// Beside each limit the phase times the floor provider paced to the limit
// (floor.EnvRateLimit): its creates go the moment the sandbox's window
// allows and are answered at once. No provider on this framework can
// apply faster under the limit than that; the bound above ignores what
// Terraform and the framework take before the first request and after
// the last, the floor paced includes it.

// floorPacedRun is one timed apply of the floor provider paced to Limit.
type floorPacedRun struct {
	N       int
	Limit   int64
	Rep     int
	Seconds float64
}

// rateLimitRun is one timed apply of the phase.
type rateLimitRun struct {
	N int
	// Limit is the sandbox's rate_limit; MaxRPS the provider's
	// max_requests_per_second, 0 when unset.
	Limit  int64
	MaxRPS int64
	Rep    int
	// Seconds is the apply's wall-clock time.
	Seconds float64
	// Total and Refused are the sandbox's requests.total and
	// faults.rate_limited during the apply.
	Total, Refused int64
}

// Useful is the number of requests the sandbox accepted.
func (r rateLimitRun) Useful() int64 { return r.Total - r.Refused }

// Bound is the least time any client needs: useful requests ÷ limit; 0
// without a limit.
func (r rateLimitRun) Bound() float64 {
	if r.Limit <= 0 {
		return 0
	}
	return float64(r.Useful()) / float64(r.Limit)
}

// Ratio is the apply's time over the bound; 0 without a limit.
func (r rateLimitRun) Ratio() float64 {
	if r.Limit <= 0 {
		return 0
	}
	return r.Seconds / r.Bound()
}

// RefusedShare is the share of requests refused with 429.
func (r rateLimitRun) RefusedShare() float64 {
	if r.Total == 0 {
		return 0
	}
	return float64(r.Refused) / float64(r.Total)
}

// The rate-limit targets, at N = 80.
const (
	maxRateLimitRatio         = 1.2
	maxRateLimitRefused       = 0.10
	maxRateLimitRatioCapped   = 1.1
	maxRateLimitRefusedCapped = 0.01
)

// rateLimitSpec is the payments provider with its defaults: no
// max_retries, unlike the other phases, whose sandbox injects no fault.
// max_requests_per_second comes from the environment, so that one
// configuration serves both modes.
func rateLimitSpec(bin string) providerSpec {
	return providerSpec{Local: paymentsLocal, Source: "paymentsdev/payments", Dir: bin}
}

// timeRateLimits runs the phase: the apply without a limit (what Terraform
// and the provider cost on this machine, for reading the others), then for
// every limit the default provider and the provider capped at the limit,
// each rateLimitRepeat times, on an emptied account. It leaves the sandbox
// unlimited.
func (b *bench) timeRateLimits(ctx context.Context) error {
	if len(b.o.rateLimits) == 0 {
		return nil
	}
	n := b.o.rateLimitN
	t := b.payments
	t.spec = rateLimitSpec(t.spec.Dir)
	dir := filepath.Join(b.work, "ratelimit", "n"+strconv.Itoa(n))
	if err := writeConfig(dir, t.spec, n, mixCards); err != nil {
		return err
	}
	for rep := range b.o.rateLimitRepeat {
		if err := b.forgetDir(ctx, dir); err != nil {
			return err
		}
		if err := b.setRateLimit(ctx, 0); err != nil {
			return err
		}
		if err := b.measureRateLimit(ctx, t, dir, n, 0, 0, rep); err != nil {
			return err
		}
	}
	floorDir := filepath.Join(b.work, "ratelimit", "floor-n"+strconv.Itoa(n))
	if err := writeConfig(floorDir, b.floor.spec, n, mixCards); err != nil {
		return err
	}
	// The repetitions go round the modes, so that a slow spell of the
	// machine falls on all of them alike.
	for _, limit := range b.o.rateLimits {
		for rep := range b.o.rateLimitRepeat {
			for _, maxRPS := range []int64{0, limit} {
				if err := b.forgetDir(ctx, dir); err != nil {
					return err
				}
				// Every run starts with the account's quota unused, as the
				// bound assumes: the previous run's last requests would
				// otherwise still count in the sandbox's window when this
				// one starts (a shared quota, which costs a pause). Setting
				// the limit anew empties its window.
				if err := b.setRateLimit(ctx, 0); err != nil {
					return err
				}
				if err := b.setRateLimit(ctx, limit); err != nil {
					return err
				}
				if err := b.measureRateLimit(ctx, t, dir, n, limit, maxRPS, rep); err != nil {
					return err
				}
			}
			if err := b.measureFloorPaced(ctx, floorDir, n, limit, rep); err != nil {
				return err
			}
		}
	}
	if err := b.forgetDir(ctx, dir); err != nil {
		return err
	}
	return b.setRateLimit(ctx, 0)
}

// measureFloorPaced times one apply of the floor provider paced to limit,
// from empty state.
func (b *bench) measureFloorPaced(ctx context.Context, dir string, n int, limit int64, rep int) error {
	if err := removeState(dir); err != nil {
		return err
	}
	name := fmt.Sprintf("ratelimit-n%d-%dps-floor-r%d", n, limit, rep+1)
	tf := b.tf
	tf.Dir = dir
	tf.Env = tfcli.Env(os.Environ(), b.cliConfig, append(b.floor.env, floor.EnvRateLimit+"="+strconv.FormatInt(limit, 10))...)
	cost, err := runTerraform(ctx, &tf, opApply, filepath.Join(b.logs, name+".log"))
	if err != nil {
		return fmt.Errorf("apply of the floor paced at %d/s: %w", limit, err)
	}
	r := floorPacedRun{N: n, Limit: limit, Rep: rep, Seconds: cost.Wall.Seconds()}
	b.floorPacedRuns = append(b.floorPacedRuns, r)
	fmt.Printf("N=%-5d limit %3d/s  floor     apply %7.2fs  paced perfectly to the limit\n", n, limit, r.Seconds)
	return removeState(dir)
}

// forgetDir empties the account and removes dir's state, as forget does.
func (b *bench) forgetDir(ctx context.Context, dir string) error {
	if err := sandboxclient.New(b.api).Reset(ctx); err != nil {
		return fmt.Errorf("reset the sandbox account: %w", err)
	}
	return removeState(dir)
}

func (b *bench) setRateLimit(ctx context.Context, perSecond int64) error {
	if _, err := sandboxclient.New(b.api).SetFaults(ctx, sandboxclient.FaultsParams{RateLimit: &perSecond}); err != nil {
		return fmt.Errorf("set the sandbox's rate_limit to %d: %w", perSecond, err)
	}
	return nil
}

// measureRateLimit times one apply and checks that the sandbox holds
// exactly n customers and n cards after it: nothing duplicated, nothing lost.
func (b *bench) measureRateLimit(ctx context.Context, t target, dir string, n int, limit, maxRPS int64, rep int) error {
	mode := "default"
	if limit <= 0 {
		mode = "unlimited"
	}
	env := append([]string{}, t.env...)
	if maxRPS > 0 {
		mode = "max" + strconv.FormatInt(maxRPS, 10)
		env = append(env, provider.EnvMaxRequestsPerSecond+"="+strconv.FormatInt(maxRPS, 10))
	}
	name := fmt.Sprintf("ratelimit-n%d-%dps-%s-r%d", n, limit, mode, rep+1)
	logPath := filepath.Join(b.logs, name+".log")
	if b.o.tfLog != "" {
		p, err := filepath.Abs(filepath.Join(b.logs, name+".tflog"))
		if err != nil {
			return err
		}
		env = append(env, "TF_LOG="+b.o.tfLog, "TF_LOG_PATH="+p)
	}
	before, err := sandboxclient.New(b.api).Stats(ctx)
	if err != nil {
		return fmt.Errorf("read the sandbox's stats: %w", err)
	}
	tf := b.tf
	tf.Dir, tf.Env = dir, tfcli.Env(os.Environ(), b.cliConfig, env...)
	cost, err := runTerraform(ctx, &tf, opApply, logPath)
	if err != nil {
		return fmt.Errorf("apply at %d/s (%s): %w", limit, mode, err)
	}
	after, err := sandboxclient.New(b.api).Stats(ctx)
	if err != nil {
		return fmt.Errorf("read the sandbox's stats: %w", err)
	}
	if after.Customers != int64(n) || after.Sources != int64(n) {
		return fmt.Errorf("after the apply at %d/s (%s) the sandbox holds %d customers and %d sources, want %d of each; see %s",
			limit, mode, after.Customers, after.Sources, n, logPath)
	}
	r := rateLimitRun{
		N: n, Limit: limit, MaxRPS: maxRPS, Rep: rep, Seconds: cost.Wall.Seconds(),
		Total:   after.Requests.Total - before.Requests.Total,
		Refused: after.Faults.RateLimited - before.Faults.RateLimited,
	}
	b.rateLimitRuns = append(b.rateLimitRuns, r)
	fmt.Printf("N=%-5d limit %3d/s  %-9s apply %7.2fs  bound %6.2fs  ratio %.2f  refused %d of %d (%.1f%%)\n",
		n, limit, mode, r.Seconds, r.Bound(), r.Ratio(), r.Refused, r.Total, 100*r.RefusedShare())
	return nil
}

// rateLimitMedians returns one run per limit and mode: the one of median
// time among its repetitions, so that its counts belong to its time.
func rateLimitMedians(runs []rateLimitRun) []rateLimitRun {
	type key struct{ limit, maxRPS int64 }
	groups := map[key][]rateLimitRun{}
	var order []key
	for _, r := range runs {
		k := key{r.Limit, r.MaxRPS}
		if _, ok := groups[k]; !ok {
			order = append(order, k)
		}
		groups[k] = append(groups[k], r)
	}
	var out []rateLimitRun
	for _, k := range order {
		g := groups[k]
		secs := make([]float64, len(g))
		for i, r := range g {
			secs[i] = r.Seconds
		}
		m := median(secs)
		best := g[0]
		for _, r := range g {
			if abs(r.Seconds-m) < abs(best.Seconds-m) {
				best = r
			}
		}
		out = append(out, best)
	}
	return out
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

// rateLimitChecks are the rate-limit targets for each row.
func rateLimitChecks(rows []rateLimitRun) []check {
	var cs []check
	for _, r := range rows {
		if r.Limit <= 0 {
			continue
		}
		at := fmt.Sprintf(" at %d/s, N=%d", r.Limit, r.N)
		maxRatio, maxRefused, mode := maxRateLimitRatio, maxRateLimitRefused, ", default settings"
		if r.MaxRPS > 0 {
			maxRatio, maxRefused, mode = maxRateLimitRatioCapped, maxRateLimitRefusedCapped, fmt.Sprintf(", max_requests_per_second = %d", r.MaxRPS)
		}
		cs = append(cs,
			check{"apply time ÷ bound" + at + mode, r.Ratio(), maxRatio, true},
			check{"share of requests refused (429)" + at + mode, r.RefusedShare(), maxRefused, true},
		)
	}
	return cs
}

// floorPacedMedians returns the median time of the floor paced to each
// limit, by N and limit.
func floorPacedMedians(runs []floorPacedRun) map[[2]int64]float64 {
	groups := map[[2]int64][]float64{}
	for _, r := range runs {
		k := [2]int64{int64(r.N), r.Limit}
		groups[k] = append(groups[k], r.Seconds)
	}
	out := map[[2]int64]float64{}
	for k, secs := range groups {
		out[k] = median(secs)
	}
	return out
}

// writeRateLimitTable prints the phase's table: the median runs, and the
// floor paced to the same limit beside them when it was timed.
func writeRateLimitTable(w io.Writer, rows []rateLimitRun, floors []floorPacedRun) {
	if len(rows) == 0 {
		return
	}
	floorAt := floorPacedMedians(floors)
	fmt.Fprintln(w, "\nApply under the sandbox's rate limit, against the bound useful requests ÷ limit and against the floor provider")
	fmt.Fprintln(w, "paced perfectly to the limit, which no provider on this framework can beat (median run):")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "N\tlimit /s\tmax_requests_per_second\tapply s\tbound s\tapply ÷ bound\tfloor paced s\tapply ÷ floor paced\trefused (429)\trequests\trefused share")
	for _, r := range rows {
		if r.Limit <= 0 {
			fmt.Fprintf(tw, "%d\tnone\tunset\t%.2f\t-\t-\t-\t-\t%d\t%d\t-\n", r.N, r.Seconds, r.Refused, r.Total)
			continue
		}
		maxRPS := "unset"
		if r.MaxRPS > 0 {
			maxRPS = strconv.FormatInt(r.MaxRPS, 10)
		}
		floorS, floorRatio := "-", "-"
		if f, ok := floorAt[[2]int64{int64(r.N), r.Limit}]; ok {
			floorS, floorRatio = fmt.Sprintf("%.2f", f), fmt.Sprintf("%.3f", r.Seconds/f)
		}
		fmt.Fprintf(tw, "%d\t%d\t%s\t%.2f\t%.2f\t%.3f\t%s\t%s\t%d\t%d\t%.1f%%\n",
			r.N, r.Limit, maxRPS, r.Seconds, r.Bound(), r.Ratio(), floorS, floorRatio, r.Refused, r.Total, 100*r.RefusedShare())
	}
	tw.Flush()
}

// writeRateLimitCSV writes every run of the phase.
func writeRateLimitCSV(dir string, runs []rateLimitRun) error {
	var recs [][]string
	for _, r := range runs {
		recs = append(recs, []string{strconv.Itoa(r.N), strconv.FormatInt(r.Limit, 10), strconv.FormatInt(r.MaxRPS, 10),
			strconv.Itoa(r.Rep + 1), ff(r.Seconds), ff(r.Bound()), ff(r.Ratio()),
			strconv.FormatInt(r.Refused, 10), strconv.FormatInt(r.Total, 10), ff(r.RefusedShare())})
	}
	return writeCSV(filepath.Join(dir, "ratelimit.csv"), []string{"n", "limit_per_second", "max_requests_per_second", "run",
		"apply_seconds", "bound_seconds", "ratio", "refused", "requests", "refused_share"}, recs)
}

// writeFloorPacedCSV writes every apply of the floor paced to a limit.
func writeFloorPacedCSV(dir string, runs []floorPacedRun) error {
	var recs [][]string
	for _, r := range runs {
		recs = append(recs, []string{strconv.Itoa(r.N), strconv.FormatInt(r.Limit, 10), strconv.Itoa(r.Rep + 1), ff(r.Seconds)})
	}
	return writeCSV(filepath.Join(dir, "ratelimit-floor.csv"), []string{"n", "limit_per_second", "run", "apply_seconds"}, recs)
}
