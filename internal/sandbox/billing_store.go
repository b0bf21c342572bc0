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
	bucketSubscriptions = "subscriptions"
	bucketInvoices      = "invoices"
	bucketTestClocks    = "test_clocks"
)

// billingBuckets are read with the catalog's (storedFrom), and loaded
// after it: subscriptions name prices.
var billingBuckets = []string{bucketSubscriptions, bucketInvoices, bucketTestClocks}

type (
	testClockRecord struct {
		ID      string `json:"id"`
		Seq     uint64 `json:"seq"`
		Created int64  `json:"created"`
		Name    string `json:"name,omitempty"`
		Frozen  int64  `json:"frozen"`
	}
	subItemRecord struct {
		ID       string `json:"id"`
		Price    string `json:"price"`
		Quantity int64  `json:"quantity"`
	}
	subscriptionRecord struct {
		ID                string          `json:"id"`
		Seq               uint64          `json:"seq"`
		Created           int64           `json:"created"`
		Customer          string          `json:"customer"`
		Items             []subItemRecord `json:"items"`
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
	invoiceLineRecord struct {
		Item     string `json:"item"`
		Price    string `json:"price"`
		Quantity int64  `json:"quantity"`
		Amount   int64  `json:"amount"`
	}
	invoiceRecord struct {
		ID            string              `json:"id"`
		Seq           uint64              `json:"seq"`
		Created       int64               `json:"created"`
		Customer      string              `json:"customer"`
		Subscription  string              `json:"subscription"`
		Status        string              `json:"status"`
		BillingReason string              `json:"billing_reason"`
		Lines         []invoiceLineRecord `json:"lines"`
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
func optID(prefix string, r rid) string {
	if r.isZero() {
		return ""
	}
	return r.format(prefix)
}

func (c *call) putSubscription(s *subscription) {
	c.a.recount(&s.counted, s.memBytes())
	c.pokeRenewals(s)
	c.addOp(storage.PutRecord(bucketSubscriptions, s))
}

func (s *subscription) RecordKey() string { return s.id.format(wire.SubscriptionIDPrefix) }

func (s *subscription) RecordValue() []byte {
	rec := subscriptionRecord{
		ID: s.id.format(wire.SubscriptionIDPrefix), Seq: s.seq, Created: s.created,
		Customer: s.customer.format(wire.CustomerIDPrefix), DefaultSource: optID(wire.SourceIDPrefix, s.defaultSource),
		Status: s.status, PeriodStart: s.periodStart, PeriodEnd: s.periodEnd, CancelAtPeriodEnd: s.cancelAtPeriodEnd,
		CanceledAt: s.canceledAt, TrialStart: s.trialStart, TrialEnd: s.trialEnd, TrialNoticeSent: s.trialNoticeSent,
		Anchor: s.anchor, Cycle: s.cycle, Clock: optID(wire.TestClockIDPrefix, s.clock),
		LatestInvoice: optID(wire.InvoiceIDPrefix, s.latestInvoice), Meta: metaRecord(s.meta),
	}
	for _, it := range s.items {
		rec.Items = append(rec.Items, subItemRecord{ID: it.id.format(wire.SubscriptionItemIDPrefix),
			Price: it.price.id.format(wire.PriceIDPrefix), Quantity: it.quantity})
	}
	return marshal(rec)
}

func (c *call) putInvoice(inv *invoice) {
	c.a.recount(&inv.counted, inv.memBytes())
	if s := c.a.bill.subs[inv.subscription]; s != nil {
		c.pokeRenewals(s)
	}
	c.addOp(storage.PutRecord(bucketInvoices, inv))
}

func (inv *invoice) RecordKey() string { return inv.id.format(wire.InvoiceIDPrefix) }

func (inv *invoice) RecordValue() []byte {
	rec := invoiceRecord{
		ID: inv.id.format(wire.InvoiceIDPrefix), Seq: inv.seq, Created: inv.created,
		Customer: inv.customer.format(wire.CustomerIDPrefix), Subscription: inv.subscription.format(wire.SubscriptionIDPrefix),
		Status: inv.status, BillingReason: inv.billingReason, AmountDue: inv.amountDue, AmountPaid: inv.amountPaid,
		Currency: inv.currency, Attempts: inv.attempts, NextAttempt: inv.nextAttempt,
		Payment: optID(wire.PaymentIDPrefix, inv.payment), PeriodStart: inv.periodStart, PeriodEnd: inv.periodEnd,
	}
	for _, l := range inv.lines {
		rec.Lines = append(rec.Lines, invoiceLineRecord{Item: l.item.format(wire.SubscriptionItemIDPrefix),
			Price: l.price.format(wire.PriceIDPrefix), Quantity: l.quantity, Amount: l.amount})
	}
	return marshal(rec)
}

func (c *call) putTestClock(k *testClock) {
	c.a.recount(&k.counted, k.memBytes())
	c.addOp(storage.PutRecord(bucketTestClocks, k))
}

func (k *testClock) RecordKey() string { return k.id.format(wire.TestClockIDPrefix) }

func (k *testClock) RecordValue() []byte {
	return marshal(testClockRecord{ID: k.id.format(wire.TestClockIDPrefix), Seq: k.seq, Created: k.created, Name: k.name, Frozen: k.frozen})
}

func (c *call) deleteTestClockRecord(k *testClock) {
	c.addOp(storage.DeleteRecord(bucketTestClocks, k))
}

// parseOptID parses an id that may be "", the zero rid.
func parseOptID(s, prefix string) (rid, bool) {
	if s == "" {
		return rid{}, true
	}
	return parseRID(s, prefix)
}

// intern returns the entry of list equal to s, so that statuses compare
// as the constants they are; ok is false when s is none of them.
func intern(list []string, s string) (string, bool) {
	if i := slices.Index(list, s); i >= 0 {
		return list[i], true
	}
	return "", false
}

var billingReasons = []string{wire.BillingReasonSubscriptionCreate, wire.BillingReasonSubscriptionCycle}

// load rebuilds an account's subscriptions and invoices from their
// records, after its catalog cat; a record that does not decode or names
// a price the file lacks fails the load.
func (b *subBook) load(buckets map[string][][]byte, cat *catalog) error {
	var subs []*subscription
	for _, raw := range buckets[bucketSubscriptions] {
		var rec subscriptionRecord
		if err := json.Unmarshal(raw, &rec); err != nil {
			return fmt.Errorf("reading a subscription record from the data file: %w", err)
		}
		s, err := subscriptionFromRecord(rec, cat)
		if err != nil {
			return err
		}
		subs = append(subs, s)
	}
	var invs []*invoice
	for _, raw := range buckets[bucketInvoices] {
		var rec invoiceRecord
		if err := json.Unmarshal(raw, &rec); err != nil {
			return fmt.Errorf("reading an invoice record from the data file: %w", err)
		}
		inv, err := invoiceFromRecord(rec)
		if err != nil {
			return err
		}
		invs = append(invs, inv)
	}
	if len(subs) == 0 && len(invs) == 0 {
		return nil
	}
	b.ensure()
	slices.SortFunc(subs, func(x, y *subscription) int { return cmp.Compare(x.seq, y.seq) })
	for _, s := range subs {
		b.subs[s.id] = s
		b.subOrder = append(b.subOrder, s)
		b.subSeq = max(b.subSeq, s.seq)
	}
	slices.SortFunc(invs, func(x, y *invoice) int { return cmp.Compare(x.seq, y.seq) })
	for _, inv := range invs {
		b.invoices[inv.id] = inv
		b.invoiceOrder = append(b.invoiceOrder, inv)
		b.invoiceSeq = max(b.invoiceSeq, inv.seq)
	}
	return nil
}

// load rebuilds an account's test clocks from their records.
func (cl *clocks) load(buckets map[string][][]byte) error {
	var ks []*testClock
	for _, raw := range buckets[bucketTestClocks] {
		var rec testClockRecord
		if err := json.Unmarshal(raw, &rec); err != nil {
			return fmt.Errorf("reading a test clock record from the data file: %w", err)
		}
		id, ok := parseRID(rec.ID, wire.TestClockIDPrefix)
		if !ok || rec.Seq == 0 {
			return fmt.Errorf("data file: test clock %q is malformed", rec.ID)
		}
		ks = append(ks, &testClock{id: id, seq: rec.Seq, created: rec.Created, name: rec.Name, frozen: rec.Frozen})
	}
	slices.SortFunc(ks, func(x, y *testClock) int { return cmp.Compare(x.seq, y.seq) })
	for _, k := range ks {
		if cl.byID == nil {
			cl.byID = make(map[rid]*testClock)
		}
		cl.byID[k.id] = k
		cl.order = append(cl.order, k)
		cl.seq = max(cl.seq, k.seq)
	}
	return nil
}

func subscriptionFromRecord(rec subscriptionRecord, cat *catalog) (*subscription, error) {
	bad := fmt.Errorf("data file: subscription %q is malformed", rec.ID)
	id, ok1 := parseRID(rec.ID, wire.SubscriptionIDPrefix)
	cus, ok2 := parseRID(rec.Customer, wire.CustomerIDPrefix)
	src, ok3 := parseOptID(rec.DefaultSource, wire.SourceIDPrefix)
	latest, ok4 := parseOptID(rec.LatestInvoice, wire.InvoiceIDPrefix)
	status, ok5 := intern(wire.SubscriptionStatuses, rec.Status)
	clk, ok6 := parseOptID(rec.Clock, wire.TestClockIDPrefix)
	if !ok1 || !ok2 || !ok3 || !ok4 || !ok5 || !ok6 || rec.Seq == 0 || len(rec.Items) == 0 {
		return nil, bad
	}
	s := &subscription{id: id, seq: rec.Seq, created: rec.Created, customer: cus, defaultSource: src, status: status,
		periodStart: rec.PeriodStart, periodEnd: rec.PeriodEnd, cancelAtPeriodEnd: rec.CancelAtPeriodEnd,
		canceledAt: rec.CanceledAt, trialStart: rec.TrialStart, trialEnd: rec.TrialEnd, latestInvoice: latest,
		trialNoticeSent: rec.TrialNoticeSent, anchor: rec.Anchor, cycle: rec.Cycle, clock: clk,
		meta: metaFromRecord(rec.Meta)}
	for _, it := range rec.Items {
		iid, ok := parseRID(it.ID, wire.SubscriptionItemIDPrefix)
		pid, ok2 := parseRID(it.Price, wire.PriceIDPrefix)
		pr := cat.prices[pid]
		if !ok || !ok2 || pr == nil || !pr.isRecurring() {
			return nil, fmt.Errorf("data file: subscription %s names price %q, which the file lacks or does not recur", rec.ID, it.Price)
		}
		s.items = append(s.items, subItem{id: iid, price: pr, quantity: it.Quantity})
	}
	return s, nil
}

func invoiceFromRecord(rec invoiceRecord) (*invoice, error) {
	id, ok1 := parseRID(rec.ID, wire.InvoiceIDPrefix)
	cus, ok2 := parseRID(rec.Customer, wire.CustomerIDPrefix)
	sub, ok3 := parseRID(rec.Subscription, wire.SubscriptionIDPrefix)
	pay, ok4 := parseOptID(rec.Payment, wire.PaymentIDPrefix)
	status, ok5 := intern(wire.InvoiceStatuses, rec.Status)
	reason, ok6 := intern(billingReasons, rec.BillingReason)
	cur, okCur := intern(wire.Currencies, rec.Currency)
	if !ok1 || !ok2 || !ok3 || !ok4 || !ok5 || !ok6 || !okCur || rec.Seq == 0 {
		return nil, fmt.Errorf("data file: invoice %q is malformed", rec.ID)
	}
	inv := &invoice{id: id, seq: rec.Seq, created: rec.Created, customer: cus, subscription: sub, status: status,
		billingReason: reason, amountDue: rec.AmountDue, amountPaid: rec.AmountPaid, currency: cur, attempts: rec.Attempts,
		nextAttempt: rec.NextAttempt, payment: pay, periodStart: rec.PeriodStart, periodEnd: rec.PeriodEnd}
	for _, l := range rec.Lines {
		item, ok := parseRID(l.Item, wire.SubscriptionItemIDPrefix)
		pr, ok2 := parseRID(l.Price, wire.PriceIDPrefix)
		if !ok || !ok2 {
			return nil, fmt.Errorf("data file: invoice %q has a malformed line", rec.ID)
		}
		inv.lines = append(inv.lines, invoiceLine{item: item, price: pr, quantity: l.Quantity, amount: l.Amount})
	}
	return inv, nil
}
