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
		if !strings.HasPrefix(name, "TF_") && !strings.HasPrefix(name, "PAYMENTS_") && name != "CHECKPOINT_DISABLE" {
			env = append(env, kv)
		}
	}
	return append(env, append([]string{"CHECKPOINT_DISABLE=1", "TF_IN_AUTOMATION=1"}, extra...)...)
}

// errPlanNotEmpty is returned when the refresh plan after an apply proposes
// changes: the provider's Read does not give back what Create stored.
var errPlanNotEmpty = errors.New("the refresh plan after apply is not empty (terraform plan -detailed-exitcode exited 2)")

// timing is what one run cost: wall-clock time, and the CPU time of
// Terraform and the provider plugins it started and reaped.
type timing struct {
	Wall, CPU time.Duration
}

// runTerraform runs terraform op in dir, writes its output to logPath and
// returns what it cost.
func runTerraform(ctx context.Context, terraform, dir, op string, parallelism int, env []string, logPath string) (timing, error) {
	logf, err := os.Create(logPath)
	if err != nil {
		return timing{}, err
	}
	defer logf.Close()
	cmd := exec.CommandContext(ctx, terraform, terraformArgs(op, parallelism)...)
	cmd.Dir, cmd.Env, cmd.Stdout, cmd.Stderr = dir, env, logf, logf
	start := time.Now()
	err = cmd.Run()
	t := timing{Wall: time.Since(start)}
	if cmd.ProcessState != nil {
		// On Linux the child's usage includes the children it reaped: the
		// provider plugins.
		t.CPU = cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	}
	if exit := (*exec.ExitError)(nil); errors.As(err, &exit) && op == opPlan && exit.ExitCode() == 2 {
		return t, fmt.Errorf("%w; see %s", errPlanNotEmpty, logPath)
	}
	if err != nil {
		return t, fmt.Errorf("terraform %s in %s: %w; its output:\n%s", op, dir, err, tail(logPath, 40))
	}
	return t, nil
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

// clockTicks is the unit of the CPU times in /proc/PID/stat (USER_HZ, 100
// on every Linux architecture Go supports).
const clockTicks = 100

// CPU returns the CPU time the sandbox has used so far, or 0 where
// /proc/PID/stat cannot be read (not Linux).
func (s *sandboxProcess) CPU() time.Duration {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", s.cmd.Process.Pid))
	if err != nil {
		return 0
	}
	return procStatCPU(string(b))
}

// procStatCPU returns utime + stime of a /proc/PID/stat line. The fields
// are counted after the command name, which is in parentheses and may
// itself hold spaces.
func procStatCPU(stat string) time.Duration {
	i := strings.LastIndexByte(stat, ')')
	if i < 0 {
		return 0
	}
	// After ")": state is field 3, utime field 14, stime field 15.
	f := strings.Fields(stat[i+1:])
	if len(f) < 13 {
		return 0
	}
	utime, err1 := strconv.ParseInt(f[11], 10, 64)
	stime, err2 := strconv.ParseInt(f[12], 10, 64)
	if err1 != nil || err2 != nil {
		return 0
	}
	return time.Duration(utime+stime) * time.Second / clockTicks
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
