// Package billing is the sandbox's renewal engine: what of a subscription
// is due and when (a period's end, a retry of its unpaid invoice, the
// expiry of an incomplete one, the notice before a trial ends), the fixed
// retry schedule of dunning, and the walk that does every due step of an
// account in time order, up to a moment. It knows nothing of HTTP, of the
// sandbox's objects or of the store: it reads a subscription as a State
// and acts through the Ledger the sandbox implements, and it waits on
// internal/sandbox/clock.
package billing

import (
	"sync"
	"time"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/clock"
)

// Kind is a kind of due step.
type Kind uint8

// The kinds of due steps, in the order they go when due at one moment.
const (
	// Retry charges an unpaid invoice again.
	Retry Kind = iota + 1
	// Expire ends an incomplete subscription whose first invoice went
	// unpaid for IncompleteExpiry.
	Expire
	// TrialWillEnd tells that a trial ends in TrialNotice.
	TrialWillEnd
	// Renew ends the current period: the subscription ends there
	// (cancel_at_period_end) or the next period is invoiced and charged.
	Renew
)

// The fixed times of the engine.
const (
	// IncompleteExpiry is how long an incomplete subscription waits for
	// its first payment.
	IncompleteExpiry = 23 * time.Hour
	// TrialNotice is how long before a trial's end it is told.
	TrialNotice = 3 * 24 * time.Hour
)

// RetryDays are the days after an invoice's previous failed attempt that
// it is charged again; after the last retry fails, dunning ends.
var RetryDays = []int{3, 5, 7}

// RetryAt is when an invoice whose attempts (1 or more) have failed, the
// latest at last, is charged again; ok is false when the retries have run
// out.
func RetryAt(last int64, attempts int64) (at int64, ok bool) {
	if attempts < 1 || attempts > int64(len(RetryDays)) {
		return 0, false
	}
	return last + int64(RetryDays[attempts-1])*24*3600, true
}

// RetrySpan is how long after a renewal's first failed attempt its
// retries may run, in seconds: every RetryDays, each retry declined at
// once.
func RetrySpan() int64 {
	var days int
	for _, d := range RetryDays {
		days += d
	}
	return int64(days) * 24 * 3600
}

// Statuses the engine reads; they are the wire's subscription statuses.
const (
	StatusIncomplete = "incomplete"
	StatusTrialing   = "trialing"
	StatusActive     = "active"
	StatusPastDue    = "past_due"
	StatusUnpaid     = "unpaid"
	StatusCanceled   = "canceled"
)

// State is what the engine reads of a subscription, times in unix seconds.
type State struct {
	Status    string
	Created   int64
	PeriodEnd int64
	TrialEnd  int64 // 0 without a trial
	// TrialNoticeSent is set once TrialWillEnd was done.
	TrialNoticeSent bool
	// NextAttempt is when the latest invoice is charged again, 0 for
	// never.
	NextAttempt int64
}

// Due is the earliest step of a subscription in state s and its moment;
// ok is false when nothing is ever due (it has ended, or waits for a
// payment to complete).
func Due(s State) (kind Kind, at int64, ok bool) {
	consider := func(k Kind, t int64) {
		if !ok || t < at || (t == at && k < kind) {
			kind, at, ok = k, t, true
		}
	}
	switch s.Status {
	case StatusIncomplete:
		consider(Expire, s.Created+int64(IncompleteExpiry/time.Second))
		return kind, at, ok
	case StatusTrialing, StatusActive, StatusPastDue:
	default:
		// Unpaid subscriptions stop renewing until they are paid;
		// ended ones never renew.
		return 0, 0, false
	}
	if s.NextAttempt > 0 {
		consider(Retry, s.NextAttempt)
	}
	if s.Status == StatusTrialing && !s.TrialNoticeSent && s.TrialEnd-int64(TrialNotice/time.Second) > s.Created {
		consider(TrialWillEnd, s.TrialEnd-int64(TrialNotice/time.Second))
	}
	consider(Renew, s.PeriodEnd)
	return kind, at, ok
}

// Steps reads and moves one account's subscriptions, with the account
// locked. IDs are the sandbox's own.
type Steps[ID comparable] interface {
	// State reads one.
	State(id ID) State
	// Do does step kind of id at moment at, with at as the time of
	// whatever it makes, and reports whether it did: false, having
	// changed nothing, stops the walk before the step (the account has
	// no room for it), so that a walk ends between whole steps.
	Do(id ID, kind Kind, at int64) bool
}

// Ledger is one account's subscriptions as Advance walks them.
type Ledger[ID comparable] interface {
	Steps[ID]
	// All yields every subscription that may have something due.
	All(yield func(ID) bool)
}

// Advance does every step of l due at or before until, the earliest
// first (ties in Kind order, then as All yields them), and returns how
// many it did and the moment of the next step after until (0 when none).
// A step may make another due (a renewal's failed charge schedules a
// retry); it is done in its turn if due by until. A Schedule does the
// same steps in the same order when its orders follow All's. When Do
// refuses a step the walk stops there: stopped is true and next is that
// step's moment, every step before it done and none after.
func Advance[ID comparable](l Ledger[ID], until int64) (steps int, next int64, stopped bool) {
	var q queue[ID]
	push := func(id ID, order uint64) {
		if k, at, ok := Due(l.State(id)); ok {
			q.push(item[ID]{id: id, kind: k, at: at, order: order})
		}
	}
	order := uint64(0)
	for id := range l.All {
		order++
		push(id, order)
	}
	for len(q) > 0 {
		it := q[0]
		if it.at > until {
			return steps, it.at, false
		}
		if !l.Do(it.id, it.kind, it.at) {
			return steps, it.at, true
		}
		q.pop()
		steps++
		push(it.id, it.order)
	}
	return steps, 0, false
}

type item[ID comparable] struct {
	id    ID
	kind  Kind
	at    int64
	order uint64
}

// queue is a binary min-heap of items by less. It is not a container/heap:
// that boxes every item pushed and popped, two allocations a step.
type queue[ID comparable] []item[ID]

func (a item[ID]) less(b item[ID]) bool {
	if a.at != b.at {
		return a.at < b.at
	}
	if a.kind != b.kind {
		return a.kind < b.kind
	}
	return a.order < b.order
}

func (q *queue[ID]) push(it item[ID]) {
	*q = append(*q, it)
	h := *q
	for i := len(h) - 1; i > 0; {
		p := (i - 1) / 2
		if !h[i].less(h[p]) {
			break
		}
		h[i], h[p] = h[p], h[i]
		i = p
	}
}

// pop removes the least item.
func (q *queue[ID]) pop() {
	h := *q
	n := len(h) - 1
	h[0] = h[n]
	h = h[:n]
	*q = h
	for i := 0; ; {
		least, l, r := i, 2*i+1, 2*i+2
		if l < n && h[l].less(h[least]) {
			least = l
		}
		if r < n && h[r].less(h[least]) {
			least = r
		}
		if least == i {
			return
		}
		h[i], h[least] = h[least], h[i]
		i = least
	}
}

// Runner runs renewals on a clock: at the earliest moment something is
// due anywhere, it calls run, which does all that is due by now and
// returns the next moment (0 for none). Poke tells it of a moment that
// may be earlier than the one it waits for.
type Runner struct {
	clock clock.Clock
	run   func(now time.Time) (next int64)

	mu      sync.Mutex
	timer   clock.Timer
	next    int64 // the moment timer waits for; 0 when none
	stopped bool
}

// NewRunner returns a stopped runner; Start runs it.
func NewRunner(c clock.Clock, run func(now time.Time) (next int64)) *Runner {
	return &Runner{clock: c, run: run}
}

// Start does what is due now (periods that ended while the sandbox was
// stopped, in time order) and waits for the next.
func (r *Runner) Start() { r.fire() }

// Poke makes the runner wake at at, unless it wakes earlier already.
func (r *Runner) Poke(at int64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.stopped || (r.next != 0 && r.next <= at) {
		return
	}
	r.arm(at)
}

// arm sets the timer for at; r.mu is held.
func (r *Runner) arm(at int64) {
	if r.timer != nil {
		r.timer.Stop()
	}
	r.next = at
	d := time.Unix(at, 0).Sub(r.clock.Now())
	r.timer = r.clock.AfterFunc(max(d, 0), r.fire)
}

func (r *Runner) fire() {
	r.mu.Lock()
	if r.stopped {
		r.mu.Unlock()
		return
	}
	r.next = 0
	r.mu.Unlock()
	next := r.run(r.clock.Now())
	if next != 0 {
		r.Poke(next)
	}
}

// Stop stops the runner; a run under way finishes.
func (r *Runner) Stop() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.stopped = true
	if r.timer != nil {
		r.timer.Stop()
	}
}
