//go:build !windows

package storage

import (
	"os"
	"path/filepath"
)

// syncDir syncs the directory holding path, so that a file created,
// renamed or removed in it stays so after a crash.
func syncDir(path string) error {
	dir, err := os.Open(filepath.Dir(path))
	if err != nil {
		return err
	}
	defer dir.Close()
	return dir.Sync()
}
