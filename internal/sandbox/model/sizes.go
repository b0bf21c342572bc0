package model

import (
	"reflect"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/jsonw"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// Size estimates. A heap allocation costs its bytes plus AllocOverhead for
// the size-class rounding; a map entry costs its key and value with the
// empty slots a map keeps around them; an entry of a growing slice costs a
// pointer and half as much again of spare capacity.
const (
	AllocOverhead = 16
	PtrBytes      = 8
	OrderSlot     = PtrBytes * 3 / 2
	RidMapEntry   = (wire.IDRandomLength + PtrBytes + 1) * 8 / 5
	// RenewalSlot is a subscription's place in its account's renewal
	// schedule (package billing): its entry (pointer, kind, moment,
	// order) in a growing slice and its index in a map.
	RenewalSlot = 4*PtrBytes*3/2 + (2*PtrBytes+1)*8/5
)

// The fixed size of each kind of object, and of the parts that grow with
// it.
var (
	CustomerBytes    = int64(reflect.TypeFor[Customer]().Size()) + AllocOverhead
	SourceBytes      = int64(reflect.TypeFor[Source]().Size()) + AllocOverhead
	PaymentBytes     = int64(reflect.TypeFor[Payment]().Size()) + AllocOverhead
	EndpointBytes    = int64(reflect.TypeFor[WebhookEndpoint]().Size()) + AllocOverhead
	EventBytes       = int64(reflect.TypeFor[Event]().Size()) + AllocOverhead
	ProductBytes     = int64(reflect.TypeFor[Product]().Size()) + AllocOverhead
	PriceBytes       = int64(reflect.TypeFor[Price]().Size()) + AllocOverhead
	SubBytes         = int64(reflect.TypeFor[Subscription]().Size()) + AllocOverhead
	SubItemBytes     = int64(reflect.TypeFor[SubItem]().Size())
	InvoiceBytes     = int64(reflect.TypeFor[Invoice]().Size()) + AllocOverhead
	InvoiceLineBytes = int64(reflect.TypeFor[InvoiceLine]().Size())
	ClockBytes       = int64(reflect.TypeFor[TestClock]().Size()) + AllocOverhead
	KVBytes          = int64(reflect.TypeFor[KV]().Size())
)

// StrBytes is a string as the account is charged for it: its length as
// JSON, escapes included, since answers and stored events carry it so;
// 25,000 '<' kept in 25 KB are sent as 150 KB.
func StrBytes(s string) int64 {
	if s == "" {
		return 0
	}
	return int64(jsonw.Len(s)) + AllocOverhead
}

// MetaBytes is metadata as the account is charged for it.
func MetaBytes(m Metadata) int64 {
	if len(m) == 0 {
		return 0
	}
	n := SliceBytes(len(m), KVBytes) + AllocOverhead
	for _, e := range m {
		n += StrBytes(e.K) + StrBytes(e.V)
	}
	return n
}

// SliceBytes is a growing slice of n elements of size bytes each: the
// elements and half as much again of spare capacity. It reads the length,
// never the capacity, so that an object read back from the data file
// (exact capacities) is charged what the same object built by appends
// was: a rollback after a failed commit then leaves the account's count
// exactly where it was.
func SliceBytes(n int, size int64) int64 { return int64(n) * size * 3 / 2 }
