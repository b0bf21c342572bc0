package sandbox

import (
	"bytes"
	"strings"
	"time"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/apierr"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/listing"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/model"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// Events record every change of customers, cards and payments, whether or
// not an endpoint asked for them, and feed the deliveries.

// maxEvents bounds an account's events besides wire.EventRetention, so that
// a benchmark's hundred thousand writes cannot hold as many events in
// memory; the oldest go first.
const maxEvents = 10_000

// emit records an event of type typ about obj (the object's JSON right
// after the change) and schedules its deliveries. It runs inside the
// request, under the account's lock; the deliveries run after, elsewhere.
func (c *call) emit(typ string, obj []byte) {
	wh := &c.a.wh
	wh.ensure()
	wh.seq++
	// created is when the event was recorded, which its retention counts
	// from; the body's created_at is the change's time, which for a
	// customer on a test clock is the clock's (testclocks.go).
	now := c.wallNow()
	ev := &model.Event{ID: newRID(), Seq: wh.seq, Type: typ, Created: max(c.unix, now.Unix()), At: c.unix}
	for wh.events[ev.ID] != nil {
		ev.ID = newRID()
	}
	if n := len(wh.eventOrder); n > 0 && bytes.Equal(wh.eventOrder[n-1].Obj, obj) {
		ev.Obj = wh.eventOrder[n-1].Obj
	} else {
		ev.Obj = wh.objs.copy(obj, len(wh.eventOrder)) // obj may be the call's scratch
	}
	c.a.recount(&ev.Counted, ev.MemBytes())
	wh.events[ev.ID] = ev
	wh.eventOrder = append(wh.eventOrder, ev)
	c.putEvent(ev)
	c.pruneEventsAt(now, func() bool { return false })
	for _, ep := range wh.endpointOrder {
		if ep.Wants(typ) {
			c.addDelivery(ev.ID, ep.ID)
		}
	}
}

// eventObjects hands out copies of the events' objects from blocks that
// hold several, rather than one allocation each: that allocation was half
// of an event's cost, and a renewal makes four. Events go oldest first
// (pruneEventsAt), so a block goes once its last event has gone, and the
// blocks that hold events less than they could are at most the one being
// filled and the oldest, partly gone: each at most an eighth of the
// events' objects, and an event is charged a quarter more than its
// object for them (model.Event.MemBytes).
type eventObjects struct{ block []byte }

// maxEventBlock bounds a block of events' objects.
const maxEventBlock = 16 << 10

// copy returns a copy of obj, of its length and capacity, for an account
// that keeps events events.
func (o *eventObjects) copy(obj []byte, events int) []byte {
	if cap(o.block)-len(o.block) < len(obj) {
		size := min(events*len(obj)/8, maxEventBlock)
		o.block = make([]byte, 0, max(size, len(obj)))
	}
	n := len(o.block)
	o.block = append(o.block, obj...)
	return o.block[n:len(o.block):len(o.block)]
}

// wallNow is the server's time for the call's events and their pruning,
// read once a call (or a renewal step, which resets it): a renewal
// emits five events, and reading the clock cost as much as a map write
// each time.
func (c *call) wallNow() time.Time {
	if c.wall.IsZero() {
		c.wall = c.s.now()
	}
	return c.wall
}

// The objects' JSON that only an event copies (emit keeps none of obj) is
// written into the call's scratch buffer rather than a new one each: a
// renewal emits five events, and each object's own buffer was as much
// garbage as its event. A scratch slice is valid until the next one.

func (c *call) invoiceScratch(inv *model.Invoice) []byte {
	c.scratch = model.InvoiceJSON(c.scratch[:0], inv)
	return c.scratch
}

func (c *call) subscriptionScratch(s *model.Subscription) []byte {
	c.scratch = model.SubscriptionJSON(c.scratch[:0], s)
	return c.scratch
}

func (c *call) paymentScratch(p *model.Payment) []byte {
	c.scratch = model.PaymentJSON(c.scratch[:0], p)
	return c.scratch
}

// emitPayment records the event of a payment entering its status.
func (c *call) emitPayment(p *model.Payment, body []byte) {
	c.emit(wire.PaymentStatusEvent(p.Status), body)
}

// pruneEventsWhile forgets events past the retention or the count bound,
// and the oldest events while over reports true: the room a write needs
// under Limits (bounds.go). emit prunes at its own reading of the clock.
func (c *call) pruneEventsWhile(over func() bool) {
	// The server's clock, not the call's: a test clock's time is not when
	// events were recorded.
	c.pruneEventsAt(c.s.now(), over)
}

// pruneEventsAt is pruneEventsWhile at now, the server's time.
func (c *call) pruneEventsAt(now time.Time, over func() bool) {
	wh := &c.a.wh
	cutoff := now.Add(-wire.EventRetention).Unix()
	n := 0
	for n < len(wh.eventOrder) && (wh.eventOrder[n].Created < cutoff || len(wh.eventOrder)-n > maxEvents || over()) {
		ev := wh.eventOrder[n]
		delete(wh.events, ev.ID)
		c.a.charge(-ev.Counted)
		c.deleteEventRecord(ev)
		n++
	}
	if n > 0 {
		// Reslice rather than move the rest down: at the count bound every
		// new event drops one, and moving 10,000 pointers each time cost
		// more than the event. Appends reallocate the array in time,
		// copying only the events kept; the dropped slots are cleared so
		// that their events can be collected meanwhile.
		clear(wh.eventOrder[:n])
		wh.eventOrder = wh.eventOrder[n:]
	}
}

func (c *call) retrieveEvent() response {
	if e := c.f.Check(); e != nil {
		return errResponse(e)
	}
	id := c.r.PathValue("id")
	if r, valid := parseRID(id, wire.EventIDPrefix); valid {
		if ev := c.a.wh.events[r]; ev != nil && !c.expired(ev) {
			return ok(ev.JSON())
		}
	}
	return errResponse(apierr.NotFound("event", id))
}

// expired reports whether an event is past the retention though not yet
// pruned (pruning happens on the next event).
func (c *call) expired(ev *model.Event) bool {
	return ev.Created < c.s.now().Add(-wire.EventRetention).Unix()
}

func (c *call) listEvents() response {
	if e := listing.Check(c.f, wire.ParamType); e != nil {
		return errResponse(e)
	}
	typ, _ := c.f.Get(wire.ParamType)
	if typ != "" && !wire.IsEventType(typ) {
		return errResponse(apierr.Invalid(wire.ParamType, "type %q is not an event type; use one of %s.", apierr.Clip(typ), strings.Join(wire.EventTypes, ", ")))
	}
	l := listing.List[*model.Event]{
		URL: wire.PathEvents, Noun: "event",
		Seq: func(ev *model.Event) uint64 { return ev.Seq },
		Find: func(id string) (*model.Event, bool) {
			r, ok := parseRID(id, wire.EventIDPrefix)
			ev := c.a.wh.events[r]
			return ev, ok && ev != nil
		},
		Every: func() []*model.Event { return c.a.wh.eventOrder },
		Write: func(b []byte, ev *model.Event) []byte { return ev.AppendJSON(b) },
	}
	return serveList(c, &l, c.a.wh.eventOrder, func(ev *model.Event) bool { return (typ == "" || ev.Type == typ) && !c.expired(ev) })
}
