// Package storagetest helps the tests of the storage engine and of its
// callers.
package storagetest

import (
	"os"
	"os/exec"
	"testing"
)

// SmallDisk mounts a 2 MB tmpfs for the test, unmounted when it ends, so
// that a test can fill a real file system; it skips the test, saying why,
// when not run as root.
func SmallDisk(t *testing.T) string {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("mounting the tmpfs to fill needs root; run the test as root to cover a real full disk")
	}
	dir := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", dir).CombinedOutput(); err != nil {
		t.Fatalf("mounting a tmpfs on %s: %v: %s", dir, err, out)
	}
	t.Cleanup(func() {
		if out, err := exec.Command("umount", dir).CombinedOutput(); err != nil {
			t.Errorf("unmounting %s: %v: %s", dir, err, out)
		}
	})
	return dir
}
