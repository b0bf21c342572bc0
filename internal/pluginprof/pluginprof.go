//go:build benchprofile

// Package pluginprof writes a CPU profile, and one of the allocations, of
// a provider process, for finding where a benchmark's time goes. It does
// so only in a build tagged benchprofile (GOFLAGS=-tags=benchprofile), and
// there only when the environment names a directory (EnvDir); any other
// build has Start do nothing, so that no release can write one. Terraform
// starts a provider process several times per command, and each writes
// its own files, cpu-<program>-<pid>.pprof and allocs-<program>-<pid>.pprof,
// which go tool pprof reads together. The payments provider and the
// benchmark's floor both call it, so that both are profiled alike.
// Standard library only.
package pluginprof

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime/pprof"
)

// Start begins profiling when EnvDir names a directory, and returns the
// function that ends it and writes the file; call it when the server
// returns.
func Start() (stop func()) {
	dir := os.Getenv(EnvDir)
	if dir == "" {
		return func() {}
	}
	name := fmt.Sprintf("cpu-%s-%d.pprof", filepath.Base(os.Args[0]), os.Getpid())
	f, err := os.Create(filepath.Join(dir, name))
	if err != nil {
		fmt.Fprintf(os.Stderr, "pluginprof: %v\n", err)
		return func() {}
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		fmt.Fprintf(os.Stderr, "pluginprof: %v\n", err)
		_ = f.Close()
		return func() {}
	}
	return func() {
		pprof.StopCPUProfile()
		_ = f.Close()
		writeAllocs(dir)
	}
}

// writeAllocs writes the allocations the process made, sampled as the
// runtime always does, to allocs-<program>-<pid>.pprof in dir: what the
// garbage collector in the CPU profile was paid to collect.
func writeAllocs(dir string) {
	name := fmt.Sprintf("allocs-%s-%d.pprof", filepath.Base(os.Args[0]), os.Getpid())
	f, err := os.Create(filepath.Join(dir, name))
	if err != nil {
		fmt.Fprintf(os.Stderr, "pluginprof: %v\n", err)
		return
	}
	defer f.Close()
	if err := pprof.Lookup("allocs").WriteTo(f, 0); err != nil {
		fmt.Fprintf(os.Stderr, "pluginprof: %v\n", err)
	}
}
