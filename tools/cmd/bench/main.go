// Command bench times this provider against Terraform's floor: for N
// customers with a card each (and, with -mix subscriptions, a plan each
// they subscribe to) it runs apply, a refresh plan and destroy with
// the payments provider against the sandbox and with a do-nothing provider
// built on the same framework (tools/internal/floor), alternating the two, and
// reports the medians, their ratio and the sandbox's requests per resource.
// A second phase adds latency to the sandbox and compares the apply with the
// bound floor + requests × latency ÷ parallelism. With -journal-rounds it
// runs only the journal phase (journal.go): the apply with the create
// journal on and off, interleaved, beside an A/A control.
//
// Run it with `make bench`, or for a quick look, from anywhere in the
// repository, `go -C tools run ./cmd/bench -n 20 -repeat 1 -latency-n 20`.
package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strconv"
	"syscall"
	"time"

	"github.com/paymentsdev/terraform-provider-payments/internal/client"
	"github.com/paymentsdev/terraform-provider-payments/internal/journal"
	"github.com/paymentsdev/terraform-provider-payments/internal/provider"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/sandboxtest"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandboxclient"
	"github.com/paymentsdev/terraform-provider-payments/internal/tfcli"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
	"github.com/paymentsdev/terraform-provider-payments/tools/internal/build"
	"github.com/paymentsdev/terraform-provider-payments/tools/internal/floor"
)

func main() {
	o, err := parseFlags(os.Args[1:])
	if errors.Is(err, flag.ErrHelp) {
		return
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	failed, err := run(ctx, o)
	if err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
	if failed && o.strict {
		os.Exit(1)
	}
}

// target is one of the providers under measurement: payments, the floor
// or the request floor (the floor's provider with FLOOR_API_URL set).
type target struct {
	// name labels its samples and names its working directory.
	name string
	spec providerSpec
	// env is added to Terraform's environment (the payments provider's
	// address and key).
	env []string
	// counted is true when the sandbox's stats count this provider's requests.
	counted bool
	// usesSandbox is true when the provider sends requests to the sandbox,
	// whose CPU time is then measured beside its own.
	usesSandbox bool
}

// bench holds what the runs share.
type bench struct {
	o          options
	work, logs string
	tf         tfcli.Runner // Dir and Env set per run
	cliConfig  string
	api        *client.Client
	sandbox    *sandboxtest.Process
	payments   target
	floor      target
	// requestFloor is timed when its name is set (-request-floor).
	requestFloor target
	// noJournal is timed when its name is set (-journal-off).
	noJournal target
	samples   []sample
	// rateLimitRuns are the rate-limit phase's applies.
	rateLimitRuns []rateLimitRun
	// floorPacedRuns are the floor's applies paced to each limit.
	floorPacedRuns []floorPacedRun
}

// sample is one timed run.
type sample struct {
	N         int
	Op        string
	Provider  string
	Rep       int
	LatencyMS int64
	// Resources is how many resources the run's configuration has.
	Resources int
	Seconds   float64
	// CPUSeconds is the CPU time of Terraform and its provider plugin;
	// SandboxCPUSeconds the sandbox's during the run (payments only).
	CPUSeconds        float64
	SandboxCPUSeconds float64
	// Delta is what the sandbox counted during the run (payments only).
	Delta *statsDelta
}

func run(ctx context.Context, o options) (failed bool, err error) {
	root, err := build.Root()
	if err != nil {
		return false, err
	}
	if o.binDir == "" {
		o.binDir = filepath.Join(root, "bin")
	}
	if o.outDir == "" {
		o.outDir = filepath.Join(root, ".bench")
	}
	bin, err := filepath.Abs(o.binDir)
	if err != nil {
		return false, err
	}
	tfBin, err := tfcli.Binary(o.terraform)
	if err != nil {
		return false, err
	}
	if err := buildBinaries(ctx, root, bin, o.build); err != nil {
		return false, err
	}
	b := &bench{o: o, work: filepath.Join(o.outDir, "work"), logs: filepath.Join(o.outDir, "logs"),
		tf: tfcli.Runner{Bin: tfBin, Parallelism: o.parallelism}}
	for _, d := range []string{b.work, b.logs} {
		if err := os.RemoveAll(d); err != nil {
			return false, err
		}
		if err := os.MkdirAll(d, 0o755); err != nil {
			return false, err
		}
	}

	sbLog, err := os.Create(filepath.Join(b.logs, "sandbox.log"))
	if err != nil {
		return false, err
	}
	defer sbLog.Close()
	sb, err := sandboxtest.StartProcess(ctx, filepath.Join(bin, "payments-sandbox"), sandboxtest.ProcessOptions{Log: sbLog})
	if err != nil {
		return false, err
	}
	defer func() { _ = sb.Stop() }()
	b.sandbox = sb
	key := newSandboxKey()
	b.api, err = client.New(client.Config{BaseURL: sb.URL, SecretKey: key, UserAgent: "payments-bench"})
	if err != nil {
		return false, err
	}
	b.payments = target{name: paymentsLocal, spec: paymentsSpec(bin), env: paymentsEnv(sb.URL, key), counted: true, usesSandbox: true}
	b.floor = target{name: floorLocal, spec: floorSpec(bin)}
	if o.requestFloor {
		// Its own account, so that the payments account's counts stay
		// the payments provider's.
		b.requestFloor = target{name: requestFloorName, spec: floorSpec(bin), usesSandbox: true,
			env: []string{floor.EnvAPIURL + "=" + sb.URL, floor.EnvAPIKey + "=" + newSandboxKey()}}
	}
	if o.journalOff { // its own account too; the same binary, journal off
		b.noJournal = target{name: noJournalName, spec: paymentsSpec(bin), usesSandbox: true,
			env: append(paymentsEnv(sb.URL, newSandboxKey()), journal.EnvDisable+"=off")}
	}
	b.cliConfig, err = filepath.Abs(filepath.Join(b.work, "terraform.rc"))
	if err != nil {
		return false, err
	}
	if err := tfcli.WriteCLIConfig(b.cliConfig, b.payments.spec.override(), b.floor.spec.override()); err != nil {
		return false, err
	}
	fmt.Printf("sandbox at %s; %s, parallelism %d; output in %s; %s\n", sb.URL, tfBin, o.parallelism, o.outDir, loadAverage())

	if o.journalRounds > 0 {
		return b.journalPhase(ctx)
	}
	if err := b.timeOperations(ctx); err != nil {
		return false, err
	}
	if err := b.timeLatencies(ctx); err != nil {
		return false, err
	}
	if err := b.timeRateLimits(ctx); err != nil {
		return false, err
	}
	// Other work on the machine makes wall-clock times noisy; say how much
	// there was.
	fmt.Printf("done; %s\n", loadAverage())
	return b.report()
}

// buildBinaries builds the floor provider (from the tools module) and,
// when all is set, the provider and the sandbox (from the repository's
// root) into dir, under the names dev_overrides and the sandbox launcher
// look for.
func buildBinaries(ctx context.Context, root, dir string, all bool) error {
	type program struct{ module, pkg, out string }
	programs := []program{{"tools", "./cmd/terraform-provider-floor", "terraform-provider-floor"}}
	if all {
		programs = append(programs, program{".", ".", "terraform-provider-payments"}, program{".", "./cmd/payments-sandbox", "payments-sandbox"})
	}
	for _, p := range programs {
		if err := build.Program(ctx, filepath.Join(root, p.module), p.pkg, filepath.Join(dir, p.out)); err != nil {
			return err
		}
	}
	return nil
}

// newSandboxKey returns a fresh sandbox key: a new, empty sandbox account.
func newSandboxKey() string {
	b := make([]byte, 12)
	_, _ = rand.Read(b) // crypto/rand.Read never fails (Go 1.24+)
	return wire.SecretKeySandboxPrefix + "bench_" + hex.EncodeToString(b)
}

// timeOperations runs, for every N, the repetitions of apply, refresh plan
// (-plans times) and destroy, each operation once per provider in an order
// that alternates from one run to the next.
func (b *bench) timeOperations(ctx context.Context) error {
	targets := b.timed()
	turn := 0
	for i, n := range b.o.ns {
		for _, t := range targets {
			if err := writeConfig(b.dir(t, n), t.spec, n, b.o.mix); err != nil {
				return err
			}
		}
		if i == 0 && b.o.warmup {
			if err := b.warmUp(ctx, targets, n); err != nil {
				return err
			}
		}
		for rep := range b.o.repeats[i] {
			for _, op := range operations {
				// A plan changes nothing, so it is cheap to repeat; its
				// threshold is the tightest.
				times := 1
				if op == opPlan {
					times = b.o.plans
				}
				for k := range times {
					// Each provider goes first in turn.
					order := append(slices.Clone(targets[turn%len(targets):]), targets[:turn%len(targets)]...)
					turn++
					for _, t := range order {
						if err := b.measure(ctx, t, n, op, rep*times+k, 0); err != nil {
							return err
						}
					}
				}
			}
		}
	}
	return nil
}

// timed are the providers the main table compares, in their first order.
func (b *bench) timed() []target {
	ts := []target{b.payments, b.floor}
	if b.requestFloor.name != "" {
		ts = append(ts, b.requestFloor)
	}
	if b.noJournal.name != "" {
		ts = append(ts, b.noJournal)
	}
	return ts
}

// warmUp applies and destroys n with each target once, untimed: the first
// run after the binaries are built or the sandbox started pays for cold
// caches and a growing heap, which would fall on whichever goes first.
func (b *bench) warmUp(ctx context.Context, targets []target, n int) error {
	for _, t := range targets {
		for _, op := range []string{opApply, opDestroy} {
			if err := b.run(ctx, t, n, op, 0, 0, false); err != nil {
				return fmt.Errorf("warm-up: %w", err)
			}
		}
	}
	return nil
}

// timeLatencies times the payments provider's apply at latencyN with each
// sandbox latency, and the floor's apply at latencyN when the first phase
// did not.
func (b *bench) timeLatencies(ctx context.Context) error {
	if len(b.o.latencies) == 0 {
		return nil
	}
	n := b.o.latencyN
	for _, t := range []target{b.payments, b.floor} {
		if _, err := os.Stat(b.dir(t, n)); err != nil {
			if err := writeConfig(b.dir(t, n), t.spec, n, b.o.mix); err != nil {
				return err
			}
		}
	}
	if len(floorApplies(b.samples, n)) == 0 {
		for rep := range b.o.latencyRepeat {
			if err := b.measure(ctx, b.floor, n, opApply, rep, 0); err != nil {
				return err
			}
			if err := b.forget(ctx, b.floor, n); err != nil {
				return err
			}
		}
	}
	for _, ms := range b.o.latencies {
		if err := b.setLatency(ctx, ms); err != nil {
			return err
		}
		for rep := range b.o.latencyRepeat {
			if err := b.measure(ctx, b.payments, n, opApply, rep, ms); err != nil {
				return err
			}
			if err := b.forget(ctx, b.payments, n); err != nil {
				return err
			}
		}
	}
	return b.setLatency(ctx, 0)
}

// forget empties t's state at n without a destroy, which this phase does
// not measure and which would cost minutes: the sandbox account is reset
// and the state files removed.
func (b *bench) forget(ctx context.Context, t target, n int) error {
	if t.counted {
		if err := sandboxclient.New(b.api).Reset(ctx); err != nil {
			return fmt.Errorf("reset the sandbox account: %w", err)
		}
	}
	return removeState(b.dir(t, n))
}

// removeState removes dir's Terraform state, so that the next apply
// creates everything anew.
func removeState(dir string) error {
	for _, f := range []string{"terraform.tfstate", "terraform.tfstate.backup"} {
		if err := os.Remove(filepath.Join(dir, f)); err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
	}
	return nil
}

func (b *bench) setLatency(ctx context.Context, ms int64) error {
	if _, err := sandboxclient.New(b.api).SetFaults(ctx, sandboxclient.FaultsParams{LatencyMS: &ms}); err != nil {
		return fmt.Errorf("set the sandbox's latency_ms to %d: %w", ms, err)
	}
	return nil
}

func (b *bench) dir(t target, n int) string {
	return filepath.Join(b.work, t.name, "n"+strconv.Itoa(n))
}

// measure runs terraform op for t at n, records the sample and prints it.
// For the payments provider it reads the sandbox's stats around the run and
// checks that the account holds n customers and n cards after an apply and
// none after a destroy.
func (b *bench) measure(ctx context.Context, t target, n int, op string, rep int, latencyMS int64) error {
	return b.run(ctx, t, n, op, rep, latencyMS, true)
}

// run runs one operation and, when keep is set, records it as a sample.
func (b *bench) run(ctx context.Context, t target, n int, op string, rep int, latencyMS int64, keep bool) error {
	s := sample{N: n, Op: op, Provider: t.name, Rep: rep, LatencyMS: latencyMS, Resources: n * b.o.mix.perCustomer()}
	name := fmt.Sprintf("%s-n%d-%s-r%d", t.name, n, op, rep+1)
	if !keep {
		name = fmt.Sprintf("%s-n%d-%s-warmup", t.name, n, op)
	}
	if latencyMS > 0 {
		name += fmt.Sprintf("-%dms", latencyMS)
	}
	logPath := filepath.Join(b.logs, name+".log")
	env := t.env
	if b.o.tfLog != "" {
		p, err := filepath.Abs(filepath.Join(b.logs, name+".tflog"))
		if err != nil {
			return err
		}
		env = append(env, "TF_LOG="+b.o.tfLog, "TF_LOG_PATH="+p)
	}
	var before *wire.Stats
	var sandboxCPU time.Duration
	if t.counted {
		var err error
		if before, err = sandboxclient.New(b.api).Stats(ctx); err != nil {
			return fmt.Errorf("read the sandbox's stats: %w", err)
		}
	}
	if t.usesSandbox {
		sandboxCPU = processCPU(b.sandbox.Pid())
	}
	tf := b.tf
	tf.Dir, tf.Env = b.dir(t, n), tfcli.Env(os.Environ(), b.cliConfig, env...)
	cost, err := runTerraform(ctx, &tf, op, logPath)
	if err != nil {
		return fmt.Errorf("%s N=%d: %w", t.name, n, err)
	}
	s.Seconds, s.CPUSeconds = cost.Wall.Seconds(), cost.CPU.Seconds()
	if t.usesSandbox {
		s.SandboxCPUSeconds = (processCPU(b.sandbox.Pid()) - sandboxCPU).Seconds()
	}
	if t.counted {
		after, err := sandboxclient.New(b.api).Stats(ctx)
		if err != nil {
			return fmt.Errorf("read the sandbox's stats: %w", err)
		}
		d := diffStats(before, after)
		s.Delta = &d
		want := map[string]int64{opApply: int64(n), opDestroy: 0}
		if w, ok := want[op]; ok && (after.Customers != w || after.Sources != w) {
			return fmt.Errorf("after %s of N=%d the sandbox holds %d customers and %d sources, want %d of each; see %s",
				op, n, after.Customers, after.Sources, w, logPath)
		}
	}
	if !keep {
		fmt.Printf("N=%-5d warm-up  %-14s %-8s %7.2fs (untimed)\n", n, s.Provider, op, s.Seconds)
		return nil
	}
	b.samples = append(b.samples, s)
	fmt.Printf("N=%-5d run %d  %-14s %-8s %7.2fs (CPU %6.2fs)%s\n", n, rep+1, s.Provider, op, s.Seconds, s.CPUSeconds, describeSample(s))
	return nil
}

// describeSample gives a progress line the latency and the sandbox's counts.
func describeSample(s sample) string {
	var out string
	if s.LatencyMS > 0 {
		out = fmt.Sprintf("  at %d ms", s.LatencyMS)
	}
	if s.Provider != floorLocal {
		out += fmt.Sprintf("  sandbox CPU %.2fs", s.SandboxCPUSeconds)
	}
	if d := s.Delta; d != nil {
		out += fmt.Sprintf("  %.2f requests/resource, %d connections", float64(d.Total)/float64(s.Resources), d.Connections)
	}
	return out
}

func floorApplies(samples []sample, n int) []float64 {
	var out []float64
	for _, s := range samples {
		if s.Provider == floorLocal && s.N == n && s.Op == opApply && s.LatencyMS == 0 {
			out = append(out, s.Seconds)
		}
	}
	return out
}

// The two providers' local names, also their resource type prefixes.
const (
	paymentsLocal = "payments"
	floorLocal    = "floor"
	// requestFloorName labels the request floor's samples: the floor's
	// provider, sending one plain request per resource and operation.
	requestFloorName = "request-floor"
	noJournalName    = "payments-nojournal" // the payments provider, journal off
)

func floorSpec(bin string) providerSpec {
	return providerSpec{Local: floorLocal, Source: floor.Source, Dir: bin}
}

// paymentsSpec is the payments provider. Its address and key come from the
// environment (paymentsEnv), so the key is in no file. The sandbox injects
// no fault outside the latency phase, so a retry would be a finding: a few
// are allowed, not the default ten with their backoff.
func paymentsSpec(bin string) providerSpec {
	return providerSpec{Local: paymentsLocal, Source: "paymentsdev/payments", Dir: bin, Block: "max_retries = 3\n"}
}

func paymentsEnv(url, key string) []string {
	return []string{provider.EnvBaseURL + "=" + url, provider.EnvSecretKey + "=" + key}
}
