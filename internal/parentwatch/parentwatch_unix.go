//go:build unix

package parentwatch

import (
	"os"
	"time"
)

// watch polls getppid: when the parent ends, the process is adopted by
// init or a subreaper, and its parent id changes (Linux, macOS and the
// BSDs alike).
func watch(ppid int, gone func()) bool {
	if ppid <= 1 {
		return false // already adopted, or started by init: nothing to watch
	}
	go func() {
		t := time.NewTicker(Interval)
		defer t.Stop()
		for range t.C {
			if os.Getppid() != ppid {
				gone()
				return
			}
		}
	}()
	return true
}
