package storage

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"time"

	bolt "go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"
)

// bbolt reuses the pages a write frees, but never gives them back to the
// file system: rewrites grow the file to hold the old pages beside the
// new ones, and it stays that size. Open compacts a file whose free space
// is worth it; Compact does it whatever the free space. ARCHITECTURE.md,
// "The data file", records the bound.
const (
	// compactMinFree is the free space, in bytes, below which Open leaves
	// a file as it is, however much of it is free: a compacted file may
	// have as much again of bbolt's room to grow, and compacting it again
	// at each start would gain nothing.
	compactMinFree = 32 << 20
	// compactSuffix names the new file being written beside the data
	// file; a copy left by a crash is removed at the next compaction.
	compactSuffix = ".compact"
	// compactTxBytes is the most a transaction of the copy holds.
	compactTxBytes = 16 << 20
)

// compactAlways is compactFile's minFree that compacts whatever the free
// space.
const compactAlways = -1

// testHookCompact is called at each step of a compaction; the crash
// tests stop a process there.
var testHookCompact = func(step string) {}

// errCompactFatal marks a compaction's error after which the file must
// not be opened: another process holds it, or it was replaced by its
// compacted copy but the directory could not be synced. Any other error
// leaves the file as it was, to be used as it is.
var errCompactFatal = errors.New("")

// Compaction is what a compaction of a data file did.
type Compaction struct {
	// Before and After are the file's sizes in bytes.
	Before, After int64
	// Took is how long it took.
	Took time.Duration
}

// Compact rewrites the data file at path with its live pages only, so
// that it takes no more room than its records need, and returns its
// sizes. The file must not be open: a running payments-sandbox holds it
// locked. Its write-ahead log, if a crash left one, stays valid beside
// it and is applied at the next Open.
func Compact(path string) (Compaction, error) {
	if err := checkFile(path); err != nil {
		return Compaction{}, err
	}
	c, _, err := compactFile(path, compactAlways)
	return c, err
}

// compactFile compacts the data file at path, when half of it and at
// least minFree bytes are free or minFree is compactAlways, and says
// whether it did. The file as it is stays the data file until the
// compacted one, written beside it and synced, is renamed over it; the
// directory is then synced before anything writes to the new file, so
// that a crash at any step leaves one whole data file, either one, with
// the same id and the same point in the write-ahead log.
func compactFile(path string, minFree int64) (Compaction, bool, error) {
	began := time.Now()
	tmp := path + compactSuffix
	if err := os.Remove(tmp); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return Compaction{}, false, fmt.Errorf("compacting data file %s: removing %s left by an earlier compaction: %w", path, tmp, err)
	}
	var src *bolt.DB
	err := guard(func() (err error) {
		// Not read-only: bbolt reads its list of free pages, which the
		// decision needs, only for a file it may write. Nothing is
		// written to it.
		src, err = bolt.Open(path, 0o600, &bolt.Options{Timeout: 2 * time.Second})
		return err
	})
	if errors.Is(err, berrors.ErrTimeout) {
		return Compaction{}, false, fmt.Errorf("compacting data file %s: it is locked by another process; stop the payments-sandbox using it first%w", path, errCompactFatal)
	}
	if err != nil {
		return Compaction{}, false, fmt.Errorf("compacting data file %s: %w", path, err)
	}
	srcOpen := true
	defer func() {
		if srcOpen {
			src.Close()
		}
	}()
	info, err := os.Stat(path)
	if err != nil {
		return Compaction{}, false, fmt.Errorf("compacting data file %s: %w", path, err)
	}
	before := info.Size()
	var used int64
	if err := src.View(func(tx *bolt.Tx) error { used = tx.Size(); return nil }); err != nil {
		return Compaction{}, false, fmt.Errorf("compacting data file %s: %w", path, err)
	}
	// The free pages in the file (counted when bbolt reads its list),
	// and the room bbolt grew it by beyond the pages it uses.
	free := before - used + int64(src.Stats().FreePageN)*int64(src.Info().PageSize)
	if minFree != compactAlways && (free < minFree || free < before/2) {
		return Compaction{}, false, nil
	}

	err = guard(func() error {
		dst, err := bolt.Open(tmp, 0o600, &bolt.Options{Timeout: 2 * time.Second})
		if err != nil {
			return err
		}
		// Each transaction of the copy is synced as it commits.
		err = bolt.Compact(dst, src, compactTxBytes)
		if err == nil {
			err = os.Chmod(tmp, info.Mode().Perm())
		}
		if err == nil {
			err = keepOwner(tmp, info)
		}
		if cerr := dst.Close(); err == nil {
			err = cerr
		}
		return err
	})
	testHookCompact("copied")
	if err == nil {
		err = syncFile(tmp)
	}
	if err == nil {
		srcOpen = false
		err = src.Close()
	}
	testHookCompact("synced")
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
		return Compaction{}, false, fmt.Errorf("compacting data file %s: %w; the file is unchanged", path, err)
	}
	testHookCompact("renamed")
	if err := syncDir(path); err != nil {
		return Compaction{}, false, fmt.Errorf("compacting data file %s: syncing its directory after replacing it with its compacted copy: %w; start again to go on with it%w", path, err, errCompactFatal)
	}
	if info, err = os.Stat(path); err != nil {
		return Compaction{}, false, fmt.Errorf("compacting data file %s: %w", path, err)
	}
	return Compaction{Before: before, After: info.Size(), Took: time.Since(began)}, true, nil
}

// syncFile syncs a closed file's data and size to disk.
func syncFile(path string) error {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return err
	}
	err = f.Sync()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// String is the compaction as the sandbox logs it at start.
func (c Compaction) String() string {
	return fmt.Sprintf("%.1f MiB to %.1f MiB in %v", float64(c.Before)/(1<<20), float64(c.After)/(1<<20), c.Took.Round(time.Millisecond))
}
