package sandbox

import (
	"strings"
	"time"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/apierr"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/billing"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/form"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// Test clocks (POST/GET /v1/test_helpers/test_clocks, GET/DELETE …/{id},
// POST …/{id}/advance): a frozen time for the customers put on one at
// their creation. Their subscriptions renew only when the clock advances:
// an advance runs, within its request, every step of the renewal engine
// due by the new time, in time order, each at its own time, so that the
// events come out in the clock's time order.

type testClock struct {
	id      rid
	seq     uint64 // creation order
	created int64
	name    string
	frozen  int64
	counted int64 // bytes charged to the account, see bounds.go
}

// clocks is an account's test clocks in creation order.
type clocks struct {
	byID  map[rid]*testClock
	order []*testClock
	seq   uint64
}

func (cl *clocks) add(k *testClock) {
	if cl.byID == nil {
		cl.byID = make(map[rid]*testClock)
	}
	cl.seq++
	k.seq = cl.seq
	cl.byID[k.id] = k
	cl.order = append(cl.order, k)
}

func (cl *clocks) remove(k *testClock) {
	delete(cl.byID, k.id)
	if i, found := bySeq(cl.order, k.seq, func(x *testClock) uint64 { return x.seq }); found {
		cl.order = append(cl.order[:i], cl.order[i+1:]...)
	}
}

// onClock moves the call's time to the frozen time of cu's clock, when
// it is on one: every object of such a customer takes its times from it.
func (c *call) onClock(cu rid) {
	if k := c.customerClock(cu); k != nil {
		c.unix, c.now = k.frozen, time.Unix(k.frozen, 0)
	}
}

// customerClock is the test clock of customer cu, or nil.
func (c *call) customerClock(cu rid) *testClock {
	if x := c.a.customers[cu]; x != nil && !x.clock.isZero() {
		return c.a.clocks.byID[x.clock]
	}
	return nil
}

// customerClockParam reads test_clock of a customer's create.
func (c *call) customerClockParam() (rid, *apierr.Error) {
	v, _ := c.f.Get(wire.ParamTestClock)
	if v == "" {
		return rid{}, nil
	}
	if r, ok := parseRID(v, wire.TestClockIDPrefix); ok && c.a.clocks.byID[r] != nil {
		return r, nil
	}
	return rid{}, apierr.MissingRef(wire.ParamTestClock, "test_clock %q is not a test clock of this account; create one with POST %s.", apierr.Clip(v), wire.PathTestClocks)
}

// frozenTime parses frozen_time, RFC 3339, to whole seconds.
func (c *call) frozenTime() (int64, bool, *apierr.Error) {
	v, ok := c.f.Get(wire.ParamFrozenTime)
	if !ok || v == "" {
		return 0, false, nil
	}
	t, err := time.Parse(time.RFC3339, v)
	if err != nil || t.Year() < 1971 || t.Year() > 9999 {
		return 0, true, apierr.Invalid(wire.ParamFrozenTime, "frozen_time %q is not an RFC 3339 time; use the form 2026-01-31T12:00:00Z.", apierr.Clip(v))
	}
	return t.Unix(), true, nil
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
		return errResponse(apierr.MissingParam(wire.ParamFrozenTime, "frozen_time is required: the clock's time to start from, as in 2026-01-31T12:00:00Z."))
	}
	k := &testClock{created: c.unix, frozen: frozen}
	if v, ok := c.f.Get(wire.ParamName); ok {
		if e := form.CheckName(v); e != nil {
			return errResponse(e)
		}
		k.name = strings.Clone(v)
	}
	k.id = newRID()
	for c.a.clocks.byID[k.id] != nil {
		k.id = newRID()
	}
	c.a.clocks.add(k)
	c.putTestClock(k)
	b := testClockJSON(nil, k, wire.TestClockStatusReady)
	c.emit(wire.EventTestClockCreated, b)
	return ok(b)
}

func (c *call) pathTestClock() (*testClock, *apierr.Error) {
	id := c.r.PathValue("id")
	if k := c.findTestClock(id); k != nil {
		return k, nil
	}
	return nil, apierr.NotFound("test clock", id)
}

func (c *call) findTestClock(id string) *testClock {
	if r, ok := parseRID(id, wire.TestClockIDPrefix); ok {
		return c.a.clocks.byID[r]
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
	return ok(testClockJSON(nil, k, wire.TestClockStatusReady))
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
	for _, cu := range append([]*customer(nil), c.a.customerOrder...) {
		if cu.clock == k.id {
			c.removeCustomer(cu)
		}
	}
	c.a.clocks.remove(k)
	c.a.charge(-k.counted)
	c.deleteTestClockRecord(k)
	b := deletedJSON(wire.TestClockIDPrefix, k.id, "test_helpers.test_clock")
	c.emit(wire.EventTestClockDeleted, b)
	return ok(b)
}

// clockLedger is the subscriptions of one clock's customers.
type clockLedger struct {
	ledger
	k *testClock
}

func (l clockLedger) All(yield func(*subscription) bool) {
	for _, s := range l.c.a.bill.subOrder {
		if s.clock == l.k.id && !s.ended() && !yield(s) {
			return
		}
	}
}

// advanceTestClock moves a clock forward and runs, before answering,
// every renewal, retry, trial end and expiry due in between, in time
// order. One advance crosses at most wire.TestClockAdvancePeriods periods
// of the shortest subscription on the clock.
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
		return errResponse(apierr.MissingParam(wire.ParamFrozenTime, "frozen_time is required: the clock's new time, after %s.", time.Unix(k.frozen, 0).UTC().Format(time.RFC3339)))
	}
	if to <= k.frozen {
		return errResponse(apierr.Invalid(wire.ParamFrozenTime, "frozen_time %s is not after the clock's time, %s; a test clock only moves forward.",
			time.Unix(to, 0).UTC().Format(time.RFC3339), time.Unix(k.frozen, 0).UTC().Format(time.RFC3339)))

	}
	from := time.Unix(k.frozen, 0).UTC()
	limit := int64(0)
	for _, s := range c.a.bill.subOrder {
		if s.clock == k.id && !s.ended() {
			if end := s.recurring().PeriodEnd(from, wire.TestClockAdvancePeriods).Unix(); limit == 0 || end < limit {
				limit = end
			}
		}
	}
	if limit != 0 && to > limit {
		return errResponse(apierr.Invalid(wire.ParamFrozenTime, "frozen_time %s is more than %d periods of the clock's shortest subscription ahead; advance to %s at most, then again.",
			time.Unix(to, 0).UTC().Format(time.RFC3339), wire.TestClockAdvancePeriods, time.Unix(limit, 0).UTC().Format(time.RFC3339)))

	}
	c.unix, c.now = k.frozen, from
	c.emit(wire.EventTestClockAdvancing, testClockJSON(nil, k, wire.TestClockStatusAdvancing))
	billing.Advance[*subscription](clockLedger{ledger{c}, k}, to)
	k.frozen = to
	c.unix, c.now = to, time.Unix(to, 0)
	c.putTestClock(k)
	b := testClockJSON(nil, k, wire.TestClockStatusReady)
	c.emit(wire.EventTestClockReady, b)
	return ok(b)
}

func (c *call) listTestClocks() response {
	if e := c.checkList(); e != nil {
		return errResponse(e)
	}
	l := listOf[*testClock]{
		url: wire.PathTestClocks, noun: "test clock",
		seq: func(k *testClock) uint64 { return k.seq },
		find: func(id string) (*testClock, bool) {
			k := c.findTestClock(id)
			return k, k != nil
		},
		every: func() []*testClock { return c.a.clocks.order },
		write: func(b []byte, k *testClock) []byte { return testClockJSON(b, k, wire.TestClockStatusReady) },
	}
	return l.serve(c, c.a.clocks.order, nil)
}

func testClockJSON(b []byte, k *testClock, status string) []byte {
	if b == nil {
		b = make([]byte, 0, 224+len(k.name))
	}
	b = append(b, `{"id":`...)
	b = appendID(b, wire.TestClockIDPrefix, k.id)
	b = append(b, `,"object":"test_helpers.test_clock","name":`...)
	b = appendOptString(b, k.name)
	b = append(b, `,"frozen_time":`...)
	b = appendTime(b, k.frozen)
	b = append(b, `,"status":`...)
	b = appendString(b, status)
	b = append(b, `,"created_at":`...)
	b = appendTime(b, k.created)
	return append(b, `,"livemode":false}`...)
}
