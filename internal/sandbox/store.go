package sandbox

import (
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"runtime/debug"
	"slices"
	"strings"
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
	// commit writes one request's changes to one account, durably, in one
	// transaction: all of them or none.
	commit(account [32]byte, ops []op) error
}

// storedAccount is one account's records as the store holds them.
type storedAccount struct {
	customers [][]byte
	payments  [][]byte
	idem      map[string][]byte
	seq       uint64
	webhooks  map[string][][]byte // by bucket name, see webhookBuckets
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
// plus the key "seq". The secret key itself is never written.
var (
	bucketAccounts  = []byte("accounts")
	bucketCustomers = "customers"
	bucketPayments  = "payments"
	bucketIdem      = "idem"
	keySeq          = "seq"
)

type boltStore struct {
	db   *bolt.DB
	path string
}

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
	// A file that has its layout is not written to until a request
	// changes something: a file refused later, at load, stays as it was.
	var initialised bool
	_ = db.View(func(tx *bolt.Tx) error { initialised = tx.Bucket(bucketAccounts) != nil; return nil })
	if initialised {
		return &boltStore{db: db, path: path}, nil
	}
	if err := db.Update(func(tx *bolt.Tx) error {
		_, err := tx.CreateBucketIfNotExists(bucketAccounts)
		return err
	}); err != nil {
		db.Close()
		return nil, fmt.Errorf("initialising data file %s: %w", path, err)
	}
	return &boltStore{db: db, path: path}, nil
}

// checkFile opens an existing data file read-only and checks it whole.
func checkFile(path string) error {
	var db *bolt.DB
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
			return nil
		})
	})
	if cerr := guard(db.Close); err == nil && cerr != nil {
		err = cerr
	}
	if err != nil {
		return damaged(path, err)
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

func (st *boltStore) Close() error { return st.db.Close() }

func (st *boltStore) commit(account [32]byte, ops []op) error {
	name := []byte(hex.EncodeToString(account[:]))
	return st.db.Update(func(tx *bolt.Tx) error {
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
	})
}

func (st *boltStore) load() (map[[32]byte]*storedAccount, error) {
	out := make(map[[32]byte]*storedAccount)
	err := guard(func() error { return st.db.View(st.loadTx(out)) })
	if err != nil {
		return nil, damaged(st.path, err)
	}
	return out, nil
}

func (st *boltStore) loadTx(out map[[32]byte]*storedAccount) func(*bolt.Tx) error {
	return func(tx *bolt.Tx) error {
		return tx.Bucket(bucketAccounts).ForEachBucket(func(name []byte) error {
			var hash [32]byte
			if n, err := hex.Decode(hash[:], name); err != nil || n != len(hash) {
				return fmt.Errorf("account bucket %q is not a hex SHA-256", name)
			}
			acct := tx.Bucket(bucketAccounts).Bucket(name)
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
			sa.webhooks = make(map[string][][]byte)
			for _, name := range webhookBuckets {
				if b := acct.Bucket([]byte(name)); b != nil {
					_ = b.ForEach(func(_, v []byte) error { sa.webhooks[name] = append(sa.webhooks[name], slices.Clone(v)); return nil })
				}
			}
			out[hash] = sa
			return nil
		})
	}
}
