package sandbox

import (
	"encoding/json"
	"maps"
	"slices"
	"time"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/apierr"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/delivery"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/form"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/model"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/storage"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// The account at a glance (GET /_sandbox/summary): counts by status and
// per-day figures kept as objects change, where they are put
// (store_records.go), so that the answer reads at most a year of days
// and never the objects. Each object remembers what the summary counted
// of it (Payment.MarkSummed, Subscription.SumStatus and SumMRR,
// Invoice.SumStatus), and a change counts the difference: one place per
// kind, whichever handler or renewal step made the change. The days are
// records of the account (model.BucketSummaryDays), written in the
// commit of the change that moved them and charged to the account; the
// deliveries' days are the delivery book's, on real time
// (delivery.BucketDays).

// summaryState is an account's summary, under its lock.
type summaryState struct {
	// By status, now; a status with no object has no entry.
	payments, subs, invoices map[string]int64
	// days are the days that had activity on the objects' time, by day
	// number, and sorted their numbers in order.
	days   map[int64]*model.SummaryDay
	sorted []int64
	// mrr is the sum of every day's MRR change, by currency: the
	// recurring revenue of the subscriptions that count in it now.
	mrr map[string]int64
	// rebuilt is set when the days were counted from the objects at
	// load, until they are written.
	rebuilt bool
}

// move counts an object whose status went from one to another ("" for
// none) in m, created when needed.
func move(m *map[string]int64, from, to string) {
	if *m == nil {
		*m = make(map[string]int64)
	}
	if from != "" {
		if (*m)[from]--; (*m)[from] <= 0 {
			delete(*m, from)
		}
	}
	if to != "" {
		(*m)[to]++
	}
}

// day is the summary's day of day number n, made when it has none.
func (sm *summaryState) day(n int64) *model.SummaryDay {
	if d := sm.days[n]; d != nil {
		return d
	}
	if sm.days == nil {
		sm.days = make(map[int64]*model.SummaryDay)
	}
	d := &model.SummaryDay{Day: n}
	sm.days[n] = d
	i, _ := slices.BinarySearch(sm.sorted, n)
	sm.sorted = slices.Insert(sm.sorted, i, n)
	return d
}

// addMRR adds delta in cur to day d and to the running total.
func (sm *summaryState) addMRR(d *model.SummaryDay, cur string, delta int64) {
	d.AddMRR(cur, delta)
	if sm.mrr == nil {
		sm.mrr = make(map[string]int64)
	}
	sm.mrr[cur] += delta
}

// sumDay is the day of the Unix time unix, staged to be written with the
// call's changes: once per commit, since a record is encoded at commit.
func (c *call) sumDay(unix int64) *model.SummaryDay {
	d := c.a.sum.day(wire.SummaryDayOf(unix))
	if c.s.durable && !slices.Contains(c.sumStaged, d) {
		c.sumStaged = append(c.sumStaged, d)
		c.addOp(storage.PutRecord(model.BucketSummaryDays, d))
	}
	return d
}

// sumPayment counts the change of p since it was last counted: its
// status; made approved or declined on the day it was created (a 3-D
// Secure payment once completed, a capture of less than authorized by
// what it captured); refunded and disputed on the call's day.
func (c *call) sumPayment(p *model.Payment) {
	if p.IsSummed() {
		return
	}
	oldStatus, oldAmount, oldRefunded := p.SummedStatus(), int64(p.Summed.Amount), int64(p.Summed.Refunded)
	sm := &c.a.sum
	move(&sm.payments, oldStatus, p.Status)
	wasA, wasD := model.MadeApproved(oldStatus), model.MadeDeclined(oldStatus)
	isA, isD := model.MadeApproved(p.Status), model.MadeDeclined(p.Status)
	if wasA != isA || wasD != isD || ((isA || isD) && oldAmount != p.Amount) {
		d := c.sumDay(p.Created)
		v := d.Volume(p.Currency)
		tally(&v.Approved, wasA, -1, -oldAmount)
		tally(&v.Declined, wasD, -1, -oldAmount)
		tally(&v.Approved, isA, 1, p.Amount)
		tally(&v.Declined, isD, 1, p.Amount)
		c.a.recount(&d.Counted, d.MemBytes())
	}
	if p.Refunded != oldRefunded {
		d := c.sumDay(c.unix)
		tally(&d.Volume(p.Currency).Refunded, true, 1, p.Refunded-oldRefunded)
		c.a.recount(&d.Counted, d.MemBytes())
	}
	if p.Status == wire.PaymentStatusDisputed && oldStatus != wire.PaymentStatusDisputed {
		d := c.sumDay(c.unix)
		tally(&d.Volume(p.Currency).Disputed, true, 1, p.Amount-p.Refunded)
		c.a.recount(&d.Counted, d.MemBytes())
	}
	p.MarkSummed()
}

// tally adds n and amount to t when do.
func tally(t *wire.SummaryTally, do bool, n, amount int64) {
	if do {
		t.Count += n
		t.Amount += amount
	}
}

// sumSubscription counts the change of s's status, and of the revenue it
// counts in (model.MRR) on the call's day.
func (c *call) sumSubscription(s *model.Subscription) {
	if s.SumStatus != s.Status {
		move(&c.a.sum.subs, s.SumStatus, s.Status)
		s.SumStatus = s.Status
	}
	if m := model.MRR(s); m != s.SumMRR {
		d := c.sumDay(c.unix)
		c.a.sum.addMRR(d, s.Currency(), m-s.SumMRR)
		s.SumMRR = m
		c.a.recount(&d.Counted, d.MemBytes())
	}
}

// sumInvoice counts the change of inv's status.
func (c *call) sumInvoice(inv *model.Invoice) {
	if inv.SumStatus != inv.Status {
		move(&c.a.sum.invoices, inv.SumStatus, inv.Status)
		inv.SumStatus = inv.Status
	}
}

// sumRenewal counts a renewal's invoice paid, or a charge of it that
// failed, on the call's day; other invoices are no renewal.
func (c *call) sumRenewal(inv *model.Invoice, paid bool) {
	if inv.BillingReason != wire.BillingReasonSubscriptionCycle {
		return
	}
	d := c.sumDay(c.unix)
	if paid {
		d.RenewalsPaid++
	} else {
		d.RenewalsFailed++
	}
	c.a.recount(&d.Counted, d.MemBytes())
}

// loadSummary reads the account's days from their records and counts its
// objects by status, once they are loaded. An account stored before the
// summary was kept has no day: its days are counted from its objects, as
// best they tell (rebuildSummary), and rebuilt reports it, for the
// caller to write them.
func (a *account) loadSummary(recs [][]byte) (rebuilt bool, err error) {
	sm := &a.sum
	for _, raw := range recs {
		d, err := model.SummaryDayFromRecord(raw)
		if err != nil {
			return false, err
		}
		*sm.day(d.Day) = *d
		for _, m := range d.MRR {
			if sm.mrr == nil {
				sm.mrr = make(map[string]int64)
			}
			sm.mrr[m.Currency] += m.Amount
		}
	}
	for _, p := range a.order {
		move(&sm.payments, "", p.Status)
		p.MarkSummed()
	}
	for _, s := range a.bill.SubOrder {
		move(&sm.subs, "", s.Status)
		s.SumStatus, s.SumMRR = s.Status, model.MRR(s)
	}
	for _, inv := range a.bill.InvoiceOrder {
		move(&sm.invoices, "", inv.Status)
		inv.SumStatus = inv.Status
	}
	if len(recs) > 0 {
		return false, nil
	}
	a.rebuildSummary()
	return len(sm.days) > 0, nil
}

// rebuildSummary counts the days of an account stored before they were
// kept, from what its objects tell: a payment made, refunded and
// disputed on the day it was created (a refund's and a dispute's own day
// are not kept), a subscription's revenue from its creation, a renewal's
// invoice paid on its creation's day and its declined charges on theirs.
func (a *account) rebuildSummary() {
	sm := &a.sum
	for _, p := range a.order {
		isA, isD := model.MadeApproved(p.Status), model.MadeDeclined(p.Status)
		if !isA && !isD {
			continue
		}
		v := sm.day(wire.SummaryDayOf(p.Created)).Volume(p.Currency)
		tally(&v.Approved, isA, 1, p.Amount)
		tally(&v.Declined, isD, 1, p.Amount)
		tally(&v.Refunded, p.Refunded > 0, 1, p.Refunded)
		tally(&v.Disputed, p.Status == wire.PaymentStatusDisputed, 1, p.Amount-p.Refunded)
		if inv := a.bill.Invoices[p.Invoice]; isD && inv != nil && inv.BillingReason == wire.BillingReasonSubscriptionCycle {
			sm.day(wire.SummaryDayOf(p.Created)).RenewalsFailed++
		}
	}
	for _, s := range a.bill.SubOrder {
		if s.SumMRR != 0 {
			sm.addMRR(sm.day(wire.SummaryDayOf(s.Created)), s.Currency(), s.SumMRR)
		}
	}
	for _, inv := range a.bill.InvoiceOrder {
		if inv.Status == wire.InvoiceStatusPaid && inv.BillingReason == wire.BillingReasonSubscriptionCycle {
			sm.day(wire.SummaryDayOf(inv.Created)).RenewalsPaid++
		}
	}
}

// summaryOps are the writes of every day, after a rebuild.
func (a *account) summaryOps() []storage.Op {
	ops := make([]storage.Op, 0, len(a.sum.sorted))
	for _, n := range a.sum.sorted {
		ops = append(ops, storage.PutRecord(model.BucketSummaryDays, a.sum.days[n]))
	}
	return ops
}

// summary is GET /_sandbox/summary: the account's counts now, and its
// last days' figures, on its own time (see wire.Summary).
func (c *call) summary() response {
	if e := c.f.Check(wire.ParamSummaryDays); e != nil {
		return errResponse(e)
	}
	n := int64(wire.SummaryDaysDefault)
	if v, _ := c.f.Get(wire.ParamSummaryDays); v != "" {
		var e *apierr.Error
		if n, e = form.ParseCount(wire.ParamSummaryDays, v, 1, wire.SummaryDaysMax); e != nil {
			return errResponse(e)
		}
	}
	a, sm := c.a, &c.a.sum
	now := c.wallNow().Unix()
	for _, k := range a.clocks.ByID {
		now = max(now, k.Frozen)
	}
	until := wire.SummaryDayOf(now)
	from := until - (n - 1)
	out := wire.Summary{
		Object: wire.ObjectSummary,
		Now:    time.Unix(now, 0).UTC().Format(time.RFC3339),
		From:   wire.SummaryDate(from), Until: wire.SummaryDate(until),
		TestClocks: int64(len(a.clocks.ByID)),
		Counts: wire.SummaryCounts{
			Customers: int64(len(a.customers)), Cards: int64(a.sources),
			PaymentsByStatus: nonNil(sm.payments), SubscriptionsByStatus: nonNil(sm.subs), InvoicesByStatus: nonNil(sm.invoices),
			WebhookEndpoints: int64(len(a.wh.endpoints)),
		},
		MRRBefore: []wire.SummaryAmount{},
		Days:      []wire.SummaryDay{},
	}
	// What the revenue was before from: all of it, less the days since.
	before := maps.Clone(sm.mrr)
	i, _ := slices.BinarySearch(sm.sorted, from)
	for _, d := range sm.sorted[i:] {
		for _, m := range sm.days[d].MRR {
			before[m.Currency] -= m.Amount
		}
	}
	for _, cur := range slices.Sorted(maps.Keys(before)) {
		if before[cur] != 0 {
			out.MRRBefore = append(out.MRRBefore, wire.SummaryAmount{Currency: cur, Amount: before[cur]})
		}
	}
	deliveries := a.wh.book.Days(from, until)
	for _, d := range sm.sorted[i:] {
		if d > until {
			break
		}
		for len(deliveries) > 0 && deliveries[0].Day < d {
			out.Days = append(out.Days, deliveryDay(deliveries[0], wire.SummaryDay{Date: wire.SummaryDate(deliveries[0].Day)}))
			deliveries = deliveries[1:]
		}
		w, active := sm.days[d].Wire()
		if len(deliveries) > 0 && deliveries[0].Day == d {
			w, active = deliveryDay(deliveries[0], w), true
			deliveries = deliveries[1:]
		}
		if active {
			out.Days = append(out.Days, w)
		}
	}
	for _, t := range deliveries {
		out.Days = append(out.Days, deliveryDay(t, wire.SummaryDay{Date: wire.SummaryDate(t.Day)}))
	}
	b, err := json.Marshal(&out)
	if err != nil {
		panic(err) // plain structs, maps of strings
	}
	return ok(b)
}

// deliveryDay is w with the deliveries of t.
func deliveryDay(t delivery.DayTally, w wire.SummaryDay) wire.SummaryDay {
	w.DeliveriesSucceeded, w.DeliveriesFailed = t.Succeeded, t.Failed
	return w
}

// nonNil is m, or an empty map for none: the answer lists {} rather than
// null.
func nonNil(m map[string]int64) map[string]int64 {
	if m == nil {
		return map[string]int64{}
	}
	return m
}
