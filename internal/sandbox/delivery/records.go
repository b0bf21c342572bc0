package delivery

import (
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"
)

// The store records of pending deliveries and of the delivery log, each in
// its own bucket of the account. The engine encodes them; the sandbox
// commits them with the rest of the account and hands them back at load.

// The buckets the engine's records live in.
const (
	BucketPending = "deliveries"
	BucketLog     = "delivery_log"
)

// Write is one change to the store: Value put under Key in Bucket, or the
// key deleted when Value is nil.
type Write struct {
	Bucket string
	Key    string
	Value  []byte
}

type (
	pendingRecord struct {
		Event    string `json:"event"`
		Endpoint string `json:"endpoint"`
		Attempts int    `json:"attempts"`
		DueMS    int64  `json:"due_ms"`
	}
	attemptRecord struct {
		Seq      uint64 `json:"seq"`
		Event    string `json:"event"`
		Endpoint string `json:"endpoint"`
		Attempt  int    `json:"attempt"`
		Status   int    `json:"status"`
		Error    string `json:"error,omitempty"`
		At       int64  `json:"at"`
		// DurationUS and RetryMS were added later; 0 in older files.
		DurationUS int64 `json:"duration_us,omitempty"`
		RetryMS    int64 `json:"retry_ms,omitempty"`
	}
)

// writes collects the store writes of one change; nil without a store.
type writes []Write

func (e *Engine) marshal(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		// The records are plain structs of strings and numbers.
		panic(fmt.Sprintf("delivery: encoding a record: %v", err))
	}
	return b
}

func (e *Engine) put(w *writes, d *delivery) {
	if !e.host.Stored() {
		return
	}
	rec := pendingRecord{Event: d.event(), Endpoint: d.endpoint(), Attempts: d.attempts, DueMS: d.due.UnixMilli()}
	*w = append(*w, Write{Bucket: BucketPending, Key: d.key, Value: e.marshal(rec)})
}

func (e *Engine) deletePending(w *writes, key string) {
	if !e.host.Stored() {
		return
	}
	*w = append(*w, Write{Bucket: BucketPending, Key: key})
}

// attemptKey orders the log's keys as the attempts were made.
func attemptKey(seq uint64) string { return fmt.Sprintf("%016x", seq) }

func (e *Engine) putAttempt(w *writes, at *Attempt) {
	if !e.host.Stored() {
		return
	}
	rec := attemptRecord{
		Seq: at.Seq, Event: at.Event, Endpoint: at.Endpoint, Attempt: at.N, Status: at.Status, Error: at.Err, At: at.At,
		DurationUS: at.Duration.Microseconds(), RetryMS: at.RetryMS,
	}
	*w = append(*w, Write{Bucket: BucketLog, Key: attemptKey(at.Seq), Value: e.marshal(rec)})
}

func (e *Engine) deleteAttempt(w *writes, seq uint64) {
	if !e.host.Stored() {
		return
	}
	*w = append(*w, Write{Bucket: BucketLog, Key: attemptKey(seq)})
}

// Load rebuilds a's book from its records, by bucket; valid reports
// whether an event's and an endpoint's id are well formed. It runs before
// the sandbox serves.
func Load(a Account, recs map[string][][]byte, valid func(event, endpoint string) bool) error {
	bk := a.Book()
	bk.mu.Lock()
	defer bk.mu.Unlock()
	bad := func(kind string, err error) error {
		return fmt.Errorf("reading a %s record from the data file: %w", kind, err)
	}
	for _, raw := range recs[BucketPending] {
		var rec pendingRecord
		if err := json.Unmarshal(raw, &rec); err != nil {
			return bad("delivery", err)
		}
		if !valid(rec.Event, rec.Endpoint) || strings.Contains(rec.Event, "/") {
			return fmt.Errorf("data file: delivery of %q to %q is malformed", rec.Event, rec.Endpoint)
		}
		bk.ensure()
		d := &delivery{a: a, key: Key(rec.Event, rec.Endpoint), attempts: rec.Attempts, due: time.UnixMilli(rec.DueMS)}
		bk.pending[d.key] = d
	}
	for _, raw := range recs[BucketLog] {
		var rec attemptRecord
		if err := json.Unmarshal(raw, &rec); err != nil {
			return bad("delivery attempt", err)
		}
		if !valid(rec.Event, rec.Endpoint) {
			return fmt.Errorf("data file: delivery attempt %d is malformed", rec.Seq)
		}
		bk.attempts = append(bk.attempts, &Attempt{
			Seq: rec.Seq, Event: rec.Event, Endpoint: rec.Endpoint, N: rec.Attempt, Status: rec.Status, Err: rec.Error, At: rec.At,
			Duration: time.Duration(rec.DurationUS) * time.Microsecond, RetryMS: rec.RetryMS,
		})
		bk.seq = max(bk.seq, rec.Seq)
	}
	slices.SortFunc(bk.attempts, func(x, y *Attempt) int { return cmp.Compare(x.Seq, y.Seq) })
	if err := bk.loadDays(recs[BucketDays]); err != nil {
		return err
	}
	bk.settle()
	return nil
}
