package sandbox

import (
	"crypto/sha256"
	"runtime"
	"time"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/apierr"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/billing"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/ids"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/model"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// Renewals: the billing engine (package billing) decides what of a
// subscription is due and when, and walks each account's due steps in
// time order; this file does each step to the sandbox's objects. Each
// step is whole: before it, the account must have room for the most it
// can keep (stepBytes), or the walk stops there, so that billing never
// takes an account past its limit. A walk commits its steps in chunks
// of at most chunkBytes, each step whole within one, so that no commit
// outgrows the data file's log and none holds the log long; a crash
// between chunks leaves every step of the written chunks done and
// stored, the rest not done: each period is invoiced once, under an id
// made from the subscription and the period.

// DunningEnds are the states a subscription can end dunning in
// (Options.DunningEnd); the first is the default.
var DunningEnds = wire.DunningEnds

// ledger is an account's subscriptions as the engine walks them, for
// one chunk of a walk at a time; the call is the walk's, its time moved
// to each step's.
type ledger struct {
	c *call
	// stop is the refusal of the step the walk stopped before, for want
	// of room; nil when it stopped because the chunk is full, or did not.
	stop *apierr.Error
	// steps and bound are the chunk's steps and the sum of their bounds;
	// done counts the walk's steps, and lastAt is the moment of its last.
	steps  int
	bound  int64
	done   int
	lastAt int64
	// first, when set, runs before the walk's first step.
	first func()
	// reserve is kept free besides each step's bound: a clock's own
	// events around its advance.
	reserve int64
	// yields is set for a walk that ends its chunks even when there is
	// nothing to commit (a renewal run lets the account's lock go between
	// them); a clock's advance, whose walk rebuilds its heap for each
	// chunk, goes in one when the store keeps no records.
	yields bool
}

func (l *ledger) State(s *model.Subscription) billing.State { return l.c.a.renewalState(s) }

// chunkBytes bounds a chunk of a walk by the sum of its steps' bounds
// (stepBytes): a commit of a MiB or so at most, far below what the data
// file's log takes in one commit, and short enough that the accounts
// whose commits share the log's next write wait for little. In
// BenchmarkAdvanceFairness with a data file, chunks of 4 MiB left the
// other account a 99th percentile of 104 ms during the advance, 2 MiB
// 86 to 112 ms, 1 MiB 20 to 80 ms (7 to 16 ms alone), for an advance a
// third slower; the worst single request, 0.2 to 0.9 s, follows the
// shared disk more than the chunks.
const chunkBytes = 1 << 20

// stepEvents bounds the events one due step makes: a renewal's invoice
// created and finalized, its payment, the invoice's outcome, the
// subscription's change, and when dunning ends the invoice marked
// uncollectible and the subscription's end.
const stepEvents = 8

// deliveryBytes bounds what one delivery queued for an event costs its
// account, pending and in the delivery log.
const deliveryBytes = 512

// stepBytes bounds what one due step of s can add to its account: its
// invoice and payment, a new day of the account's summary, and
// stepEvents events each of the largest object the step writes (the
// subscription, with its items' prices without their metadata, its
// invoice or its payment), each with a delivery to every endpoint.
func (c *call) stepBytes(s *model.Subscription) int64 {
	obj := max(s.SnapshotBytes(), model.InvoiceJSONBytes(len(s.Items)), model.PaymentJSONBytes)
	return model.RenewalObjectsBytes(s) + model.SummaryDayGrowth + stepEvents*(model.EventMemBytes(obj)+int64(len(c.a.wh.endpointOrder))*deliveryBytes)
}

// newChunk starts the next chunk of the walk.
func (l *ledger) newChunk() { l.stop, l.steps, l.bound = nil, 0, 0 }

// full reports whether the walk stopped because its chunk is full: it
// goes on once the chunk is committed.
func (l *ledger) full(stopped bool) bool { return stopped && l.stop == nil }

// Do does the step when the chunk and the account have room for it.
func (l *ledger) Do(s *model.Subscription, kind billing.Kind, at int64) bool {
	need := l.c.stepBytes(s) + l.reserve
	if l.steps > 0 && l.bound+need > chunkBytes && (l.yields || len(l.c.ops) > 0) {
		return false
	}
	if e := l.c.roomFor(need); e != nil {
		l.stop = e
		return false
	}
	if l.done == 0 && l.first != nil {
		l.first()
	}
	l.do(s, kind, at)
	l.steps++
	l.done++
	l.bound += need
	l.lastAt = at
	return true
}

// renewalState is s as the engine reads it.
func (a *account) renewalState(s *model.Subscription) billing.State {
	st := billing.State{Status: s.Status, Created: s.Created, PeriodEnd: s.PeriodEnd, TrialEnd: s.TrialEnd, TrialNoticeSent: s.TrialNoticeSent}
	if inv := a.bill.Invoices[s.LatestInvoice]; inv != nil && inv.Status == wire.InvoiceStatusOpen {
		st.NextAttempt = inv.NextAttempt
	}
	return st
}

// scheduleRenewals files every subscription on real time in the account's
// schedule afresh: after the account is read from the store, reset or
// read back. A test clock's subscriptions renew when their clock
// advances, and are never in it.
func (a *account) scheduleRenewals() {
	a.renewals.Reset()
	for _, s := range a.bill.SubOrder {
		if s.Clock.IsZero() {
			a.renewals.Set(s, s.Seq, a.renewalState(s))
		}
	}
}

func (l *ledger) do(s *model.Subscription, kind billing.Kind, at int64) {
	c := l.c
	c.unix, c.now, c.wall = at, time.Unix(at, 0), time.Time{}
	switch kind {
	case billing.Expire:
		c.voidFirstInvoice(s)
		c.setSubscriptionStatus(s, wire.SubscriptionStatusIncompleteExpired)
	case billing.TrialWillEnd:
		s.TrialNoticeSent = true
		c.putSubscription(s)
		c.emit(wire.EventSubscriptionTrialWillEnd, c.subscriptionScratch(s))
	case billing.Retry:
		inv := c.a.bill.Invoices[s.LatestInvoice]
		inv.NextAttempt = 0
		c.collect(inv, s, c.subscriptionSource(s))
		c.dun(inv, s)
	case billing.Renew:
		c.renew(s)
	}
}

// voidFirstInvoice voids the open first invoice of s, an incomplete
// subscription that expires or is canceled, as Stripe does. A payment of
// it still waiting for 3-D Secure ends declined, so that completing it
// later cannot charge for a void invoice.
func (c *call) voidFirstInvoice(s *model.Subscription) {
	inv := c.a.bill.Invoices[s.LatestInvoice]
	if inv == nil || inv.Status != wire.InvoiceStatusOpen {
		return
	}
	if p := c.a.payments[inv.Payment]; p != nil && p.Status == wire.PaymentStatusPending {
		p.Status = wire.PaymentStatusDeclined
		c.putPayment(p)
		c.emitPayment(p, c.paymentScratch(p))
	}
	inv.Status, inv.NextAttempt = wire.InvoiceStatusVoid, 0
	c.putInvoice(inv, s)
	c.emit(wire.EventInvoiceVoided, c.invoiceScratch(inv))
}

// renew ends s's period at its end: s ends there when it was to cancel
// at the period's end; else the next period starts and is invoiced and
// charged.
func (c *call) renew(s *model.Subscription) {
	if s.CancelAtPeriodEnd {
		c.endSubscription(s)
		return
	}
	s.Cycle++
	anchor := time.Unix(s.Anchor, 0).UTC()
	s.PeriodStart, s.PeriodEnd = s.PeriodEnd, s.Recurring().PeriodEnd(anchor, int(s.Cycle)).Unix()
	id := periodInvoiceID(s)
	if c.a.bill.Invoices[id] != nil {
		// Invoiced already: never twice.
		c.putSubscription(s)
		return
	}
	before := s.Status
	inv := c.newInvoiceAs(id, s, wire.BillingReasonSubscriptionCycle, false)
	c.collect(inv, s, c.subscriptionSource(s))
	c.dun(inv, s)
	c.putSubscription(s)
	if s.Status == before {
		// A new period is a change too; a new status announced it already.
		c.emit(wire.EventSubscriptionUpdated, c.subscriptionScratch(s))
	}
}

// periodInvoiceID is the id of the invoice of s's current period: the
// same for the same subscription and period, so that a period replayed
// after a crash finds its invoice rather than making a second.
func periodInvoiceID(s *model.Subscription) rid {
	// The hash of the id then the period's start, little-endian, on the
	// stack.
	var b [len(s.ID) + 8]byte
	n := copy(b[:], s.ID[:])
	for i := range 8 {
		b[n+i] = byte(s.PeriodStart >> (8 * i))
	}
	sum := sha256.Sum256(b[:])
	return ids.FromHash(sum[:])
}

// dun schedules the next attempt of a renewal's invoice that is still
// unpaid, or, when the retries have run out, marks it uncollectible and
// ends s in the dunning end state. A payment waiting for 3-D Secure is
// not retried: it leaves s past_due until it completes.
func (c *call) dun(inv *model.Invoice, s *model.Subscription) {
	if inv.Status != wire.InvoiceStatusOpen || inv.BillingReason != wire.BillingReasonSubscriptionCycle {
		return
	}
	if p := c.a.payments[inv.Payment]; p != nil && p.Status == wire.PaymentStatusPending {
		return
	}
	if at, ok := billing.RetryAt(c.unix, inv.Attempts); ok {
		inv.NextAttempt = at
		c.putInvoice(inv, s)
		return
	}
	inv.Status, inv.NextAttempt = wire.InvoiceStatusUncollectible, 0
	c.putInvoice(inv, s)
	c.emit(wire.EventInvoiceMarkedUncollectible, c.invoiceScratch(inv))
	if s == nil || s.LatestInvoice != inv.ID || s.Ended() {
		return
	}
	switch end := c.dunningEnd(); end {
	case wire.SubscriptionStatusCanceled:
		c.endSubscription(s)
	default:
		c.setSubscriptionStatus(s, end)
	}
}

// runRenewals does every renewal step due by now, each account in turn,
// and returns the moment of the next one (0 for none).
func (s *Server) runRenewals(now time.Time) (next int64) {
	s.mu.RLock()
	accounts := make([]*account, 0, len(s.accounts))
	for _, a := range s.accounts {
		accounts = append(accounts, a)
	}
	s.mu.RUnlock()
	for _, a := range accounts {
		if n := s.renewAccount(a, now); n != 0 && (next == 0 || n < next) {
			next = n
		}
	}
	return next
}

// renewalsWait is how often the renewals of a full account look for room
// again.
const renewalsWait = time.Minute

// renewAccount does a's due steps by now, in chunks (chunkBytes), each
// committed before the next, the account's lock let go between them so
// that its requests wait for one chunk at most. When a commit fails the
// account goes back to the file's state, and the steps not written run
// again at the next run; when the account or the sandbox has no room
// for the next step, the rest wait renewalsWait, then run in order, each
// at its own time, as after a restart. Renewals are not use: an idle
// account's clock of idleness does not move.
func (s *Server) renewAccount(a *account, now time.Time) (next int64) {
	a.mu.Lock()
	defer a.mu.Unlock()
	// The run's changes file its subscriptions again as they go; the
	// runner learns the next moment from the answer.
	a.renewing = true
	defer func() { a.renewing = false }()
	for {
		// An account removed as idle takes its renewals with it: the
		// sweep removes it holding its lock, so it is either still there
		// or gone.
		s.mu.RLock()
		current := s.accounts[a.hash] == a
		s.mu.RUnlock()
		due, ok := a.renewals.Next()
		if !current || !ok {
			return 0
		}
		if due > now.Unix() {
			return due
		}
		c := &call{s: s, a: a, now: now, unix: now.Unix()}
		l := &ledger{c: c, yields: true}
		_, next, stopped := a.renewals.Advance(l, now.Unix())
		if l.stop != nil {
			next = now.Add(renewalsWait).Unix()
		}
		if len(c.ops) > 0 {
			if err := s.store.Commit(a.hash, c.ops); err != nil {
				s.log.Error("writing renewals to the data file failed; they run again at the next run", "error", err)
				if rerr := s.rollback(c); rerr != nil {
					s.storeErr.CompareAndSwap(nil, &rerr)
				}
				return now.Add(time.Minute).Unix()
			}
		}
		if !l.full(stopped) {
			return next
		}
		// Let the account's requests in before the next chunk.
		a.mu.Unlock()
		runtime.Gosched()
		a.mu.Lock()
	}
}

// pokeRenewals files s's next due step after a change, and tells the
// runner of it unless a run is under way.
func (c *call) pokeRenewals(s *model.Subscription) {
	if !s.Clock.IsZero() {
		return
	}
	c.a.renewals.Set(s, s.Seq, c.a.renewalState(s))
	if c.s.renewals == nil || c.a.renewing {
		return
	}
	if at, ok := c.a.renewals.Next(); ok {
		c.s.renewals.Poke(at)
	}
}
