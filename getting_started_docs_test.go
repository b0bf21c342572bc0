package main

import (
	"bufio"
	"context"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// The getting-started guide is what a newcomer runs first, on a machine
// with Go and a clone, after make demo or make build: these tests check
// that its commands need nothing else, and run the ones that start the
// sandbox and call its API.

var gettingStartedPages = []string{"templates/guides/getting-started.md.tmpl", "docs/guides/getting-started.md"}

// shellBlock matches a ```shell block of a Markdown page.
var shellBlock = regexp.MustCompile("(?s)```shell\n(.*?)```")

// shellBlocks returns the shell blocks of a page, in order.
func shellBlocks(text string) []string {
	var blocks []string
	for _, m := range shellBlock.FindAllStringSubmatch(text, -1) {
		blocks = append(blocks, m[1])
	}
	return blocks
}

// blockWith returns the one shell block of blocks that contains marker.
func blockWith(t *testing.T, blocks []string, marker string) string {
	t.Helper()
	var found []string
	for _, b := range blocks {
		if strings.Contains(b, marker) {
			found = append(found, b)
		}
	}
	if len(found) != 1 {
		t.Fatalf("the guide has %d shell blocks with %q, want 1", len(found), marker)
	}
	return found[0]
}

// TestDocs_GettingStartedNeedsOnlyTheClone: every command of the guide
// runs with what the clone, Go and make demo give: the sandbox by its path
// in bin/, no jq, no go install of a module not yet published, and curl
// failing when the API refuses.
func TestDocs_GettingStartedNeedsOnlyTheClone(t *testing.T) {
	for _, path := range gettingStartedPages {
		blocks := shellBlocks(readFile(t, path))
		if len(blocks) == 0 {
			t.Errorf("%s: no shell blocks", path)
		}
		for _, b := range blocks {
			for _, line := range strings.Split(b, "\n") {
				switch {
				case regexp.MustCompile(`\bjq\b`).MatchString(line):
					t.Errorf("%s: %q needs jq, which a bare machine lacks", path, line)
				case strings.Contains(line, "go install") && strings.Contains(line, "@latest"):
					t.Errorf("%s: %q installs a module no release has published", path, line)
				case regexp.MustCompile(`^curl\b`).MatchString(line) && !strings.Contains(line, "--fail-with-body"):
					t.Errorf("%s: %q succeeds when the API refuses; add --fail-with-body", path, line)
				case regexp.MustCompile(`(^|[^/])payments-sandbox -addr`).MatchString(line):
					t.Errorf("%s: %q expects payments-sandbox on PATH; make build puts it in bin/", path, line)
				}
			}
		}
		blockWith(t, blocks, "scripts/build-clis.sh terraform")
	}
}

// TestDocs_GettingStartedCommandsRunAgainstTheSandbox runs the guide's own
// commands: it starts the sandbox as the guide does (built into bin/ of a
// scratch folder), points the environment at it, and makes the guide's
// payment, once for a customer that exists and twice for one the API
// refuses. A stand-in `terraform` answers `terraform console` with the
// customer's id, as the quick start's state would.
func TestDocs_GettingStartedCommandsRunAgainstTheSandbox(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and starts the sandbox")
	}
	for _, tool := range []string{"bash", "curl"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not on PATH: %v", tool, err)
		}
	}
	blocks := shellBlocks(readFile(t, "docs/guides/getting-started.md"))
	start := blockWith(t, blocks, "payments-sandbox -addr")
	env := blockWith(t, blocks, "export PAYMENTS_BASE_URL")
	pay := blockWith(t, blocks, "/v1/payments")

	dir := t.TempDir()
	build := exec.Command("go", "build", "-o", filepath.Join(dir, "bin", "payments-sandbox"), "./cmd/payments-sandbox")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build ./cmd/payments-sandbox: %v\n%s", err, out)
	}

	// The guide's port may be taken on this machine: a free one instead.
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	_ = l.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	sandbox := exec.CommandContext(ctx, "bash", "-c", "exec "+strings.ReplaceAll(strings.TrimSpace(start), "127.0.0.1:12111", addr))
	sandbox.Dir = dir
	stdout, err := sandbox.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := sandbox.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = sandbox.Process.Signal(os.Interrupt)
		_ = sandbox.Wait()
	})
	lines := bufio.NewScanner(stdout)
	for lines.Scan() && !strings.HasPrefix(lines.Text(), "payments-sandbox listening on http://"+addr) {
	}
	if lines.Err() != nil || !strings.HasPrefix(lines.Text(), "payments-sandbox listening on") {
		t.Fatalf("the guide's command did not start the sandbox on %s (last line %q, %v)", addr, lines.Text(), lines.Err())
	}
	go func() {
		for lines.Scan() {
		}
	}()

	fakeBin := filepath.Join(dir, "fake")
	if err := os.MkdirAll(fakeBin, 0o755); err != nil {
		t.Fatal(err)
	}
	fakeTerraform := `#!/usr/bin/env bash
# terraform console, on the quick start's state, as the guide uses it.
cat >/dev/null
case "$GUIDE_CUSTOMER" in
grace)
	id=$(curl -sS -u "$PAYMENTS_SECRET_KEY:" "$PAYMENTS_BASE_URL/v1/customers" -d email=grace@example.com -d source=tok_amex |
		sed -n 's/.*"id": *"\(cus_[^"]*\)".*/\1/p')
	echo "\"$id\"" ;;
missing) echo '"cus_doesnotexist"' ;;
*) echo "Error: no state" >&2; exit 1 ;;
esac
`
	if err := os.WriteFile(filepath.Join(fakeBin, "terraform"), []byte(fakeTerraform), 0o755); err != nil {
		t.Fatal(err)
	}
	script := strings.ReplaceAll(env, "127.0.0.1:12111", addr) + pay
	for _, tc := range []struct {
		customer string
		wantOK   bool
		want     string
	}{
		{"grace", true, `"status":"approved"`},
		{"missing", false, "error"},
		{"nostate", false, "error"},
	} {
		t.Run(tc.customer, func(t *testing.T) {
			cmd := exec.CommandContext(ctx, "bash", "-c", script)
			cmd.Dir = dir
			cmd.Env = append(os.Environ(), "PATH="+fakeBin+string(os.PathListSeparator)+os.Getenv("PATH"), "GUIDE_CUSTOMER="+tc.customer)
			out, err := cmd.CombinedOutput()
			if tc.wantOK && err != nil {
				t.Fatalf("the guide's payment failed: %v\n%s", err, out)
			}
			if !tc.wantOK && err == nil {
				t.Fatalf("the guide's payment succeeded for a customer the API refuses:\n%s", out)
			}
			if !strings.Contains(strings.Join(strings.Fields(string(out)), ""), tc.want) {
				t.Errorf("the guide's payment printed no %q:\n%s", tc.want, out)
			}
		})
	}
}
