package storage

import (
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	bolt "go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"
)

// Bucket layout: accounts/<hex account id>/<bucket>/<key>, plus the key
// "seq" in each account's bucket. The bucket meta holds the key "format":
// the layout's version, in decimal. The meta bucket also holds "id", the
// file's own random id, and "wal", how far the write-ahead log beside the
// file is applied (see wal.go).
var (
	bucketMeta     = []byte("meta")
	keyFormat      = []byte("format")
	bucketAccounts = []byte("accounts")
)

// dataFormat is the version of the data file's layout this build writes.
// It reads every older one, upgrading the file in place at open after
// copying it beside itself; it refuses a newer one, written by a later
// payments-sandbox, rather than misread it. Format 1 is a file without
// the format key (payments-sandbox before the key existed); format 2 adds
// the key; format 3 adds the write-ahead log, whose records a format 2
// reader would not see. A change to the layout or to the records' meaning takes
// the next number and an upgrade step in upgradeFormat.
const dataFormat = 3

// fileFormat reads the file's format: 1 when it has no format key.
func fileFormat(tx *bolt.Tx) (int, error) {
	meta := tx.Bucket(bucketMeta)
	if meta == nil {
		return 1, nil
	}
	v := meta.Get(keyFormat)
	if v == nil {
		return 1, nil
	}
	n, err := strconv.Atoi(string(v))
	if err != nil || n < 1 {
		return 0, fmt.Errorf("its format %q is not a version number", v)
	}
	return n, nil
}

// putFormat writes the format key, and the file's id when it has none.
func putFormat(tx *bolt.Tx) error {
	meta, err := tx.CreateBucketIfNotExists(bucketMeta)
	if err != nil {
		return err
	}
	if len(meta.Get(keyID)) != 8 {
		var id [8]byte
		if _, err := rand.Read(id[:]); err != nil {
			return err
		}
		if err := meta.Put(keyID, id[:]); err != nil {
			return err
		}
	}
	return meta.Put(keyFormat, []byte(strconv.Itoa(dataFormat)))
}

// newerFormat is the refusal of a file written by a later payments-sandbox.
func newerFormat(path string, format int) error {
	return fmt.Errorf("data file %s is format %d; this payments-sandbox reads format %d and older: upgrade payments-sandbox", path, format, dataFormat)
}

// upgradeFormat brings a file of an older format to dataFormat, after
// copying it to <file>.v<format>.bak beside it: a payments-sandbox of
// that format can still open the copy. The file is locked (bolt.Open), so
// nothing writes to it while it is copied.
func (st *boltStore) upgradeFormat(from int) error {
	backup := fmt.Sprintf("%s.v%d.bak", st.path, from)
	if err := copyFile(st.path, backup); err != nil {
		return fmt.Errorf("upgrading data file %s from format %d: copying it to %s first: %w", st.path, from, backup, err)
	}
	// Format 1 to 2 adds the format key, 2 to 3 the file's id for its
	// write-ahead log: both are putFormat's. A later format adds its steps here, each taking
	// the file one version on.
	if err := st.db.Update(putFormat); err != nil {
		return fmt.Errorf("upgrading data file %s from format %d to %d: %w; the file is unchanged, and %s is a copy of it", st.path, from, dataFormat, err, backup)
	}
	st.notes = append(st.notes, fmt.Sprintf("upgraded data file %s from format %d to %d; the file as it was is kept at %s, which a payments-sandbox of format %d opens", st.path, from, dataFormat, backup, from))
	return nil
}

// copyFile copies src to dst durably: a temporary file beside dst, synced,
// then renamed over it, and the directory synced.
func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	tmp := dst + ".tmp"
	out, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return err
	}
	_, err = io.Copy(out, in)
	if err == nil {
		err = out.Sync()
	}
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, dst)
	}
	if err != nil {
		os.Remove(tmp)
		return err
	}
	return syncDir(dst)
}

// checkFile opens an existing data file read-only and checks it whole.
func checkFile(path string) error {
	var db *bolt.DB
	var format int
	err := guard(func() (err error) {
		db, err = bolt.Open(path, 0o600, &bolt.Options{Timeout: 2 * time.Second, ReadOnly: true})
		return err
	})
	if errors.Is(err, berrors.ErrTimeout) {
		return fmt.Errorf("opening data file %s: it is locked by another process; stop the other payments-sandbox or use another -data file", path)
	}
	if err != nil {
		return damaged(path, err)
	}
	err = guard(func() error {
		return db.View(func(tx *bolt.Tx) error {
			// Pages past the end of a truncated file are mapped but not
			// backed: reading one is a fault, so the size comes first.
			info, err := os.Stat(path)
			if err != nil {
				return err
			}
			if info.Size() < tx.Size() {
				return fmt.Errorf("the file is %d bytes long but its pages need %d: it is truncated", info.Size(), tx.Size())
			}
			// The first problem is enough to refuse the file; the rest are
			// drained so that the checker's goroutine ends.
			var first error
			for err := range tx.Check() {
				if first == nil {
					first = err
				}
			}
			if first != nil {
				return first
			}
			if tx.Bucket(bucketAccounts) == nil {
				return errors.New("it holds no sandbox data")
			}
			format, err = fileFormat(tx)
			return err
		})
	})
	if cerr := guard(db.Close); err == nil && cerr != nil {
		err = cerr
	}
	if err != nil {
		return damaged(path, err)
	}
	if format > dataFormat {
		return newerFormat(path, format)
	}
	return nil
}

// damaged is the one-line error for a data file that cannot be used.
func damaged(path string, cause error) error {
	// bbolt's checker reports its recovered assertions as "panic: ...";
	// nothing panicked here, so that word would only alarm.
	reason := strings.ReplaceAll(strings.Join(strings.Fields(cause.Error()), " "), "panic: ", "")
	if len(reason) > 200 {
		reason = strings.ToValidUTF8(reason[:200], "") + "..."
	}
	return fmt.Errorf("data file %s is damaged or is not a sandbox data file (%s); restore it from a copy, or start without -data or with a new -data file", path, reason)
}

// guard runs f, turning a panic, or a memory fault on a damaged page
// (bbolt trusts its pages and reads them through mmap), into an error.
func guard(f func() error) (err error) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("bbolt failed reading it: %v", r)
		}
	}()
	return f()
}
