package sandbox

import (
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	bolt "go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"
)

// Store keeps a sandbox's state across restarts. Open one with OpenStore.
// Its other methods are unexported: the server is its only user.
type Store interface {
	// Close flushes and releases the store.
	Close() error

	// load returns every account's records.
	load() (map[[32]byte]*storedAccount, error)
	// loadAccount returns one account's records, nil when it has none: the
	// state to go back to when a commit of the account failed.
	loadAccount(account [32]byte) (*storedAccount, error)
	// commit writes one request's changes to one account, durably: all of
	// them or none. It returns once they are on disk; concurrent commits
	// may share a transaction and its sync.
	commit(account [32]byte, ops []op) error
	// check reports whether the store answers: it reads, and, when the
	// last write failed, tries an empty write.
	check() error
	// openNotes are what opening the store did that its operator should
	// know, such as upgrading the file; New logs them.
	openNotes() []string
}

// storedAccount is one account's records as the store holds them.
type storedAccount struct {
	customers [][]byte
	payments  [][]byte
	idem      map[string][]byte
	seq       uint64
	webhooks  map[string][][]byte // by bucket name, see webhookBuckets
	tokens    [][]byte
}

type opKind uint8

const (
	opPut opKind = iota
	opDelete
	opDropAccount // every record of the account (POST /_sandbox/reset)
)

// op is one change to an account's records. bucket "" is the account's
// own bucket (it holds the sequence).
type op struct {
	kind   opKind
	bucket string
	key    string
	val    []byte
}

// Bucket layout: accounts/<hex SHA-256 of the key>/{customers,payments,idem}
// plus the key "seq". The secret key itself is never written. The bucket
// meta holds the key "format": the layout's version, in decimal.
var (
	bucketMeta      = []byte("meta")
	keyFormat       = []byte("format")
	bucketAccounts  = []byte("accounts")
	bucketCustomers = "customers"
	bucketPayments  = "payments"
	bucketIdem      = "idem"
	bucketTokens    = "tokens"
	keySeq          = "seq"
)

// dataFormat is the version of the data file's layout this build writes.
// It reads every older one, upgrading the file in place at open after
// copying it beside itself; it refuses a newer one, written by a later
// payments-sandbox, rather than misread it. Format 1 is a file without
// the format key (payments-sandbox before the key existed); format 2 adds
// the key. A change to the layout or to the records' meaning takes the
// next number and an upgrade step in upgradeFormat.
const dataFormat = 2

type boltStore struct {
	db   *bolt.DB
	path string
	// notes are what opening the file did that its operator should know
	// (an upgrade, and where the copy of the old file is); New logs them.
	notes []string

	// The group commit: requests queue their changes and wait; one
	// goroutine writes everything queued in one transaction, syncs once
	// and answers them all. See commit.
	mu     sync.Mutex
	queue  []*pendingCommit
	closed bool
	wake   chan struct{} // capacity 1: "the queue may hold something"
	done   chan struct{} // closed when the committer has returned
	// failing is set while the last transaction failed (a full or
	// read-only disk); check then tries a write to see it mended.
	failing atomic.Bool
}

// pendingCommit is one caller's changes, waiting for the committer.
type pendingCommit struct {
	account [32]byte
	ops     []op
	result  chan error // capacity 1
}

// errStoreClosed answers a commit that comes after Close.
var errStoreClosed = errors.New("the data file is closed")

// OpenStore opens, or creates, the data file at path. Every write is
// synced to disk before the request is answered, so no answered write is
// lost, even to kill -9 or a power cut.
//
// A file that is truncated, partly overwritten or not a data file at all
// is refused with an error naming it and what to do: it is opened
// read-only first and checked page by page (bbolt's tx.Check), with bbolt's
// panics and memory faults on damaged pages turned into that error, so
// the sandbox never crashes on it, never writes to it and never serves
// half of it.
func OpenStore(path string) (Store, error) {
	if info, err := os.Stat(path); err == nil && info.Size() > 0 {
		if err := checkFile(path); err != nil {
			return nil, err
		}
	}
	var db *bolt.DB
	err := guard(func() (err error) {
		db, err = bolt.Open(path, 0o600, &bolt.Options{Timeout: 2 * time.Second})
		return err
	})
	if errors.Is(err, berrors.ErrTimeout) {
		return nil, fmt.Errorf("opening data file %s: it is locked by another process; stop the other payments-sandbox or use another -data file", path)
	}
	if err != nil {
		return nil, fmt.Errorf("opening data file %s: %w", path, err)
	}
	st := &boltStore{db: db, path: path, wake: make(chan struct{}, 1), done: make(chan struct{})}
	// A file that has its layout, in this format, is not written to until
	// a request changes something: a file refused later, at load, stays as
	// it was.
	var initialised bool
	var format int
	err = db.View(func(tx *bolt.Tx) (err error) {
		initialised = tx.Bucket(bucketAccounts) != nil
		format, err = fileFormat(tx)
		return err
	})
	switch {
	case err != nil:
		db.Close()
		return nil, damaged(path, err)
	case format > dataFormat:
		db.Close()
		return nil, newerFormat(path, format)
	case !initialised:
		err = db.Update(func(tx *bolt.Tx) error {
			if _, err := tx.CreateBucketIfNotExists(bucketAccounts); err != nil {
				return err
			}
			return putFormat(tx)
		})
		if err != nil {
			db.Close()
			return nil, fmt.Errorf("initialising data file %s: %w", path, err)
		}
	case format < dataFormat:
		if err := st.upgradeFormat(format); err != nil {
			db.Close()
			return nil, err
		}
	}
	go st.committer()
	return st, nil
}

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

func putFormat(tx *bolt.Tx) error {
	meta, err := tx.CreateBucketIfNotExists(bucketMeta)
	if err != nil {
		return err
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
	// Format 1 to 2 adds the format key only; a later format adds its
	// steps here, each taking the file one version on.
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
	if dir, err := os.Open(filepath.Dir(dst)); err == nil {
		defer dir.Close()
		return dir.Sync()
	}
	return nil
}

func (st *boltStore) openNotes() []string { return st.notes }

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

// Close writes what is queued, stops the committer and closes the file.
func (st *boltStore) Close() error {
	st.mu.Lock()
	already := st.closed
	st.closed = true
	st.mu.Unlock()
	if !already {
		close(st.wake)
	}
	<-st.done
	return st.db.Close()
}

// commit queues ops and waits until the committer has written them.
//
// A bbolt transaction costs two syncs whatever it holds, so writing each
// request in its own would cap the sandbox at the disk's sync rate however
// many clients it has. Here, while one transaction is syncing, the
// requests that arrive meanwhile queue up, and the next transaction takes
// them all: the syncs are shared, no request waits for a timer, and a lone
// client pays what it did before. Each caller still returns only once its
// changes are on disk.
func (st *boltStore) commit(account [32]byte, ops []op) error {
	p := &pendingCommit{account: account, ops: ops, result: make(chan error, 1)}
	st.mu.Lock()
	if st.closed {
		st.mu.Unlock()
		return errStoreClosed
	}
	st.queue = append(st.queue, p)
	select {
	case st.wake <- struct{}{}:
	default: // already signalled
	}
	st.mu.Unlock()
	return <-p.result
}

// committer writes the queue, batch after batch, until Close.
func (st *boltStore) committer() {
	defer close(st.done)
	for range st.wake {
		st.mu.Lock()
		batch := st.queue
		st.queue = nil
		st.mu.Unlock()
		if len(batch) > 0 {
			st.write(batch)
		}
	}
	// Closed: nothing can queue any more; write what did.
	st.mu.Lock()
	batch := st.queue
	st.queue = nil
	st.mu.Unlock()
	if len(batch) > 0 {
		st.write(batch)
	}
}

// write commits a batch in one transaction. When that fails, each commit
// is tried in a transaction of its own, so that one caller's bad change
// fails only that caller; on a full disk they all fail.
func (st *boltStore) write(batch []*pendingCommit) {
	err := st.db.Update(func(tx *bolt.Tx) error {
		for _, p := range batch {
			if err := applyOps(tx, p.account, p.ops); err != nil {
				return err
			}
		}
		return nil
	})
	if err == nil || len(batch) == 1 {
		st.failing.Store(err != nil)
		for _, p := range batch {
			p.result <- err
		}
		return
	}
	failed := false
	for _, p := range batch {
		err := st.db.Update(func(tx *bolt.Tx) error { return applyOps(tx, p.account, p.ops) })
		failed = failed || err != nil
		p.result <- err
	}
	st.failing.Store(failed)
}

// applyOps makes one caller's changes to one account inside tx.
func applyOps(tx *bolt.Tx, account [32]byte, ops []op) error {
	name := []byte(hex.EncodeToString(account[:]))
	root := tx.Bucket(bucketAccounts)
	for _, o := range ops {
		if o.kind == opDropAccount {
			if err := root.DeleteBucket(name); err != nil && !errors.Is(err, berrors.ErrBucketNotFound) {
				return err
			}
			continue
		}
		acct, err := root.CreateBucketIfNotExists(name)
		if err != nil {
			return err
		}
		b := acct
		if o.bucket != "" {
			if b, err = acct.CreateBucketIfNotExists([]byte(o.bucket)); err != nil {
				return err
			}
		}
		if o.kind == opDelete {
			err = b.Delete([]byte(o.key))
		} else {
			err = b.Put([]byte(o.key), o.val)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func (st *boltStore) check() error {
	err := guard(func() error {
		return st.db.View(func(tx *bolt.Tx) error {
			if tx.Bucket(bucketAccounts) == nil {
				return errors.New("it holds no sandbox data")
			}
			return nil
		})
	})
	if err != nil || !st.failing.Load() {
		return err
	}
	// An empty transaction still allocates and syncs: it succeeds once the
	// disk takes writes again.
	return st.commit([32]byte{}, nil)
}

func (st *boltStore) load() (map[[32]byte]*storedAccount, error) {
	out := make(map[[32]byte]*storedAccount)
	err := guard(func() error { return st.db.View(st.loadTx(out)) })
	if err != nil {
		return nil, damaged(st.path, err)
	}
	return out, nil
}

func (st *boltStore) loadAccount(account [32]byte) (*storedAccount, error) {
	var sa *storedAccount
	err := guard(func() error {
		return st.db.View(func(tx *bolt.Tx) error {
			if acct := tx.Bucket(bucketAccounts).Bucket([]byte(hex.EncodeToString(account[:]))); acct != nil {
				sa = readAccount(acct)
			}
			return nil
		})
	})
	if err != nil {
		return nil, damaged(st.path, err)
	}
	return sa, nil
}

func (st *boltStore) loadTx(out map[[32]byte]*storedAccount) func(*bolt.Tx) error {
	return func(tx *bolt.Tx) error {
		return tx.Bucket(bucketAccounts).ForEachBucket(func(name []byte) error {
			var hash [32]byte
			if n, err := hex.Decode(hash[:], name); err != nil || n != len(hash) {
				return fmt.Errorf("account bucket %q is not a hex SHA-256", name)
			}
			out[hash] = readAccount(tx.Bucket(bucketAccounts).Bucket(name))
			return nil
		})
	}
}

// readAccount copies an account's records out of its bucket.
func readAccount(acct *bolt.Bucket) *storedAccount {
	sa := &storedAccount{idem: make(map[string][]byte)}
	if v := acct.Get([]byte(keySeq)); len(v) == 8 {
		sa.seq = binary.BigEndian.Uint64(v)
	}
	// bbolt's bytes are only valid inside the transaction: copy.
	if b := acct.Bucket([]byte(bucketCustomers)); b != nil {
		_ = b.ForEach(func(_, v []byte) error { sa.customers = append(sa.customers, slices.Clone(v)); return nil })
	}
	if b := acct.Bucket([]byte(bucketPayments)); b != nil {
		_ = b.ForEach(func(_, v []byte) error { sa.payments = append(sa.payments, slices.Clone(v)); return nil })
	}
	if b := acct.Bucket([]byte(bucketIdem)); b != nil {
		_ = b.ForEach(func(k, v []byte) error { sa.idem[string(k)] = slices.Clone(v); return nil })
	}
	if b := acct.Bucket([]byte(bucketTokens)); b != nil {
		_ = b.ForEach(func(_, v []byte) error { sa.tokens = append(sa.tokens, slices.Clone(v)); return nil })
	}
	sa.webhooks = make(map[string][][]byte)
	for _, name := range webhookBuckets {
		if b := acct.Bucket([]byte(name)); b != nil {
			_ = b.ForEach(func(_, v []byte) error { sa.webhooks[name] = append(sa.webhooks[name], slices.Clone(v)); return nil })
		}
	}
	return sa
}
