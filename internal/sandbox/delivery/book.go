package delivery

import (
	"slices"
	"strings"
	"sync"
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
	// writes are the store writes of attempts not yet flushed; dirty is
	// set while the account is in the engine's flush list.
	writes []Write
	dirty  bool
	// flushing is held while the book's writes are being made, so that
	// a request that must write after them (deleting an endpoint,
	// resetting) can wait for them.
	flushing sync.Mutex
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
}
