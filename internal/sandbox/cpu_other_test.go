//go:build !unix

package sandbox

import "testing"

// ReportCPU reports nothing where getrusage is missing.
func ReportCPU(*testing.B) func() { return func() {} }
