package provider

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/sandboxtest"
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

// terraformBinary is the CLI the acceptance tests use: the one
// terraform-plugin-testing runs (TF_ACC_TERRAFORM_PATH, or terraform on
// PATH), which may be OpenTofu.
func terraformBinary(t *testing.T) string {
	t.Helper()
	p, err := acceptanceCLIPath()
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// tfCLI runs terraform in one working directory with a dev_overrides CLI
// configuration for the built provider, and keeps every command's output.
type tfCLI struct {
	t   *testing.T
	bin string
	dir string
	env []string

	mu     sync.Mutex
	output bytes.Buffer // stdout and stderr of every command, for leak checks
}

// newTFCLI prepares a working directory. env is added to a copy of the test's
// environment from which TF_* and PAYMENTS_* settings have been removed.
func newTFCLI(t *testing.T, providerDir string, env ...string) *tfCLI {
	t.Helper()
	dir := t.TempDir()
	rc := filepath.Join(dir, "terraformrc")
	// "paymentsdev/payments" means a different registry host to each CLI.
	writeFile(t, rc, fmt.Sprintf(`provider_installation {
  dev_overrides {
    "%s/paymentsdev/payments" = %q
  }
  direct {}
}
`, cliRegistryHost(t), providerDir))
	base := []string{}
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(name, "TF_") || strings.HasPrefix(name, "PAYMENTS_") {
			continue
		}
		base = append(base, kv)
	}
	base = append(base,
		"TF_CLI_CONFIG_FILE="+rc,
		"CHECKPOINT_DISABLE=1",
		"TF_IN_AUTOMATION=1",
		"TF_INPUT=0",
	)
	return &tfCLI{t: t, bin: terraformBinary(t), dir: dir, env: append(base, env...)}
}

// subdir returns a tfCLI for another working directory with the same
// environment, sharing this one's output record.
func (c *tfCLI) subdir(name string) *tfCLI {
	c.t.Helper()
	dir := filepath.Join(c.dir, name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		c.t.Fatal(err)
	}
	return &tfCLI{t: c.t, bin: c.bin, dir: dir, env: c.env}
}

// writeConfig replaces the working directory's main.tf.
func (c *tfCLI) writeConfig(hcl string) {
	c.t.Helper()
	writeFile(c.t, filepath.Join(c.dir, "main.tf"), hcl)
}

func (c *tfCLI) command(ctx context.Context, extraEnv []string, args ...string) (*exec.Cmd, *bytes.Buffer) {
	cmd := exec.CommandContext(ctx, c.bin, args...)
	cmd.Dir = c.dir
	cmd.Env = append(append([]string{}, c.env...), extraEnv...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	// Terraform stops gracefully on SIGINT; a test that runs out of time
	// gets that first, then SIGKILL after the delay.
	cmd.Cancel = func() error { return cmd.Process.Signal(os.Interrupt) }
	cmd.WaitDelay = time.Minute
	return cmd, &out
}

// run runs one terraform command with extra environment variables, and
// returns its combined output and exit code.
func (c *tfCLI) runEnv(extraEnv []string, args ...string) (string, int) {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd, out := c.command(ctx, extraEnv, args...)
	err := cmd.Run()
	c.record(args, out.Bytes())
	code := 0
	if err != nil {
		ee, ok := err.(*exec.ExitError)
		if !ok {
			c.t.Fatalf("running terraform %s: %v", args[0], err)
		}
		code = ee.ExitCode()
	}
	return out.String(), code
}

// run runs one terraform command and returns its output and exit code.
func (c *tfCLI) run(args ...string) (string, int) {
	c.t.Helper()
	return c.runEnv(nil, args...)
}

// mustRun runs one terraform command and fails the test unless it exits 0.
func (c *tfCLI) mustRun(args ...string) string {
	c.t.Helper()
	out, code := c.run(args...)
	if code != 0 {
		c.t.Fatalf("terraform %s exited %d:\n%s", strings.Join(args, " "), code, out)
	}
	return out
}

func (c *tfCLI) record(args []string, out []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	fmt.Fprintf(&c.output, "$ terraform %s\n", strings.Join(args, " "))
	c.output.Write(out)
}

// stateResource is one resource instance of `terraform show -json`.
type stateResource struct {
	Address string         `json:"address"`
	Type    string         `json:"type"`
	Mode    string         `json:"mode"`
	Values  map[string]any `json:"values"`
}

// state returns the managed resource instances in state.
func (c *tfCLI) state() []stateResource {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd, _ := c.command(ctx, nil, "show", "-json", "-no-color")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		c.t.Fatalf("terraform show -json: %v\n%s", err, stderr.String())
	}
	var doc struct {
		Values *struct {
			RootModule struct {
				Resources []stateResource `json:"resources"`
			} `json:"root_module"`
		} `json:"values"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &doc); err != nil {
		c.t.Fatalf("decoding terraform show -json: %v", err)
	}
	if doc.Values == nil {
		return nil
	}
	var managed []stateResource
	for _, r := range doc.Values.RootModule.Resources {
		if r.Mode == "managed" {
			managed = append(managed, r)
		}
	}
	return managed
}

// startLoggingSandbox runs an in-process sandbox of its own whose logs, at
// debug level, go to the returned buffer.
func startLoggingSandbox(t *testing.T) (url string, logs *sandboxtest.Buffer) {
	t.Helper()
	logs = &sandboxtest.Buffer{}
	sb := sandboxtest.Start(t, sandboxtest.WithLogger(slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))))
	return sb.URL, logs
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
