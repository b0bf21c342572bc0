package sandbox

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"time"

	bolt "go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"
)

// The write-ahead log, FILE-wal beside the data file: a request waits for
// its batch's record to be written there and synced once, and the
// checkpointer applies the log to the bbolt file later (ARCHITECTURE.md,
// "The data file", says why). A record is
//
//	length  uint32  of the payload
//	crc     uint32  CRC-32C of what follows it
//	file    uint64  the data file's own id (meta/id)
//	seq     uint64  one more than the record before
//	payload         a batch, see appendBatch
//
// Opening a data file replays the log from where the last checkpoint says
// it goes on, and stops at the first record that is not whole, not of this
// data file or not the next in sequence: a record cut by a crash was never
// acknowledged, and a log left by another data file is ignored.
const (
	walHeaderSize = 24
	// walInitialSize is the log's space when it is created; it doubles as
	// the log needs, up to walMaxSize, and past it only for a batch bigger
	// than the whole log. Small, so that a small disk can still hold a
	// data file.
	walInitialSize = 256 << 10
	walMaxSize     = 64 << 20
	// walCheckpointBytes is how much the log holds before it is applied:
	// enough that a checkpoint writes each busy account's pages once for
	// hundreds of its records (at 32 clients, 16 MiB gave 1.14 times the
	// creates/s of 4 MiB), little enough that the log's space stays a few
	// times that. The records are read back from the log to be applied,
	// so what the log holds is not kept in memory.
	walCheckpointBytes = 16 << 20
	// walCheckpointAge bounds how long a record stays only in the log,
	// so that a quiet sandbox's data file soon holds everything.
	walCheckpointAge = 3 * time.Second
)

// walSuffix names the log beside its data file.
const walSuffix = "-wal"

var (
	keyID  = []byte("id")  // meta: the data file's id, 8 random bytes
	keyWAL = []byte("wal") // meta: the last applied record's seq, and where the log goes on
	crc32c = crc32.MakeTable(crc32.Castagnoli)
)

// walRecord is a record of the log not yet applied to the data file. Its
// batch stays in the file (and in the kernel's page cache), not in the
// heap: the log may hold tens of megabytes.
type walRecord struct {
	seq        uint64
	start, end int64 // where it lies in the log
	written    time.Time
}

// commits reads recs back from the log, checks them again and decodes
// their commits, in order. The log's space they lie in is not reused
// before they are applied.
func (w *wal) commits(recs []walRecord) ([]*pendingCommit, error) {
	var out []*pendingCommit
	for _, r := range recs {
		b := make([]byte, r.end-r.start)
		if _, err := w.f.ReadAt(b, r.start); err != nil {
			return nil, err
		}
		if crc32.Checksum(b[8:], crc32c) != binary.LittleEndian.Uint32(b[4:]) || binary.LittleEndian.Uint64(b[16:]) != r.seq {
			return nil, fmt.Errorf("record %d of the write-ahead log changed on disk after it was written", r.seq)
		}
		err := decodeBatch(b[walHeaderSize:], func(account [32]byte, ops []op) error {
			out = append(out, &pendingCommit{account: account, ops: ops})
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// wal is the log file. One batch's leader at a time writes it; the checkpointer
// and the readers of the file read the records it keeps (records) under
// boltStore.walMu.
type wal struct {
	f    *os.File
	path string
	id   uint64
	size int64  // the log's space: the file's size
	seq  uint64 // the last record written
	tail int64  // where the next record goes, unless it wraps to 0
	// voids are where records lie whose write failed: their caller was
	// told nothing changed, yet some of their bytes may be on disk. Their
	// headers are zeroed with the next write, so that a replay never
	// takes one for the record of the same sequence written after it.
	voids []int64
}

// openWAL opens the log of the data file whose id and last checkpoint
// are given, creating it when it is missing, and returns the records
// written after the checkpoint.
func openWAL(path string, id, applied uint64, next int64) (*wal, []walRecord, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, nil, err
	}
	w := &wal{f: f, path: path, id: id, seq: applied, tail: next}
	data, err := io.ReadAll(f)
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	w.size = int64(len(data))
	var recs []walRecord
	for {
		rec, ok := w.read(data, w.tail)
		if !ok && w.tail != 0 {
			rec, ok = w.read(data, 0) // the log wrapped to its start here
		}
		if !ok {
			break
		}
		recs = append(recs, rec)
		w.seq, w.tail = rec.seq, rec.end
	}
	if seq, off, ok := w.later(data); ok {
		f.Close()
		return nil, nil, fmt.Errorf("%s is damaged: record %d does not follow record %d, yet record %d, at byte %d, does; the records after %d cannot be replayed in order. Restore the data file and its log from a backup, or move %s away to start from the data file as of its last checkpoint", path, w.seq+1, w.seq, seq, off, w.seq, path)
	}
	if w.size < walInitialSize {
		if err := w.grow(walInitialSize); err != nil {
			f.Close()
			return nil, nil, err
		}
	}
	if w.tail > w.size {
		w.tail = 0
	}
	return w, recs, nil
}

// read decodes the record at off if it is whole, this file's and the next
// in sequence.
func (w *wal) read(data []byte, off int64) (walRecord, bool) {
	seq, end, ok := w.whole(data, off)
	if !ok || seq != w.seq+1 {
		return walRecord{}, false
	}
	rec := walRecord{seq: seq, start: off, end: end, written: time.Now()}
	err := decodeBatch(data[off+walHeaderSize:end], func([32]byte, []op) error { return nil })
	return rec, err == nil
}

// whole reports whether a whole record of this file lies at off, and its
// sequence and end.
func (w *wal) whole(data []byte, off int64) (seq uint64, end int64, ok bool) {
	if off < 0 || off+walHeaderSize > int64(len(data)) {
		return 0, 0, false
	}
	h := data[off : off+walHeaderSize]
	end = off + walHeaderSize + int64(binary.LittleEndian.Uint32(h[0:]))
	if end > int64(len(data)) || binary.LittleEndian.Uint64(h[8:]) != w.id ||
		crc32.Checksum(data[off+8:end], crc32c) != binary.LittleEndian.Uint32(h[4:]) {
		return 0, 0, false
	}
	return binary.LittleEndian.Uint64(h[16:]), end, true
}

// later finds a whole record of this file beyond the last one replayed:
// the log is then damaged in its middle, not merely cut by a crash, and
// replaying it up to the damage would silently drop what follows.
func (w *wal) later(data []byte) (seq uint64, off int64, ok bool) {
	id := binary.LittleEndian.AppendUint64(nil, w.id)
	for from := 0; ; {
		i := bytes.Index(data[from:], id)
		if i < 0 {
			return 0, 0, false
		}
		off := int64(from+i) - 8
		if seq, _, ok := w.whole(data, off); ok && seq > w.seq {
			return seq, off, true
		}
		from += i + 1
	}
}

// encode makes the record of a batch, the log's next.
func (w *wal) encode(batch []*pendingCommit) []byte {
	b := make([]byte, walHeaderSize, walHeaderSize+batchSize(batch))
	b = appendBatch(b, batch)
	binary.LittleEndian.PutUint32(b[0:], uint32(len(b)-walHeaderSize))
	binary.LittleEndian.PutUint64(b[8:], w.id)
	binary.LittleEndian.PutUint64(b[16:], w.seq+1)
	binary.LittleEndian.PutUint32(b[4:], crc32.Checksum(b[8:], crc32c))
	return b
}

// write writes a record at off and syncs it, with the zeroed headers of
// the records whose write failed before.
func (w *wal) write(rec []byte, off int64) error {
	err := w.writeSynced(rec, off)
	if err != nil {
		w.voids = append(w.voids, off)
	} else {
		w.voids = w.voids[:0]
	}
	return err
}

func (w *wal) writeSynced(rec []byte, off int64) error {
	var zeros [walHeaderSize]byte
	for _, v := range w.voids {
		if v == off {
			continue // rec overwrites it
		}
		if _, err := w.f.WriteAt(zeros[:], v); err != nil {
			return err
		}
	}
	if _, err := w.f.WriteAt(rec, off); err != nil {
		return err
	}
	return datasync(w.f)
}

// grow extends the log's space to size, with zeros, synced: appends to it
// then change no file size.
func (w *wal) grow(size int64) error {
	zeros := make([]byte, 64<<10)
	for off := w.size; off < size; off += int64(len(zeros)) {
		n := min(int64(len(zeros)), size-off)
		if _, err := w.f.WriteAt(zeros[:n], off); err != nil {
			return err
		}
	}
	if err := w.f.Sync(); err != nil {
		return err
	}
	if w.size == 0 {
		if err := syncDir(w.path); err != nil {
			return err
		}
	}
	w.size = size
	return nil
}

// syncDir syncs the directory holding path, so that a new file in it
// survives a crash.
func syncDir(path string) error {
	dir, err := os.Open(filepath.Dir(path))
	if err != nil {
		return err
	}
	defer dir.Close()
	return dir.Sync()
}

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
// account's hash, its number of ops, then each op as its kind and its
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
func decodeBatch(b []byte, f func(account [32]byte, ops []op) error) error {
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
		ops := make([]op, count)
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
func checkOps(ops []op) error {
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
		if err := applyOps(tx, account, []op{{kind: opDropAccount}}); err != nil {
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

// stored turns an account's records into the storedAccount the server
// builds an account from, each bucket's records in key order as bbolt
// keeps them.
func (r records) stored() *storedAccount {
	sa := &storedAccount{idem: r[bucketIdem], webhooks: make(map[string][][]byte)}
	if sa.idem == nil {
		sa.idem = make(map[string][]byte)
	}
	if v := r[""][keySeq]; len(v) == 8 {
		sa.seq = binary.BigEndian.Uint64(v)
	}
	inOrder := func(m map[string][]byte) [][]byte {
		var out [][]byte
		for _, k := range slices.Sorted(maps.Keys(m)) {
			out = append(out, m[k])
		}
		return out
	}
	sa.customers = inOrder(r[bucketCustomers])
	sa.payments = inOrder(r[bucketPayments])
	sa.tokens = inOrder(r[bucketTokens])
	for _, name := range webhookBuckets {
		if m := r[name]; len(m) > 0 {
			sa.webhooks[name] = inOrder(m)
		}
	}
	return sa
}
