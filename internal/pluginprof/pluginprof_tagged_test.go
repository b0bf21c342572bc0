//go:build benchprofile

package pluginprof

import (
	"os"
	"path/filepath"
	"testing"
)

// TestStart_WritesProfile: a benchprofile build with EnvDir set writes a
// CPU profile named after the program and the process.
func TestStart_WritesProfile(t *testing.T) {
	dir := t.TempDir()
	t.Setenv(EnvDir, dir)
	Start()()
	matches, err := filepath.Glob(filepath.Join(dir, "cpu-*.pprof"))
	if err != nil || len(matches) != 1 {
		t.Fatalf("profiles in %s: %v, %v; want one", dir, matches, err)
	}
	if fi, err := os.Stat(matches[0]); err != nil || fi.Size() == 0 {
		t.Fatalf("profile %s: %v, %v; want a non-empty file", matches[0], fi, err)
	}
}
