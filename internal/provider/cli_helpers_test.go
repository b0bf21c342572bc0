package provider

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/sandboxtest"
	"github.com/paymentsdev/terraform-provider-payments/internal/tfcli"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// The tests in this file's companions run the real Terraform CLI against a
// provider binary built from this module, where the acceptance-test
// framework's in-process provider cannot show what users see: the
// provider's own log lines in TF_LOG output (key hygiene), and Terraform's
// handling of SIGINT (interrupts).

// providerBinary builds the provider into a fresh directory and returns
// that directory, ready for a dev_overrides CLI configuration.
func providerBinary(t *testing.T) string {
	t.Helper()
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the go command is not on PATH; these tests build the provider binary: %v", err)
	}
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	// The module's root package is main.go; building it by import path
	// works from this package's directory.
	cmd := exec.CommandContext(ctx, goBin, "build", "-o", filepath.Join(dir, "terraform-provider-payments"),
		"github.com/paymentsdev/terraform-provider-payments")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("building the provider: %v\n%s", err, out)
	}
	return dir
}

// tfCLI runs the acceptance tests' CLI (tfcli.Binary: the one
// terraform-plugin-testing runs, TF_ACC_TERRAFORM_PATH or terraform on
// PATH, which may be OpenTofu) in one working directory through
// internal/tfcli, with a dev_overrides CLI configuration for the built
// provider, and keeps every command's output for the leak checks.
type tfCLI struct {
	t   *testing.T
	r   tfcli.Runner
	dir string

	output strings.Builder // every command and its output, for leak checks
}

// newTFCLI prepares a working directory. The environment is the test's,
// cleared of Terraform and provider settings (tfcli.Env), plus env.
func newTFCLI(t *testing.T, providerDir string, env ...string) *tfCLI {
	t.Helper()
	bin, err := tfcli.Binary("")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	rc := filepath.Join(dir, "terraformrc")
	if err := tfcli.WriteCLIConfig(rc, tfcli.Override{Source: "paymentsdev/payments", Dir: providerDir}); err != nil {
		t.Fatal(err)
	}
	return &tfCLI{t: t, dir: dir, r: tfcli.Runner{Bin: bin, Dir: dir, Env: tfcli.Env(os.Environ(), rc, env...), WaitDelay: time.Minute}}
}

// subdir returns a tfCLI for another working directory with the same
// environment and an output record of its own.
func (c *tfCLI) subdir(name string) *tfCLI {
	c.t.Helper()
	dir := filepath.Join(c.dir, name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		c.t.Fatal(err)
	}
	sub := &tfCLI{t: c.t, r: c.r, dir: dir}
	sub.r.Dir = dir
	return sub
}

// writeConfig replaces the working directory's main.tf.
func (c *tfCLI) writeConfig(hcl string) {
	c.t.Helper()
	writeFile(c.t, filepath.Join(c.dir, "main.tf"), hcl)
}

// runEnv runs one command with extra environment variables, and returns
// its combined output and exit code.
func (c *tfCLI) runEnv(extraEnv []string, args ...string) (string, int) {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	r := c.r
	r.Env = append(slices.Clip(c.r.Env), extraEnv...)
	res, err := r.Run(ctx, args...)
	var exit *tfcli.ExitError
	if err != nil && !errors.As(err, &exit) {
		c.t.Fatalf("running terraform %s: %v", args[0], err)
	}
	c.record(args, res.Output)
	return res.Output, res.ExitCode
}

// run runs one command and returns its output and exit code.
func (c *tfCLI) run(args ...string) (string, int) {
	c.t.Helper()
	return c.runEnv(nil, args...)
}

// mustRun runs one command and fails the test unless it exits 0.
func (c *tfCLI) mustRun(args ...string) string {
	c.t.Helper()
	out, code := c.run(args...)
	if code != 0 {
		// The arguments may carry a key (-var payments_secret_key=...):
		// a test's output never shows one.
		c.t.Fatalf("terraform %s exited %d:\n%s", wire.MaskKeys(strings.Join(args, " ")), code, wire.MaskKeys(out))
	}
	return out
}

// start starts one command without waiting (see tfcli.Command); its
// output is the caller's to record.
func (c *tfCLI) start(ctx context.Context, args ...string) *tfcli.Command {
	c.t.Helper()
	cmd, err := c.r.Start(ctx, args...)
	if err != nil {
		c.t.Fatal(err)
	}
	return cmd
}

func (c *tfCLI) record(args []string, out string) {
	fmt.Fprintf(&c.output, "$ terraform %s\n%s", strings.Join(args, " "), out)
}

// json runs a command whose standard output is JSON and decodes it into v.
func (c *tfCLI) json(v any, args ...string) {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := c.r.JSON(ctx, v, args...); err != nil {
		c.t.Fatal(err)
	}
}

// state returns the managed resource instances in state.
func (c *tfCLI) state() []tfcli.Resource {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	st, err := c.r.State(ctx)
	if err != nil {
		c.t.Fatal(err)
	}
	return st
}

// startLoggingSandbox runs an in-process sandbox of its own whose logs, at
// debug level, go to a file; logs returns what it holds so far. (The
// server logs from its handlers' goroutines; os.File writes are safe from
// them while the test reads the file.)
func startLoggingSandbox(t *testing.T) (url string, logs func() string) {
	t.Helper()
	f, err := os.CreateTemp(t.TempDir(), "sandbox-log")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	sb := sandboxtest.Start(t, sandboxtest.WithLogger(slog.New(slog.NewTextHandler(f, &slog.HandlerOptions{Level: slog.LevelDebug}))))
	return sb.URL, func() string { return readFileIfExists(t, f.Name()) }
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
}

// readFileIfExists returns a file's content, or "" when it does not exist.
func readFileIfExists(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return ""
	}
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
