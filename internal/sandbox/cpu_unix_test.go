//go:build unix

package sandbox

import (
	"syscall"
	"testing"
	"time"
)

// ReportCPU reports the process's CPU time per operation (cpu-ns/op), from
// now until the returned function runs; the benchmarks of both test
// packages use it. On a machine shared with other work, wall time per
// operation swings with their load; CPU time swings far less, and it
// counts the garbage collector's work too.
func ReportCPU(b *testing.B) func() {
	start := cpuTime()
	return func() {
		b.ReportMetric(float64(cpuTime()-start)/float64(b.N), "cpu-ns/op")
	}
}

// CPUTime is the process's CPU time so far, user and system, for
// benchmarks that compare two phases of one run.
func CPUTime() time.Duration { return cpuTime() }

func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
