// Package storage is the sandbox's storage engine: a bbolt data file with
// a write-ahead log beside it (Open), a copy in memory (NewMemory), or no
// copy at all (NoCopy), behind one small interface, Store.
//
// It keeps records and knows nothing of what they mean: an account, named
// by a 32-byte id, holds named buckets of keys and values, and a sequence
// number. A caller commits one account's changes at a time (put, delete,
// drop the account), all of them or none, and reads every account back
// when it starts, or one account after a failed commit. New kinds of
// records take new bucket names, and no change here.
//
// What each Store keeps: Open's keeps every record on disk, and reads it
// back at the next start; NewMemory's keeps a copy of every record in
// memory, until the process ends; NoCopy's keeps nothing, for a caller
// whose own objects in memory are the only copy. The caller commits the
// same calls to each. A change is staged (Store.Stage), then committed;
// an op of a Record (PutRecord, DeleteRecord) is encoded by Commit. A
// store without a copy stages nothing, so its caller collects no changes
// and encodes no record.
//
// ARCHITECTURE.md, "The data file", records the design: the log, the group
// commit, the checkpoints, the file's formats and what is done when a disk
// fails.
package storage

import (
	"encoding/binary"
	"errors"
)

// Store keeps a sandbox's records. Its methods are safe for concurrent
// use.
type Store interface {
	// Load returns every account's records.
	Load() (map[AccountID]*Account, error)
	// LoadAccount returns one account's records, nil when it has none:
	// the state to go back to after a commit of the account failed.
	LoadAccount(id AccountID) (*Account, error)
	// Stage appends o to ops, the changes of a commit to come, if the
	// store keeps it, and returns ops: a store that keeps no copy returns
	// them as they are, so that its caller collects nothing to discard.
	Stage(ops []Op, o Op) []Op
	// Commit makes ops to one account's records, durably: all of them or
	// none. It returns once they are on disk; concurrent commits may share
	// a record of the write-ahead log and its sync. After an error that
	// is not ErrOutcomeUnknown, the commit changed nothing. A store that
	// keeps the ops encodes their Records, in place in ops.
	Commit(id AccountID, ops []Op) error
	// Health reports whether the store takes writes: it reads, and, when
	// the last write failed, tries an empty write.
	Health() error
	// Notes are what opening the store did that its operator should know,
	// such as upgrading the file.
	Notes() []string
	// Unusable is the error to report when a record the store returned
	// cannot be used by its caller: for a file, that the file is damaged,
	// naming it and what to do.
	Unusable(cause error) error
	// Close applies what is pending and releases the store.
	Close() error
}

// AccountID names an account's records; the sandbox uses a hash of the
// account's key, which is never stored.
type AccountID = [32]byte

// Account is one account's records: by bucket name, then by key.
type Account struct {
	// Seq is the account's sequence number, as last set by SetSeq.
	Seq uint64
	// Buckets holds the account's records by bucket name and key.
	Buckets map[string]map[string][]byte
}

// Op is one change to an account's records; make one with Put,
// PutRecord, Delete, DeleteRecord, DropAccount or SetSeq.
type Op struct {
	kind   opKind
	bucket string // "" is the account's own bucket: it holds the sequence
	key    string
	val    []byte
	// rec, when set, gives key (and val, for a put) at Commit.
	rec Record
}

// A Record is a caller's object that gives its key and its encoding only
// when a store asks, in Commit: a store that keeps no copy never does.
type Record interface {
	// RecordKey is the record's key in its bucket.
	RecordKey() string
	// RecordValue is the record's encoding. The store keeps it: it must
	// not change afterwards.
	RecordValue() []byte
}

type opKind uint8

const (
	opPut opKind = iota
	opDelete
	opDropAccount
)

// keySeq is the sequence's key in the account's own bucket.
const keySeq = "seq"

// Put sets key in bucket to val. The store keeps val: it must not change
// afterwards. bucket must not be empty, key 1 to 32,768 bytes long.
func Put(bucket, key string, val []byte) Op {
	return Op{kind: opPut, bucket: bucket, key: key, val: val}
}

// PutRecord sets r's key in bucket to r's encoding as it is when Commit
// is called; Commit asks r for them only if the store keeps records.
func PutRecord(bucket string, r Record) Op { return Op{kind: opPut, bucket: bucket, rec: r} }

// DeleteRecord removes r's key from bucket, if it is there; the key is
// asked for at Commit, as PutRecord's.
func DeleteRecord(bucket string, r Record) Op { return Op{kind: opDelete, bucket: bucket, rec: r} }

// encode fills in the key and value of ops made of Records, in place.
func encode(ops []Op) {
	for i := range ops {
		o := &ops[i]
		if o.rec == nil {
			continue
		}
		o.key = o.rec.RecordKey()
		if o.kind == opPut {
			o.val = o.rec.RecordValue()
		}
		o.rec = nil
	}
}

// Delete removes key from bucket, if it is there.
func Delete(bucket, key string) Op { return Op{kind: opDelete, bucket: bucket, key: key} }

// DropAccount removes every record of the account, its sequence with them.
func DropAccount() Op { return Op{kind: opDropAccount} }

// SetSeq sets the account's sequence number.
func SetSeq(seq uint64) Op {
	return Op{kind: opPut, key: keySeq, val: binary.BigEndian.AppendUint64(nil, seq)}
}

var (
	// ErrClosed answers a commit that comes after Close.
	ErrClosed = errors.New("the data file is closed")
	// ErrOutcomeUnknown is a commit whose record could not be synced nor
	// then erased from the log: it may or may not be on disk, and may or
	// may not be there after a restart. The store takes no more writes
	// after it (Health and Commit fail) until it is opened again.
	ErrOutcomeUnknown = errors.New("the write-ahead log could neither write a record nor erase it, so whether it is on disk is unknown")
	// ErrLogFull is a commit refused because the write-ahead log is at its
	// cap (64 MiB) and no checkpoint made room in time: the data file
	// takes the log's records too slowly, or not at all. It changed
	// nothing.
	ErrLogFull = errors.New("the write-ahead log is full and no checkpoint made room in time")
)

// Open opens, or creates, the data file at path. Every write is synced to
// disk before Commit returns, so no committed write is lost, even to kill
// -9 or a power cut.
//
// A file that is truncated, partly overwritten or not a data file at all
// is refused with an error naming it and what to do: it is opened
// read-only first and checked page by page (bbolt's tx.Check), with
// bbolt's panics and memory faults on damaged pages turned into that
// error, so that the caller never crashes on it, never writes to it and
// never serves half of it.
func Open(path string) (Store, error) {
	st, err := open(path, walCheckpointBytes, walCheckpointAge)
	if err != nil {
		return nil, err // not a nil *boltStore in a non-nil Store
	}
	return st, nil
}
