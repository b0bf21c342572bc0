package model

import (
	"crypto/sha256"
	"fmt"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/ids"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/jsonw"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// BillingReasons are the reasons an invoice is made.
var BillingReasons = []string{wire.BillingReasonSubscriptionCreate, wire.BillingReasonSubscriptionCycle}

// InvoiceLine is what an invoice bills for one item of its subscription.
type InvoiceLine struct {
	Item     ids.RID
	Price    ids.RID
	Quantity int64
	Amount   int64
}

// Invoice is what a subscription bills for a period, with its charges'
// state.
type Invoice struct {
	ID            ids.RID
	Seq           uint64 // creation order
	Created       int64
	Customer      ids.RID
	Subscription  ids.RID
	Status        string // interned, one of wire.InvoiceStatuses
	BillingReason string // interned
	Lines         []InvoiceLine
	AmountDue     int64
	AmountPaid    int64
	Currency      string
	Attempts      int64
	// NextAttempt is when the invoice is charged again, 0 for never.
	NextAttempt            int64
	Payment                ids.RID // the latest attempt
	PeriodStart, PeriodEnd int64
	Counted                int64 // bytes charged to the account, see MemBytes
	// SumStatus is the status the account's summary counts it in.
	SumStatus string
	// line holds Lines when there is one, as a subscription of one price
	// has: an allocation less for each of its invoices.
	line [1]InvoiceLine
}

// makeLines sets Lines to n zero lines, in line when they fit.
func (inv *Invoice) makeLines(n int) {
	if n <= len(inv.line) {
		inv.Lines = inv.line[:n:len(inv.line)]
		return
	}
	inv.Lines = make([]InvoiceLine, n)
}

// linesInline reports whether Lines is held in line, in the invoice's
// own allocation.
func (inv *Invoice) linesInline() bool {
	return cap(inv.Lines) > 0 && &inv.Lines[:1][0] == &inv.line[0]
}

// SubItem is one price of a subscription, with its quantity.
type SubItem struct {
	ID       ids.RID
	Price    *Price // prices are never deleted; a reset drops both
	Quantity int64
}

// Subscription is a customer on recurring prices of one currency and one
// period.
type Subscription struct {
	ID       ids.RID
	Seq      uint64 // creation order
	Created  int64
	Customer ids.RID
	Items    []SubItem
	// DefaultSource is the card charged; zero charges the customer's
	// default source.
	DefaultSource          ids.RID
	Status                 string // interned, one of wire.SubscriptionStatuses
	PeriodStart, PeriodEnd int64
	CancelAtPeriodEnd      bool
	CanceledAt             int64 // 0 while not canceled
	TrialStart, TrialEnd   int64 // 0 without a trial
	// TrialNoticeSent is set once customer.subscription.trial_will_end is.
	TrialNoticeSent bool
	// Anchor is where periods are counted from (the creation, or the
	// trial's end) and cycle the current period's number from it: 0 for
	// a trial.
	Anchor, Cycle int64
	// Clock is the test clock of the customer, zero on real time.
	Clock         ids.RID
	LatestInvoice ids.RID
	Meta          Metadata
	Counted       int64 // bytes charged to the account, see MemBytes
	// SumStatus and SumMRR are the status the account's summary counts
	// it in and the revenue it counts of it (MRR).
	SumStatus string
	SumMRR    int64
}

// Ended reports whether the subscription can no longer change.
func (s *Subscription) Ended() bool {
	return s.Status == wire.SubscriptionStatusCanceled || s.Status == wire.SubscriptionStatusIncompleteExpired
}

// Recurring is the subscription's period, the same for all its items.
func (s *Subscription) Recurring() wire.Recurring { return s.Items[0].Price.Recurring }

// Currency is the subscription's currency, the same for all its items.
func (s *Subscription) Currency() string { return s.Items[0].Price.Currency }

// SubBook is an account's subscriptions and invoices, each kind in
// creation order with a sequence of its own, as the catalog's.
type SubBook struct {
	Subs         map[ids.RID]*Subscription
	SubOrder     []*Subscription
	SubSeq       uint64
	Invoices     map[ids.RID]*Invoice
	InvoiceOrder []*Invoice
	InvoiceSeq   uint64
}

// AddInvoice adds a new invoice, giving it the next sequence number.
func (b *SubBook) AddInvoice(inv *Invoice) {
	b.Ensure()
	b.InvoiceSeq++
	inv.Seq = b.InvoiceSeq
	b.Invoices[inv.ID] = inv
	b.InvoiceOrder = append(b.InvoiceOrder, inv)
}

// Ensure makes the maps of an account that had no subscriptions.
func (b *SubBook) Ensure() {
	if b.Subs == nil {
		b.Subs = make(map[ids.RID]*Subscription)
		b.Invoices = make(map[ids.RID]*Invoice)
	}
}

// Reset forgets every subscription and invoice; the sequences go on.
func (b *SubBook) Reset() { *b = SubBook{SubSeq: b.SubSeq, InvoiceSeq: b.InvoiceSeq} }

// Restore makes b from, a copy read back from the store, keeping the
// higher sequences: an id or cursor given out never comes back.
func (b *SubBook) Restore(from SubBook) {
	subSeq, invoiceSeq := max(b.SubSeq, from.SubSeq), max(b.InvoiceSeq, from.InvoiceSeq)
	*b = from
	b.SubSeq, b.InvoiceSeq = subSeq, invoiceSeq
}

// AddSubscription adds a new subscription, giving it the next sequence
// number.
func (b *SubBook) AddSubscription(s *Subscription) {
	b.Ensure()
	b.SubSeq++
	s.Seq = b.SubSeq
	b.Subs[s.ID] = s
	b.SubOrder = append(b.SubOrder, s)
}

// RecordKey is the invoice's key in its bucket: its id.
func (inv *Invoice) RecordKey() string { return inv.ID.Format(wire.InvoiceIDPrefix) }

// RecordValue is the invoice's record, as JSON.
func (inv *Invoice) RecordValue() []byte {
	rec := InvoiceRecord{
		ID: inv.ID.Format(wire.InvoiceIDPrefix), Seq: inv.Seq, Created: inv.Created,
		Customer: inv.Customer.Format(wire.CustomerIDPrefix), Subscription: inv.Subscription.Format(wire.SubscriptionIDPrefix),
		Status: inv.Status, BillingReason: inv.BillingReason, AmountDue: inv.AmountDue, AmountPaid: inv.AmountPaid,
		Currency: inv.Currency, Attempts: inv.Attempts, NextAttempt: inv.NextAttempt,
		Payment: OptID(wire.PaymentIDPrefix, inv.Payment), PeriodStart: inv.PeriodStart, PeriodEnd: inv.PeriodEnd,
	}
	for _, l := range inv.Lines {
		rec.Lines = append(rec.Lines, InvoiceLineRecord{Item: l.Item.Format(wire.SubscriptionItemIDPrefix),
			Price: l.Price.Format(wire.PriceIDPrefix), Quantity: l.Quantity, Amount: l.Amount})
	}
	return Marshal(rec)
}

// SubscriptionFromRecord is the subscription of a decoded record, checked.
func SubscriptionFromRecord(rec SubscriptionRecord, cat *Catalog) (*Subscription, error) {
	bad := fmt.Errorf("data file: subscription %q is malformed", rec.ID)
	id, ok1 := ids.Parse(rec.ID, wire.SubscriptionIDPrefix)
	cus, ok2 := ids.Parse(rec.Customer, wire.CustomerIDPrefix)
	src, ok3 := ParseOptID(rec.DefaultSource, wire.SourceIDPrefix)
	latest, ok4 := ParseOptID(rec.LatestInvoice, wire.InvoiceIDPrefix)
	status, ok5 := Intern(wire.SubscriptionStatuses, rec.Status)
	clk, ok6 := ParseOptID(rec.Clock, wire.TestClockIDPrefix)
	if !ok1 || !ok2 || !ok3 || !ok4 || !ok5 || !ok6 || rec.Seq == 0 || len(rec.Items) == 0 {
		return nil, bad
	}
	s := &Subscription{ID: id, Seq: rec.Seq, Created: rec.Created, Customer: cus, DefaultSource: src, Status: status,
		PeriodStart: rec.PeriodStart, PeriodEnd: rec.PeriodEnd, CancelAtPeriodEnd: rec.CancelAtPeriodEnd,
		CanceledAt: rec.CanceledAt, TrialStart: rec.TrialStart, TrialEnd: rec.TrialEnd, LatestInvoice: latest,
		TrialNoticeSent: rec.TrialNoticeSent, Anchor: rec.Anchor, Cycle: rec.Cycle, Clock: clk,
		Meta: MetaFromRecord(rec.Meta)}
	for _, it := range rec.Items {
		iid, ok := ids.Parse(it.ID, wire.SubscriptionItemIDPrefix)
		pid, ok2 := ids.Parse(it.Price, wire.PriceIDPrefix)
		pr := cat.Prices[pid]
		if !ok || !ok2 || pr == nil || !pr.IsRecurring() {
			return nil, fmt.Errorf("data file: subscription %s names price %q, which the file lacks or does not recur", rec.ID, it.Price)
		}
		s.Items = append(s.Items, SubItem{ID: iid, Price: pr, Quantity: it.Quantity})
	}
	return s, nil
}

// InvoiceFromRecord is the invoice of a decoded record, checked.
func InvoiceFromRecord(rec InvoiceRecord) (*Invoice, error) {
	id, ok1 := ids.Parse(rec.ID, wire.InvoiceIDPrefix)
	cus, ok2 := ids.Parse(rec.Customer, wire.CustomerIDPrefix)
	sub, ok3 := ids.Parse(rec.Subscription, wire.SubscriptionIDPrefix)
	pay, ok4 := ParseOptID(rec.Payment, wire.PaymentIDPrefix)
	status, ok5 := Intern(wire.InvoiceStatuses, rec.Status)
	reason, ok6 := Intern(BillingReasons, rec.BillingReason)
	cur, okCur := Intern(wire.Currencies, rec.Currency)
	if !ok1 || !ok2 || !ok3 || !ok4 || !ok5 || !ok6 || !okCur || rec.Seq == 0 {
		return nil, fmt.Errorf("data file: invoice %q is malformed", rec.ID)
	}
	inv := &Invoice{ID: id, Seq: rec.Seq, Created: rec.Created, Customer: cus, Subscription: sub, Status: status,
		BillingReason: reason, AmountDue: rec.AmountDue, AmountPaid: rec.AmountPaid, Currency: cur, Attempts: rec.Attempts,
		NextAttempt: rec.NextAttempt, Payment: pay, PeriodStart: rec.PeriodStart, PeriodEnd: rec.PeriodEnd}
	inv.makeLines(len(rec.Lines))
	for i, l := range rec.Lines {
		item, ok := ids.Parse(l.Item, wire.SubscriptionItemIDPrefix)
		pr, ok2 := ids.Parse(l.Price, wire.PriceIDPrefix)
		if !ok || !ok2 {
			return nil, fmt.Errorf("data file: invoice %q has a malformed line", rec.ID)
		}
		inv.Lines[i] = InvoiceLine{Item: item, Price: pr, Quantity: l.Quantity, Amount: l.Amount}
	}
	return inv, nil
}

// RecordKey is the subscription's key in its bucket: its id.
func (s *Subscription) RecordKey() string { return s.ID.Format(wire.SubscriptionIDPrefix) }

// RecordValue is the subscription's record, as JSON.
func (s *Subscription) RecordValue() []byte {
	rec := SubscriptionRecord{
		ID: s.ID.Format(wire.SubscriptionIDPrefix), Seq: s.Seq, Created: s.Created,
		Customer: s.Customer.Format(wire.CustomerIDPrefix), DefaultSource: OptID(wire.SourceIDPrefix, s.DefaultSource),
		Status: s.Status, PeriodStart: s.PeriodStart, PeriodEnd: s.PeriodEnd, CancelAtPeriodEnd: s.CancelAtPeriodEnd,
		CanceledAt: s.CanceledAt, TrialStart: s.TrialStart, TrialEnd: s.TrialEnd, TrialNoticeSent: s.TrialNoticeSent,
		Anchor: s.Anchor, Cycle: s.Cycle, Clock: OptID(wire.TestClockIDPrefix, s.Clock),
		LatestInvoice: OptID(wire.InvoiceIDPrefix, s.LatestInvoice), Meta: MetaRecord(s.Meta),
	}
	for _, it := range s.Items {
		rec.Items = append(rec.Items, SubItemRecord{ID: it.ID.Format(wire.SubscriptionItemIDPrefix),
			Price: it.Price.ID.Format(wire.PriceIDPrefix), Quantity: it.Quantity})
	}
	return Marshal(rec)
}

// Load rebuilds an account's subscriptions and invoices from their
// records, after its catalog cat; a record that does not decode or names
// a price the file lacks fails the load.
func (b *SubBook) Load(buckets map[string][][]byte, cat *Catalog) error {
	subs, err := decodeBucket(buckets[BucketSubscriptions], "a subscription",
		func(rec SubscriptionRecord) (*Subscription, error) { return SubscriptionFromRecord(rec, cat) },
		func(s *Subscription) uint64 { return s.Seq })
	if err != nil {
		return err
	}
	invs, err := decodeBucket(buckets[BucketInvoices], "an invoice", InvoiceFromRecord, func(inv *Invoice) uint64 { return inv.Seq })
	if err != nil {
		return err
	}
	if len(subs) == 0 && len(invs) == 0 {
		return nil
	}
	b.Ensure()
	for _, s := range subs {
		b.Subs[s.ID] = s
		b.SubOrder = append(b.SubOrder, s)
		b.SubSeq = max(b.SubSeq, s.Seq)
	}
	for _, inv := range invs {
		b.Invoices[inv.ID] = inv
		b.InvoiceOrder = append(b.InvoiceOrder, inv)
		b.InvoiceSeq = max(b.InvoiceSeq, inv.Seq)
	}
	return nil
}

// MemBytes is what the subscription costs its account (sizes.go).
func (s *Subscription) MemBytes() int64 {
	return SubBytes + RidMapEntry + OrderSlot + RenewalSlot + SliceBytes(len(s.Items), SubItemBytes) + AllocOverhead + MetaBytes(s.Meta)
}

// MemBytes is what the invoice costs its account (sizes.go).
func (inv *Invoice) MemBytes() int64 {
	n := InvoiceBytes + RidMapEntry + OrderSlot
	if !inv.linesInline() {
		n += int64(cap(inv.Lines))*InvoiceLineBytes + AllocOverhead
	}
	return n
}

// SubscriptionJSON appends the subscription's JSON, as the API answers it, to b
// (nil makes a buffer of a typical size).
func SubscriptionJSON(b []byte, s *Subscription) []byte {
	if b == nil {
		b = make([]byte, 0, 640+500*len(s.Items))
	}
	b = append(b, `{"id":`...)
	b = ids.Append(b, wire.SubscriptionIDPrefix, s.ID)
	b = append(b, `,"object":"subscription","customer":`...)
	b = ids.Append(b, wire.CustomerIDPrefix, s.Customer)
	b = append(b, `,"items":{"object":"list","data":[`...)
	for i := range s.Items {
		if i > 0 {
			b = append(b, ',')
		}
		b = SubItemJSON(b, &s.Items[i])
	}
	b = append(b, `],"has_more":false,"url":"`+wire.PathSubscriptionItems+"?"+wire.ParamSubscription+"="+wire.SubscriptionIDPrefix...)
	b = append(b, s.ID[:]...)
	b = append(b, `"},"default_source":`...)
	b = ids.AppendOpt(b, wire.SourceIDPrefix, s.DefaultSource)
	b = append(b, `,"status":`...)
	b = jsonw.String(b, s.Status)
	b = append(b, `,"current_period_start":`...)
	b = jsonw.Time(b, s.PeriodStart)
	b = append(b, `,"current_period_end":`...)
	b = jsonw.Time(b, s.PeriodEnd)
	b = append(b, `,"cancel_at_period_end":`...)
	b = jsonw.Bool(b, s.CancelAtPeriodEnd)
	b = append(b, `,"canceled_at":`...)
	b = jsonw.OptTime(b, s.CanceledAt)
	b = append(b, `,"trial_start":`...)
	b = jsonw.OptTime(b, s.TrialStart)
	b = append(b, `,"trial_end":`...)
	b = jsonw.OptTime(b, s.TrialEnd)
	b = append(b, `,"latest_invoice":`...)
	b = ids.AppendOpt(b, wire.InvoiceIDPrefix, s.LatestInvoice)
	return AppendMetadataTail(b, s.Meta, s.Created)
}

// SubItemJSON appends the JSON of a subscription's item to b.
func SubItemJSON(b []byte, it *SubItem) []byte {
	b = append(b, `{"id":`...)
	b = ids.Append(b, wire.SubscriptionItemIDPrefix, it.ID)
	b = append(b, `,"object":"subscription_item","price":`...)
	b = ItemPriceJSON(b, it.Price)
	b = append(b, `,"quantity":`...)
	b = jsonw.Int(b, it.Quantity)
	return append(b, '}')
}

// The most a subscription's or an invoice's JSON holds besides what
// grows with its strings: measured with every field at its widest by
// TestSnapshotBytes_Bound, and rounded up.
const (
	subJSONFixed      = 768
	subItemJSONFixed  = 512
	invoiceJSONFixed  = 768
	invoiceLineJSON   = 320
	paymentJSONBytes  = 1024
	eventJSONOverhead = 256
)

// SnapshotBytes bounds the length of the subscription's JSON
// (SubscriptionJSON), which its events carry, without writing it: its
// fixed fields, its metadata, and each item's price without the price's
// metadata (ItemPriceJSON). Its worst case, twenty items of prices with
// the longest nickname and lookup key and fifty keys of metadata at the
// longest, every character escaped to six bytes, is WorstSnapshotBytes.
func (s *Subscription) SnapshotBytes() int64 {
	n := int64(subJSONFixed) + MetaBytes(s.Meta)
	for _, it := range s.Items {
		n += subItemJSONFixed + StrBytes(it.Price.Nickname) + StrBytes(it.Price.LookupKey)
	}
	return n
}

// WorstSnapshotBytes is the longest a subscription's JSON, and so the
// object of one event, can be (SnapshotBytes at its worst), and
// WorstEventBytes what such an event costs its account: the decision
// and the bound are in api/openapi.yaml and the API assumptions guide.
var (
	WorstSnapshotBytes = subJSONFixed + int64(wire.MetadataMaxKeys)*(2*AllocOverhead+6*(wire.MetadataKeyMaxLength+wire.MetadataValueMaxLength)+KVBytes*3/2) + AllocOverhead +
		int64(wire.SubscriptionItemsMax)*(subItemJSONFixed+2*AllocOverhead+6*(wire.NameMaxLength+wire.LookupKeyMaxLength))
	WorstEventBytes = EventMemBytes(WorstSnapshotBytes)
)

// InvoiceJSONBytes bounds the length of the JSON of an invoice of lines
// lines (InvoiceJSON), which holds no text of the user's.
func InvoiceJSONBytes(lines int) int64 { return invoiceJSONFixed + int64(lines)*invoiceLineJSON }

// PaymentJSONBytes bounds the length of the JSON of a payment an invoice
// makes (Invoice.NewPayment): no metadata, a description of its own.
const PaymentJSONBytes = paymentJSONBytes

// EventMemBytes bounds what an event of an object of obj bytes of JSON
// costs its account (Event.MemBytes).
func EventMemBytes(obj int64) int64 {
	return EventBytes + RidMapEntry + OrderSlot + (eventJSONOverhead+obj)*5/4 + AllocOverhead
}

// RenewalObjectsBytes bounds what the invoice and payment of one renewal
// of s cost its account, besides its events.
func RenewalObjectsBytes(s *Subscription) int64 {
	return InvoiceBytes + RidMapEntry + OrderSlot + SliceBytes(len(s.Items), InvoiceLineBytes) + AllocOverhead +
		PaymentBytes + RidMapEntry + 2*OrderSlot + 2*AllocOverhead + 128
}

// LineID is the id of the line of invoice inv for subscription item
// item: derived from both, so that it is the same in every answer and
// event without being stored (an invoice has one line per item).
func LineID(inv, item ids.RID) ids.RID {
	var b [2 * len(inv)]byte
	copy(b[copy(b[:], inv[:]):], item[:])
	sum := sha256.Sum256(b[:])
	return ids.FromHash(sum[:])
}

// InvoiceLineJSON appends the JSON of the invoice's line l to b.
func InvoiceLineJSON(b []byte, inv *Invoice, l *InvoiceLine) []byte {
	b = append(b, `{"id":`...)
	b = ids.Append(b, wire.InvoiceLineIDPrefix, LineID(inv.ID, l.Item))
	b = append(b, `,"object":"line_item","subscription_item":`...)
	b = ids.Append(b, wire.SubscriptionItemIDPrefix, l.Item)
	b = append(b, `,"price":`...)
	b = ids.Append(b, wire.PriceIDPrefix, l.Price)
	b = append(b, `,"quantity":`...)
	b = jsonw.Int(b, l.Quantity)
	b = append(b, `,"amount":`...)
	b = jsonw.Int(b, l.Amount)
	b = append(b, `,"period_start":`...)
	b = jsonw.Time(b, inv.PeriodStart)
	b = append(b, `,"period_end":`...)
	b = jsonw.Time(b, inv.PeriodEnd)
	return append(b, '}')
}

// InvoiceJSON appends the invoice's JSON, as the API answers it, to b
// (nil makes a buffer of a typical size).
func InvoiceJSON(b []byte, inv *Invoice) []byte {
	if b == nil {
		b = make([]byte, 0, 640+200*len(inv.Lines))
	}
	b = append(b, `{"id":`...)
	b = ids.Append(b, wire.InvoiceIDPrefix, inv.ID)
	b = append(b, `,"object":"invoice","customer":`...)
	b = ids.Append(b, wire.CustomerIDPrefix, inv.Customer)
	b = append(b, `,"subscription":`...)
	b = ids.Append(b, wire.SubscriptionIDPrefix, inv.Subscription)
	b = append(b, `,"status":`...)
	b = jsonw.String(b, inv.Status)
	b = append(b, `,"billing_reason":`...)
	b = jsonw.String(b, inv.BillingReason)
	b = append(b, `,"lines":{"object":"list","data":[`...)
	for i := range inv.Lines {
		if i > 0 {
			b = append(b, ',')
		}
		b = InvoiceLineJSON(b, inv, &inv.Lines[i])
	}
	b = append(b, `],"has_more":false,"url":"`+wire.PathInvoices+"/"+wire.InvoiceIDPrefix...)
	b = append(b, inv.ID[:]...)
	b = append(b, `/lines"},"amount_due":`...)
	b = jsonw.Int(b, inv.AmountDue)
	b = append(b, `,"amount_paid":`...)
	b = jsonw.Int(b, inv.AmountPaid)
	b = append(b, `,"currency":`...)
	b = jsonw.String(b, inv.Currency)
	b = append(b, `,"attempt_count":`...)
	b = jsonw.Int(b, inv.Attempts)
	b = append(b, `,"next_payment_attempt":`...)
	b = jsonw.OptTime(b, inv.NextAttempt)
	b = append(b, `,"payment":`...)
	b = ids.AppendOpt(b, wire.PaymentIDPrefix, inv.Payment)
	b = append(b, `,"period_start":`...)
	b = jsonw.Time(b, inv.PeriodStart)
	b = append(b, `,"period_end":`...)
	b = jsonw.Time(b, inv.PeriodEnd)
	b = append(b, `,"created_at":`...)
	b = jsonw.Time(b, inv.Created)
	return append(b, `,"livemode":false}`...)
}
