//go:build unix

package main

import (
	"errors"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// fakeGo writes a go command that prints its arguments, fails `go vet ./...`
// of the provider's module, and sleeps in the tools module's tests for
// $FAKE_GO_SLEEP seconds: scripts/test.sh's stages in a second.
func fakeGo(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "go")
	script := `#!/bin/sh
echo "fake go $*"
case "$*" in
"vet ./...") exit 1 ;;
*"-C tools test"*) sleep "${FAKE_GO_SLEEP:-0}" ;;
esac
`
	if err := os.WriteFile(path, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestTestScript_EndsWithALinePerStageAndCLI: make test runs every stage
// after one failed, and ends with how each stage and each CLI ended.
func TestTestScript_EndsWithALinePerStageAndCLI(t *testing.T) {
	cmd := exec.Command("scripts/test.sh")
	cmd.Env = append(os.Environ(), "GO="+fakeGo(t), "PAYMENTS_CLI_CACHE="+t.TempDir())
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 1 {
		t.Errorf("exit: %v, want status 1 (go vet failed)", err)
	}
	_, summary, ok := strings.Cut(string(out), "==> make test, by stage and by CLI:")
	if !ok {
		t.Fatalf("no summary:\n%s", out)
	}
	for _, want := range []string{
		"FAILED   go vet ./...",
		"ok       unit tests (-race) and acceptance tests on",
		"ok       tools module: go vet ./...",
		"ok       tools module: tests (-race)",
		"not run  acceptance tests on Terraform: not built",
		"not run  acceptance tests on OpenTofu: not built",
	} {
		if !strings.Contains(summary, want) {
			t.Errorf("the summary has no %q:\n%s", want, summary)
		}
	}
}

// TestTestScript_CtrlCEndsWithTheStagesNotRun: Ctrl-C in a stage ends make
// test with 130 and the stages it did not reach listed as interrupted.
func TestTestScript_CtrlCEndsWithTheStagesNotRun(t *testing.T) {
	if signal.Ignored(syscall.SIGINT) {
		t.Skip("SIGINT is ignored here (a background job), and so would be in the script")
	}
	out, err := os.CreateTemp(t.TempDir(), "out")
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("scripts/test.sh")
	cmd.Env = append(os.Environ(), "GO="+fakeGo(t), "FAKE_GO_SLEEP=30", "PAYMENTS_CLI_CACHE="+t.TempDir())
	cmd.Stdout, cmd.Stderr = out, out
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(time.Minute)
	for time.Now().Before(deadline) {
		if b, _ := os.ReadFile(out.Name()); strings.Contains(string(b), "fake go -C tools test") {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err := syscall.Kill(-cmd.Process.Pid, syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	err = cmd.Wait()
	b, _ := os.ReadFile(out.Name())
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 130 {
		t.Errorf("exit: %v, want status 130", err)
	}
	for _, want := range []string{
		"ok       tools module: go vet ./...",
		"not run  tools module: tests (-race): interrupted",
		"not run  acceptance tests on the CLIs make clis built (Terraform, OpenTofu): interrupted",
	} {
		if !strings.Contains(string(b), want) {
			t.Errorf("the output has no %q:\n%s", want, b)
		}
	}
}

// TestPrereqs_NamesTheOneCommandAndWhatItFound: with nothing to install
// allowed, the set-up says what it found, what is missing, and the one
// apt-get command that installs it, with no recommended packages.
func TestPrereqs_NamesTheOneCommandAndWhatItFound(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	// A PATH with no podman, runc, node, npm, Wine or MinGW on it.
	bin := t.TempDir()
	for _, tool := range []string{"dirname", "id", "apt-get", "dpkg-query", "sed", "grep"} {
		if p, err := exec.LookPath(tool); err == nil {
			if err := os.Symlink(p, filepath.Join(bin, tool)); err != nil {
				t.Fatal(err)
			}
		}
	}
	cmd := exec.Command(bash, "scripts/prereqs.sh", "haproxy", "podman", "node", "wine", "--", "echo", "ran")
	cmd.Env = append(os.Environ(), "PATH="+bin, "PAYMENTS_NO_INSTALL=1", "PAYMENTS_HAPROXY=/bin/sh")
	out, err := cmd.CombinedOutput()
	if err == nil || strings.Contains(string(out), "ran") {
		t.Fatalf("the set-up ran the command without podman:\n%s", out)
	}
	text := string(out)
	for _, want := range []string{"found   haproxy: /bin/sh", "missing podman", "missing runc", "missing node", "missing npm", "missing wine", "missing x86_64-w64-mingw32-gcc"} {
		if !strings.Contains(text, want) {
			t.Errorf("the set-up did not say %q:\n%s", want, text)
		}
	}
	if _, err := exec.LookPath("apt-get"); err == nil && !strings.Contains(text, "apt-get install --no-install-recommends podman runc nodejs npm wine64 wine gcc-mingw-w64-x86-64-win32") {
		t.Errorf("the set-up did not name the one command:\n%s", text)
	}
}
