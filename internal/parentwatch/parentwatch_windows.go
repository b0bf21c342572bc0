//go:build windows

package parentwatch

import (
	"golang.org/x/sys/windows"
)

// watch waits on a handle of the parent process: Windows never reparents,
// so the parent id stays the same after the parent ends, but its handle
// is signalled then. The handle is opened at once, while the id is still
// the parent's.
func watch(ppid int, gone func()) bool {
	h, err := windows.OpenProcess(windows.SYNCHRONIZE, false, uint32(ppid))
	if err != nil {
		return false
	}
	go func() {
		defer func() { _ = windows.CloseHandle(h) }()
		if ev, err := windows.WaitForSingleObject(h, windows.INFINITE); err == nil && ev == windows.WAIT_OBJECT_0 {
			gone()
		}
	}()
	return true
}
