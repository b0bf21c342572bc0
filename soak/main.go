// Command soak applies hundreds of payments resources through the Terraform
// CLI against the sandbox program under several fault mixes, and prints a
// table of the faults the sandbox injected and of what it then holds.
//
// It checks the provider's promise under faults: an apply converges or stops
// with a clear error, and never leaves an object that state does not know
// (an orphan) nor creates one twice (a duplicate). It is too slow for CI;
// run it with `make soak`.
package main

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"
	"unicode/utf8"

	"github.com/paymentsdev/terraform-provider-payments/internal/client"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandboxclient"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// providerAddress is the provider's registry address, as main.go serves it.
const providerAddress = "registry.terraform.io/paymentsdev/payments"

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

// result is one row of the table.
type result struct {
	Mix              mix
	Resources        int // resource instances in state after the apply
	ApplyRuns        int // terraform apply runs until it converged
	ApplyErr         string
	Injected         wire.StatsFaults
	Requests         int64 // /v1 requests the service received, retries included
	Customers        int64 // customers at the service after the apply
	Sources          int64 // sources at the service after the apply
	Duplicates       int64 // objects at the service beyond those in state after a finished apply
	Orphans          int64 // objects at the service unknown to state after an interrupt, or left after destroy
	Missing          int   // objects in state the service does not have
	InterruptAt      int   // customers at the service when SIGINT was sent
	InterruptState   int   // resource instances in state when the interrupted apply stopped
	InterruptOrphans int64 // objects at the service unknown to state when it stopped
	PlanEmpty        bool
	PlanErr          string
	DestroyErr       string
	LeftAfterDelete  int64
	Duration         time.Duration
}

func (r *result) ok() bool {
	return r.ApplyErr == "" && r.PlanErr == "" && r.DestroyErr == "" && r.PlanEmpty &&
		r.Duplicates == 0 && r.Orphans == 0 && r.Missing == 0 && r.LeftAfterDelete == 0
}

type config struct {
	n           int
	parallelism int
	maxRetries  int
	provider    string
	sandbox     string
	terraform   string
	only        string
	keep        bool
	verbose     bool
}

func main() {
	var cfg config
	flag.IntVar(&cfg.n, "n", 300, "customers per mix; each gets one card, so 2n resources")
	flag.IntVar(&cfg.parallelism, "parallelism", 10, "terraform -parallelism")
	flag.IntVar(&cfg.maxRetries, "max-retries", 15, "the provider's max_retries")
	flag.StringVar(&cfg.provider, "provider", "", "provider binary (default: go build . into a temporary directory)")
	flag.StringVar(&cfg.sandbox, "sandbox", "", "sandbox binary (default: go build ./cmd/payments-sandbox into a temporary directory)")
	flag.StringVar(&cfg.terraform, "terraform", "terraform", "the Terraform CLI")
	flag.StringVar(&cfg.only, "mixes", "", "comma-separated mix names to run (default: all)")
	flag.BoolVar(&cfg.keep, "keep", false, "keep the working directory")
	flag.BoolVar(&cfg.verbose, "v", false, "stream terraform's output")
	flag.Parse()

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, cfg); err != nil {
		fmt.Fprintln(os.Stderr, "soak:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, cfg config) error {
	work, err := os.MkdirTemp("", "payments-soak-")
	if err != nil {
		return err
	}
	if cfg.keep {
		fmt.Fprintln(os.Stderr, "soak: working directory", work)
	} else {
		defer os.RemoveAll(work)
	}

	binDir := filepath.Join(work, "bin")
	providerBin := filepath.Join(binDir, "terraform-provider-payments")
	if err := os.MkdirAll(binDir, 0o755); err != nil {
		return err
	}
	if cfg.provider == "" {
		if err := goBuild(ctx, providerBin, "."); err != nil {
			return err
		}
	} else if err := copyFile(cfg.provider, providerBin); err != nil {
		return err
	}
	sandboxBin := cfg.sandbox
	if sandboxBin == "" {
		sandboxBin = filepath.Join(binDir, "payments-sandbox")
		if err := goBuild(ctx, sandboxBin, "./cmd/payments-sandbox"); err != nil {
			return err
		}
	}

	cliConfig := filepath.Join(work, "terraformrc")
	if err := os.WriteFile(cliConfig, []byte(fmt.Sprintf(`provider_installation {
  dev_overrides {
    %q = %q
  }
  direct {}
}
`, providerAddress, binDir)), 0o644); err != nil {
		return err
	}

	sb, err := startSandbox(ctx, sandboxBin, filepath.Join(work, "sandbox.log"))
	if err != nil {
		return err
	}
	defer sb.stop()
	fmt.Fprintf(os.Stderr, "soak: sandbox at %s; %d customers and %d cards per mix, parallelism %d, max_retries %d\n",
		sb.url, cfg.n, cfg.n, cfg.parallelism, cfg.maxRetries)

	var results []*result
	for _, m := range mixes {
		if cfg.only != "" && !contains(strings.Split(cfg.only, ","), m.Name) {
			continue
		}
		if ctx.Err() != nil {
			break
		}
		fmt.Fprintf(os.Stderr, "soak: mix %s ...\n", m.Name)
		r := &result{Mix: m}
		start := time.Now()
		if err := runMix(ctx, cfg, work, cliConfig, sb.url, r); err != nil {
			return fmt.Errorf("mix %s: %w", m.Name, err)
		}
		r.Duration = time.Since(start).Round(time.Second)
		results = append(results, r)
		fmt.Fprintf(os.Stderr, "soak: mix %s done in %s\n", m.Name, r.Duration)
	}

	printTable(os.Stdout, results)
	leaks, err := sb.logsHoldKeys()
	if err != nil {
		return err
	}
	if leaks > 0 {
		return fmt.Errorf("the sandbox's log holds a secret key %d time(s)", leaks)
	}
	for _, r := range results {
		if !r.ok() {
			return errors.New("at least one mix failed its checks; see the table")
		}
	}
	return nil
}

// runMix runs apply, verify, plan and destroy for one mix on a fresh account.
func runMix(ctx context.Context, cfg config, work, cliConfig, baseURL string, r *result) error {
	key := wire.SecretKeySandboxPrefix + rand.Text()
	usedKeys = append(usedKeys, key)
	api, err := client.New(client.Config{BaseURL: baseURL, SecretKey: key, MaxRetries: 20, UserAgent: "payments-soak"})
	if err != nil {
		return err
	}
	dir := filepath.Join(work, strings.NewReplacer("/", "-", "%", "pct").Replace(r.Mix.Name))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(configHCL(cfg, baseURL, r.Mix.Name)), 0o644); err != nil {
		return err
	}
	tf := &terraform{bin: cfg.terraform, dir: dir, verbose: cfg.verbose, env: append(cleanEnv(),
		"TF_CLI_CONFIG_FILE="+cliConfig,
		"CHECKPOINT_DISABLE=1",
		"TF_IN_AUTOMATION=1",
		"TF_INPUT=0",
		// The key reaches the provider through its environment variable,
		// never through the configuration file.
		"PAYMENTS_SECRET_KEY="+key,
	)}

	faultsOn := func() error {
		_, err := sandboxclient.New(api).SetFaults(ctx, sandboxclient.FaultsParams{
			ErrorRate: &r.Mix.ErrorRate, DropRate: &r.Mix.DropRate,
			LatencyMS: &r.Mix.LatencyMS, RateLimit: &r.Mix.RateLimit,
		})
		return err
	}
	faultsOff := func() error {
		var zf float64
		var zi int64
		_, err := sandboxclient.New(api).SetFaults(ctx, sandboxclient.FaultsParams{ErrorRate: &zf, DropRate: &zf, LatencyMS: &zi, RateLimit: &zi})
		return err
	}
	applyArgs := []string{"apply", "-auto-approve", "-input=false", "-no-color", fmt.Sprintf("-parallelism=%d", cfg.parallelism)}

	// Apply under faults. The interrupt mix stops the first run part way
	// and checks that every object made by then is in state.
	if err := faultsOn(); err != nil {
		return err
	}
	if r.Mix.Interrupt {
		out, err := tf.runInterrupted(ctx, func() bool {
			st, err := sandboxclient.New(api).Stats(ctx)
			if err == nil && st.Customers >= int64(cfg.n/3) {
				r.InterruptAt = int(st.Customers)
				return true
			}
			return false
		}, applyArgs...)
		r.ApplyRuns++
		if err == nil {
			return fmt.Errorf("the interrupted apply exited 0; it was not interrupted in time:\n%s", tail(out))
		}
		if err := faultsOff(); err != nil {
			return err
		}
		v, err := verify(ctx, tf, api)
		if err != nil {
			return err
		}
		r.InterruptState = v.instances
		r.InterruptOrphans = v.extra
		r.Orphans += v.extra
		r.Missing += v.missing
		if err := faultsOn(); err != nil {
			return err
		}
	}
	for range 2 {
		out, err := tf.run(ctx, applyArgs...)
		r.ApplyRuns++
		if err == nil {
			r.ApplyErr = ""
			break
		}
		// An apply under faults may stop with a clear error; a second run
		// must converge without duplicating anything.
		r.ApplyErr = firstError(out)
	}

	if err := faultsOff(); err != nil {
		return err
	}
	v, err := verify(ctx, tf, api)
	if err != nil {
		return err
	}
	r.Resources = v.instances
	r.Customers, r.Sources = v.stats.Customers, v.stats.Sources
	r.Duplicates = v.extra
	r.Missing += v.missing

	// A re-plan under the same faults must be empty.
	if err := faultsOn(); err != nil {
		return err
	}
	code, out, err := tf.runCode(ctx, "plan", "-detailed-exitcode", "-input=false", "-no-color", "-lock=false", fmt.Sprintf("-parallelism=%d", cfg.parallelism))
	switch {
	case err != nil:
		return err
	case code == 0:
		r.PlanEmpty = true
	case code == 2:
		r.PlanErr = "changes: " + planSummary(out)
	default:
		r.PlanErr = firstError(out)
	}

	// Destroy under faults leaves nothing.
	out2, err := tf.run(ctx, "destroy", "-auto-approve", "-input=false", "-no-color", fmt.Sprintf("-parallelism=%d", cfg.parallelism))
	if err != nil {
		r.DestroyErr = firstError(out2)
	}
	if err := faultsOff(); err != nil {
		return err
	}
	st, err := sandboxclient.New(api).Stats(ctx)
	if err != nil {
		return err
	}
	r.LeftAfterDelete = st.Customers + st.Sources
	r.Orphans += r.LeftAfterDelete
	r.Injected = st.Faults
	r.Requests = st.Requests.Total
	return nil
}

// verification is what state and the service hold after a run.
type verification struct {
	instances int   // resource instances in state
	extra     int64 // objects at the service that state does not name
	missing   int   // objects in state that the service does not have
	stats     *wire.Stats
}

// verify compares terraform's state with the account's objects at the
// service. There is no list endpoint for customers, so objects outside
// state are counted from the sandbox's stats; each customer in state is
// read to find sources that state does not name.
func verify(ctx context.Context, tf *terraform, api *client.Client) (*verification, error) {
	customers, sources, err := tf.stateIDs(ctx)
	if err != nil {
		return nil, err
	}
	st, err := sandboxclient.New(api).Stats(ctx)
	if err != nil {
		return nil, err
	}
	v := &verification{instances: len(customers) + len(sources), stats: st}
	var presentCustomers, presentSources int64
	sourcesOf := map[string]map[string]bool{}
	for _, id := range customers {
		c, err := api.GetCustomer(ctx, id)
		if client.IsNotFound(err) {
			v.missing++
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("reading customer %s: %w", id, err)
		}
		presentCustomers++
		sourcesOf[id] = map[string]bool{}
		for _, s := range c.Sources.Data {
			sourcesOf[id][s.ID] = true
		}
	}
	for id, cus := range sources {
		if sourcesOf[cus] == nil {
			// Its customer was not in state: ask the service directly.
			if _, err := api.GetSource(ctx, cus, id); err != nil {
				if client.IsNotFound(err) {
					v.missing++
					continue
				}
				return nil, fmt.Errorf("reading source %s of %s: %w", id, cus, err)
			}
		} else if !sourcesOf[cus][id] {
			v.missing++
			continue
		}
		presentSources++
	}
	v.extra = (st.Customers - presentCustomers) + (st.Sources - presentSources)
	return v, nil
}

// configHCL is the soak's configuration: n customers, each with one card.
func configHCL(cfg config, baseURL, mixName string) string {
	return fmt.Sprintf(`terraform {
  required_providers {
    payments = {
      source = "paymentsdev/payments"
    }
  }
}

provider "payments" {
  base_url    = %q
  max_retries = %d
}

resource "payments_customer" "soak" {
  count = %d
  email = "soak-${count.index}@example.com"
  name  = "Soak customer ${count.index}"
  metadata = {
    soak_mix   = %q
    soak_index = tostring(count.index)
  }
}

resource "payments_customer_source" "soak" {
  count    = %d
  customer = payments_customer.soak[count.index].id
  token    = %q
}
`, baseURL, cfg.maxRetries, cfg.n, mixName, cfg.n, sandbox.TokenVisa)
}

// terraform runs the CLI in one working directory.
type terraform struct {
	bin     string
	dir     string
	env     []string
	verbose bool
}

func (t *terraform) command(ctx context.Context, args ...string) (*exec.Cmd, *bytes.Buffer) {
	cmd := exec.CommandContext(ctx, t.bin, args...)
	cmd.Dir = t.dir
	cmd.Env = t.env
	// Terraform handles SIGINT itself; keep it out of the soak's process
	// group so that a Ctrl-C on the soak does not reach it twice.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	var out bytes.Buffer
	if t.verbose {
		cmd.Stdout = io.MultiWriter(&out, os.Stderr)
		cmd.Stderr = io.MultiWriter(&out, os.Stderr)
	} else {
		cmd.Stdout, cmd.Stderr = &out, &out
	}
	cmd.Cancel = func() error { return cmd.Process.Signal(os.Interrupt) }
	cmd.WaitDelay = 2 * time.Minute
	return cmd, &out
}

// run runs terraform and returns its output; err is non-nil when it fails.
func (t *terraform) run(ctx context.Context, args ...string) (string, error) {
	cmd, out := t.command(ctx, args...)
	err := cmd.Run()
	if err != nil {
		err = fmt.Errorf("terraform %s: %w", args[0], err)
	}
	return out.String(), err
}

// runCode runs terraform and returns its exit code; err is for failures to run it.
func (t *terraform) runCode(ctx context.Context, args ...string) (int, string, error) {
	cmd, out := t.command(ctx, args...)
	err := cmd.Run()
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		return exit.ExitCode(), out.String(), nil
	}
	if err != nil {
		return 0, out.String(), fmt.Errorf("terraform %s: %w", args[0], err)
	}
	return 0, out.String(), nil
}

// runInterrupted starts terraform, sends it SIGINT once ready reports true,
// and waits for it to stop gracefully.
func (t *terraform) runInterrupted(ctx context.Context, ready func() bool, args ...string) (string, error) {
	cmd, out := t.command(ctx, args...)
	if err := cmd.Start(); err != nil {
		return "", err
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	tick := time.NewTicker(200 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case err := <-done:
			return out.String(), err
		case <-tick.C:
			if ready() {
				if err := cmd.Process.Signal(os.Interrupt); err != nil {
					return out.String(), err
				}
				return out.String(), <-done
			}
		}
	}
}

// stateIDs returns the ids of the customers and of the sources (mapped to
// their customer) in state.
func (t *terraform) stateIDs(ctx context.Context) (customers []string, sources map[string]string, err error) {
	cmd, _ := t.command(ctx, "show", "-json", "-no-color")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return nil, nil, fmt.Errorf("terraform show -json: %w: %s", err, stderr.String())
	}
	var state struct {
		Values *struct {
			RootModule struct {
				Resources []struct {
					Type   string         `json:"type"`
					Values map[string]any `json:"values"`
				} `json:"resources"`
			} `json:"root_module"`
		} `json:"values"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &state); err != nil {
		return nil, nil, fmt.Errorf("decoding terraform show -json: %w", err)
	}
	sources = map[string]string{}
	if state.Values == nil {
		return nil, sources, nil
	}
	for _, res := range state.Values.RootModule.Resources {
		id, _ := res.Values["id"].(string)
		switch res.Type {
		case "payments_customer":
			customers = append(customers, id)
		case "payments_customer_source":
			cus, _ := res.Values["customer"].(string)
			sources[id] = cus
		}
	}
	return customers, sources, nil
}

// sandboxProc is the sandbox program, running.
type sandboxProc struct {
	cmd     *exec.Cmd
	url     string
	logPath string
	logFile *os.File
}

// usedKeys are the keys the soak made, to look for in the sandbox's log.
var usedKeys []string

func startSandbox(ctx context.Context, bin, logPath string) (*sandboxProc, error) {
	logFile, err := os.Create(logPath)
	if err != nil {
		return nil, err
	}
	cmd := exec.CommandContext(ctx, bin, "-addr", "127.0.0.1:0")
	cmd.Stderr = logFile
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return cmd.Process.Signal(syscall.SIGTERM) }
	cmd.WaitDelay = 10 * time.Second
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting the sandbox: %w", err)
	}
	lines := bufio.NewScanner(stdout)
	const banner = "payments-sandbox listening on "
	urlCh := make(chan string, 1)
	go func() {
		for lines.Scan() {
			if u, ok := strings.CutPrefix(lines.Text(), banner); ok {
				urlCh <- strings.TrimSpace(u)
			}
		}
		close(urlCh)
	}()
	select {
	case u, ok := <-urlCh:
		if !ok {
			_ = cmd.Wait()
			return nil, errors.New("the sandbox exited before it listened; see its log " + logPath)
		}
		return &sandboxProc{cmd: cmd, url: u, logPath: logPath, logFile: logFile}, nil
	case <-time.After(30 * time.Second):
		_ = cmd.Process.Kill()
		return nil, errors.New("the sandbox did not listen within 30s")
	}
}

func (s *sandboxProc) stop() {
	_ = s.cmd.Process.Signal(syscall.SIGTERM)
	_ = s.cmd.Wait()
	_ = s.logFile.Close()
}

// logsHoldKeys counts the soak's keys in the sandbox's log.
func (s *sandboxProc) logsHoldKeys() (int, error) {
	b, err := os.ReadFile(s.logPath)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, k := range usedKeys {
		n += bytes.Count(b, []byte(k))
	}
	return n, nil
}

// printTable prints the results as a Markdown table, ready to paste into
// an issue, followed by notes on the interrupted run and any errors.
func printTable(w io.Writer, results []*result) {
	header := []string{"mix", "faults set", "resources applied", "apply runs", "requests",
		"injected errors", "injected drops", "rate limited (429)", "customers found", "sources found",
		"duplicates", "orphans", "missing", "plan empty", "left after destroy", "duration"}
	rows := [][]string{header}
	for _, r := range results {
		rows = append(rows, []string{
			r.Mix.Name, faultsString(r.Mix), fmt.Sprint(r.Resources), fmt.Sprint(r.ApplyRuns), fmt.Sprint(r.Requests),
			fmt.Sprint(r.Injected.Errors), fmt.Sprint(r.Injected.Drops), fmt.Sprint(r.Injected.RateLimited),
			fmt.Sprint(r.Customers), fmt.Sprint(r.Sources),
			fmt.Sprint(r.Duplicates), fmt.Sprint(r.Orphans), fmt.Sprint(r.Missing),
			yesNo(r.PlanEmpty), fmt.Sprint(r.LeftAfterDelete), r.Duration.String(),
		})
	}
	widths := make([]int, len(header))
	for _, row := range rows {
		for i, cell := range row {
			widths[i] = max(widths[i], utf8.RuneCountInString(cell))
		}
	}
	line := func(cells []string) {
		var b strings.Builder
		b.WriteString("|")
		for i, cell := range cells {
			pad := strings.Repeat(" ", widths[i]-utf8.RuneCountInString(cell))
			if i < 2 {
				b.WriteString(" " + cell + pad + " |")
			} else {
				b.WriteString(" " + pad + cell + " |")
			}
		}
		fmt.Fprintln(w, b.String())
	}
	line(rows[0])
	sep := make([]string, len(header))
	for i := range sep {
		sep[i] = strings.Repeat("-", widths[i])
		if i >= 2 {
			sep[i] = sep[i][:widths[i]-1] + ":"
		}
	}
	line(sep)
	for _, row := range rows[1:] {
		line(row)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "requests: the account's /v1 requests, retries and the soak's own verification reads included; "+
		"duplicates: objects at the service beyond those in state after an apply that finished; "+
		"orphans: objects at the service unknown to state after an interrupted apply, plus any left after destroy; "+
		"missing: objects in state that the service does not have. All three must be 0.")
	for _, r := range results {
		if r.Mix.Interrupt {
			fmt.Fprintf(w, "%s: terraform was sent SIGINT when %d customers existed; when it stopped, state held %d resource instances and the service %d objects it did not know (orphans).\n",
				r.Mix.Name, r.InterruptAt, r.InterruptState, r.InterruptOrphans)
		}
		for _, e := range []struct{ what, msg string }{{"apply", r.ApplyErr}, {"plan", r.PlanErr}, {"destroy", r.DestroyErr}} {
			if e.msg != "" {
				fmt.Fprintf(w, "%s: %s: %s\n", r.Mix.Name, e.what, e.msg)
			}
		}
	}
}

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

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "NO"
}

// firstError returns terraform's first "Error:" line and the line after it.
func firstError(out string) string {
	lines := strings.Split(out, "\n")
	for i, l := range lines {
		if strings.Contains(l, "Error:") {
			msg := strings.TrimSpace(strings.TrimLeft(l, "│╷╵ "))
			for _, next := range lines[i+1 : min(i+4, len(lines))] {
				if s := strings.TrimSpace(strings.TrimLeft(next, "│╷╵ ")); s != "" {
					msg += " " + s
				}
			}
			return msg
		}
	}
	return tail(out)
}

// planSummary returns the plan's "Plan: …" line.
func planSummary(out string) string {
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "Plan:") {
			return strings.TrimSpace(l)
		}
	}
	return tail(out)
}

func tail(out string) string {
	lines := strings.Split(strings.TrimSpace(out), "\n")
	return strings.Join(lines[max(0, len(lines)-10):], "\n")
}

// cleanEnv is the soak's environment without settings that would change
// what terraform or the provider do.
func cleanEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(name, "TF_") || strings.HasPrefix(name, "PAYMENTS_") {
			continue
		}
		env = append(env, kv)
	}
	return env
}

func goBuild(ctx context.Context, out, pkg string) error {
	cmd := exec.CommandContext(ctx, "go", "build", "-trimpath", "-o", out, pkg)
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("go build %s: %w", pkg, err)
	}
	return nil
}

func copyFile(from, to string) error {
	b, err := os.ReadFile(from)
	if err != nil {
		return err
	}
	return os.WriteFile(to, b, 0o755)
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if strings.TrimSpace(x) == s {
			return true
		}
	}
	return false
}
