//go:build windows

package journal

import (
	"os"

	"golang.org/x/sys/windows"
)

// lockFile takes f's exclusive lock for as long as the process lives:
// Windows releases it when the process ends, however it ends.
func lockFile(f *os.File) error {
	ol := new(windows.Overlapped)
	return windows.LockFileEx(windows.Handle(f.Fd()), windows.LOCKFILE_EXCLUSIVE_LOCK|windows.LOCKFILE_FAIL_IMMEDIATELY, 0, 1, 0, ol)
}

func tryLock(f *os.File) error { return lockFile(f) }

func unlockFile(f *os.File) {
	ol := new(windows.Overlapped)
	_ = windows.UnlockFileEx(windows.Handle(f.Fd()), 0, 1, 0, ol)
}
