package model

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/ids"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// widest is text of n characters at the longest JSON writes it: each
// character escaped to six bytes.
func widest(n int) string { return strings.Repeat("<", n) }

// fullMeta is metadata at its limits, every key and value at its longest
// and widest.
func fullMeta() Metadata {
	var m Metadata
	for i := range wire.MetadataMaxKeys {
		k := fmt.Sprintf("%02d", i) + widest(wire.MetadataKeyMaxLength-2)
		m = append(m, KV{K: k, V: widest(wire.MetadataValueMaxLength)})
	}
	return m
}

// worstSubscription is a subscription whose JSON is as long as any:
// every field at its widest, twenty items of prices with the most
// metadata and the longest nickname and lookup key.
func worstSubscription() *Subscription {
	t := int64(253402300799) // 9999-12-31T23:59:59Z
	s := &Subscription{ID: ids.New(), Created: t, Customer: ids.New(), DefaultSource: ids.New(), Status: wire.SubscriptionStatusIncompleteExpired,
		PeriodStart: t, PeriodEnd: t, CancelAtPeriodEnd: true, CanceledAt: t, TrialStart: t, TrialEnd: t, LatestInvoice: ids.New(), Meta: fullMeta()}
	for range wire.SubscriptionItemsMax {
		pr := &Price{ID: ids.New(), Created: t, Product: ids.New(), Currency: "USD", UnitAmount: wire.PaymentAmountMax,
			Recurring: wire.Recurring{Interval: "month", IntervalCount: 1095}, Nickname: widest(wire.NameMaxLength),
			LookupKey: widest(wire.LookupKeyMaxLength), Active: true, Meta: fullMeta()}
		s.Items = append(s.Items, SubItem{ID: ids.New(), Price: pr, Quantity: math.MaxInt64})
	}
	return s
}

// TestSnapshotBytes_Bound: the bounds of a subscription's, an invoice's
// and a renewal's payment's JSON hold at their widest, and a
// subscription's JSON, hence every event, no longer grows with its
// prices' metadata.
func TestSnapshotBytes_Bound(t *testing.T) {
	t.Parallel()
	s := worstSubscription()
	sub := SubscriptionJSON(nil, s)
	if int64(len(sub)) > s.SnapshotBytes() {
		t.Errorf("the widest subscription's JSON is %d bytes, over its bound %d", len(sub), s.SnapshotBytes())
	}
	if int64(len(sub)) > WorstSnapshotBytes {
		t.Errorf("the widest subscription's JSON is %d bytes, over WorstSnapshotBytes %d", len(sub), WorstSnapshotBytes)
	}
	if n := strings.Count(string(sub), `"metadata":`); n != 1 {
		t.Errorf("the subscription's JSON holds %d metadata; want its own only, not its prices'", n)
	}
	t.Logf("the widest subscription's JSON: %d bytes (bound %d, WorstSnapshotBytes %d)", len(sub), s.SnapshotBytes(), WorstSnapshotBytes)

	inv := NewInvoice(s, s.Created, wire.BillingReasonSubscriptionCycle, false)
	inv.ID, inv.Payment, inv.NextAttempt, inv.Attempts, inv.AmountDue, inv.AmountPaid = ids.New(), ids.New(), s.Created, math.MaxInt64, math.MaxInt64, math.MaxInt64
	for i := range inv.Lines {
		inv.Lines[i].Amount = math.MaxInt64
	}
	if b := InvoiceJSON(nil, inv); int64(len(b)) > InvoiceJSONBytes(len(inv.Lines)) {
		t.Errorf("the widest invoice's JSON is %d bytes, over its bound %d", len(b), InvoiceJSONBytes(len(inv.Lines)))
	}
	src := &Source{ID: ids.New(), Card: Cards[0], ExpMonth: 12, ExpYear: 9999}
	p := inv.NewPayment(s.Created, src)
	p.ID, p.Amount, p.Refunded, p.Status, p.AuthCode = ids.New(), math.MaxInt64, math.MaxInt64, wire.PaymentStatusPartiallyRefunded, widest(32)
	if b := PaymentJSON(nil, p); len(b) > PaymentJSONBytes {
		t.Errorf("the widest renewal payment's JSON is %d bytes, over its bound %d", len(b), PaymentJSONBytes)
	}
	ev := &Event{ID: ids.New(), Type: strings.Repeat("x", 48), At: s.Created, Obj: sub}
	if ev.MemBytes() > EventMemBytes(int64(len(sub))) {
		t.Errorf("an event of %d bytes of object costs %d, over its bound %d", len(sub), ev.MemBytes(), EventMemBytes(int64(len(sub))))
	}
}
