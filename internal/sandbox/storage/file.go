package storage

import (
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"sync"
	"sync/atomic"
	"time"

	bolt "go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"
)

type boltStore struct {
	db   *bolt.DB
	path string
	// notes are what opening the file did that its operator should know
	// (an upgrade, and where the copy of the old file is); see Notes.
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
	// disk); Health then tries a write to see it mended.
	failing atomic.Bool
	// stopped is set, under mu, once a commit's outcome is unknown: the
	// store then takes no more writes.
	stopped error
	// maxSize and roomWait are walMaxSize and walRoomWait but in tests.
	maxSize  int64
	roomWait time.Duration

	// The log, written by the leader alone (see wal.go).
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
	ops     []Op
	result  chan error // capacity 1
}

// open is Open with the checkpoints' thresholds: tests that checkpoint
// themselves make them unreachable.
func open(path string, ckptBytes int64, ckptAge time.Duration) (*boltStore, error) {
	var notes []string
	if info, err := os.Stat(path); err == nil && info.Size() > 0 {
		if err := checkFile(path); err != nil {
			return nil, err
		}
		// A file another user could have made is refused before it is
		// compacted, as it is before it is written to.
		if err := checkPrivatePath(path); err != nil {
			return nil, fmt.Errorf("opening data file: %w", err)
		}
		c, done, err := compactFile(path, compactMinFree)
		switch {
		case errors.Is(err, errCompactFatal):
			return nil, err
		case err != nil:
			notes = append(notes, fmt.Sprintf("%v; it is used as it is", err))
		case done:
			notes = append(notes, fmt.Sprintf("compacted data file %s, more than half of it free, from %v", path, c))
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
	// Checked once bbolt holds it locked, before any account is written
	// to it.
	if err := checkPrivatePath(path); err != nil {
		db.Close()
		return nil, fmt.Errorf("opening data file: %w", err)
	}
	st := &boltStore{db: db, path: path, notes: notes, ckptBytes: ckptBytes, ckptAge: ckptAge, maxSize: walMaxSize, roomWait: walRoomWait, committed: make(chan struct{}), done: make(chan struct{})}
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

func (st *boltStore) Notes() []string { return st.notes }

func (st *boltStore) Unusable(cause error) error { return damaged(st.path, cause) }

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

func (st *boltStore) Health() error {
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
	st.mu.Lock()
	stopped := st.stopped
	st.mu.Unlock()
	if stopped != nil {
		return stopped
	}
	if !st.failing.Load() {
		return nil
	}
	// An empty commit still writes a record of the log and syncs it, and
	// waits for a checkpoint when the log is full: it succeeds once the
	// disk takes writes again.
	return st.Commit([32]byte{}, nil)
}

// load reads every account: the data file's records with the log's
// records not yet applied replayed over them.
func (st *boltStore) Load() (map[AccountID]*Account, error) {
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
	out := make(map[AccountID]*Account, len(accounts))
	for hash, r := range accounts {
		out[hash] = r.account()
	}
	return out, nil
}

func (st *boltStore) LoadAccount(account [32]byte) (*Account, error) {
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
		return r.account(), nil
	}
	return nil, nil
}

func (st *boltStore) unappliedRecords() []walRecord {
	st.walMu.Lock()
	defer st.walMu.Unlock()
	return st.unapplied
}
