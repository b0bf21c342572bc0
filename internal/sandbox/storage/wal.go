package storage

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"time"
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
	// the log needs, up to walMaxSize, never past it. Small, so that a
	// small disk can still hold a data file.
	walInitialSize = 256 << 10
	walMaxSize     = 64 << 20
	// walRoomWait bounds how long a commit waits for a checkpoint to make
	// room in a full log before it fails with ErrLogFull.
	walRoomWait = 10 * time.Second
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
		err := decodeBatch(b[walHeaderSize:], func(account [32]byte, ops []Op) error {
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
	// sync flushes the log's data: datasync, but in tests that make it
	// fail.
	sync func(*os.File) error
}

// checkPrivatePath is checkPrivate of the file at path.
func checkPrivatePath(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	return checkPrivate(f)
}

// openWAL opens the log of the data file whose id and last checkpoint
// are given, creating it when it is missing, and returns the records
// written after the checkpoint. It reads the log one record at a time,
// into one buffer: the log may hold tens of megabytes.
func openWAL(path string, id, applied uint64, next int64) (*wal, []walRecord, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, nil, err
	}
	if err := checkPrivate(f); err != nil {
		f.Close()
		return nil, nil, err
	}
	w, recs, err := replayWAL(f, path, id, applied, next)
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return w, recs, nil
}

func replayWAL(f *os.File, path string, id, applied uint64, next int64) (*wal, []walRecord, error) {
	info, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	w := &wal{f: f, path: path, id: id, seq: applied, tail: next, size: info.Size(), sync: datasync}
	var buf []byte
	var recs []walRecord
	for {
		rec, ok, err := w.read(&buf, w.tail)
		if err == nil && !ok && w.tail != 0 {
			rec, ok, err = w.read(&buf, 0) // the log wrapped to its start here
		}
		if err != nil {
			return nil, nil, err
		}
		if !ok {
			break
		}
		recs = append(recs, rec)
		w.seq, w.tail = rec.seq, rec.end
	}
	seq, off, ok, err := w.later(&buf)
	if err != nil {
		return nil, nil, err
	}
	if ok {
		return nil, nil, fmt.Errorf("%s is damaged: record %d does not follow record %d, yet record %d, at byte %d, does; the records after %d cannot be replayed in order. Restore the data file and its log from a backup, or move %s away to start from the data file as of its last checkpoint", path, w.seq+1, w.seq, seq, off, w.seq, path)
	}
	if w.size < walInitialSize {
		if err := w.grow(walInitialSize); err != nil {
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
func (w *wal) read(buf *[]byte, off int64) (walRecord, bool, error) {
	b, ok, err := w.whole(buf, off)
	if err != nil || !ok {
		return walRecord{}, false, err
	}
	seq := binary.LittleEndian.Uint64(b[16:])
	if seq != w.seq+1 {
		return walRecord{}, false, nil
	}
	rec := walRecord{seq: seq, start: off, end: off + int64(len(b)), written: time.Now()}
	err = decodeBatch(b[walHeaderSize:], func([32]byte, []Op) error { return nil })
	return rec, err == nil, nil
}

// whole reads the record at off into *buf, grown as needed, and returns
// it if it is whole and of this file.
func (w *wal) whole(buf *[]byte, off int64) ([]byte, bool, error) {
	if off < 0 || off+walHeaderSize > w.size {
		return nil, false, nil
	}
	var h [walHeaderSize]byte
	if _, err := w.f.ReadAt(h[:], off); err != nil {
		return nil, false, err
	}
	n := walHeaderSize + int64(binary.LittleEndian.Uint32(h[0:]))
	if off+n > w.size || binary.LittleEndian.Uint64(h[8:]) != w.id {
		return nil, false, nil
	}
	if int64(cap(*buf)) < n {
		*buf = make([]byte, n)
	}
	b := (*buf)[:n]
	copy(b, h[:])
	if _, err := w.f.ReadAt(b[walHeaderSize:], off+walHeaderSize); err != nil {
		return nil, false, err
	}
	if crc32.Checksum(b[8:], crc32c) != binary.LittleEndian.Uint32(b[4:]) {
		return nil, false, nil
	}
	return b, true, nil
}

// later finds a whole record of this file beyond the last one replayed:
// the log is then damaged in its middle, not merely cut by a crash, and
// replaying it up to the damage would silently drop what follows. It
// reads the log a window at a time, looking for the file's id, which
// every record's header holds.
func (w *wal) later(buf *[]byte) (seq uint64, off int64, ok bool, err error) {
	id := binary.LittleEndian.AppendUint64(nil, w.id)
	window := make([]byte, 1<<20)
	// Windows overlap by the id's length but one, so that an id across
	// two of them is found whole in the second.
	step := int64(len(window) - len(id) + 1)
	for start := int64(0); start < w.size; start += step {
		n, err := w.f.ReadAt(window, start)
		if err != nil && !errors.Is(err, io.EOF) {
			return 0, 0, false, err
		}
		for from := 0; ; {
			i := bytes.Index(window[from:n], id)
			if i < 0 {
				break
			}
			off := start + int64(from+i) - 8
			b, ok, err := w.whole(buf, off)
			if err != nil {
				return 0, 0, false, err
			}
			if ok && binary.LittleEndian.Uint64(b[16:]) > w.seq {
				return binary.LittleEndian.Uint64(b[16:]), off, true, nil
			}
			from += i + 1
		}
		if start+int64(n) >= w.size {
			break
		}
	}
	return 0, 0, false, nil
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

// write writes a record at off and syncs it.
//
// When that fails, the record's bytes may be on disk all the same, and a
// replay after a crash would find a whole record its callers were told
// did not happen. So its header is zeroed and synced before they are
// answered; when that fails too, whether the record is on disk is
// unknown, and the error wraps ErrOutcomeUnknown.
func (w *wal) write(rec []byte, off int64) error {
	_, err := w.f.WriteAt(rec, off)
	if err == nil {
		if err = w.sync(w.f); err == nil {
			return nil
		}
	}
	var zeros [walHeaderSize]byte
	_, zerr := w.f.WriteAt(zeros[:], off)
	if zerr == nil {
		zerr = w.sync(w.f)
	}
	if zerr != nil {
		return fmt.Errorf("%w: writing it: %w; erasing it: %w", ErrOutcomeUnknown, err, zerr)
	}
	return err
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
