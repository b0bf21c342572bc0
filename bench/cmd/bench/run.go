package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// The operations timed, in the order one repetition runs them.
const (
	opApply   = "apply"
	opPlan    = "plan"
	opDestroy = "destroy"
)

var operations = []string{opApply, opPlan, opDestroy}

// terraformArgs returns the command line of op. The refresh plan asks for
// -detailed-exitcode so that a non-empty plan after apply is caught.
func terraformArgs(op string, parallelism int) []string {
	common := []string{"-input=false", "-no-color", "-parallelism=" + strconv.Itoa(parallelism)}
	switch op {
	case opApply:
		return append([]string{"apply", "-auto-approve"}, common...)
	case opPlan:
		return append([]string{"plan", "-refresh=true", "-detailed-exitcode"}, common...)
	case opDestroy:
		return append([]string{"destroy", "-auto-approve"}, common...)
	}
	panic("unknown operation " + op)
}

// terraformEnv returns base without the variables that would change what is
// measured (logging, other CLI configurations, extra arguments) or leak a
// developer's own provider settings, plus extra.
func terraformEnv(base []string, extra ...string) []string {
	var env []string
	for _, kv := range base {
		name, _, _ := strings.Cut(kv, "=")
		switch {
		case strings.HasPrefix(name, "TF_"), strings.HasPrefix(name, "PAYMENTS_"), name == "CHECKPOINT_DISABLE":
			continue
		}
		env = append(env, kv)
	}
	return append(env, append([]string{"CHECKPOINT_DISABLE=1", "TF_IN_AUTOMATION=1"}, extra...)...)
}

// errPlanNotEmpty is returned when the refresh plan after an apply proposes
// changes: the provider's Read does not give back what Create stored.
var errPlanNotEmpty = errors.New("the refresh plan after apply is not empty (terraform plan -detailed-exitcode exited 2)")

// runTerraform runs terraform op in dir, writes its output to logPath and
// returns the wall-clock time it took.
func runTerraform(ctx context.Context, terraform, dir, op string, parallelism int, env []string, logPath string) (time.Duration, error) {
	logf, err := os.Create(logPath)
	if err != nil {
		return 0, err
	}
	defer logf.Close()
	cmd := exec.CommandContext(ctx, terraform, terraformArgs(op, parallelism)...)
	cmd.Dir, cmd.Env, cmd.Stdout, cmd.Stderr = dir, env, logf, logf
	start := time.Now()
	err = cmd.Run()
	elapsed := time.Since(start)
	if exit := (*exec.ExitError)(nil); errors.As(err, &exit) && op == opPlan && exit.ExitCode() == 2 {
		return elapsed, fmt.Errorf("%w; see %s", errPlanNotEmpty, logPath)
	}
	if err != nil {
		return elapsed, fmt.Errorf("terraform %s in %s: %w; its output:\n%s", op, dir, err, tail(logPath, 40))
	}
	return elapsed, nil
}

// tail returns the last n lines of the file at path.
func tail(path string, n int) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return err.Error()
	}
	lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}

// sandboxProcess is a running payments-sandbox program.
type sandboxProcess struct {
	URL string
	cmd *exec.Cmd
}

const listeningPrefix = "payments-sandbox listening on "

// startSandbox starts the sandbox program on a free port and waits until it
// says where it listens. Its standard error goes to logPath.
func startSandbox(bin, logPath string) (*sandboxProcess, error) {
	logf, err := os.Create(logPath)
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(bin, "-addr", "127.0.0.1:0")
	cmd.Stderr = logf
	out, err := cmd.StdoutPipe()
	if err != nil {
		logf.Close()
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		logf.Close()
		return nil, fmt.Errorf("start %s: %w", bin, err)
	}
	url := make(chan string, 1)
	go func() {
		defer logf.Close()
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			if u, ok := strings.CutPrefix(sc.Text(), listeningPrefix); ok {
				url <- strings.TrimSpace(u)
				break
			}
			fmt.Fprintln(logf, sc.Text())
		}
		close(url)
		// Keep draining, so the sandbox never blocks writing to a full pipe.
		_, _ = io.Copy(logf, out)
	}()
	select {
	case u, ok := <-url:
		if ok {
			return &sandboxProcess{URL: u, cmd: cmd}, nil
		}
	case <-time.After(30 * time.Second):
	}
	_ = cmd.Process.Kill()
	_ = cmd.Wait()
	return nil, fmt.Errorf("%s did not print %q; see %s", bin, listeningPrefix+"URL", logPath)
}

// Stop asks the sandbox to stop and waits for it.
func (s *sandboxProcess) Stop() {
	_ = s.cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan struct{})
	go func() { _ = s.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		_ = s.cmd.Process.Kill()
		<-done
	}
}
