package storage

import (
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"

	bolt "go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"
)

// batchSize bounds the size of a batch's encoding.
func batchSize(batch []*pendingCommit) int {
	n := 0
	for _, p := range batch {
		n += len(p.account) + binary.MaxVarintLen64
		for _, o := range p.ops {
			n += 1 + 3*binary.MaxVarintLen64 + len(o.bucket) + len(o.key) + len(o.val)
		}
	}
	return n
}

// appendBatch appends a batch's encoding to b: for each commit, the
// account's hash, its number of ops, then each Op as its kind and its
// bucket, key and value, each prefixed with its length.
func appendBatch(b []byte, batch []*pendingCommit) []byte {
	for _, p := range batch {
		b = append(b, p.account[:]...)
		b = binary.AppendUvarint(b, uint64(len(p.ops)))
		for _, o := range p.ops {
			b = append(b, byte(o.kind))
			b = binary.AppendUvarint(b, uint64(len(o.bucket)))
			b = append(b, o.bucket...)
			b = binary.AppendUvarint(b, uint64(len(o.key)))
			b = append(b, o.key...)
			b = binary.AppendUvarint(b, uint64(len(o.val)))
			b = append(b, o.val...)
		}
	}
	return b
}

// errBatchDamaged is a batch whose encoding does not decode.
var errBatchDamaged = errors.New("a log record's batch does not decode")

// decodeBatch calls f with each commit of a batch's encoding, in order.
// The ops' values are b's bytes, which must not change while they are
// used.
func decodeBatch(b []byte, f func(account [32]byte, ops []Op) error) error {
	for len(b) > 0 {
		var account [32]byte
		if len(b) < len(account) {
			return errBatchDamaged
		}
		copy(account[:], b)
		b = b[len(account):]
		count, n := binary.Uvarint(b)
		if n <= 0 || count > uint64(len(b)) {
			return errBatchDamaged
		}
		b = b[n:]
		ops := make([]Op, count)
		for i := range ops {
			if len(b) < 1 || opKind(b[0]) > opDropAccount {
				return errBatchDamaged
			}
			ops[i].kind = opKind(b[0])
			b = b[1:]
			var fields [3][]byte
			for j := range fields {
				size, n := binary.Uvarint(b)
				if n <= 0 || size > uint64(len(b)-n) {
					return errBatchDamaged
				}
				fields[j] = b[n : n+int(size)]
				b = b[n+int(size):]
			}
			ops[i].bucket, ops[i].key = string(fields[0]), string(fields[1])
			if ops[i].kind == opPut {
				ops[i].val = fields[2]
			}
		}
		if err := f(account, ops); err != nil {
			return err
		}
	}
	return nil
}

// checkOps refuses a change that bbolt would refuse at the checkpoint:
// found only there, it would fail the checkpoint of every record after it.
func checkOps(ops []Op) error {
	for _, o := range ops {
		if o.kind == opDropAccount {
			continue
		}
		if o.key == "" || len(o.key) > bolt.MaxKeySize {
			return fmt.Errorf("a record key of %d bytes: bbolt takes 1 to %d", len(o.key), bolt.MaxKeySize)
		}
		if o.bucket == "" && o.key != keySeq {
			return fmt.Errorf("the record %q in an account's own bucket, which holds only %q", o.key, keySeq)
		}
	}
	return nil
}

// walState reads the last checkpoint from the meta bucket: the last
// applied record's seq and where the log goes on.
func walState(tx *bolt.Tx) (applied uint64, next int64) {
	if v := tx.Bucket(bucketMeta).Get(keyWAL); len(v) == 16 {
		return binary.BigEndian.Uint64(v), int64(binary.BigEndian.Uint64(v[8:]))
	}
	return 0, 0
}

// checkpoint applies the commits of the records up to last to the
// accounts' buckets inside tx, and records that they are.
//
// An account dropped (reset, or removed when idle) is dropped first, and
// only its changes after its last drop are made: the changes before a drop
// are gone with it anyway, and bbolt 1.5 loses pages, neither in use nor
// free, when a bucket whose own keys changed in a transaction is deleted
// in the same one (TestBoltStoreCheckpoint_ChangesThenDrop).
func checkpoint(tx *bolt.Tx, last walRecord, batch []*pendingCommit) error {
	lastDrop := make(map[[32]byte]int)
	pos := 0
	for _, p := range batch {
		for _, o := range p.ops {
			pos++
			if o.kind == opDropAccount {
				lastDrop[p.account] = pos
			}
		}
	}
	for account := range lastDrop {
		if err := applyOps(tx, account, []Op{{kind: opDropAccount}}); err != nil {
			return err
		}
	}
	pos = 0
	for _, p := range batch {
		after := lastDrop[p.account]
		ops := p.ops
		if pos+len(ops) <= after {
			ops = nil
		} else if pos < after {
			ops = ops[after-pos:]
		}
		pos += len(p.ops)
		if err := applyOps(tx, p.account, ops); err != nil {
			return err
		}
	}
	v := binary.BigEndian.AppendUint64(nil, last.seq)
	v = binary.BigEndian.AppendUint64(v, uint64(last.end))
	return tx.Bucket(bucketMeta).Put(keyWAL, v)
}

// applyOps makes one caller's changes to one account inside tx.
func applyOps(tx *bolt.Tx, account [32]byte, ops []Op) error {
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

// records are one account's records by bucket ("" is the account's own)
// and key: what the data file holds for it, with the log replayed over it.
type records map[string]map[string][]byte

// readRecords copies an account's records out of its bucket.
func readRecords(acct *bolt.Bucket) records {
	r := records{"": {}}
	if v := acct.Get([]byte(keySeq)); v != nil {
		r[""][keySeq] = slices.Clone(v)
	}
	_ = acct.ForEachBucket(func(name []byte) error {
		m := make(map[string][]byte)
		// bbolt's bytes are only valid inside the transaction: copy.
		_ = acct.Bucket(name).ForEach(func(k, v []byte) error {
			if v != nil {
				m[string(k)] = slices.Clone(v)
			}
			return nil
		})
		r[string(name)] = m
		return nil
	})
	return r
}

// replay makes the changes of a batch to accounts, as applyOps makes them
// to the buckets. Only the account only is kept when only is not nil.
func replay(accounts map[[32]byte]records, batch []*pendingCommit, only *[32]byte) {
	for _, p := range batch {
		if only != nil && p.account != *only {
			continue
		}
		for _, o := range p.ops {
			if o.kind == opDropAccount {
				delete(accounts, p.account)
				continue
			}
			r := accounts[p.account]
			if r == nil {
				r = records{"": {}}
				accounts[p.account] = r
			}
			m := r[o.bucket]
			if m == nil {
				m = make(map[string][]byte)
				r[o.bucket] = m
			}
			if o.kind == opDelete {
				delete(m, o.key)
			} else {
				m[o.key] = o.val
			}
		}
	}
}

// account turns an account's records into an Account.
func (r records) account() *Account {
	a := &Account{Buckets: make(map[string]map[string][]byte, len(r))}
	if v := r[""][keySeq]; len(v) == 8 {
		a.Seq = binary.BigEndian.Uint64(v)
	}
	for name, m := range r {
		if name != "" {
			a.Buckets[name] = m
		}
	}
	return a
}
