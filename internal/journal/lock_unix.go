//go:build unix

package journal

import (
	"os"
	"syscall"
)

// lockFile takes f's exclusive lock for as long as the process lives: the
// kernel releases it when the process ends, however it ends.
func lockFile(f *os.File) error { return syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) }

func tryLock(f *os.File) error { return lockFile(f) }

func unlockFile(f *os.File) { _ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN) }
