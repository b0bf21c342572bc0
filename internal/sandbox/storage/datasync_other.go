//go:build !linux

package storage

import "os"

// datasync flushes f to disk; systems without fdatasync sync it whole.
func datasync(f *os.File) error { return f.Sync() }
