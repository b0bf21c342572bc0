package sandbox

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"slices"
	"strings"
	"time"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/apierr"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/form"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/listing"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/model"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// Events record every change of customers, cards, payments, products,
// prices, subscriptions, invoices and test clocks, whether or not an
// endpoint asked for them, and feed the deliveries.

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
	ev := wh.newEvent()
	// Not checked against the other events' ids, as a payment's is: that
	// would need the index (eventIndex) on every write, and two ids of 24
	// random alphanumerics (142 bits) alike take some 2^71 events.
	// Created is when the event was recorded, on the server's clock, which
	// its retention counts from; At, the body's created_at, is the
	// change's time, which for a customer on a test clock is the clock's
	// (testclocks.go), years ahead or behind.
	*ev = model.Event{ID: newRID(), Seq: wh.seq, Type: typ, Created: c.wallNow().Unix(), At: c.unix}
	switch n := len(wh.eventOrder); {
	case n > 0 && bytes.Equal(wh.eventOrder[n-1].Obj, obj):
		ev.Obj = wh.eventOrder[n-1].Obj
	case wh.objs.holds(obj):
		ev.Obj = wh.objs.keep(obj) // written in place by c.scratchFor
	default:
		ev.Obj = wh.objs.copy(obj, len(wh.eventOrder)) // obj may be the call's scratch
	}
	c.a.recount(&ev.Counted, ev.MemBytes())
	wh.eventBytes += ev.Counted
	wh.eventOrder = append(wh.eventOrder, ev)
	c.putEvent(ev)
	c.pruneEventsWhile(func() bool { return false })
	for _, ep := range wh.endpointOrder {
		if ep.Wants(typ) {
			c.addDelivery(ev.ID, ep.ID)
		}
	}
}

// eventObjects hands out copies of the events' objects from blocks that
// hold several, rather than one allocation each: that allocation was half
// of an event's cost, and a renewal makes four. Events go oldest first
// (pruneEventsWhile), so a block goes once its last event has gone, and the
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

// minTail is the room a block must have left for an object to be written
// into it in place (tail); less, and the object goes to the call's
// scratch and is copied, to a new block when it does not fit.
const minTail = 2 << 10

// tail is the free rest of the block, empty and of its capacity, for an
// object to be written into in place; nil when less than minTail is left.
// What is written there is the events' only once keep takes it: until
// then the next tail writes over it.
func (o *eventObjects) tail() []byte {
	if cap(o.block)-len(o.block) < minTail {
		return nil
	}
	return o.block[len(o.block):len(o.block)]
}

// holds reports whether obj was written into the block's tail, in place:
// it starts at the tail's start and did not outgrow it.
func (o *eventObjects) holds(obj []byte) bool {
	rest := o.block[len(o.block):cap(o.block)]
	return len(obj) > 0 && len(rest) > 0 && cap(obj) == len(rest) && &obj[0] == &rest[0]
}

// keep takes obj, which holds reports written into the tail, into the
// block, as copy would have; the next tail starts after it.
func (o *eventObjects) keep(obj []byte) []byte {
	n := len(o.block)
	o.block = o.block[:n+len(obj)]
	return o.block[n:len(o.block):len(o.block)]
}

// eventIndex finds an account's events by id. It is filed lazily, by
// the first lookup after events were made (webhookState.event): an
// account that nobody asks for its events by id (a clock's advance over
// a thousand subscriptions, a load test) spends no map operation on
// them, where the map's insert and delete were a fifth of a renewal.
// Its map is keyed by the id's first eight characters rather than all
// 24, an integer that hashes and compares in a few instructions; an
// event whose key another has goes to clash, empty but for ids that
// share eight random characters.
type eventIndex struct {
	byKey map[uint64]*model.Event
	clash map[rid]*model.Event
	// upTo is the seq of the newest event filed; later ones are not yet.
	upTo uint64
}

func eventKey(r rid) uint64 { return binary.LittleEndian.Uint64(r[:8]) }

// get returns the filed event of id r, or nil.
func (x *eventIndex) get(r rid) *model.Event {
	if ev := x.byKey[eventKey(r)]; ev != nil && ev.ID == r {
		return ev
	}
	return x.clash[r]
}

// add files ev; the maps are made on first use.
func (x *eventIndex) add(ev *model.Event) {
	k := eventKey(ev.ID)
	if x.byKey[k] == nil {
		if x.byKey == nil {
			x.byKey = make(map[uint64]*model.Event)
		}
		x.byKey[k] = ev
		return
	}
	if x.clash == nil {
		x.clash = make(map[rid]*model.Event)
	}
	x.clash[ev.ID] = ev
}

// remove forgets ev, which is filed: while no keys clash, with one map
// operation.
func (x *eventIndex) remove(ev *model.Event) {
	if k := eventKey(ev.ID); len(x.clash) == 0 || x.byKey[k] == ev {
		delete(x.byKey, k)
		return
	}
	delete(x.clash, ev.ID)
}

// event returns the account's event of id r, or nil, filing first the
// events made since the last lookup. The account is locked, for reading
// or writing: readers file under indexMu, one at a time, and writers
// hold the account's write lock, which keeps readers out.
func (w *webhookState) event(r rid) *model.Event {
	w.indexMu.Lock()
	defer w.indexMu.Unlock()
	x := &w.events
	if n := len(w.eventOrder); n > 0 && w.eventOrder[n-1].Seq > x.upTo {
		i, _ := slices.BinarySearchFunc(w.eventOrder, x.upTo+1, func(ev *model.Event, seq uint64) int { return cmp.Compare(ev.Seq, seq) })
		for _, ev := range w.eventOrder[i:] {
			x.add(ev)
		}
		x.upTo = w.eventOrder[n-1].Seq
	}
	return x.get(r)
}

// forgetEvent takes ev, which is going, out of the index if it was
// filed. The account is write-locked.
func (w *webhookState) forgetEvent(ev *model.Event) {
	if ev.Seq <= w.events.upTo {
		w.events.remove(ev)
	}
}

// newEvent returns room for an event from a slab of several, rather than
// one allocation each (a renewal makes five): a slab goes once its last
// event has gone, and since events go oldest first the slabs kept half
// empty are at most the newest and the oldest. A slab holds an eighth of
// the account's events, at most maxEventSlab, so that an account with
// few events keeps no large one.
func (w *webhookState) newEvent() *model.Event {
	if len(w.slab) == 0 {
		w.slab = make([]model.Event, min(len(w.eventOrder)/8+1, maxEventSlab))
	}
	ev := &w.slab[0]
	w.slab = w.slab[1:]
	return ev
}

// maxEventSlab bounds a slab of events.
const maxEventSlab = 64

// wallNow is the call's wall time (call.wall), read from the server's
// clock when it is not yet (a renewal step resets it): read once, since
// a renewal emits five events, and reading the clock cost as much as a
// map write each time.
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

//
// Better still, the object is written straight into the events' block
// when it has room (eventObjects.tail), and emit keeps it there without
// a copy; that copy was a twentieth of a renewal.

// scratchFor writes an object's JSON with write into the block's tail,
// or into the call's scratch buffer when the tail has too little room.
// The scratch keeps its growth; the tail is never kept as the scratch,
// whose next use would write over the events' objects.
func (c *call) scratchFor(write func([]byte) []byte) []byte {
	if t := c.a.wh.objs.tail(); t != nil {
		return write(t)
	}
	c.scratch = write(c.scratch[:0])
	return c.scratch
}

func (c *call) invoiceScratch(inv *model.Invoice) []byte {
	return c.scratchFor(func(b []byte) []byte { return model.InvoiceJSON(b, inv) })
}

func (c *call) subscriptionScratch(s *model.Subscription) []byte {
	return c.scratchFor(func(b []byte) []byte { return model.SubscriptionJSON(b, s) })
}

func (c *call) paymentScratch(p *model.Payment) []byte {
	return c.scratchFor(func(b []byte) []byte { return model.PaymentJSON(b, p) })
}

// emitPayment records the event of a payment entering its status.
func (c *call) emitPayment(p *model.Payment, body []byte) {
	c.emit(wire.PaymentStatusEvent(p.Status), body)
}

// pruneEventsWhile forgets events past the retention (on the server's
// clock, as Created is) or the count bound, and the oldest events while
// over reports true: the room a write needs under Limits (bounds.go).
func (c *call) pruneEventsWhile(over func() bool) {
	wh := &c.a.wh
	cutoff := c.wallNow().Add(-wire.EventRetention).Unix()
	n := 0
	for n < len(wh.eventOrder) && (wh.eventOrder[n].Created < cutoff || len(wh.eventOrder)-n > maxEvents || over()) {
		ev := wh.eventOrder[n]
		wh.forgetEvent(ev)
		c.a.charge(-ev.Counted)
		wh.eventBytes -= ev.Counted
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
		if ev := c.a.wh.event(r); ev != nil && !c.expired(ev) {
			return ok(ev.JSON())
		}
	}
	return errResponse(apierr.NotFound("event", id))
}

// expired reports whether an event is past the retention though not yet
// pruned (pruning happens on the next event).
func (c *call) expired(ev *model.Event) bool {
	return ev.Created < c.wallNow().Add(-wire.EventRetention).Unix()
}

// listEvents is GET /v1/events: newest first, of one type or every one,
// created in a range (form.CreatedRange) by the time the body's
// created_at says, a test clock's for the objects on one.
func (c *call) listEvents() response {
	if e := listing.Check(c.f, append(form.Created, wire.ParamType)...); e != nil {
		return errResponse(e)
	}
	typ, _ := c.f.Get(wire.ParamType)
	if typ != "" && !wire.IsEventType(typ) {
		return errResponse(apierr.Invalid(wire.ParamType, "type %q is not an event type; use one of %s.", apierr.Clip(typ), strings.Join(wire.EventTypes, ", ")))
	}
	from, to, e := form.CreatedRange(c.f)
	if e != nil {
		return errResponse(e)
	}
	l := listing.List[*model.Event]{
		URL: wire.PathEvents, Noun: "event",
		Seq: func(ev *model.Event) uint64 { return ev.Seq },
		Find: func(id string) (*model.Event, bool) {
			r, ok := parseRID(id, wire.EventIDPrefix)
			ev := c.a.wh.event(r)
			return ev, ok && ev != nil
		},
		Every: func() []*model.Event { return c.a.wh.eventOrder },
		Write: func(b []byte, ev *model.Event) []byte { return ev.AppendJSON(b) },
	}
	return serveList(c, &l, c.a.wh.eventOrder, func(ev *model.Event) bool {
		return (typ == "" || ev.Type == typ) && ev.At >= from && ev.At <= to && !c.expired(ev)
	})
}
