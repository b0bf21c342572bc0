package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"syscall"
)

// accessHint is what to do about err, a failure to open one of the
// sandbox's files (-data, -key-file), or "" when there is nothing to add.
// In a container the user is often not the one who owns the mounted
// directory, so the hint names the user the sandbox runs as.
func accessHint(err error) string {
	switch {
	case errors.Is(err, syscall.EROFS):
		return "; the file system is read-only: mount a writable volume there (the container image's is /data), or choose another path"
	case errors.Is(err, fs.ErrPermission):
		return fmt.Sprintf("; make it (and, to create it, its directory) accessible to uid %d, the user payments-sandbox runs as (chown %[1]d, or chmod), or choose another path", os.Getuid())
	}
	return ""
}
