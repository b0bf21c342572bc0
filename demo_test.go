//go:build unix

package main

import (
	"bufio"
	"errors"
	"os"
	"os/exec"
	"os/signal"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestDemo_CtrlCIsAnInterruptionNotAFailure runs make demo's script and
// presses Ctrl-C (SIGINT to its process group, as a terminal does) once
// Terraform has begun to apply: the demo must say it was interrupted, with no
// failure report, stop its sandbox, remove its scratch folder and exit 130.
func TestDemo_CtrlCIsAnInterruptionNotAFailure(t *testing.T) {
	if testing.Short() || os.Getenv("TF_ACC") == "" {
		t.Skip("runs make demo's script with Terraform: set TF_ACC=1")
	}
	if _, err := exec.LookPath("terraform"); err != nil {
		t.Skip("no terraform on PATH")
	}
	if signal.Ignored(syscall.SIGINT) {
		t.Skip("SIGINT is ignored here (a background job), and so would be in the demo")
	}
	cmd := exec.Command("scripts/demo.sh")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Env = append(os.Environ(), "KEEP_DEMO=")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = cmd.Stdout
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	killed := false
	defer func() {
		if !killed {
			_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			_ = cmd.Wait()
		}
	}()

	var printed strings.Builder
	lines := bufio.NewScanner(out)
	for lines.Scan() {
		printed.WriteString(lines.Text() + "\n")
		if strings.HasPrefix(lines.Text(), "==> terraform apply:") {
			break
		}
	}
	if !strings.Contains(printed.String(), "==> terraform apply:") {
		t.Fatalf("the demo ended before its first apply:\n%s", printed.String())
	}
	// Ctrl-C while Terraform works: its output, in the log, has begun.
	if m := regexp.MustCompile(`Terraform's whole output goes to (\S+)`).FindStringSubmatch(printed.String()); m != nil {
		deadline := time.Now().Add(2 * time.Minute)
		for time.Now().Before(deadline) {
			if b, _ := os.ReadFile(m[1]); strings.Contains(string(b), "Plan: ") {
				break
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	if err := syscall.Kill(-cmd.Process.Pid, syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	for lines.Scan() {
		printed.WriteString(lines.Text() + "\n")
	}
	err = cmd.Wait()
	killed = true
	text := printed.String()

	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 130 {
		t.Errorf("exit: %v, want status 130", err)
	}
	if !strings.Contains(text, "demo: interrupted") {
		t.Errorf("the demo did not say it was interrupted:\n%s", text)
	}
	if strings.Contains(text, "failed") {
		t.Errorf("the demo reported a failure on Ctrl-C:\n%s", text)
	}
	if m := regexp.MustCompile(`Terraform's whole output goes to (\S+)/demo\.log`).FindStringSubmatch(text); m == nil {
		t.Errorf("no scratch folder named:\n%s", text)
	} else if _, err := os.Stat(m[1]); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the scratch folder %s is still there (%v)", m[1], err)
	}
	if m := regexp.MustCompile(`sandbox: \S+ \(pid (\d+)\)`).FindStringSubmatch(text); m == nil {
		t.Errorf("no sandbox pid printed:\n%s", text)
	} else {
		pid, _ := strconv.Atoi(m[1])
		// The demo waited for it: by now its pid names no process.
		deadline := time.Now().Add(5 * time.Second)
		for syscall.Kill(pid, 0) == nil && time.Now().Before(deadline) {
			time.Sleep(50 * time.Millisecond)
		}
		if syscall.Kill(pid, 0) == nil {
			t.Errorf("the sandbox (pid %d) is still running", pid)
		}
	}
}
