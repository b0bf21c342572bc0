// Command soak applies hundreds of payments resources through the Terraform
// CLI against the sandbox program under several fault mixes, and prints a
// table of the faults the sandbox injected and of what it then holds.
//
// It checks the provider's promise under faults: an apply converges or stops
// with a clear error, and never leaves an object that state does not know
// (an orphan) nor creates one twice (a duplicate). It is too slow for CI;
// run it with `make soak`.
//
// The files follow its jobs: main.go sets up (flags, binaries, the sandbox,
// the CLI configuration) and runs the mixes; mixes.go names the fault mixes
// and switches them on and off; mix.go is one mix's apply, plan and
// destroy; verify.go compares state with the service; hcl.go writes the
// configuration; report.go prints the table.
package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/sandboxtest"
	"github.com/paymentsdev/terraform-provider-payments/internal/tfcli"
	"github.com/paymentsdev/terraform-provider-payments/tools/internal/build"
)

// providerSource is the provider's source address, as main.go serves it.
const providerSource = "paymentsdev/payments"

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
	flag.StringVar(&cfg.provider, "provider", "", "provider binary (default: built from the repository into a temporary directory)")
	flag.StringVar(&cfg.sandbox, "sandbox", "", "sandbox binary (default: built from the repository into a temporary directory)")
	flag.StringVar(&cfg.terraform, "terraform", "", "the Terraform CLI, or OpenTofu (default: $TF_ACC_TERRAFORM_PATH, else terraform on PATH)")
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

// soak is what the mixes share.
type soak struct {
	cfg  config
	work string
	// tf has the CLI and its settings; each mix sets its directory and
	// environment.
	tf        tfcli.Runner
	cliConfig string
	baseURL   string
	// keys are the secret keys the soak made, one account per mix, to look
	// for in the sandbox's log.
	keys []string
}

func run(ctx context.Context, cfg config) error {
	selected, err := selectMixes(cfg.only)
	if err != nil {
		return err
	}
	tfBin, err := tfcli.Binary(cfg.terraform)
	if err != nil {
		return err
	}
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
	sandboxBin, err := binaries(ctx, cfg, binDir)
	if err != nil {
		return err
	}

	s := &soak{cfg: cfg, work: work, cliConfig: filepath.Join(work, "terraformrc"),
		tf: tfcli.Runner{Bin: tfBin, Parallelism: cfg.parallelism}}
	if cfg.verbose {
		s.tf.Output = os.Stderr
	}
	if err := tfcli.WriteCLIConfig(s.cliConfig, tfcli.Override{Source: providerSource, Dir: binDir}); err != nil {
		return err
	}

	logPath := filepath.Join(work, "sandbox.log")
	logFile, err := os.Create(logPath)
	if err != nil {
		return err
	}
	defer logFile.Close()
	sb, err := sandboxtest.StartProcess(ctx, sandboxBin, sandboxtest.ProcessOptions{Log: logFile})
	if err != nil {
		return err
	}
	defer func() { _ = sb.Stop() }()
	s.baseURL = sb.URL
	fmt.Fprintf(os.Stderr, "soak: sandbox at %s; %s; %d customers and %d cards per mix, parallelism %d, max_retries %d\n",
		sb.URL, tfBin, cfg.n, cfg.n, cfg.parallelism, cfg.maxRetries)

	var results []*result
	for _, m := range selected {
		if ctx.Err() != nil {
			break
		}
		fmt.Fprintf(os.Stderr, "soak: mix %s ...\n", m.Name)
		r := &result{Mix: m}
		start := time.Now()
		if err := s.runMix(ctx, r); err != nil {
			return fmt.Errorf("mix %s: %w", m.Name, err)
		}
		r.Duration = time.Since(start).Round(time.Second)
		results = append(results, r)
		fmt.Fprintf(os.Stderr, "soak: mix %s done in %s\n", m.Name, r.Duration)
	}

	printTable(os.Stdout, results)
	log, err := os.ReadFile(logPath)
	if err != nil {
		return err
	}
	if leaks := countKeys(log, s.keys); leaks > 0 {
		return fmt.Errorf("the sandbox's log holds a secret key %d time(s)", leaks)
	}
	for _, r := range results {
		if !r.ok() {
			return errors.New("at least one mix failed its checks; see the table")
		}
	}
	return nil
}

// binaries puts the provider into binDir, where the CLI configuration's
// dev_overrides look for it, building it unless -provider names one, and
// returns the sandbox program, built into binDir unless -sandbox names one.
func binaries(ctx context.Context, cfg config, binDir string) (sandboxBin string, err error) {
	if err := os.MkdirAll(binDir, 0o755); err != nil {
		return "", err
	}
	var root string
	if cfg.provider == "" || cfg.sandbox == "" {
		if root, err = build.Root(); err != nil {
			return "", err
		}
	}
	providerBin := filepath.Join(binDir, "terraform-provider-payments")
	if cfg.provider == "" {
		err = build.Program(ctx, root, ".", providerBin)
	} else {
		err = copyFile(cfg.provider, providerBin)
	}
	if err != nil {
		return "", err
	}
	if cfg.sandbox != "" {
		return cfg.sandbox, nil
	}
	sandboxBin = filepath.Join(binDir, "payments-sandbox")
	return sandboxBin, build.Program(ctx, root, "./cmd/payments-sandbox", sandboxBin)
}

// countKeys counts the occurrences of keys in log.
func countKeys(log []byte, keys []string) int {
	n := 0
	for _, k := range keys {
		n += bytes.Count(log, []byte(k))
	}
	return n
}

func copyFile(from, to string) error {
	b, err := os.ReadFile(from)
	if err != nil {
		return err
	}
	return os.WriteFile(to, b, 0o755)
}
