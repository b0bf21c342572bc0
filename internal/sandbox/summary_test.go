package sandbox_test

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"maps"
	"math/rand/v2"
	"net/http"
	"net/url"
	"path/filepath"
	"slices"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/clock"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/sandboxtest"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/storage"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

func (e *env) summary(days string) *wire.Summary {
	e.t.Helper()
	var s wire.Summary
	q := url.Values{}
	if days != "" {
		q.Set(wire.ParamSummaryDays, days)
	}
	e.get(wire.PathSandboxSummary, q).ok(&s)
	return &s
}

// TestSummary_Figures: each kind of change moves the figures it names,
// on the day it names.
func TestSummary_Figures(t *testing.T) {
	t.Parallel()
	day0 := time.Date(2026, 3, 10, 12, 0, 0, 0, time.UTC)
	fake := clock.NewFake(day0)
	e := newEnv(t, sandboxtest.WithClock(fake))
	cu := e.customer(vals("source", sandbox.TokenVisa))
	e.customer(vals("source", sandbox.TokenMastercard))
	p1 := e.payment(pay("1000", "USD", "", "customer", cu.ID))
	e.post(wire.PathPayments, pay("500", "USD", sandbox.TokenDeclined)).fails(402, wire.ErrorTypeCard, wire.ErrorCodeCardDeclined, "")
	p3 := e.payment(pay("700", "EUR", sandbox.Token3DS))
	p4 := e.payment(pay("300", "USD", sandbox.TokenVisa, "capture", "false"))
	pr := e.plan("1500")
	yearly := e.price(e.product("name", "Yearly").ID, "unit_amount", "12000", "recurring[interval]", "year")
	s := e.subscribe("customer", cu.ID, "items[0][price]", pr.ID, "items[0][quantity]", "2")
	e.subscribe("customer", cu.ID, "items[0][price]", yearly.ID)

	fake.Set(day0.Add(24 * time.Hour))
	e.post(wire.PathPayments+"/"+p4.ID+"/capture", vals("amount", "200")).ok(nil)
	e.post(wire.PathPayments+"/"+p1.ID+"/refund", vals("amount", "400")).ok(nil)
	e.post("/_sandbox/payments/"+p1.ID+"/dispute", nil).ok(nil)
	e.post("/_sandbox/payments/"+p3.ID+"/complete", vals("outcome", "approved")).ok(nil)
	e.del(wire.PathSubscriptions + "/" + s.ID).ok(nil)

	got := e.summary("")
	want := wire.SummaryCounts{
		Customers: 2, Cards: 2,
		PaymentsByStatus:      map[string]int64{"disputed": 1, "declined": 1, "approved": 4},
		SubscriptionsByStatus: map[string]int64{"active": 1, "canceled": 1},
		InvoicesByStatus:      map[string]int64{"paid": 2},
	}
	if fmt.Sprint(got.Counts) != fmt.Sprint(want) {
		t.Errorf("counts = %+v\nwant %+v", got.Counts, want)
	}
	if got.Now != "2026-03-11T12:00:00Z" || got.Until != "2026-03-11" || got.From != "2025-12-12" || got.TestClocks != 0 || len(got.MRRBefore) != 0 {
		t.Errorf("now %s, from %s until %s, %d clocks, mrr before %v", got.Now, got.From, got.Until, got.TestClocks, got.MRRBefore)
	}
	tal := func(n, amount int64) wire.SummaryTally { return wire.SummaryTally{Count: n, Amount: amount} }
	wantDays := []wire.SummaryDay{
		{Date: "2026-03-10", Payments: []wire.SummaryVolume{
			{Currency: "EUR", Approved: tal(1, 700)},
			// 1000 and 300 captured as 200, the two subscriptions' first
			// invoices of 3000 and 12000; 500 declined.
			{Currency: "USD", Approved: tal(4, 1000+200+3000+12000), Declined: tal(1, 500)},
		}, MRRChange: []wire.SummaryAmount{{Currency: "USD", Amount: 3000 + 1000}}},
		{Date: "2026-03-11", Payments: []wire.SummaryVolume{
			{Currency: "USD", Refunded: tal(1, 400), Disputed: tal(1, 600)},
		}, MRRChange: []wire.SummaryAmount{{Currency: "USD", Amount: -3000}}},
	}
	if fmt.Sprint(got.Days) != fmt.Sprint(wantDays) {
		t.Errorf("days =\n%+v\nwant\n%+v", got.Days, wantDays)
	}
	if one := e.summary("1"); one.From != "2026-03-11" || len(one.Days) != 1 || fmt.Sprint(one.MRRBefore) != "[{USD 4000}]" {
		t.Errorf("days=1: from %s, days %+v, mrr before %v", one.From, one.Days, one.MRRBefore)
	}
}

// TestSummary_Days: days is 1 to 366; anything else is refused naming it.
func TestSummary_Days(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	for _, tc := range []struct {
		days     string
		from     int // days before until; -1 when refused
		refusals string
	}{
		{"", 89, ""}, {"1", 0, ""}, {"366", 365, ""}, {"90", 89, ""},
		{"0", -1, ""}, {"367", -1, ""}, {"-1", -1, ""}, {"1.5", -1, ""}, {"x", -1, ""}, {"1e1", -1, ""},
	} {
		q := url.Values{wire.ParamSummaryDays: {tc.days}}
		if tc.from < 0 {
			e.get(wire.PathSandboxSummary, q).fails(400, wire.ErrorTypeInvalidRequest, wire.ErrorCodeParameterInvalid, wire.ParamSummaryDays)
			continue
		}
		var s wire.Summary
		e.get(wire.PathSandboxSummary, q).ok(&s)
		from, _ := time.Parse(time.DateOnly, s.From)
		until, _ := time.Parse(time.DateOnly, s.Until)
		if int(until.Sub(from).Hours()/24) != tc.from {
			t.Errorf("days=%q: from %s until %s", tc.days, s.From, s.Until)
		}
	}
	e.get(wire.PathSandboxSummary, vals("limit", "3")).fails(400, wire.ErrorTypeInvalidRequest, wire.ErrorCodeParameterUnknown, "limit")
	e.post(wire.PathSandboxSummary, nil).fails(404, wire.ErrorTypeInvalidRequest, wire.ErrorCodeUnrecognizedURL, "")
}

// TestSummary_MatchesRecount: after a random run of the API (payments in
// every outcome, captures, refunds, disputes, 3-D Secure, subscriptions on
// real time and on test clocks advanced across months with cards that
// decline, invoices paid and voided, customers and cards removed, webhook
// deliveries, a reset), the summary equals the same figures counted
// afresh from every object the API lists: in memory, and with a data
// file, where it does so again after a restart.
func TestSummary_MatchesRecount(t *testing.T) {
	t.Parallel()
	for _, withData := range []bool{false, true} {
		t.Run(map[bool]string{false: "memory", true: "data"}[withData], func(t *testing.T) {
			t.Parallel()
			seed := testSeed(t)
			start := time.Date(2026, 1, 30, 22, 0, 0, 0, time.UTC)
			fake := clock.NewFake(start)
			path := filepath.Join(t.TempDir(), "sandbox.db")
			key := sandboxtest.NewKey(t)
			e, stop := newEnv(t, sandboxtest.WithClock(fake)), func() {}
			if withData {
				e, stop = openEnv(t, path, key, sandboxtest.WithClock(fake))
			}
			var answered atomic.Int64
			rc := newReceiver(t)
			rc.handle = func(w http.ResponseWriter, _ *http.Request, _ hit) {
				if answered.Add(1)%3 == 0 {
					w.WriteHeader(http.StatusInternalServerError)
					return
				}
				w.WriteHeader(http.StatusOK)
			}
			done := make(chan struct{})
			t.Cleanup(func() { close(done) })
			go func() {
				for { // unread, the hits would fill their channel
					select {
					case <-rc.hits:
					case <-done:
						return
					}
				}
			}()

			r := &summaryRun{e: e, rng: rand.New(rand.NewPCG(uint64(seed), 7)), fake: fake, receiver: rc.URL}
			r.setUp()
			for i := range 300 {
				if i == 150 {
					checkSummary(t, e, "before the reset")
					e.post(wire.PathSandboxReset, nil).ok(nil)
					r.forget()
					r.setUp()
				}
				r.step()
			}
			checkSummary(t, e, "after the run")
			got := e.summary("366")
			var renewed, failed, delivered int64
			for _, d := range got.Days {
				renewed, failed, delivered = renewed+d.RenewalsPaid, failed+d.RenewalsFailed, delivered+d.DeliveriesSucceeded+d.DeliveriesFailed
			}
			t.Logf("after the reset: %d days, payments %v, subscriptions %v, invoices %v, renewals %d paid and %d failed, %d delivery attempts",
				len(got.Days), got.Counts.PaymentsByStatus, got.Counts.SubscriptionsByStatus, got.Counts.InvoicesByStatus, renewed, failed, delivered)
			if !withData {
				return
			}
			stop()
			e, stop = openEnv(t, path, key, sandboxtest.WithClock(fake))
			defer stop()
			checkSummary(t, e, "after a restart")
		})
	}
}

// summaryRun is a random run of the API on one account.
type summaryRun struct {
	e        *env
	rng      *rand.Rand
	fake     *clock.Fake
	receiver string
	moved    time.Duration

	clocks, customers, payments, subs, endpoints, prices []string
}

func (r *summaryRun) pick(ids []string) string {
	if len(ids) == 0 {
		return "none"
	}
	return ids[r.rng.IntN(len(ids))]
}

func (r *summaryRun) forget() {
	r.clocks, r.customers, r.payments, r.subs, r.endpoints, r.prices = nil, nil, nil, nil, nil, nil
}

// setUp makes the prices and test clocks the run uses.
func (r *summaryRun) setUp() {
	e := r.e
	for _, f := range [][]string{
		{"unit_amount", "1500", "recurring[interval]", "month"},
		{"unit_amount", "999", "recurring[interval]", "month", "recurring[interval_count]", "3"},
		{"unit_amount", "700", "recurring[interval]", "week", "recurring[interval_count]", "2"},
		{"unit_amount", "12000", "recurring[interval]", "year", "currency", "EUR"},
	} {
		r.prices = append(r.prices, e.price(e.product("name", "Plan").ID, f...).ID)
	}
	for range 2 {
		at := r.fake.Now().Add(-20 * 24 * time.Hour).Unix()
		r.clocks = append(r.clocks, e.testClock("frozen_time", strconv.FormatInt(at, 10)).ID)
	}
	// On the first clock, renewals that are paid and renewals that fail.
	for _, card := range []string{sandbox.TokenVisa, sandbox.TokenDeclinedLater} {
		cu := e.customer(vals("source", card, "test_clock", r.clocks[0]))
		r.customers = append(r.customers, cu.ID)
		r.subs = append(r.subs, e.subscribe("customer", cu.ID, "items[0][price]", r.prices[0]).ID)
	}
}

// step makes one random change, answered or refused.
func (r *summaryRun) step() {
	e, rng := r.e, r.rng
	post := func(path string, f url.Values) *result { return e.do(http.MethodPost, path, f) }
	id := func(res *result) string {
		var v struct {
			ID string `json:"id"`
		}
		_ = json.Unmarshal(res.body, &v)
		return v.ID
	}
	cards := []string{sandbox.TokenVisa, sandbox.TokenDeclinedLater, sandbox.Token3DS, sandbox.TokenMastercard}
	switch n := rng.IntN(100); {
	case n < 10:
		f := vals("source", cards[rng.IntN(len(cards))])
		if rng.IntN(3) > 0 {
			f.Set("test_clock", r.pick(r.clocks))
		}
		if res := post(wire.PathCustomers, f); res.status == 200 {
			r.customers = append(r.customers, id(res))
		}
	case n < 25:
		tokens := []string{sandbox.TokenVisa, sandbox.TokenDeclined, sandbox.Token3DS, sandbox.TokenMastercard}
		f := pay(strconv.Itoa(100+rng.IntN(5000)), []string{"USD", "EUR"}[rng.IntN(2)], "")
		if rng.IntN(2) == 0 {
			f.Set("customer", r.pick(r.customers))
		} else {
			f.Set("source", tokens[rng.IntN(len(tokens))])
		}
		if rng.IntN(4) == 0 {
			f.Set("capture", "false")
		}
		if res := post(wire.PathPayments, f); res.status == 200 || res.status == 402 {
			var eb wire.ErrorBody
			if json.Unmarshal(res.body, &eb) == nil && eb.Error != nil && eb.Error.Payment != "" {
				r.payments = append(r.payments, eb.Error.Payment)
			} else {
				r.payments = append(r.payments, id(res))
			}
		}
	case n < 29:
		f := url.Values{}
		if rng.IntN(2) == 0 {
			f.Set("amount", strconv.Itoa(50+rng.IntN(200)))
		}
		post(wire.PathPayments+"/"+r.pick(r.payments)+"/capture", f)
	case n < 34:
		f := url.Values{}
		if o := []string{"", "approved", "authorized", "declined"}[rng.IntN(4)]; o != "" {
			f.Set("outcome", o)
		}
		post("/_sandbox/payments/"+r.pick(r.payments)+"/complete", f)
	case n < 40:
		f := url.Values{}
		if rng.IntN(2) == 0 {
			f.Set("amount", strconv.Itoa(50+rng.IntN(300)))
		}
		post(wire.PathPayments+"/"+r.pick(r.payments)+"/refund", f)
	case n < 43:
		post("/_sandbox/payments/"+r.pick(r.payments)+"/dispute", nil)
	case n < 57:
		f := vals("customer", r.pick(r.customers), "items[0][price]", r.pick(r.prices), "items[0][quantity]", strconv.Itoa(1+rng.IntN(3)))
		if rng.IntN(5) == 0 {
			f.Set("trial_period_days", "7")
		}
		if res := post(wire.PathSubscriptions, f); res.status == 200 {
			r.subs = append(r.subs, id(res))
		}
	case n < 61:
		post(wire.PathSubscriptions+"/"+r.pick(r.subs), vals("quantity", strconv.Itoa(1+rng.IntN(4))))
	case n < 63:
		e.do(http.MethodDelete, wire.PathSubscriptions+"/"+r.pick(r.subs), nil)
	case n < 65:
		e.do(http.MethodDelete, wire.PathCustomers+"/"+r.pick(r.customers), nil)
	case n < 67:
		post(wire.PathCustomers+"/"+r.pick(r.customers)+"/sources", vals("source", cards[rng.IntN(len(cards))]))
	case n < 85:
		var k wire.TestClock
		clk := r.pick(r.clocks)
		if res := e.do(http.MethodGet, wire.PathTestClocks+"/"+clk, nil); res.status != 200 || json.Unmarshal(res.body, &k) != nil {
			return
		}
		at, _ := time.Parse(time.RFC3339, k.FrozenTime)
		to := at.Add(time.Duration(8+rng.IntN(18)) * 24 * time.Hour)
		post(wire.PathTestClocks+"/"+clk+"/advance", vals("frozen_time", strconv.FormatInt(to.Unix(), 10)))
	case n < 91:
		status := []string{"open", "uncollectible"}[rng.IntN(2)]
		invs := e.ids(wire.PathInvoices, "status", status, "limit", "20")
		if len(invs) == 0 {
			return
		}
		action := []string{"pay", "void"}[rng.IntN(2)]
		post(wire.PathInvoices+"/"+r.pick(invs)+"/"+action, nil)
	case n < 94:
		if r.moved < 72*time.Hour {
			r.moved += 5 * time.Hour
			r.fake.Set(r.fake.Now().Add(5 * time.Hour))
		}
	case n < 97:
		if len(r.endpoints) < 2 {
			f := vals(wire.ParamURL, r.receiver+"/hook")
			for _, typ := range []string{"payment.partially_refunded", "payment.disputed", "invoice.payment_failed", "customer.created"} {
				f.Add(wire.ParamEnabledEventsItem, typ)
			}
			if res := post(wire.PathWebhookEndpoints, f); res.status == 200 {
				r.endpoints = append(r.endpoints, id(res))
			}
		}
	case n < 98:
		e.do(http.MethodDelete, wire.PathWebhookEndpoints+"/"+r.pick(r.endpoints), nil)
	default:
		// The first clock stays, for its renewals.
		if len(r.clocks) > 1 {
			e.del(wire.PathTestClocks + "/" + r.clocks[1]).ok(nil)
			r.clocks = r.clocks[:1]
		}
	}
}

// checkSummary compares the account's summary, for a few spans, with the
// figures counted afresh from every object it lists; the deliveries are
// made in the background, so it waits for the two to agree.
func checkSummary(t *testing.T, e *env, when string) {
	t.Helper()
	var diff string
	waitFor(t, 15*time.Second, "the summary to match a recount "+when, func() bool {
		diff = ""
		for _, days := range []int{366, 30, 1} {
			got := e.summary(strconv.Itoa(days))
			want := recountSummary(t, e, got.Now, days)
			g, _ := json.MarshalIndent(got, "", " ")
			w, _ := json.MarshalIndent(want, "", " ")
			if string(g) != string(w) {
				diff += fmt.Sprintf("days=%d:\n%s\nwant\n%s\n", days, g, w)
			}
		}
		return diff == ""
	})
	if diff != "" {
		t.Errorf("%s: %s", when, diff)
	}
}

// listAll is every object of the list at path, oldest first.
func listAll[T any](t *testing.T, e *env, path string, q ...string) []*T {
	t.Helper()
	var out []*T
	after := ""
	for {
		f := vals(append([]string{"limit", "100"}, q...)...)
		if after != "" {
			f.Set("starting_after", after)
		}
		var page wire.List[json.RawMessage]
		e.get(path, f).ok(&page)
		for _, raw := range page.Data {
			var v T
			var idOnly struct {
				ID string `json:"id"`
			}
			if err := json.Unmarshal(*raw, &v); err != nil {
				t.Fatal(err)
			}
			_ = json.Unmarshal(*raw, &idOnly)
			after = idOnly.ID
			out = append(out, &v)
		}
		if !page.HasMore {
			break
		}
	}
	slices.Reverse(out)
	return out
}

// recountSummary counts the summary of days ending at now from the
// objects: payments made by their creation's day, refunds, disputes,
// renewals and the revenue's changes by their events' day, deliveries by
// their attempts'.
func recountSummary(t *testing.T, e *env, now string, days int) *wire.Summary {
	t.Helper()
	type dayFigures struct {
		vol                  map[string]*wire.SummaryVolume
		mrr                  map[string]int64
		paid, failed, ok, ko int64
	}
	figures := map[string]*dayFigures{}
	day := func(at string) *dayFigures {
		ts, err := time.Parse(time.RFC3339, at)
		if err != nil {
			t.Fatalf("time %q: %v", at, err)
		}
		d := ts.UTC().Format(time.DateOnly)
		if figures[d] == nil {
			figures[d] = &dayFigures{vol: map[string]*wire.SummaryVolume{}, mrr: map[string]int64{}}
		}
		return figures[d]
	}
	vol := func(f *dayFigures, cur string) *wire.SummaryVolume {
		if f.vol[cur] == nil {
			f.vol[cur] = &wire.SummaryVolume{Currency: cur}
		}
		return f.vol[cur]
	}
	add := func(tl *wire.SummaryTally, amount int64) { tl.Count++; tl.Amount += amount }

	sum := &wire.Summary{Object: wire.ObjectSummary, Now: now, MRRBefore: []wire.SummaryAmount{}, Days: []wire.SummaryDay{}}
	sum.Counts = wire.SummaryCounts{PaymentsByStatus: map[string]int64{}, SubscriptionsByStatus: map[string]int64{}, InvoicesByStatus: map[string]int64{}}
	for _, cu := range listAll[wire.Customer](t, e, wire.PathCustomers) {
		sum.Counts.Customers++
		sum.Counts.Cards += int64(len(cu.Sources.Data))
	}
	for _, p := range listAll[wire.Payment](t, e, wire.PathPayments) {
		sum.Counts.PaymentsByStatus[p.Status]++
		switch p.Status {
		case "pending":
		case "declined":
			add(&vol(day(p.CreatedAt), p.Currency).Declined, p.Amount)
		default:
			add(&vol(day(p.CreatedAt), p.Currency).Approved, p.Amount)
		}
	}
	for _, s := range listAll[wire.Subscription](t, e, wire.PathSubscriptions, "status", "all") {
		sum.Counts.SubscriptionsByStatus[s.Status]++
	}
	for _, inv := range listAll[wire.Invoice](t, e, wire.PathInvoices) {
		sum.Counts.InvoicesByStatus[inv.Status]++
	}
	sum.Counts.WebhookEndpoints = int64(len(listAll[wire.WebhookEndpoint](t, e, wire.PathWebhookEndpoints)))
	sum.TestClocks = int64(len(listAll[wire.TestClock](t, e, wire.PathTestClocks)))

	refunded := map[string]int64{}
	subMRR := map[string]int64{}
	for _, ev := range listAll[wire.Event](t, e, wire.PathEvents) {
		obj := ev.Data.Object
		switch ev.Type {
		case "payment.refunded", "payment.partially_refunded", "payment.disputed":
			var p wire.Payment
			_ = json.Unmarshal(obj, &p)
			if ev.Type == "payment.disputed" {
				add(&vol(day(ev.CreatedAt), p.Currency).Disputed, p.Amount-*p.AmountRefunded)
				continue
			}
			add(&vol(day(ev.CreatedAt), p.Currency).Refunded, *p.AmountRefunded-refunded[p.ID])
			refunded[p.ID] = *p.AmountRefunded
		case "invoice.paid", "invoice.payment_failed":
			var inv wire.Invoice
			_ = json.Unmarshal(obj, &inv)
			if inv.BillingReason != wire.BillingReasonSubscriptionCycle {
				continue
			}
			if ev.Type == "invoice.paid" {
				day(ev.CreatedAt).paid++
			} else {
				day(ev.CreatedAt).failed++
			}
		case "customer.subscription.created", "customer.subscription.updated", "customer.subscription.deleted":
			var s wire.Subscription
			_ = json.Unmarshal(obj, &s)
			m := recountMRR(&s)
			if m != subMRR[s.ID] {
				day(ev.CreatedAt).mrr[s.Items.Data[0].Price.Currency] += m - subMRR[s.ID]
				subMRR[s.ID] = m
			}
		}
	}
	var ds []wire.Delivery
	var l wire.List[wire.Delivery]
	e.get(wire.PathSandboxDeliveries, nil).ok(&l)
	for _, d := range l.Data {
		ds = append(ds, *d)
	}
	for _, d := range ds {
		if d.Attempt == 0 {
			continue
		}
		if d.Error == "" {
			day(d.At).ok++
		} else {
			day(d.At).ko++
		}
	}

	nowT, _ := time.Parse(time.RFC3339, now)
	until := nowT.UTC().Truncate(24 * time.Hour)
	from := until.AddDate(0, 0, -(days - 1))
	sum.Until, sum.From = until.Format(time.DateOnly), from.Format(time.DateOnly)
	before := map[string]int64{}
	for _, d := range slices.Sorted(maps.Keys(figures)) {
		f := figures[d]
		if d < sum.From {
			for cur, m := range f.mrr {
				before[cur] += m
			}
			continue
		}
		if d > sum.Until {
			continue
		}
		w := wire.SummaryDay{Date: d, RenewalsPaid: f.paid, RenewalsFailed: f.failed, DeliveriesSucceeded: f.ok, DeliveriesFailed: f.ko}
		for _, cur := range slices.Sorted(maps.Keys(f.vol)) {
			w.Payments = append(w.Payments, *f.vol[cur])
		}
		for _, cur := range slices.Sorted(maps.Keys(f.mrr)) {
			if f.mrr[cur] != 0 {
				w.MRRChange = append(w.MRRChange, wire.SummaryAmount{Currency: cur, Amount: f.mrr[cur]})
			}
		}
		if len(w.Payments) > 0 || len(w.MRRChange) > 0 || w.RenewalsPaid+w.RenewalsFailed+w.DeliveriesSucceeded+w.DeliveriesFailed > 0 {
			sum.Days = append(sum.Days, w)
		}
	}
	for _, cur := range slices.Sorted(maps.Keys(before)) {
		if before[cur] != 0 {
			sum.MRRBefore = append(sum.MRRBefore, wire.SummaryAmount{Currency: cur, Amount: before[cur]})
		}
	}
	return sum
}

// recountMRR is a subscription's monthly recurring revenue as the API
// documents it, counted apart from the sandbox's own.
func recountMRR(s *wire.Subscription) int64 {
	if s.Status != "active" && s.Status != "past_due" {
		return 0
	}
	var period int64
	for _, it := range s.Items.Data {
		period += it.Price.UnitAmount * it.Quantity
	}
	r := s.Items.Data[0].Price.Recurring
	n := r.IntervalCount
	perMonth := map[string][2]int64{"month": {1, n}, "year": {1, 12 * n}, "week": {52, 12 * n}, "day": {365, 12 * n}}[r.Interval]
	return (period*perMonth[0] + perMonth[1]/2) / perMonth[1]
}

// TestSummary_RebuiltForAnOldFile: an account stored before the summary
// was kept (no day records) has its days counted once from its objects
// and its delivery log at start, and written: here, where every change
// happened on the day of its object, the same summary as before.
func TestSummary_RebuiltForAnOldFile(t *testing.T) {
	t.Parallel()
	fake := clock.NewFake(time.Date(2026, 5, 4, 9, 0, 0, 0, time.UTC))
	path := filepath.Join(t.TempDir(), "sandbox.db")
	key := sandboxtest.NewKey(t)
	e, stop := openEnv(t, path, key, sandboxtest.WithClock(fake))
	rc := newReceiver(t)
	e.endpoint(rc.URL+"/hook", "payment.partially_refunded", "invoice.payment_failed")
	cu := e.customer(vals("source", sandbox.TokenVisa))
	p := e.payment(pay("2500", "USD", "", "customer", cu.ID))
	e.post(wire.PathPayments+"/"+p.ID+"/refund", vals("amount", "500")).ok(nil)
	q := e.payment(pay("900", "EUR", sandbox.TokenVisa))
	e.post("/_sandbox/payments/"+q.ID+"/dispute", nil).ok(nil)
	e.post(wire.PathPayments, pay("300", "USD", sandbox.TokenDeclined)).fails(402, wire.ErrorTypeCard, wire.ErrorCodeCardDeclined, "")
	pr := e.plan("1500")
	e.subscribe("customer", cu.ID, "items[0][price]", pr.ID, "items[0][quantity]", "3")
	k := e.testClock("frozen_time", "2026-04-01T00:00:00Z")
	for _, card := range []string{sandbox.TokenVisa, sandbox.TokenDeclinedLater} {
		kc := e.customer(vals("source", card, "test_clock", k.ID))
		e.subscribe("customer", kc.ID, "items[0][price]", pr.ID)
	}
	e.post(wire.PathTestClocks+"/"+k.ID+"/advance", vals("frozen_time", "2026-05-02T00:00:00Z")).ok(nil)
	e.waitDeliveries(nil, 2)
	want := e.summary("366")
	stop()

	// Forget the days, as a file of before the summary has none.
	st, err := storage.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	accounts, err := st.Load()
	if err != nil {
		t.Fatal(err)
	}
	id := sha256.Sum256([]byte(key))
	var ops []storage.Op
	days := map[string]int{}
	for _, bucket := range []string{"summary_days", "delivery_days"} {
		for k := range accounts[id].Buckets[bucket] {
			ops = append(ops, storage.Delete(bucket, k))
		}
		days[bucket] = len(accounts[id].Buckets[bucket])
	}
	if days["summary_days"] < 2 || days["delivery_days"] != 1 {
		t.Fatalf("the file holds %v days", days)
	}
	if err := st.Commit(id, ops); err != nil {
		t.Fatal(err)
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}

	for _, when := range []string{"counted from the objects", "read back as written"} {
		e, stop = openEnv(t, path, key, sandboxtest.WithClock(fake))
		got := e.summary("366")
		g, _ := json.Marshal(got)
		w, _ := json.Marshal(want)
		if string(g) != string(w) {
			t.Errorf("%s:\n%s\nwant\n%s", when, g, w)
		}
		stop()
		if st, err = storage.Open(path); err != nil {
			t.Fatal(err)
		}
		if accounts, err = st.Load(); err != nil {
			t.Fatal(err)
		}
		for bucket, n := range days {
			if got := len(accounts[id].Buckets[bucket]); got != n {
				t.Errorf("%s: the file holds %d records in %s, want %d", when, got, bucket, n)
			}
		}
		if err := st.Close(); err != nil {
			t.Fatal(err)
		}
	}
}
