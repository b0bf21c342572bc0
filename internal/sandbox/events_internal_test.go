package sandbox

import (
	"bytes"
	"crypto/sha256"
	"testing"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/model"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// BenchmarkEmit records events of a 900-byte object into an account that
// keeps maxEvents of them: the cost a renewal pays five times and a
// payment create once.
//
//	go test -run '^$' -bench BenchmarkEmit -benchtime 300000x -count 5 ./internal/sandbox/
func BenchmarkEmit(b *testing.B) {
	s, err := New(Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	a, e := s.accountFor(sha256.Sum256([]byte(wire.SecretKeySandboxPrefix + "emit0001")))
	if e != nil {
		b.Fatal(e)
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	c := &call{s: s, a: a, now: s.now(), unix: s.now().Unix()}
	// Two objects in turn, so that no event shares its neighbour's.
	objs := [][]byte{bytes.Repeat([]byte("a"), 900), bytes.Repeat([]byte("b"), 901)}
	for i := range maxEvents {
		c.emit(wire.EventInvoicePaid, objs[i%2])
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		c.emit(wire.EventInvoicePaid, objs[i%2])
	}
}

// TestEventObjects_Copy: a copy is obj's bytes at obj's length and
// capacity, so that nothing appended to one reaches the next; blocks
// hold one object while an account has few events, and up to
// maxEventBlock once it has many.
func TestEventObjects_Copy(t *testing.T) {
	t.Parallel()
	obj := bytes.Repeat([]byte("x"), 1000)
	for _, tc := range []struct {
		name   string
		events int
		block  int // the capacity of the block a first copy makes
	}{
		{"no events yet: the object alone", 0, 1000},
		{"eight events: still the object alone", 8, 1000},
		{"eighty events: an eighth of their bytes", 80, 10_000},
		{"ten thousand: the bound", 10_000, maxEventBlock},
	} {
		var o eventObjects
		first := o.copy(obj, tc.events)
		if cap(o.block) != tc.block {
			t.Errorf("%s: block of %d bytes, want %d", tc.name, cap(o.block), tc.block)
		}
		second := o.copy(obj[:999], tc.events)
		if !bytes.Equal(first, obj) || len(first) != cap(first) || !bytes.Equal(second, obj[:999]) || len(second) != cap(second) {
			t.Fatalf("%s: copies of %d and %d bytes, capacities %d and %d", tc.name, len(first), len(second), cap(first), cap(second))
		}
		_ = append(first, 'y') // must not write into second
		if second[0] != 'x' {
			t.Errorf("%s: appending to one copy changed the next", tc.name)
		}
		if shared := cap(o.block) >= 2000; shared != (tc.block >= 1999) {
			t.Errorf("%s: the second copy shared the block: %v", tc.name, shared)
		}
	}
}

// TestEventIndex_WholeID: events are found by their whole id, not by the eight
// characters the map is keyed by, whether made before or after the
// last lookup (the index is filed lazily); an event whose key another
// has is found too, and an event gone is not, filed or not.
func TestEventIndex_WholeID(t *testing.T) {
	t.Parallel()
	id := func(s string) rid {
		var r rid
		copy(r[:], s)
		return r
	}
	ev := func(seq uint64, s string) *model.Event { return &model.Event{ID: id(s), Seq: seq} }
	a := ev(1, "AAAAAAAA0000000000000001")
	b := ev(2, "AAAAAAAA0000000000000002") // a's key
	c := ev(4, "BBBBBBBB0000000000000001")
	d := ev(7, "CCCCCCCC0000000000000001")
	other := id("AAAAAAAA0000000000000003")
	for _, tc := range []struct {
		name string
		// made, then looked up (filing them), then made, then the oldest
		// prune go
		before, after []*model.Event
		prune         int
		found         []*model.Event
		missing       []rid
	}{
		{"empty", nil, nil, 0, nil, []rid{a.ID}},
		{"none filed yet", nil, []*model.Event{a, c}, 0, []*model.Event{a, c}, []rid{b.ID, other}},
		{"all filed", []*model.Event{a, b, c}, nil, 0, []*model.Event{a, b, c}, []rid{other, d.ID}},
		{"filed and not", []*model.Event{a, b}, []*model.Event{c, d}, 0, []*model.Event{a, b, c, d}, []rid{other}},
		{"the first of a shared key gone", []*model.Event{a, b, c}, nil, 1, []*model.Event{b, c}, []rid{a.ID}},
		{"both of a shared key gone", []*model.Event{a, b, c}, []*model.Event{d}, 2, []*model.Event{c, d}, []rid{a.ID, b.ID}},
		{"filed and unfiled gone", []*model.Event{a, c}, []*model.Event{d}, 3, nil, []rid{a.ID, c.ID, d.ID}},
		{"unfiled gone", nil, []*model.Event{a, b, c}, 2, []*model.Event{c}, []rid{a.ID, b.ID}},
	} {
		var w webhookState
		w.eventOrder = append(w.eventOrder, tc.before...)
		w.event(other)
		w.eventOrder = append(w.eventOrder, tc.after...)
		for _, ev := range w.eventOrder[:tc.prune] {
			w.forgetEvent(ev)
		}
		w.eventOrder = w.eventOrder[tc.prune:]
		for _, ev := range tc.found {
			if got := w.event(ev.ID); got != ev {
				t.Errorf("%s: event(%s) = %v, want its event", tc.name, ev.ID[:], got)
			}
		}
		for _, r := range tc.missing {
			if got := w.event(r); got != nil {
				t.Errorf("%s: event(%s) = %s, want none", tc.name, r[:], got.ID[:])
			}
		}
		if n := len(w.events.byKey) + len(w.events.clash); n != len(w.eventOrder) {
			t.Errorf("%s: %d events filed, want the %d kept", tc.name, n, len(w.eventOrder))
		}
	}
}

// TestNewEvent_Slabs: events come from slabs of an eighth of the
// account's events, at most maxEventSlab, and never share a slot.
func TestNewEvent_Slabs(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		events int
		slab   int
	}{
		{"no events yet: one", 0, 1},
		{"sixteen: three", 16, 3},
		{"ten thousand: the bound", 10_000, maxEventSlab},
	} {
		w := webhookState{eventOrder: make([]*model.Event, tc.events)}
		first := w.newEvent()
		if got := len(w.slab) + 1; got != tc.slab {
			t.Errorf("%s: slab of %d events, want %d", tc.name, got, tc.slab)
		}
		seen := map[*model.Event]bool{first: true}
		for range 2 * maxEventSlab {
			ev := w.newEvent()
			if seen[ev] {
				t.Fatalf("%s: an event's slot handed out twice", tc.name)
			}
			seen[ev] = true
		}
	}
}

// TestEventObjects_InPlace: an object written into the block's tail is
// kept there without a copy, capped at its length so that nothing
// appended to it reaches the next; one that outgrew the tail, or a tail
// too small to be offered, takes the copy's way; and what was kept is
// never written over by the next tail.
func TestEventObjects_InPlace(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		room  int // free bytes in the block
		write int // bytes written into the tail
		tail  bool
		holds bool
	}{
		{"fits", maxEventBlock, 900, true, true},
		{"fills the tail", minTail, minTail, true, true},
		{"outgrows the tail", minTail, minTail + 1, true, false},
		{"too little room to offer", minTail - 1, 0, false, false},
		{"a full block", 0, 0, false, false},
	} {
		o := eventObjects{block: make([]byte, 100, 100+tc.room)}
		tail := o.tail()
		if (tail != nil) != tc.tail {
			t.Fatalf("%s: tail offered %v, want %v", tc.name, tail != nil, tc.tail)
		}
		obj := append(tail, bytes.Repeat([]byte("z"), tc.write)...)
		if got := o.holds(obj); got != tc.holds {
			t.Fatalf("%s: holds %v, want %v", tc.name, got, tc.holds)
		}
		if !tc.holds {
			if len(o.block) != 100 {
				t.Errorf("%s: the block grew to %d without keep", tc.name, len(o.block))
			}
			continue
		}
		kept := o.keep(obj)
		if !bytes.Equal(kept, obj) || len(kept) != cap(kept) || len(o.block) != 100+tc.write {
			t.Fatalf("%s: kept %d bytes of capacity %d, block at %d", tc.name, len(kept), cap(kept), len(o.block))
		}
		// The next object, written in place or appended to the kept one,
		// must leave the kept bytes alone.
		_ = append(kept, 'y')
		if next := o.tail(); next != nil {
			_ = append(next, bytes.Repeat([]byte("w"), cap(next))...)
		}
		if !bytes.Equal(kept, bytes.Repeat([]byte("z"), tc.write)) {
			t.Errorf("%s: the kept object was written over", tc.name)
		}
	}
}

// TestEmit_InPlaceIsASnapshot: events whose objects were written in
// place hold the object as it was at each emit, however it changes after.
func TestEmit_InPlaceIsASnapshot(t *testing.T) {
	t.Parallel()
	s, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	a, e := s.accountFor(sha256.Sum256([]byte(wire.SecretKeySandboxPrefix + "inplace01")))
	if e != nil {
		t.Fatal(e)
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	c := &call{s: s, a: a, now: s.now(), unix: s.now().Unix()}
	inv := &model.Invoice{Currency: "USD", Status: wire.InvoiceStatusOpen, BillingReason: wire.BillingReasonSubscriptionCycle}
	var want [][]byte
	inPlace := 0
	for i := range 200 {
		inv.AmountDue = int64(100 + i)
		if a.wh.objs.tail() != nil {
			inPlace++
		}
		body := c.invoiceScratch(inv)
		want = append(want, bytes.Clone(body))
		c.emit(wire.EventInvoicePaid, body)
		if i%3 == 0 {
			// Created and finalized at once share one object.
			c.emit(wire.EventInvoicePaid, body)
			want = append(want, bytes.Clone(body))
		}
	}
	if inPlace == 0 {
		t.Fatal("no object was written in place")
	}
	if len(a.wh.eventOrder) != len(want) {
		t.Fatalf("%d events, want %d", len(a.wh.eventOrder), len(want))
	}
	for i, ev := range a.wh.eventOrder {
		if !bytes.Equal(ev.Obj, want[i]) {
			t.Fatalf("event %d holds %s, want %s", i, ev.Obj, want[i])
		}
	}
}
