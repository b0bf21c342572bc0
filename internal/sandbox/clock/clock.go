// Package clock is the time the sandbox's time-based work reads: delivery
// retries and their backoff, idle-account expiry, idempotency retention,
// timestamps. Code that waits asks a Clock for a timer instead of calling
// package time, so that a test can move time by hand (Fake) instead of
// sleeping to see it pass, and so that one clock can drive several kinds
// of work at once. Pacing that protects the process (rate limits, request
// timeouts, flush intervals) stays on the real clock.
package clock

import (
	"slices"
	"sync"
	"time"
)

// Clock tells the time and runs functions once time has passed.
type Clock interface {
	// Now is the current time on this clock.
	Now() time.Time
	// AfterFunc calls f in its own goroutine once d has passed on this
	// clock (at once when d <= 0), unless the timer is stopped first.
	AfterFunc(d time.Duration, f func()) Timer
}

// Timer is a pending AfterFunc call.
type Timer interface {
	// Stop cancels the call, and reports whether it did: false when f
	// has already been called or started.
	Stop() bool
}

// Real is the system clock.
func Real() Clock { return realClock{} }

type realClock struct{}

func (realClock) Now() time.Time                            { return time.Now() }
func (realClock) AfterFunc(d time.Duration, f func()) Timer { return time.AfterFunc(d, f) }

// Offset is the system clock moved by d: its timers last as long as the
// real ones, its Now is d away from the real time. A demo or a browser test
// uses it to show a fixed date while deliveries retry in real time.
func Offset(d time.Duration) Clock { return offsetClock{d} }

type offsetClock struct{ d time.Duration }

func (o offsetClock) Now() time.Time                          { return time.Now().Add(o.d) }
func (offsetClock) AfterFunc(d time.Duration, f func()) Timer { return time.AfterFunc(d, f) }

// Fake is a clock that moves only when told to (Advance, Set). Its timers
// fire when the clock reaches them, each in its own goroutine, started in
// the order they are due. It is safe
// for concurrent use.
type Fake struct {
	mu     sync.Mutex
	now    time.Time
	timers []*fakeTimer
	// armed is closed and replaced whenever a timer is added, for Wait.
	armed chan struct{}
}

// NewFake returns a Fake clock showing t.
func NewFake(t time.Time) *Fake { return &Fake{now: t, armed: make(chan struct{})} }

// Now is the clock's time.
func (c *Fake) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// AfterFunc calls f once the clock has moved d past now.
func (c *Fake) AfterFunc(d time.Duration, f func()) Timer {
	c.mu.Lock()
	defer c.mu.Unlock()
	t := &fakeTimer{c: c, due: c.now.Add(d), f: f}
	if d <= 0 {
		t.fired = true
		go f()
		return t
	}
	c.timers = append(c.timers, t)
	close(c.armed)
	c.armed = make(chan struct{})
	return t
}

// Advance moves the clock d forward and fires the timers it reaches.
func (c *Fake) Advance(d time.Duration) {
	c.mu.Lock()
	c.setLocked(c.now.Add(d))
}

// Set moves the clock to t (never back: an earlier t leaves it where it
// is) and fires the timers it reaches.
func (c *Fake) Set(t time.Time) {
	c.mu.Lock()
	c.setLocked(t)
}

// setLocked moves the clock and fires the due timers, each in its own
// goroutine as time.AfterFunc does; it unlocks mu.
func (c *Fake) setLocked(t time.Time) {
	if t.After(c.now) {
		c.now = t
	}
	var due []*fakeTimer
	kept := c.timers[:0]
	for _, tm := range c.timers {
		if !tm.due.After(c.now) {
			tm.fired = true
			due = append(due, tm)
		} else {
			kept = append(kept, tm)
		}
	}
	clear(c.timers[len(kept):])
	c.timers = kept
	c.mu.Unlock()
	slices.SortStableFunc(due, func(x, y *fakeTimer) int { return x.due.Compare(y.due) })
	for _, tm := range due {
		go tm.f()
	}
}

// Timers is how many timers wait on the clock.
func (c *Fake) Timers() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.timers)
}

// Next is when the earliest waiting timer is due; false when none waits.
func (c *Fake) Next() (time.Time, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.timers) == 0 {
		return time.Time{}, false
	}
	next := c.timers[0].due
	for _, tm := range c.timers[1:] {
		if tm.due.Before(next) {
			next = tm.due
		}
	}
	return next, true
}

// Armed returns a channel closed the next time a timer is added: a test
// that must advance only once the code under test waits selects on it
// (with a deadline of its own).
func (c *Fake) Armed() <-chan struct{} {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.armed
}

type fakeTimer struct {
	c     *Fake
	due   time.Time
	f     func()
	fired bool // guarded by c.mu
}

func (t *fakeTimer) Stop() bool {
	t.c.mu.Lock()
	defer t.c.mu.Unlock()
	if t.fired {
		return false
	}
	for i, tm := range t.c.timers {
		if tm == t {
			t.c.timers = append(t.c.timers[:i], t.c.timers[i+1:]...)
			return true
		}
	}
	return false
}
