package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/paymentsdev/terraform-provider-payments/internal/tfcli"
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
func terraformArgs(tf *tfcli.Runner, op string) []string {
	switch op {
	case opApply:
		return tf.ApplyArgs()
	case opPlan:
		return tf.PlanArgs("-refresh=true")
	case opDestroy:
		return tf.DestroyArgs()
	}
	panic("unknown operation " + op)
}

// errPlanNotEmpty is returned when the refresh plan after an apply proposes
// changes: the provider's Read does not give back what Create stored.
var errPlanNotEmpty = errors.New("the refresh plan after apply is not empty (terraform plan -detailed-exitcode exited 2)")

// runTerraform runs terraform op with tf, writes its output to logPath and
// returns what it cost: wall-clock time, and the CPU time of Terraform and
// the provider plugins it started and reaped.
func runTerraform(ctx context.Context, tf *tfcli.Runner, op, logPath string) (*tfcli.Result, error) {
	res, err := tf.Run(ctx, terraformArgs(tf, op)...)
	if res != nil {
		if werr := os.WriteFile(logPath, []byte(res.Output), 0o644); werr != nil && err == nil {
			err = werr
		}
	}
	if exit := (*tfcli.ExitError)(nil); errors.As(err, &exit) && op == opPlan && res.ExitCode == 2 {
		return res, fmt.Errorf("%w; see %s", errPlanNotEmpty, logPath)
	}
	if exit := (*tfcli.ExitError)(nil); errors.As(err, &exit) {
		return res, fmt.Errorf("terraform %s in %s exited %d; its output:\n%s", op, tf.Dir, res.ExitCode, tfcli.Tail(res.Output, 40))
	}
	return res, err
}

// clockTicks is the unit of the CPU times in /proc/PID/stat (USER_HZ, 100
// on every Linux architecture Go supports).
const clockTicks = 100

// processCPU returns the CPU time process pid has used so far, or 0 where
// /proc/PID/stat cannot be read (not Linux).
func processCPU(pid int) time.Duration {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
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

// loadAverage describes the machine's load from /proc/loadavg, or says it
// is unknown.
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if f := strings.Fields(string(b)); err == nil && len(f) >= 3 {
		return fmt.Sprintf("load average %s %s %s on %d CPUs", f[0], f[1], f[2], runtime.NumCPU())
	}
	return "load average unknown"
}
