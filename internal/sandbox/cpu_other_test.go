//go:build !unix

package sandbox

import (
	"testing"
	"time"
)

// ReportCPU reports nothing where getrusage is missing.
func ReportCPU(*testing.B) func() { return func() {} }

// CPUTime is 0 where getrusage is missing.
func CPUTime() time.Duration { return 0 }
