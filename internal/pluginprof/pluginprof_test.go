package pluginprof

import (
	"os"
	"testing"
)

// TestStart_WithoutDirWritesNothing: without EnvDir, Start and its stop
// leave no file, in either build.
func TestStart_WithoutDirWritesNothing(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	t.Setenv(EnvDir, "")
	Start()()
	if entries, err := os.ReadDir(dir); err != nil || len(entries) != 0 {
		t.Fatalf("files after Start without %s: %v, %v; want none", EnvDir, entries, err)
	}
}
