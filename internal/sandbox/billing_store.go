package sandbox

import (
	"cmp"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/storage"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// The store records of subscriptions and invoices, one bucket per kind of
// the account, each record keyed by the object's id.

const (
	BucketSubscriptions = "subscriptions"
	BucketInvoices      = "invoices"
	BucketTestClocks    = "test_clocks"
)

// billingBuckets are read with the catalog's (storedFrom), and loaded
// after it: subscriptions name prices.
var BillingBuckets = []string{BucketSubscriptions, BucketInvoices, BucketTestClocks}

type (
	TestClockRecord struct {
		ID      string `json:"id"`
		Seq     uint64 `json:"seq"`
		Created int64  `json:"created"`
		Name    string `json:"name,omitempty"`
		Frozen  int64  `json:"frozen"`
	}
	SubItemRecord struct {
		ID       string `json:"id"`
		Price    string `json:"price"`
		Quantity int64  `json:"quantity"`
	}
	SubscriptionRecord struct {
		ID                string          `json:"id"`
		Seq               uint64          `json:"seq"`
		Created           int64           `json:"created"`
		Customer          string          `json:"customer"`
		Items             []SubItemRecord `json:"items"`
		DefaultSource     string          `json:"default_source,omitempty"`
		Status            string          `json:"status"`
		PeriodStart       int64           `json:"period_start"`
		PeriodEnd         int64           `json:"period_end"`
		CancelAtPeriodEnd bool            `json:"cancel_at_period_end,omitempty"`
		CanceledAt        int64           `json:"canceled_at,omitempty"`
		TrialStart        int64           `json:"trial_start,omitempty"`
		TrialEnd          int64           `json:"trial_end,omitempty"`
		TrialNoticeSent   bool            `json:"trial_notice_sent,omitempty"`
		Anchor            int64           `json:"anchor"`
		Cycle             int64           `json:"cycle"`
		Clock             string          `json:"clock,omitempty"`
		LatestInvoice     string          `json:"latest_invoice,omitempty"`
		Meta              [][2]string     `json:"meta,omitempty"`
	}
	InvoiceLineRecord struct {
		Item     string `json:"item"`
		Price    string `json:"price"`
		Quantity int64  `json:"quantity"`
		Amount   int64  `json:"amount"`
	}
	InvoiceRecord struct {
		ID            string              `json:"id"`
		Seq           uint64              `json:"seq"`
		Created       int64               `json:"created"`
		Customer      string              `json:"customer"`
		Subscription  string              `json:"subscription"`
		Status        string              `json:"status"`
		BillingReason string              `json:"billing_reason"`
		Lines         []InvoiceLineRecord `json:"lines"`
		AmountDue     int64               `json:"amount_due"`
		AmountPaid    int64               `json:"amount_paid"`
		Currency      string              `json:"currency"`
		Attempts      int64               `json:"attempts"`
		NextAttempt   int64               `json:"next_attempt,omitempty"`
		Payment       string              `json:"payment,omitempty"`
		PeriodStart   int64               `json:"period_start"`
		PeriodEnd     int64               `json:"period_end"`
	}
)

// optID formats r, or "" for the zero rid.
func OptID(prefix string, r rid) string {
	if r.IsZero() {
		return ""
	}
	return r.Format(prefix)
}

func (c *call) putSubscription(s *Subscription) {
	c.a.recount(&s.Counted, s.MemBytes())
	c.pokeRenewals(s)
	c.addOp(storage.PutRecord(BucketSubscriptions, s))
}

func (s *Subscription) RecordKey() string { return s.ID.Format(wire.SubscriptionIDPrefix) }

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

func (c *call) putInvoice(inv *Invoice) {
	c.a.recount(&inv.Counted, inv.MemBytes())
	if s := c.a.bill.Subs[inv.Subscription]; s != nil {
		c.pokeRenewals(s)
	}
	c.addOp(storage.PutRecord(BucketInvoices, inv))
}

func (inv *Invoice) RecordKey() string { return inv.ID.Format(wire.InvoiceIDPrefix) }

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

func (c *call) putTestClock(k *TestClock) {
	c.a.recount(&k.Counted, k.MemBytes())
	c.addOp(storage.PutRecord(BucketTestClocks, k))
}

func (k *TestClock) RecordKey() string { return k.ID.Format(wire.TestClockIDPrefix) }

func (k *TestClock) RecordValue() []byte {
	return Marshal(TestClockRecord{ID: k.ID.Format(wire.TestClockIDPrefix), Seq: k.Seq, Created: k.Created, Name: k.Name, Frozen: k.Frozen})
}

func (c *call) deleteTestClockRecord(k *TestClock) {
	c.addOp(storage.DeleteRecord(BucketTestClocks, k))
}

// parseOptID parses an id that may be "", the zero rid.
func ParseOptID(s, prefix string) (rid, bool) {
	if s == "" {
		return rid{}, true
	}
	return parseRID(s, prefix)
}

// intern returns the entry of list equal to s, so that statuses compare
// as the constants they are; ok is false when s is none of them.
func Intern(list []string, s string) (string, bool) {
	if i := slices.Index(list, s); i >= 0 {
		return list[i], true
	}
	return "", false
}

var BillingReasons = []string{wire.BillingReasonSubscriptionCreate, wire.BillingReasonSubscriptionCycle}

// load rebuilds an account's subscriptions and invoices from their
// records, after its catalog cat; a record that does not decode or names
// a price the file lacks fails the load.
func (b *SubBook) Load(buckets map[string][][]byte, cat *Catalog) error {
	var subs []*Subscription
	for _, raw := range buckets[BucketSubscriptions] {
		var rec SubscriptionRecord
		if err := json.Unmarshal(raw, &rec); err != nil {
			return fmt.Errorf("reading a subscription record from the data file: %w", err)
		}
		s, err := SubscriptionFromRecord(rec, cat)
		if err != nil {
			return err
		}
		subs = append(subs, s)
	}
	var invs []*Invoice
	for _, raw := range buckets[BucketInvoices] {
		var rec InvoiceRecord
		if err := json.Unmarshal(raw, &rec); err != nil {
			return fmt.Errorf("reading an invoice record from the data file: %w", err)
		}
		inv, err := InvoiceFromRecord(rec)
		if err != nil {
			return err
		}
		invs = append(invs, inv)
	}
	if len(subs) == 0 && len(invs) == 0 {
		return nil
	}
	b.Ensure()
	slices.SortFunc(subs, func(x, y *Subscription) int { return cmp.Compare(x.Seq, y.Seq) })
	for _, s := range subs {
		b.Subs[s.ID] = s
		b.SubOrder = append(b.SubOrder, s)
		b.SubSeq = max(b.SubSeq, s.Seq)
	}
	slices.SortFunc(invs, func(x, y *Invoice) int { return cmp.Compare(x.Seq, y.Seq) })
	for _, inv := range invs {
		b.Invoices[inv.ID] = inv
		b.InvoiceOrder = append(b.InvoiceOrder, inv)
		b.InvoiceSeq = max(b.InvoiceSeq, inv.Seq)
	}
	return nil
}

// load rebuilds an account's test clocks from their records.
func (cl *Clocks) Load(buckets map[string][][]byte) error {
	var ks []*TestClock
	for _, raw := range buckets[BucketTestClocks] {
		var rec TestClockRecord
		if err := json.Unmarshal(raw, &rec); err != nil {
			return fmt.Errorf("reading a test clock record from the data file: %w", err)
		}
		id, ok := parseRID(rec.ID, wire.TestClockIDPrefix)
		if !ok || rec.Seq == 0 {
			return fmt.Errorf("data file: test clock %q is malformed", rec.ID)
		}
		ks = append(ks, &TestClock{ID: id, Seq: rec.Seq, Created: rec.Created, Name: rec.Name, Frozen: rec.Frozen})
	}
	slices.SortFunc(ks, func(x, y *TestClock) int { return cmp.Compare(x.Seq, y.Seq) })
	for _, k := range ks {
		if cl.ByID == nil {
			cl.ByID = make(map[rid]*TestClock)
		}
		cl.ByID[k.ID] = k
		cl.Order = append(cl.Order, k)
		cl.Seq = max(cl.Seq, k.Seq)
	}
	return nil
}

func SubscriptionFromRecord(rec SubscriptionRecord, cat *Catalog) (*Subscription, error) {
	bad := fmt.Errorf("data file: subscription %q is malformed", rec.ID)
	id, ok1 := parseRID(rec.ID, wire.SubscriptionIDPrefix)
	cus, ok2 := parseRID(rec.Customer, wire.CustomerIDPrefix)
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
		iid, ok := parseRID(it.ID, wire.SubscriptionItemIDPrefix)
		pid, ok2 := parseRID(it.Price, wire.PriceIDPrefix)
		pr := cat.Prices[pid]
		if !ok || !ok2 || pr == nil || !pr.IsRecurring() {
			return nil, fmt.Errorf("data file: subscription %s names price %q, which the file lacks or does not recur", rec.ID, it.Price)
		}
		s.Items = append(s.Items, SubItem{ID: iid, Price: pr, Quantity: it.Quantity})
	}
	return s, nil
}

func InvoiceFromRecord(rec InvoiceRecord) (*Invoice, error) {
	id, ok1 := parseRID(rec.ID, wire.InvoiceIDPrefix)
	cus, ok2 := parseRID(rec.Customer, wire.CustomerIDPrefix)
	sub, ok3 := parseRID(rec.Subscription, wire.SubscriptionIDPrefix)
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
	for _, l := range rec.Lines {
		item, ok := parseRID(l.Item, wire.SubscriptionItemIDPrefix)
		pr, ok2 := parseRID(l.Price, wire.PriceIDPrefix)
		if !ok || !ok2 {
			return nil, fmt.Errorf("data file: invoice %q has a malformed line", rec.ID)
		}
		inv.Lines = append(inv.Lines, InvoiceLine{Item: item, Price: pr, Quantity: l.Quantity, Amount: l.Amount})
	}
	return inv, nil
}
