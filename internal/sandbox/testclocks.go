package sandbox

import (
	"strings"
	"time"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/apierr"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/billing"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/form"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/listing"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/model"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// Test clocks (POST/GET /v1/test_helpers/test_clocks, GET/DELETE …/{id},
// POST …/{id}/advance): a frozen time for the customers put on one at
// their creation. Their subscriptions renew only when the clock advances:
// an advance runs, within its request, every step of the renewal engine
// due by the new time, in time order, each at its own time, so that the
// events come out in the clock's time order.

// onClock moves the call's time to the frozen time of cu's clock, when
// it is on one: every object of such a customer takes its times from it.
func (c *call) onClock(cu rid) {
	if k := c.customerClock(cu); k != nil {
		c.unix, c.now = k.Frozen, time.Unix(k.Frozen, 0)
	}
}

// customerClock is the test clock of customer cu, or nil.
func (c *call) customerClock(cu rid) *model.TestClock {
	if x := c.a.customers[cu]; x != nil && !x.Clock.IsZero() {
		return c.a.clocks.ByID[x.Clock]
	}
	return nil
}

// customerClockParam reads test_clock of a customer's create.
func (c *call) customerClockParam() (rid, *apierr.Error) {
	v, _ := c.f.Get(wire.ParamTestClock)
	if v == "" {
		return rid{}, nil
	}
	if r, ok := parseRID(v, wire.TestClockIDPrefix); ok && c.a.clocks.ByID[r] != nil {
		return r, nil
	}
	return rid{}, apierr.MissingRef(wire.ParamTestClock, "test_clock %q is not a test clock of this account; create one with POST %s.", apierr.Clip(v), wire.PathTestClocks)
}

// frozenTime parses frozen_time, Unix seconds or RFC 3339 (form.ParseTime)
// from wire.TestClockMinUnix to wire.MaxTime, to whole seconds.
func (c *call) frozenTime() (int64, bool, *apierr.Error) {
	v, ok := c.f.Get(wire.ParamFrozenTime)
	if !ok || v == "" {
		return 0, false, nil
	}
	t, e := form.ParseTime(wire.ParamFrozenTime, v, wire.TestClockMinUnix, wire.MaxTimeUnix)
	return t.Unix(), true, e
}

func (c *call) createTestClock() response {
	if e := c.f.Check(wire.ParamFrozenTime, wire.ParamName); e != nil {
		return errResponse(e)
	}
	frozen, given, e := c.frozenTime()
	if e != nil {
		return errResponse(e)
	}
	if !given {
		return errResponse(apierr.MissingParam(wire.ParamFrozenTime, "frozen_time is required: the clock's time to start from, as in 2026-01-31T12:00:00Z or 1769860800."))
	}
	k := &model.TestClock{Created: c.unix, Frozen: frozen}
	if v, ok := c.f.Get(wire.ParamName); ok {
		if e := form.CheckName(v); e != nil {
			return errResponse(e)
		}
		k.Name = strings.Clone(v)
	}
	k.ID = newRID()
	for c.a.clocks.ByID[k.ID] != nil {
		k.ID = newRID()
	}
	c.a.clocks.Add(k)
	c.putTestClock(k)
	b := model.TestClockJSON(nil, k, wire.TestClockStatusReady)
	c.emit(wire.EventTestClockCreated, b)
	return ok(b)
}

func (c *call) pathTestClock() (*model.TestClock, *apierr.Error) {
	id := c.r.PathValue("id")
	if k := c.findTestClock(id); k != nil {
		return k, nil
	}
	return nil, apierr.NotFound("test clock", id)
}

func (c *call) findTestClock(id string) *model.TestClock {
	if r, ok := parseRID(id, wire.TestClockIDPrefix); ok {
		return c.a.clocks.ByID[r]
	}
	return nil
}

func (c *call) retrieveTestClock() response {
	if e := c.f.Check(); e != nil {
		return errResponse(e)
	}
	k, e := c.pathTestClock()
	if e != nil {
		return errResponse(e)
	}
	return ok(model.TestClockJSON(nil, k, wire.TestClockStatusReady))
}

// deleteTestClock deletes the clock and the customers on it; their
// subscriptions end with them.
func (c *call) deleteTestClock() response {
	if e := c.f.Check(); e != nil {
		return errResponse(e)
	}
	k, e := c.pathTestClock()
	if e != nil {
		return errResponse(e)
	}
	for _, cu := range append([]*model.Customer(nil), c.a.customerOrder...) {
		if cu.Clock == k.ID {
			c.removeCustomer(cu)
		}
	}
	c.a.clocks.Remove(k)
	c.a.charge(-k.Counted)
	c.deleteTestClockRecord(k)
	b := deletedJSON(wire.TestClockIDPrefix, k.ID, "test_helpers.test_clock")
	c.emit(wire.EventTestClockDeleted, b)
	return ok(b)
}

// clockLedger is the subscriptions of one clock's customers.
type clockLedger struct {
	*ledger
	k *model.TestClock
}

func (l clockLedger) All(yield func(*model.Subscription) bool) {
	for _, s := range l.c.a.bill.SubOrder {
		if s.Clock == l.k.ID && !s.Ended() && !yield(s) {
			return
		}
	}
}

// advanceTestClock moves a clock forward and runs, before answering,
// every renewal, retry, trial end and expiry due in between, in time
// order. One advance crosses at most wire.TestClockAdvancePeriods periods
// of the shortest subscription on the clock.
//
// Its steps are committed in chunks (renewals.go), the clock put at the
// moment each reached, marked interrupted, so that a crash between two
// leaves a clock that the next advance moves on from. When the account or
// the sandbox has no room for the next step, the advance stops there: the
// clock stays at the moment of its last step, its status_details saying
// how far it was to go and why; with no step done at all, it is refused
// whole, 403, and changes nothing. The answer, and the one an
// Idempotency-Key keeps, is the clock as the advance left it.
func (c *call) advanceTestClock() response {
	if e := c.f.Check(wire.ParamFrozenTime); e != nil {
		return errResponse(e)
	}
	k, e := c.pathTestClock()
	if e != nil {
		return errResponse(e)
	}
	to, given, e := c.frozenTime()
	if e != nil {
		return errResponse(e)
	}
	if !given {
		return errResponse(apierr.MissingParam(wire.ParamFrozenTime, "frozen_time is required: the clock's new time, after %s.", time.Unix(k.Frozen, 0).UTC().Format(time.RFC3339)))
	}
	if e := refused(k.CheckAdvance(to, c.a.bill.SubOrder, billing.RetrySpan())); e != nil {
		return errResponse(e)
	}
	from := k.Frozen
	advancing := func() {
		c.unix, c.now = from, time.Unix(from, 0).UTC()
		k.StopTarget, k.StopCode = 0, ""
		c.emit(wire.EventTestClockAdvancing, model.TestClockJSON(nil, k, wire.TestClockStatusAdvancing))
	}
	// Room for the advancing and ready events, besides each step's.
	reserve := 2 * model.EventMemBytes(int64(len(model.TestClockJSON(nil, k, wire.TestClockStatusAdvancing)))+512)
	l := &ledger{c: c, first: advancing, reserve: reserve}
	for {
		l.newChunk()
		_, _, stopped := billing.Advance[*model.Subscription](clockLedger{l, k}, to)
		if !l.full(stopped) {
			break
		}
		k.Frozen, k.StopTarget, k.StopCode = max(from, l.lastAt), to, wire.TestClockStopInterrupted
		if e := c.commitPart(func() { c.putTestClock(k) }); e != nil {
			return errResponse(e)
		}
	}
	switch {
	case l.stop != nil && l.done == 0:
		return errResponse(l.stop)
	case l.done == 0:
		if e := c.roomFor(reserve); e != nil {
			return errResponse(e)
		}
		advancing()
	}
	k.Frozen, k.StopTarget, k.StopCode = to, 0, ""
	if l.stop != nil {
		k.Frozen, k.StopTarget, k.StopCode = max(from, l.lastAt), to, l.stop.Code
	}
	c.unix, c.now = k.Frozen, time.Unix(k.Frozen, 0)
	c.putTestClock(k)
	b := model.TestClockJSON(nil, k, wire.TestClockStatusReady)
	c.emit(wire.EventTestClockReady, b)
	return ok(b)
}

func (c *call) listTestClocks() response {
	if e := listing.Check(c.f); e != nil {
		return errResponse(e)
	}
	l := listing.List[*model.TestClock]{
		URL: wire.PathTestClocks, Noun: "test clock",
		Seq: func(k *model.TestClock) uint64 { return k.Seq },
		Find: func(id string) (*model.TestClock, bool) {
			k := c.findTestClock(id)
			return k, k != nil
		},
		Every: func() []*model.TestClock { return c.a.clocks.Order },
		Write: func(b []byte, k *model.TestClock) []byte { return model.TestClockJSON(b, k, wire.TestClockStatusReady) },
	}
	return serveList(c, &l, c.a.clocks.Order, nil)
}
