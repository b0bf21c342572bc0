package sandbox

import (
	"bytes"
	"crypto/sha256"
	"testing"

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
