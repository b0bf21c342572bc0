//go:build benchprofile

package pluginprof

import (
	"os"
	"path/filepath"
	"testing"
)

// TestStart_WritesProfile: a benchprofile build with EnvDir set writes a
// CPU profile and an allocations profile, each named after the program
// and the process.
func TestStart_WritesProfile(t *testing.T) {
	dir := t.TempDir()
	t.Setenv(EnvDir, dir)
	Start()()
	for _, pattern := range []string{"cpu-*.pprof", "allocs-*.pprof"} {
		matches, err := filepath.Glob(filepath.Join(dir, pattern))
		if err != nil || len(matches) != 1 {
			t.Fatalf("%s profiles in %s: %v, %v; want one", pattern, dir, matches, err)
		}
		if fi, err := os.Stat(matches[0]); err != nil || fi.Size() == 0 {
			t.Fatalf("profile %s: %v, %v; want a non-empty file", matches[0], fi, err)
		}
	}
}
