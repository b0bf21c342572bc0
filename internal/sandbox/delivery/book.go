package delivery

import (
	"reflect"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// delivery is one event still to be delivered to one endpoint. Its fields
// are guarded by its account's Book; the pointer in the book's pending is
// its identity: a delivery no longer there is cancelled.
type delivery struct {
	a        Account
	key      string    // Key(event, endpoint)
	attempts int       // made so far
	due      time.Time // of the next attempt, on the engine's clock
	// dropped is set by an attempt that found the delivery gone from the
	// book and so scheduled nothing more: should a failed request put it
	// back (Engine.restore), it must be scheduled again.
	dropped bool
}

// Key is a delivery's name in the book and the store: the event's id and
// the endpoint's, as the API writes them.
func Key(event, endpoint string) string { return event + "/" + endpoint }

func (d *delivery) event() string {
	ev, _, _ := strings.Cut(d.key, "/")
	return ev
}

func (d *delivery) endpoint() string {
	_, ep, _ := strings.Cut(d.key, "/")
	return ep
}

// Attempt is one line of the delivery log (/_sandbox/deliveries). An
// Attempt never changes once in the log.
type Attempt struct {
	Seq      uint64
	Event    string
	Endpoint string
	N        int    // the attempt's number, from 1
	Status   int    // 0 when no answer came
	Err      string // "" when delivered
	At       int64  // unix seconds, on the engine's clock
	Duration time.Duration
	RetryMS  int64 // when the next attempt is due, unix ms; 0 when none
}

// Undo takes back a request's change to a Book; Book.Undo runs it.
type Undo func(*Book)

// Book is an account's pending deliveries and delivery log. It has its
// own lock, taken after the account's when both are: the engine records
// attempts under it alone, so that requests never wait for a delivery's
// bookkeeping, let alone its store write. The zero Book is empty.
type Book struct {
	mu sync.Mutex
	// pending are the deliveries still to be attempted, by Key.
	pending map[string]*delivery
	// attempts is the delivery log, oldest first, at most maxLog. Entries
	// never change, and trimming makes a new slice, so a reader may range
	// over the slice it took under mu after releasing it.
	attempts []*Attempt
	// seq orders the attempts; it only grows, across resets too.
	seq uint64
	// days count the attempts by day (days.go).
	days map[int64]*DayTally
	// writes are the store writes of attempts not yet flushed; dirty is
	// set while the account is in the engine's flush list.
	writes []Write
	dirty  bool
	// flushing is held while the book's writes are being made, so that
	// a request that must write after them (deleting an endpoint,
	// resetting) can wait for them.
	flushing sync.Mutex
	// bytes is what the pending deliveries and the log keep (see Bytes),
	// changed under mu; charge, when set, is told every change.
	bytes  atomic.Int64
	charge func(delta int64)
}

// Size estimates, as the sandbox's own (its bounds.go): a heap allocation
// costs its bytes plus allocOverhead; a map entry its key and value with
// the empty slots a map keeps around them; an entry of a growing slice a
// pointer and half as much again of spare capacity.
const (
	allocOverhead = 16
	slot          = 8 * 3 / 2
	// pendingOverhead is what a pending delivery costs besides its key:
	// its struct, its map entry, and its places in the due heap and in
	// its lane's queue.
	pendingOverhead = allocOverhead + (16+8+1)*8/5 + (24+8)*3/2 + slot
)

var (
	deliverySize = int64(reflect.TypeFor[delivery]().Size())
	attemptSize  = int64(reflect.TypeFor[Attempt]().Size())
)

func strSize(s string) int64 {
	if s == "" {
		return 0
	}
	return int64(len(s)) + allocOverhead
}

func (d *delivery) size() int64 { return deliverySize + pendingOverhead + strSize(d.key) }

func (at *Attempt) size() int64 {
	// Event and Endpoint share one string when the attempt was made here
	// (the delivery's key), two when read from the store: counted as two.
	return attemptSize + allocOverhead + slot + strSize(at.Event) + strSize(at.Endpoint) + strSize(at.Err)
}

// SetCharge makes f receive every change of the book's bytes, from now
// on: the sandbox adds them to its total. Call it before the book is used.
func (bk *Book) SetCharge(f func(delta int64)) { bk.charge = f }

// Bytes is an estimate of the heap the pending deliveries and the
// delivery log keep, counted toward the account's bytes.
func (bk *Book) Bytes() int64 { return bk.bytes.Load() }

// Recount is Bytes counted from scratch, for tests to compare.
func (bk *Book) Recount() int64 {
	bk.mu.Lock()
	defer bk.mu.Unlock()
	return bk.recountLocked()
}

func (bk *Book) recountLocked() int64 {
	var n int64
	for _, d := range bk.pending {
		n += d.size()
	}
	for _, at := range bk.attempts {
		n += at.size()
	}
	return n + int64(len(bk.days))*dayTallyBytes
}

// add charges delta bytes; mu is held.
func (bk *Book) add(delta int64) {
	if delta == 0 {
		return
	}
	bk.bytes.Add(delta)
	if bk.charge != nil {
		bk.charge(delta)
	}
}

// settle charges the difference to a count from scratch, after a change
// of many entries at once (a reset, an undo, a load); mu is held.
func (bk *Book) settle() { bk.add(bk.recountLocked() - bk.bytes.Load()) }

// setPending makes d the pending delivery of its key; mu is held.
func (bk *Book) setPending(d *delivery) {
	bk.ensure()
	if prev := bk.pending[d.key]; prev != nil {
		bk.add(-prev.size())
	}
	bk.pending[d.key] = d
	bk.add(d.size())
}

// dropPending forgets the pending delivery of key; mu is held.
func (bk *Book) dropPending(key string) {
	if d := bk.pending[key]; d != nil {
		delete(bk.pending, key)
		bk.add(-d.size())
	}
}

// appendLog adds an attempt to the log, and returns the sequences of the
// oldest it drops to stay within maxLog; mu is held.
func (bk *Book) appendLog(at *Attempt) (dropped []uint64) {
	bk.attempts = append(bk.attempts, at)
	bk.add(at.size())
	if n := len(bk.attempts) - maxLog; n > 0 {
		for _, old := range bk.attempts[:n] {
			dropped = append(dropped, old.Seq)
			bk.add(-old.size())
		}
		bk.attempts = append(bk.attempts[:0:0], bk.attempts[n:]...)
	}
	return dropped
}

func (bk *Book) ensure() {
	if bk.pending == nil {
		bk.pending = make(map[string]*delivery)
	}
}

// takeWrites waits for a flush in progress and returns the writes not yet
// made, with mu held: the caller cancels deliveries before unlocking, so
// that no write of theirs can follow its own.
func (bk *Book) takeWrites() []Write {
	bk.flushing.Lock()
	bk.mu.Lock()
	bk.flushing.Unlock()
	w := bk.writes
	bk.writes = nil
	return w
}

// Idle reports whether no delivery of the account is pending nor being
// written, for an account about to be dropped whole, whose queued writes
// it then discards. It never waits: the caller may hold other locks.
func (bk *Book) Idle() bool {
	if !bk.flushing.TryLock() {
		return false
	}
	defer bk.flushing.Unlock()
	bk.mu.Lock()
	defer bk.mu.Unlock()
	if len(bk.pending) > 0 {
		return false
	}
	bk.writes = nil
	return true
}

// Pending is how many deliveries are still to be attempted.
func (bk *Book) Pending() int {
	bk.mu.Lock()
	defer bk.mu.Unlock()
	return len(bk.pending)
}

// Log is the delivery log, oldest first. The caller must not change it.
func (bk *Book) Log() []*Attempt {
	bk.mu.Lock()
	defer bk.mu.Unlock()
	return bk.attempts
}

// Undo runs undo, last first, under the book's lock: what a request whose
// write failed did to the book is taken back.
func (bk *Book) Undo(undo []Undo) {
	bk.mu.Lock()
	defer bk.mu.Unlock()
	for _, f := range slices.Backward(undo) {
		f(bk)
	}
	bk.settle()
}
