package sandbox

import (
	"bytes"
	"strings"
	"time"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/apierr"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/listing"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// Events record every change of customers, cards and payments, whether or
// not an endpoint asked for them, and feed the deliveries.

// maxEvents bounds an account's events besides wire.EventRetention, so that
// a benchmark's hundred thousand writes cannot hold as many events in
// memory; the oldest go first.
const maxEvents = 10_000

type Event struct {
	ID      rid
	Seq     uint64
	Type    string
	Created int64
	// At is the change's time, the body's created_at.
	At int64
	// Obj is the object's JSON, from which the body (the event as sent
	// and as answered) is written when it is read (JSON): most events
	// are never read, and their bodies cost a renewal five allocations
	// and copies. Events of one object alike in a row (an invoice
	// created and finalized at once) share it; it never changes once
	// made.
	Obj []byte
	// Body is the whole body of an event read from the data file; Obj is
	// then nil.
	Body    []byte
	Counted int64 // bytes charged to the account, see bounds.go
}

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
	ev := &Event{ID: newRID(), Seq: wh.seq, Type: typ, Created: max(c.unix, now.Unix()), At: c.unix}
	for wh.events[ev.ID] != nil {
		ev.ID = newRID()
	}
	if n := len(wh.eventOrder); n > 0 && bytes.Equal(wh.eventOrder[n-1].Obj, obj) {
		ev.Obj = wh.eventOrder[n-1].Obj
	} else {
		ev.Obj = bytes.Clone(obj) // obj may be the call's scratch
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

func (c *call) invoiceScratch(inv *Invoice) []byte {
	c.scratch = InvoiceJSON(c.scratch[:0], inv)
	return c.scratch
}

func (c *call) subscriptionScratch(s *Subscription) []byte {
	c.scratch = SubscriptionJSON(c.scratch[:0], s)
	return c.scratch
}

func (c *call) paymentScratch(p *Payment) []byte {
	c.scratch = paymentJSON(c.scratch[:0], p)
	return c.scratch
}

// emitPayment records the event of a payment entering its status.
func (c *call) emitPayment(p *Payment, body []byte) {
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

// JSON is the event's body: the same bytes at every read, so that a
// delivery's signature, a retrieve and a list agree.
func (ev *Event) JSON() []byte {
	if ev.Obj == nil {
		return ev.Body
	}
	return ev.AppendJSON(make([]byte, 0, eventHeadBytes+len(ev.Obj)))
}

// eventHeadBytes is about what an event's body holds besides its object.
const eventHeadBytes = 160

// AppendJSON writes the event's body.
func (ev *Event) AppendJSON(b []byte) []byte {
	if ev.Obj == nil {
		return append(b, ev.Body...)
	}
	b = append(b, `{"id":`...)
	b = appendID(b, wire.EventIDPrefix, ev.ID)
	b = append(b, `,"object":"event","type":`...)
	b = appendString(b, ev.Type)
	b = append(b, `,"created_at":`...)
	b = appendTime(b, ev.At)
	b = append(b, `,"livemode":false,"data":{"object":`...)
	b = append(b, ev.Obj...)
	return append(b, "}}"...)
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
func (c *call) expired(ev *Event) bool {
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
	l := listing.List[*Event]{
		URL: wire.PathEvents, Noun: "event",
		Seq: func(ev *Event) uint64 { return ev.Seq },
		Find: func(id string) (*Event, bool) {
			r, ok := parseRID(id, wire.EventIDPrefix)
			ev := c.a.wh.events[r]
			return ev, ok && ev != nil
		},
		Every: func() []*Event { return c.a.wh.eventOrder },
		Write: func(b []byte, ev *Event) []byte { return ev.AppendJSON(b) },
	}
	return serveList(c, &l, c.a.wh.eventOrder, func(ev *Event) bool { return (typ == "" || ev.Type == typ) && !c.expired(ev) })
}
