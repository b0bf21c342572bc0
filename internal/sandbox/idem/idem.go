// Package idem is an account's Idempotency-Keys: which request each key
// was for (its fingerprint, form.Fingerprint) and, once that request ran,
// its answer, kept Retention and then forgotten. A Table holds them by key
// and in creation order, so that expired keys leave from its front; a
// Record is also what the store keeps of a key. It knows nothing of the
// handlers: the sandbox reserves a key before a request runs (Begin),
// stores the answer or frees the key after (Store, Abort), sweeps the
// expired (Sweep), and charges the bytes and writes the records each
// step names, under the account's lock, which guards the Table.
package idem

import (
	"cmp"
	"encoding/json"
	"fmt"
	"iter"
	"net/http"
	"reflect"
	"slices"
	"time"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/apierr"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/model"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// Retention is how long an Idempotency-Key is kept per account. [assumed]
const Retention = 24 * time.Hour

// Record is what an Idempotency-Key remembers.
type Record struct {
	Key     string
	FP      [32]byte
	Created int64 // unix nanoseconds
	Done    bool
	Status  int
	Body    []byte
	Counted int64 // bytes charged to the account
}

// Expired reports whether the record is Retention old at now.
func (r *Record) Expired(now time.Time) bool {
	return now.UnixNano()-r.Created >= int64(Retention)
}

// Storable reports whether the contract keeps an answer under its key: the
// answers of requests that ran, not refusals a retry may get past.
func Storable(status int) bool {
	switch status {
	case http.StatusOK, http.StatusBadRequest, http.StatusPaymentRequired, http.StatusNotFound, http.StatusRequestEntityTooLarge:
		return true
	}
	return false
}

// Table is an account's records, by key and in creation order.
type Table struct {
	keys  map[string]*Record
	queue []*Record // creation order, for expiry
}

// Begin looks key up at now. It returns either a record reserved for a
// request that must run, or what to answer instead: the stored record
// (replayed) or a refusal, 400 idempotency_key_reused for another request
// under the key (Stripe's answer, which its clients do not retry) or 409
// idempotency_key_in_use while its request runs. freed is the bytes of an expired record
// it forgot on the way, for the caller to take off the account.
func (t *Table) Begin(key string, fp [32]byte, now time.Time) (reserved, stored *Record, refused *apierr.Error, freed int64) {
	rec := t.keys[key]
	if rec != nil && rec.Done && rec.Expired(now) {
		delete(t.keys, key)
		freed = rec.Counted
		rec.Body = nil // the queue holds rec until its sweep
		rec = nil
	}
	switch {
	case rec == nil:
		rec = &Record{Key: key, FP: fp, Created: now.UnixNano()}
		t.add(rec)
		return rec, nil, nil, freed
	case rec.FP != fp:
		return nil, nil, &apierr.Error{
			Status: http.StatusBadRequest, Type: wire.ErrorTypeIdempotency, Code: wire.ErrorCodeIdempotencyKeyReused,
			Message: "This Idempotency-Key was already used with another method, path or parameters. Use a fresh key for a different request.",
		}, freed
	case !rec.Done:
		return nil, nil, &apierr.Error{
			Status: http.StatusConflict, Type: wire.ErrorTypeIdempotency, Code: wire.ErrorCodeIdempotencyKeyInUse,
			Message: "A request with this Idempotency-Key is still running. Retry it once that one has been answered.",
		}, freed
	}
	return nil, rec, nil, freed
}

func (t *Table) add(rec *Record) {
	if t.keys == nil {
		t.keys = make(map[string]*Record)
	}
	t.keys[rec.Key] = rec
	t.queue = append(t.queue, rec)
}

// Store keeps the answer of the request rec was reserved for, when it is
// Storable and the key is still rec's (a reset may have freed it
// meanwhile); else it frees the key. Either way rec is done. It reports
// whether the answer is kept: the caller then charges and writes rec.
func (t *Table) Store(rec *Record, status int, body []byte) bool {
	if !Storable(status) || t.keys[rec.Key] != rec {
		t.Abort(rec)
		rec.Done = true
		return false
	}
	rec.Done, rec.Status, rec.Body = true, status, body
	return true
}

// Abort frees rec's key, so that a retry runs again.
func (t *Table) Abort(rec *Record) {
	if t.keys[rec.Key] == rec {
		delete(t.keys, rec.Key)
	}
}

// Sweep forgets the records expired at now from the front of the
// creation order, calling drop for each that was still under its key.
func (t *Table) Sweep(now time.Time, drop func(*Record)) {
	for len(t.queue) > 0 {
		old := t.queue[0]
		if old.Done && !old.Expired(now) {
			break
		}
		if !old.Done && t.keys[old.Key] == old {
			break // still running: it cannot have expired yet
		}
		t.queue[0] = nil
		t.queue = t.queue[1:]
		if t.keys[old.Key] == old {
			delete(t.keys, old.Key)
			drop(old)
		}
	}
}

// All is every record under its key, in no order.
func (t *Table) All() iter.Seq[*Record] {
	return func(yield func(*Record) bool) {
		for _, rec := range t.keys {
			if !yield(rec) {
				return
			}
		}
	}
}

// Clear forgets every record (a reset).
func (t *Table) Clear() {
	clear(t.keys)
	t.queue = nil
}

// Adopt takes the reservations of requests still running in from that t
// does not have: t replaces from after a failed write, and those requests
// finish or free their keys themselves.
func (t *Table) Adopt(from *Table) {
	for key, rec := range from.keys {
		if !rec.Done && t.keys[key] == nil {
			t.add(rec)
		}
	}
	t.sort()
}

func (t *Table) sort() {
	slices.SortFunc(t.queue, func(x, y *Record) int { return cmp.Compare(x.Created, y.Created) })
}

// Load reads the records of the store (key to RecordValue) into an empty
// t, dropping those expired at now.
func (t *Table) Load(stored map[string][]byte, now time.Time) error {
	for key, raw := range stored {
		rec, err := Decode(key, raw)
		if err != nil {
			return err
		}
		if rec.Expired(now) {
			continue // deleted from the file by a later sweep or overwrite
		}
		t.add(rec)
	}
	t.sort()
	return nil
}

// stored is a record, as JSON in the store.
type stored struct {
	FP      []byte `json:"fp"`
	Created int64  `json:"created"`
	Status  int    `json:"status"`
	Body    []byte `json:"body"`
}

// RecordKey is the record's key in the store: its Idempotency-Key.
func (r *Record) RecordKey() string { return r.Key }

// RecordValue is the record's encoding in the store.
func (r *Record) RecordValue() []byte {
	return model.Marshal(stored{FP: r.FP[:], Created: r.Created, Status: r.Status, Body: r.Body})
}

// Decode reads a record of the store, done: only answered keys are kept.
func Decode(key string, raw []byte) (*Record, error) {
	var st stored
	if err := json.Unmarshal(raw, &st); err != nil {
		return nil, fmt.Errorf("reading an idempotency record from the data file: %w", err)
	}
	if len(st.FP) != 32 {
		return nil, fmt.Errorf("data file: idempotency record %q has a %d-byte fingerprint, want 32", key, len(st.FP))
	}
	rec := &Record{Key: key, Created: st.Created, Done: true, Status: st.Status, Body: st.Body}
	copy(rec.FP[:], st.FP)
	return rec, nil
}

// recordBytes is a Record's struct on the heap.
var recordBytes = int64(reflect.TypeFor[Record]().Size()) + model.AllocOverhead

// MemBytes estimates what a done record keeps in memory: its struct, its
// place in the queue and the map, its key and its answer.
func (r *Record) MemBytes() int64 {
	// The map entry: a string key, a pointer, and the map's spare slots.
	return recordBytes + model.OrderSlot + (16+model.PtrBytes+1)*8/5 + model.StrBytes(r.Key) + int64(len(r.Body)) + model.AllocOverhead
}
