package examples_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/sandboxtest"
	"github.com/paymentsdev/terraform-provider-payments/tools/internal/build"
)

// The Stripe examples, relative to the repository's root.
const (
	stripeNodeDir = "examples/stripe-node"
	stripeGoDir   = "examples/stripe-go"
)

// stripeNodeEngine is the oldest Node.js major version the stripe package
// examples/stripe-node pins declares it supports (its engines field).
const stripeNodeEngine = 20

// nodeTools returns node and npm, failing the test when either is
// missing: the Stripe examples' tests never skip.
func nodeTools(t *testing.T) (node, npm string) {
	t.Helper()
	var missing []string
	node, err := exec.LookPath("node")
	if err != nil {
		missing = append(missing, "node")
	}
	npm, err = exec.LookPath("npm")
	if err != nil {
		missing = append(missing, "npm")
	}
	if len(missing) > 0 {
		t.Fatalf("%s not on PATH: install Node.js and npm (apt-get install nodejs npm; make test does it, as root); the stripe-node example's test never skips", strings.Join(missing, " and "))
	}
	out, err := exec.Command(node, "--version").Output()
	if err != nil {
		t.Fatalf("%s --version: %v", node, err)
	}
	version := strings.TrimSpace(string(out))
	t.Logf("node %s (%s), npm at %s", version, node, npm)
	if m := regexp.MustCompile(`^v(\d+)\.`).FindStringSubmatch(version); m == nil {
		t.Fatalf("%s --version printed %q, not vN.N.N", node, version)
	} else if major, _ := strconv.Atoi(m[1]); major < stripeNodeEngine {
		// npm ci installs it all the same (engines is advice unless
		// engine-strict is set), and the script runs on it.
		t.Logf("node %s is older than the %d.x the stripe package declares; the test runs it all the same", version, stripeNodeEngine)
	}
	return node, npm
}

// npmCache is where npm keeps the packages it fetched between runs, so
// that a second run installs offline.
func npmCache(t *testing.T) string {
	t.Helper()
	dir, err := os.UserCacheDir()
	if err != nil {
		t.Fatalf("no cache directory for npm: %v", err)
	}
	return filepath.Join(dir, "terraform-provider-payments", "npm")
}

// copyFiles copies the regular files of dir (not its folders, such as a
// node_modules a reader's npm install left there) into a new temporary
// directory, and returns it.
func copyFiles(t *testing.T, dir string) string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	dst := t.TempDir()
	for _, e := range entries {
		if !e.Type().IsRegular() {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dst, e.Name()), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dst
}

// runExample runs cmd against a new account of sb, failing the test with
// its output when it fails or does not end with its summary line.
func runExample(t *testing.T, cmd *exec.Cmd, sb *sandboxtest.Sandbox) {
	t.Helper()
	cmd.Env = append(os.Environ(), "PAYMENTS_BASE_URL="+sb.URL, "PAYMENTS_SECRET_KEY="+sandboxtest.NewKey(t))
	start := time.Now()
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s: %v after %s; its output:\n%s", strings.Join(cmd.Args, " "), err, time.Since(start).Round(time.Millisecond), out)
	}
	if !regexp.MustCompile(`(?m)^stripe-\S+ .*: \d+ steps passed$`).Match(out) {
		t.Fatalf("%s exited 0 without its summary line; its output:\n%s", strings.Join(cmd.Args, " "), out)
	}
	t.Logf("%s in %s:\n%s", strings.Join(cmd.Args, " "), time.Since(start).Round(time.Millisecond), out)
}

// TestStripeNode_Lifecycle installs the stripe package that
// examples/stripe-node's package-lock.json pins with npm ci, in a copy of
// the example, and runs its lifecycle script against a sandbox.
func TestStripeNode_Lifecycle(t *testing.T) {
	t.Parallel()
	node, npm := nodeTools(t)
	dir := copyFiles(t, filepath.Join(repoRoot(t), stripeNodeDir))
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Minute)
	defer cancel()

	install := exec.CommandContext(ctx, npm, "ci", "--no-audit", "--no-fund", "--prefer-offline", "--cache", npmCache(t))
	install.Dir = dir
	install.Env = append(os.Environ(), "npm_config_update_notifier=false")
	if out, err := install.CombinedOutput(); err != nil {
		t.Fatalf("npm ci in a copy of %s: %v\n%s", stripeNodeDir, err, out)
	}

	sb := sandboxtest.Start(t)
	cmd := exec.CommandContext(ctx, node, "lifecycle.mjs")
	cmd.Dir = dir
	runExample(t, cmd, sb)
}

// TestStripeGo_Program builds examples/stripe-go, a module of its own
// that requires stripe-go, and runs it against a sandbox.
func TestStripeGo_Program(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Minute)
	defer cancel()
	bin := filepath.Join(t.TempDir(), "stripe-go-example")
	if err := build.Program(ctx, filepath.Join(repoRoot(t), stripeGoDir), ".", bin); err != nil {
		t.Fatal(err)
	}
	sb := sandboxtest.Start(t)
	runExample(t, exec.CommandContext(ctx, bin), sb)
}
