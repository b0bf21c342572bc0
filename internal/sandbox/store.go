package sandbox

import (
	"crypto/rand"
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
	// may share a record of the write-ahead log and its sync.
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
// meta holds the key "format": the layout's version, in decimal. The
// meta bucket also holds "id", the file's own random id, and "wal", how
// far the write-ahead log beside the file is applied (see store_wal.go).
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
// the key; format 3 adds the write-ahead log, whose records a format 2
// reader would not see. A change to the layout or to the records' meaning takes
// the next number and an upgrade step in upgradeFormat.
const dataFormat = 3

type boltStore struct {
	db   *bolt.DB
	path string
	// notes are what opening the file did that its operator should know
	// (an upgrade, and where the copy of the old file is); New logs them.
	notes []string

	// The group commit: requests queue their changes; one of them, the
	// leader, appends everything queued to the log as one record, syncs
	// once and answers them all. See commit.
	mu      sync.Mutex
	queue   []*pendingCommit
	writing bool       // a leader is writing; the queue waits for it
	idle    *sync.Cond // signalled when writing ends
	closed  bool
	// committed is closed by Close once the last leader is done; done is
	// closed when the checkpointer has then applied the log and returned.
	committed chan struct{}
	done      chan struct{}
	// failing is set while the last write failed (a full or read-only
	// disk); check then tries a write to see it mended.
	failing atomic.Bool

	// The log, written by the leader alone (see store_wal.go).
	wal *wal
	// walMu guards the records not yet applied, in order, and the
	// checkpoints' outcome; checkpointed is signalled after each.
	walMu        sync.Mutex
	unapplied    []walRecord
	walBytes     int64 // the unapplied records' size
	ckptErr      error // the last checkpoint's error
	ckptGen      int   // checkpoints done, failed or not
	checkpointed *sync.Cond
	ckptWake     chan struct{} // capacity 1: "check whether to checkpoint"
	// ckptBytes and ckptAge are when to checkpoint: walCheckpointBytes
	// and walCheckpointAge but in tests.
	ckptBytes int64
	ckptAge   time.Duration
	// ckptMu is held by a checkpoint from reading the records to applying
	// them to the file, and by the readers of the file: they then see the
	// file and the records not yet in it, never a record twice or not at
	// all.
	ckptMu sync.Mutex
}

// pendingCommit is one caller's changes, waiting for a leader.
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
	st, err := openStore(path, walCheckpointBytes, walCheckpointAge)
	if err != nil {
		return nil, err // not a nil *boltStore in a non-nil Store
	}
	return st, nil
}

// openStore is OpenStore with the checkpoints' thresholds: tests that
// checkpoint themselves make them unreachable.
func openStore(path string, ckptBytes int64, ckptAge time.Duration) (*boltStore, error) {
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
	st := &boltStore{db: db, path: path, ckptBytes: ckptBytes, ckptAge: ckptAge, committed: make(chan struct{}), done: make(chan struct{})}
	st.idle = sync.NewCond(&st.mu)
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
	var id, applied uint64
	var next int64
	if err := db.View(func(tx *bolt.Tx) error {
		v := tx.Bucket(bucketMeta).Get(keyID)
		if len(v) != 8 {
			return fmt.Errorf("its id is %d bytes long, not 8", len(v))
		}
		id = binary.BigEndian.Uint64(v)
		applied, next = walState(tx)
		return nil
	}); err != nil {
		db.Close()
		return nil, damaged(path, err)
	}
	w, recs, err := openWAL(path+walSuffix, id, applied, next)
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("opening the write-ahead log of data file %s: %w", path, err)
	}
	st.wal, st.unapplied = w, recs
	for _, r := range recs {
		st.walBytes += r.end - r.start
	}
	st.checkpointed = sync.NewCond(&st.walMu)
	st.ckptWake = make(chan struct{}, 1)
	go st.checkpointer()
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

// Close waits for the commits under way, applies the log to the data
// file, stops the checkpointer, and closes the files. The log is removed
// when everything in it is applied: a stopped sandbox's data file then
// holds every account alone.
func (st *boltStore) Close() error {
	st.mu.Lock()
	already := st.closed
	st.closed = true
	for st.writing {
		st.idle.Wait()
	}
	st.mu.Unlock()
	if already {
		<-st.done
		return nil
	}
	close(st.committed)
	<-st.done
	st.walMu.Lock()
	applied, ckptErr := len(st.unapplied) == 0, st.ckptErr
	st.walMu.Unlock()
	err := st.wal.f.Close()
	if applied && err == nil {
		if err = os.Remove(st.wal.path); err == nil {
			err = syncDir(st.wal.path)
		}
	}
	if !applied && ckptErr != nil {
		err = errors.Join(err, fmt.Errorf("applying the write-ahead log to the data file: %w; its records are kept in %s and applied at the next start", ckptErr, st.wal.path))
	}
	return errors.Join(err, st.db.Close())
}

// errLead tells a queued commit that it leads the next batch.
var errLead = errors.New("lead the next batch")

// commit writes ops to the log and returns once they are on disk.
//
// Writing each request in a transaction of its own would cap the sandbox
// at the disk's sync rate however many clients it has. Here the requests
// that arrive while a batch is being written and synced queue up, and the
// first of them then leads the next batch: it appends them all to the log
// as one record, syncs once, and answers the others. The syncs are
// shared, no request waits for a timer, and a lone client pays one sync
// and no hand-over to another goroutine.
func (st *boltStore) commit(account [32]byte, ops []op) error {
	if err := checkOps(ops); err != nil {
		return err
	}
	p := &pendingCommit{account: account, ops: ops, result: make(chan error, 1)}
	st.mu.Lock()
	if st.closed {
		st.mu.Unlock()
		return errStoreClosed
	}
	st.queue = append(st.queue, p)
	if st.writing {
		st.mu.Unlock()
		if err := <-p.result; !errors.Is(err, errLead) {
			return err
		}
		st.mu.Lock()
	}
	st.writing = true
	batch := st.queue
	st.queue = nil
	st.mu.Unlock()

	err := st.append(batch)
	st.failing.Store(err != nil)
	for _, q := range batch {
		if q != p {
			q.result <- err
		}
	}

	st.mu.Lock()
	if len(st.queue) > 0 {
		st.queue[0].result <- errLead
	} else {
		st.writing = false
		st.idle.Broadcast()
	}
	st.mu.Unlock()
	return err
}

// append writes a batch to the log as one record and syncs it.
func (st *boltStore) append(batch []*pendingCommit) error {
	w := st.wal
	b := w.encode(batch)
	off, err := st.reserve(int64(len(b)))
	if err != nil {
		return err
	}
	if err := w.write(b, off); err != nil {
		return err
	}
	rec := walRecord{seq: w.seq + 1, start: off, end: off + int64(len(b)), written: time.Now()}
	w.seq, w.tail = rec.seq, rec.end
	st.walMu.Lock()
	st.unapplied = append(st.unapplied, rec)
	st.walBytes += rec.end - rec.start
	due := st.walBytes >= st.ckptBytes
	st.walMu.Unlock()
	if due {
		st.wakeCheckpointer()
	}
	return nil
}

func (st *boltStore) wakeCheckpointer() {
	select {
	case st.ckptWake <- struct{}{}:
	default: // already signalled
	}
}

// reserve finds where in the log a record of n bytes goes: after the last
// record, or at the log's start when the records from there on are
// applied. Without room it grows the log, or, at its largest, waits for a
// checkpoint to free some; it fails when that checkpoint fails.
func (st *boltStore) reserve(n int64) (int64, error) {
	w := st.wal
	var growErr error
	for {
		st.walMu.Lock()
		empty := len(st.unapplied) == 0
		head := w.tail
		if !empty {
			head = st.unapplied[0].start
		}
		gen := st.ckptGen
		st.walMu.Unlock()
		// The records not yet applied are [head, tail), or, once the log
		// has wrapped, [head, size) and [0, tail).
		tail := w.tail
		wrapped := !empty && tail <= head
		switch {
		case empty && tail+n <= w.size, !empty && !wrapped && tail+n <= w.size, wrapped && tail+n <= head:
			return tail, nil
		case empty && n <= w.size, !empty && !wrapped && n <= head:
			return 0, nil
		}
		if !wrapped && growErr == nil {
			size := max(2*w.size, tail+n)
			if size <= walMaxSize || tail+n > walMaxSize/2 {
				if growErr = w.grow(size); growErr == nil {
					return tail, nil
				}
			}
		}
		if empty {
			// Nothing to apply: a checkpoint cannot make room.
			return 0, growErr
		}
		st.walMu.Lock()
		st.wakeCheckpointer()
		for st.ckptGen == gen {
			st.checkpointed.Wait()
		}
		err := st.ckptErr
		st.walMu.Unlock()
		if err != nil {
			return 0, err
		}
	}
}

// checkpointer applies the log to the data file when it holds
// ckptBytes, when its oldest record is ckptAge old, and
// when a leader waits for room; after Close's last commit it applies what
// is left and closes done.
func (st *boltStore) checkpointer() {
	defer close(st.done)
	tick := time.NewTicker(min(st.ckptAge/4, time.Second))
	defer tick.Stop()
	wanted := false
	for {
		select {
		case <-st.committed:
			st.checkpoint()
			return
		case <-st.ckptWake:
			wanted = true
		case <-tick.C:
		}
		st.walMu.Lock()
		due := wanted || st.walBytes >= st.ckptBytes ||
			len(st.unapplied) > 0 && time.Since(st.unapplied[0].written) >= st.ckptAge
		st.walMu.Unlock()
		if due {
			st.checkpoint()
		}
		wanted = false
	}
}

// checkpoint applies the records not yet applied to the data file, in one
// transaction. When that fails (a full disk), the log keeps them, on
// disk, and a later checkpoint tries again.
func (st *boltStore) checkpoint() {
	st.ckptMu.Lock()
	defer st.ckptMu.Unlock()
	st.walMu.Lock()
	recs := st.unapplied
	st.walMu.Unlock()
	var err error
	if len(recs) > 0 {
		var batch []*pendingCommit
		if batch, err = st.wal.commits(recs); err == nil {
			err = st.db.Update(func(tx *bolt.Tx) error { return checkpoint(tx, recs[len(recs)-1], batch) })
		}
	}
	st.walMu.Lock()
	if err == nil && len(recs) > 0 {
		// A new slice, not one growing from the front for ever.
		st.unapplied = slices.Clone(st.unapplied[len(recs):])
		for _, r := range recs {
			st.walBytes -= r.end - r.start
		}
	}
	st.ckptErr = err
	st.ckptGen++
	st.checkpointed.Broadcast()
	st.walMu.Unlock()
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
	if err != nil {
		return err
	}
	// A failing checkpoint is a disk that takes no more writes, even while
	// the log still has room for some: tried again, it says when it mends.
	st.walMu.Lock()
	failed := st.ckptErr != nil
	st.walMu.Unlock()
	if failed {
		st.checkpoint()
		st.walMu.Lock()
		err = st.ckptErr
		st.walMu.Unlock()
		if err != nil {
			return err
		}
	}
	if !st.failing.Load() {
		return nil
	}
	// An empty commit still writes a record of the log and syncs it, and
	// waits for a checkpoint when the log is full: it succeeds once the
	// disk takes writes again.
	return st.commit([32]byte{}, nil)
}

// load reads every account: the data file's records with the log's
// records not yet applied replayed over them.
func (st *boltStore) load() (map[[32]byte]*storedAccount, error) {
	st.ckptMu.Lock()
	defer st.ckptMu.Unlock()
	accounts := make(map[[32]byte]records)
	err := guard(func() error {
		return st.db.View(func(tx *bolt.Tx) error {
			root := tx.Bucket(bucketAccounts)
			return root.ForEachBucket(func(name []byte) error {
				var hash [32]byte
				if n, err := hex.Decode(hash[:], name); err != nil || n != len(hash) {
					return fmt.Errorf("account bucket %q is not a hex SHA-256", name)
				}
				accounts[hash] = readRecords(root.Bucket(name))
				return nil
			})
		})
	})
	if err != nil {
		return nil, damaged(st.path, err)
	}
	batch, err := st.wal.commits(st.unappliedRecords())
	if err != nil {
		return nil, damaged(st.path, err)
	}
	replay(accounts, batch, nil)
	out := make(map[[32]byte]*storedAccount, len(accounts))
	for hash, r := range accounts {
		out[hash] = r.stored()
	}
	return out, nil
}

func (st *boltStore) loadAccount(account [32]byte) (*storedAccount, error) {
	st.ckptMu.Lock()
	defer st.ckptMu.Unlock()
	accounts := make(map[[32]byte]records, 1)
	err := guard(func() error {
		return st.db.View(func(tx *bolt.Tx) error {
			if acct := tx.Bucket(bucketAccounts).Bucket([]byte(hex.EncodeToString(account[:]))); acct != nil {
				accounts[account] = readRecords(acct)
			}
			return nil
		})
	})
	if err != nil {
		return nil, damaged(st.path, err)
	}
	batch, err := st.wal.commits(st.unappliedRecords())
	if err != nil {
		return nil, damaged(st.path, err)
	}
	replay(accounts, batch, &account)
	if r := accounts[account]; r != nil {
		return r.stored(), nil
	}
	return nil, nil
}

func (st *boltStore) unappliedRecords() []walRecord {
	st.walMu.Lock()
	defer st.walMu.Unlock()
	return st.unapplied
}
