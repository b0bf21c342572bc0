package sandbox_test

import (
	"encoding/json"
	"math/rand/v2"
	"net/http"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/sandboxtest"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

func (e *env) testClock(f ...string) *wire.TestClock {
	e.t.Helper()
	var k wire.TestClock
	e.post(wire.PathTestClocks, vals(f...)).ok(&k)
	return &k
}

// timedEvents are the account's events, oldest first, with their times.
func (e *env) timedEvents() (types, times []string) {
	e.t.Helper()
	var l wire.List[struct {
		Type      string `json:"type"`
		CreatedAt string `json:"created_at"`
	}]
	if err := json.Unmarshal(e.get(wire.PathEvents, vals("limit", "100")).ok(nil).body, &l); err != nil {
		e.t.Fatal(err)
	}
	for _, ev := range slices.Backward(l.Data) {
		types, times = append(types, ev.Type), append(times, ev.CreatedAt)
	}
	return types, times
}

func TestTestClocks_AdvanceRunsRenewalsInTimeOrder(t *testing.T) {
	t.Parallel()
	e := newEnv(t) // the sandbox itself runs on real time, months after the clock
	pr := e.plan("1500")
	k := e.testClock("frozen_time", "2026-01-31T12:00:00Z", "name", "January")
	if k.Status != wire.TestClockStatusReady || k.FrozenTime != "2026-01-31T12:00:00Z" || k.Name != "January" {
		t.Fatalf("clock = %+v", k)
	}
	paying := e.customer(vals("source", sandbox.TokenVisa, "test_clock", k.ID))
	failing := e.customer(vals("source", sandbox.TokenDeclinedLater, "test_clock", k.ID))
	if paying.TestClock != k.ID || paying.CreatedAt != k.FrozenTime {
		t.Fatalf("customer on the clock = %+v", paying)
	}
	a := e.subscribe("customer", paying.ID, "items[0][price]", pr.ID)
	b := e.subscribe("customer", failing.ID, "items[0][price]", pr.ID)
	if a.CreatedAt != k.FrozenTime || a.CurrentPeriodEnd != "2026-02-28T12:00:00Z" {
		t.Fatalf("subscription on the clock = %+v", a)
	}
	if n := len(e.invoices(a.ID)); n != 1 {
		t.Fatalf("%d invoices before any advance; the real clock renewed a clock's subscription", n)
	}
	_, before := e.timedEvents()
	skip := len(before)

	var moved wire.TestClock
	e.post(wire.PathTestClocks+"/"+k.ID+"/advance", vals("frozen_time", "2026-03-15T00:00:00Z")).ok(&moved)
	if moved.Status != wire.TestClockStatusReady || moved.FrozenTime != "2026-03-15T00:00:00Z" {
		t.Errorf("after advance = %+v", moved)
	}
	if invs := e.invoices(a.ID); len(invs) != 2 || invs[1].Status != wire.InvoiceStatusPaid || invs[1].CreatedAt != "2026-02-28T12:00:00Z" {
		t.Errorf("the paying subscription's invoices = %+v", invs)
	}
	invs := e.invoices(b.ID)
	if len(invs) != 2 || invs[1].Status != wire.InvoiceStatusOpen || invs[1].AttemptCount != 3 || invs[1].NextPaymentAttempt != "2026-03-15T12:00:00Z" {
		t.Errorf("the failing subscription's invoices = %+v", invs)
	}
	if s := e.subscription(b.ID); s.Status != wire.SubscriptionStatusPastDue {
		t.Errorf("the failing subscription is %s, want past_due", s.Status)
	}
	types, times := e.timedEvents()
	types, times = types[skip:], times[skip:]
	if types[0] != wire.EventTestClockAdvancing || types[len(types)-1] != wire.EventTestClockReady {
		t.Errorf("the advance's events are not bracketed by advancing and ready: %v", types)
	}
	if !slices.IsSorted(times) || times[0] != "2026-01-31T12:00:00Z" || times[len(times)-1] != "2026-03-15T00:00:00Z" {
		t.Errorf("the advance's events are not in the clock's time order: %v", times)
	}
	// The rest of dunning, in a second advance.
	e.post(wire.PathTestClocks+"/"+k.ID+"/advance", vals("frozen_time", "2026-03-20T00:00:00Z")).ok(nil)
	if s := e.subscription(b.ID); s.Status != wire.SubscriptionStatusCanceled || e.invoice(invs[1].ID).Status != wire.InvoiceStatusUncollectible {
		t.Errorf("after dunning on the clock: subscription %s", s.Status)
	}
}

func TestTestClocks_Validation(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	pr := e.plan("1500")
	k := e.testClock("frozen_time", "2026-01-31T12:00:00Z")
	cu := e.customer(vals("source", sandbox.TokenVisa, "test_clock", k.ID))
	e.subscribe("customer", cu.ID, "items[0][price]", pr.ID)
	plain := e.customer(nil)
	for _, tc := range []struct {
		name, path string
		f          []string
		code       string
		param      string
	}{
		{"no frozen_time", wire.PathTestClocks, nil, wire.ErrorCodeParameterMissing, "frozen_time"},
		{"not a time", wire.PathTestClocks, []string{"frozen_time", "yesterday"}, wire.ErrorCodeParameterInvalid, "frozen_time"},
		{"Unix seconds before 1971", wire.PathTestClocks, []string{"frozen_time", "31535999"}, wire.ErrorCodeParameterInvalid, "frozen_time"},
		{"Unix seconds past the latest", wire.PathTestClocks, []string{"frozen_time", "253402300800"}, wire.ErrorCodeParameterInvalid, "frozen_time"},
		{"backwards in Unix seconds", wire.PathTestClocks + "/" + k.ID + "/advance", []string{"frozen_time", "1769860799"}, wire.ErrorCodeParameterInvalid, "frozen_time"},
		{"backwards", wire.PathTestClocks + "/" + k.ID + "/advance", []string{"frozen_time", "2026-01-30T00:00:00Z"}, wire.ErrorCodeParameterInvalid, "frozen_time"},
		{"standing still", wire.PathTestClocks + "/" + k.ID + "/advance", []string{"frozen_time", "2026-01-31T12:00:00Z"}, wire.ErrorCodeParameterInvalid, "frozen_time"},
		{"over two periods", wire.PathTestClocks + "/" + k.ID + "/advance", []string{"frozen_time", "2026-04-01T00:00:00Z"}, wire.ErrorCodeParameterInvalid, "frozen_time"},
		{"unknown clock", wire.PathCustomers, []string{"test_clock", "clock_nope"}, wire.ErrorCodeResourceMissing, "test_clock"},
		{"clock after creation", wire.PathCustomers + "/" + plain.ID, []string{"test_clock", k.ID}, wire.ErrorCodeParameterInvalid, "test_clock"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := &env{t: t, url: e.url, key: e.key, hc: e.hc, srv: e.srv}
			e.post(tc.path, vals(tc.f...)).fails(400, wire.ErrorTypeInvalidRequest, tc.code, tc.param)
		})
	}
	var got wire.TestClock
	e.get(wire.PathTestClocks+"/"+k.ID, nil).ok(&got)
	if got.FrozenTime != k.FrozenTime {
		t.Errorf("a refused advance moved the clock to %s", got.FrozenTime)
	}
	// Exactly two periods is allowed, sent as Unix seconds as Stripe's
	// libraries send times; the answer keeps RFC 3339.
	var moved wire.TestClock
	e.post(wire.PathTestClocks+"/"+k.ID+"/advance", vals("frozen_time", "1774958400")).ok(&moved)
	if moved.FrozenTime != "2026-03-31T12:00:00Z" {
		t.Errorf("advanced to 1774958400: frozen_time %s, want 2026-03-31T12:00:00Z", moved.FrozenTime)
	}
	if u := e.testClock("frozen_time", "1769860800"); u.FrozenTime != k.FrozenTime {
		t.Errorf("created at 1769860800: frozen_time %s, want %s", u.FrozenTime, k.FrozenTime)
	}
}

func TestTestClocks_DeleteAndRestart(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "data.db")
	key := newEnv(t).key
	e, stop := openEnv(t, path, key)
	pr := e.plan("1500")
	k := e.testClock("frozen_time", "2026-01-31T12:00:00Z")
	other := e.testClock("frozen_time", "2026-06-01T00:00:00Z")
	cu := e.customer(vals("source", sandbox.TokenVisa, "test_clock", k.ID))
	s := e.subscribe("customer", cu.ID, "items[0][price]", pr.ID)
	e.post(wire.PathTestClocks+"/"+k.ID+"/advance", vals("frozen_time", "2026-02-10T00:00:00Z")).ok(nil)
	stop()
	e, stop = openEnv(t, path, key)
	defer stop()
	var got wire.TestClock
	e.get(wire.PathTestClocks+"/"+k.ID, nil).ok(&got)
	if got.FrozenTime != "2026-02-10T00:00:00Z" {
		t.Errorf("the clock after a restart = %+v", got)
	}
	if e.subscription(s.ID).Status != wire.SubscriptionStatusActive || len(e.invoices(s.ID)) != 1 {
		t.Errorf("the clock's subscription renewed on real time across the restart: %d invoices", len(e.invoices(s.ID)))
	}
	if got := e.ids(wire.PathTestClocks); !slices.Equal(got, []string{other.ID, k.ID}) {
		t.Errorf("clocks = %v", got)
	}
	var d wire.Deleted
	e.del(wire.PathTestClocks + "/" + k.ID).ok(&d)
	if d != (wire.Deleted{ID: k.ID, Object: "test_helpers.test_clock", Deleted: true}) {
		t.Errorf("delete = %+v", d)
	}
	e.get(wire.PathTestClocks+"/"+k.ID, nil).fails(404, wire.ErrorTypeInvalidRequest, wire.ErrorCodeResourceMissing, "")
	e.get(wire.PathCustomers+"/"+cu.ID, nil).fails(404, wire.ErrorTypeInvalidRequest, wire.ErrorCodeResourceMissing, "")
	if got := e.subscription(s.ID); got.Status != wire.SubscriptionStatusCanceled {
		t.Errorf("the deleted clock's subscription is %s, want canceled", got.Status)
	}
	if running, recounted := sandbox.AccountBytes(e.srv, e.key); running != recounted {
		t.Errorf("account bytes: running %d, recounted %d", running, recounted)
	}
}

// TestTestClocks_ExpiryEndsThe3DSPayment: an incomplete subscription whose
// first payment still waits for 3-D Secure expires with its invoice void
// and that payment declined, so that completing it afterwards cannot
// charge the customer for a void invoice.
func TestTestClocks_ExpiryEndsThe3DSPayment(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	pr := e.plan("1500")
	k := e.testClock("frozen_time", "2026-01-01T00:00:00Z")
	cu := e.customer(vals("source", sandbox.Token3DS, "test_clock", k.ID))
	s := e.subscribe("customer", cu.ID, "items[0][price]", pr.ID)
	if s.Status != wire.SubscriptionStatusIncomplete {
		t.Fatalf("a first charge waiting for 3-D Secure left the subscription %s, want incomplete", s.Status)
	}
	pay := e.invoice(s.LatestInvoice).Payment
	e.post(wire.PathTestClocks+"/"+k.ID+"/advance", vals("frozen_time", "2026-01-02T00:00:00Z")).ok(nil)
	if got := e.subscription(s.ID).Status; got != wire.SubscriptionStatusIncompleteExpired {
		t.Fatalf("after 24 hours the subscription is %s, want incomplete_expired", got)
	}
	if got := e.invoice(s.LatestInvoice).Status; got != wire.InvoiceStatusVoid {
		t.Fatalf("the expired subscription's invoice is %s, want void", got)
	}
	var p wire.Payment
	e.get(wire.PathPayments+"/"+pay, nil).ok(&p)
	if p.Status != wire.PaymentStatusDeclined || p.CreatedAt != "2026-01-01T00:00:00Z" {
		t.Errorf("the expired invoice's payment = %s created %s, want declined", p.Status, p.CreatedAt)
	}
	e.post("/_sandbox/payments/"+pay+"/complete", nil).fails(400, wire.ErrorTypeInvalidRequest, wire.ErrorCodePaymentUnexpectedState, "")
	if got := e.invoice(s.LatestInvoice); got.Status != wire.InvoiceStatusVoid || got.AmountPaid != 0 {
		t.Errorf("after completing its payment the void invoice is %s, %d paid", got.Status, got.AmountPaid)
	}
	types, times := e.timedEvents()
	i := slices.Index(types, "invoice.voided")
	if i < 1 || types[i-1] != "payment.declined" || times[i-1] != "2026-01-01T23:00:00Z" {
		t.Errorf("events = %v at %v, want payment.declined at the expiry before invoice.voided", types, times)
	}
}

// TestTestClocks_PayAfterDunning: an invoice whose retries ran out is
// uncollectible and can still be paid, as Stripe's can; paid, it brings
// an unpaid or past_due subscription back to active, whose renewals go
// on. A failed attempt leaves the subscription as dunning ended it.
func TestTestClocks_PayAfterDunning(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ end, after string }{
		{wire.SubscriptionStatusCanceled, wire.SubscriptionStatusCanceled},
		{wire.SubscriptionStatusUnpaid, wire.SubscriptionStatusActive},
		{wire.SubscriptionStatusPastDue, wire.SubscriptionStatusActive},
	} {
		t.Run(tc.end, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t, sandboxtest.WithOptions(sandbox.Options{DunningEnd: tc.end}))
			pr := e.plan("1500")
			k := e.testClock("frozen_time", "2026-01-01T00:00:00Z")
			cu := e.customer(vals("source", sandbox.TokenDeclinedLater, "test_clock", k.ID))
			s := e.subscribe("customer", cu.ID, "items[0][price]", pr.ID)
			e.post(wire.PathTestClocks+"/"+k.ID+"/advance", vals("frozen_time", "2026-02-20T00:00:00Z")).ok(nil)
			inv := e.invoice(e.subscription(s.ID).LatestInvoice)
			if got := e.subscription(s.ID).Status; got != tc.end || inv.Status != wire.InvoiceStatusUncollectible || inv.AttemptCount != 4 {
				t.Fatalf("after dunning: subscription %s, invoice %s after %d attempts", got, inv.Status, inv.AttemptCount)
			}

			var got wire.Invoice
			e.post(wire.PathInvoices+"/"+inv.ID+"/pay", nil).fails(402, wire.ErrorTypeCard, wire.ErrorCodeCardDeclined, "")
			e.get(wire.PathInvoices+"/"+inv.ID, nil).ok(&got)
			if got.Status != wire.InvoiceStatusUncollectible || got.AttemptCount != 5 {
				t.Errorf("a declined attempt left the invoice %s after %d attempts", got.Status, got.AttemptCount)
			}
			if st := e.subscription(s.ID).Status; st != tc.end {
				t.Errorf("a declined attempt moved the subscription from %s to %s", tc.end, st)
			}

			var src wire.Source
			e.post(wire.PathCustomers+"/"+cu.ID+"/sources", vals("source", sandbox.TokenVisa)).ok(&src)
			e.post(wire.PathCustomers+"/"+cu.ID, vals("default_source", src.ID)).ok(nil)
			e.post(wire.PathInvoices+"/"+inv.ID+"/pay", nil).ok(&got)
			if got.Status != wire.InvoiceStatusPaid || got.AmountPaid != 1500 || got.AttemptCount != 6 {
				t.Errorf("paid: invoice %s, %d paid after %d attempts", got.Status, got.AmountPaid, got.AttemptCount)
			}
			if st := e.subscription(s.ID).Status; st != tc.after {
				t.Errorf("after its invoice was paid the subscription is %s, want %s", st, tc.after)
			}
			e.post(wire.PathInvoices+"/"+inv.ID+"/pay", nil).fails(400, wire.ErrorTypeInvalidRequest, wire.ErrorCodeInvoiceUnexpectedState, "")
			if tc.after != wire.SubscriptionStatusActive {
				return
			}
			e.post(wire.PathTestClocks+"/"+k.ID+"/advance", vals("frozen_time", "2026-03-02T00:00:00Z")).ok(nil)
			sub := e.subscription(s.ID)
			if sub.Status != wire.SubscriptionStatusActive || sub.CurrentPeriodStart != "2026-03-01T00:00:00Z" || len(e.invoices(s.ID)) != 3 {
				t.Errorf("the next renewal: %s from %s, %d invoices", sub.Status, sub.CurrentPeriodStart, len(e.invoices(s.ID)))
			}
		})
	}
}

// TestTestClocks_MaxTime: no request makes the sandbox write a time
// after wire.MaxTime. A clock's time, a subscription's first period or
// trial past it are refused naming the parameter; so is an advance that
// would renew a subscription into a period ending past it, before
// anything changes.
func TestTestClocks_MaxTime(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	last := wire.MaxTime.Format(time.RFC3339)
	p := e.product("name", "Three years")
	threeYears := e.price(p.ID, "unit_amount", "1500", "recurring[interval]", "year", "recurring[interval_count]", "3")

	e.testClock("frozen_time", last)
	for _, v := range []string{"10000-01-01T00:00:00Z", "9999-12-31T23:00:00-02:00", "1970-12-31T23:59:59Z"} {
		eb := e.post(wire.PathTestClocks, vals("frozen_time", v)).fails(400, wire.ErrorTypeInvalidRequest, wire.ErrorCodeParameterInvalid, wire.ParamFrozenTime)
		if !strings.Contains(eb.Error.Message, "1971") || !strings.Contains(eb.Error.Message, "9999") {
			t.Errorf("frozen_time %s: the message names no bounds: %s", v, eb.Error.Message)
		}
	}

	edge := e.testClock("frozen_time", "9999-12-30T00:00:00Z")
	cu := e.customer(vals("source", sandbox.TokenVisa, "test_clock", edge.ID))
	e.post(wire.PathSubscriptions, vals("customer", cu.ID, "items[0][price]", threeYears.ID)).
		fails(400, wire.ErrorTypeInvalidRequest, wire.ErrorCodeParameterInvalid, "items[0][price]")
	e.post(wire.PathSubscriptions, vals("customer", cu.ID, "items[0][price]", threeYears.ID, "trial_period_days", "2")).
		fails(400, wire.ErrorTypeInvalidRequest, wire.ErrorCodeParameterInvalid, wire.ParamTrialPeriodDays)
	var l wire.SubscriptionList
	if e.get(wire.PathSubscriptions, vals("customer", cu.ID)).ok(&l); len(l.Data) != 0 {
		t.Fatalf("a refused create left %d subscriptions", len(l.Data))
	}
	trial := e.subscribe("customer", cu.ID, "items[0][price]", threeYears.ID, "trial_period_days", "1")
	if trial.TrialEnd != "9999-12-31T00:00:00Z" || trial.CurrentPeriodEnd != trial.TrialEnd {
		t.Errorf("a trial that fits = %+v", trial)
	}
	// Its trial ends at 9999-12-31, where a three-year period would start.
	e.post(wire.PathTestClocks+"/"+edge.ID+"/advance", vals("frozen_time", "9999-12-31T00:00:00Z")).
		fails(400, wire.ErrorTypeInvalidRequest, wire.ErrorCodeParameterInvalid, wire.ParamFrozenTime)
	e.post(wire.PathTestClocks+"/"+edge.ID+"/advance", vals("frozen_time", "9999-12-30T23:59:59Z")).ok(nil)
}

// TestTestClocks_AdvanceToTheEdgeRefused: a clock three years before
// the last day, with a three-year subscription, cannot advance past its
// renewal, whose period would end in the year 10002: the advance is
// refused naming frozen_time and the subscription, and nothing changes.
// Ending the subscription at its period's end lets the clock go on.
func TestTestClocks_AdvanceToTheEdgeRefused(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	p := e.product("name", "Three years")
	threeYears := e.price(p.ID, "unit_amount", "1500", "recurring[interval]", "year", "recurring[interval_count]", "3")
	k := e.testClock("frozen_time", "9996-12-30T00:00:00Z")
	cu := e.customer(vals("source", sandbox.TokenVisa, "test_clock", k.ID))
	s := e.subscribe("customer", cu.ID, "items[0][price]", threeYears.ID)
	if s.CurrentPeriodEnd != "9999-12-30T00:00:00Z" {
		t.Fatalf("subscription = %+v", s)
	}
	_, before := e.timedEvents()

	advance := wire.PathTestClocks + "/" + k.ID + "/advance"
	eb := e.post(advance, vals("frozen_time", wire.MaxTime.Format(time.RFC3339))).
		fails(400, wire.ErrorTypeInvalidRequest, wire.ErrorCodeParameterInvalid, wire.ParamFrozenTime)
	for _, want := range []string{s.ID, "at 9999-12-30T00:00:00Z", "a period of 3 years", "advance to 9999-12-29T23:59:59Z at most", "cancel_at_period_end"} {
		if !strings.Contains(eb.Error.Message, want) {
			t.Errorf("the refusal %q does not say %q", eb.Error.Message, want)
		}
	}
	var got wire.TestClock
	e.get(wire.PathTestClocks+"/"+k.ID, nil).ok(&got)
	if got.FrozenTime != k.FrozenTime || got.Status != wire.TestClockStatusReady {
		t.Errorf("a refused advance moved the clock: %+v", got)
	}
	if after := e.subscription(s.ID); after.CurrentPeriodEnd != s.CurrentPeriodEnd || after.Status != s.Status {
		t.Errorf("a refused advance changed the subscription: %+v", after)
	}
	if invs := e.invoices(s.ID); len(invs) != 1 {
		t.Errorf("a refused advance invoiced: %d invoices", len(invs))
	}
	if _, after := e.timedEvents(); len(after) != len(before) {
		t.Errorf("a refused advance sent %d events", len(after)-len(before))
	}

	e.post(advance, vals("frozen_time", "9999-12-29T23:59:59Z")).ok(nil)
	e.post(wire.PathSubscriptions+"/"+s.ID, vals("cancel_at_period_end", "true")).ok(nil)
	e.post(advance, vals("frozen_time", wire.MaxTime.Format(time.RFC3339))).ok(nil)
	if ended := e.subscription(s.ID); ended.Status != wire.SubscriptionStatusCanceled || ended.CanceledAt != "9999-12-30T00:00:00Z" {
		t.Errorf("ending at its period's end = %+v", ended)
	}
}

// TestTestClocks_DeclinedRetryPastMaxTime: completing a renewal's 3-D
// Secure declined near the bound would schedule its retry after
// wire.MaxTime; it is refused naming outcome, and approving it works.
func TestTestClocks_DeclinedRetryPastMaxTime(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	pr := e.plan("1500")
	k := e.testClock("frozen_time", "9999-11-28T00:00:00Z")
	cu := e.customer(vals("source", sandbox.Token3DS, "test_clock", k.ID))
	s := e.subscribe("customer", cu.ID, "items[0][price]", pr.ID, "trial_period_days", "2")
	// The trial ends at 9999-11-30; its renewal waits for 3-D Secure.
	// The clock stops a second before the next, at 9999-12-30.
	e.post(wire.PathTestClocks+"/"+k.ID+"/advance", vals("frozen_time", "9999-12-29T23:59:59Z")).ok(nil)
	inv := e.invoice(e.subscription(s.ID).LatestInvoice)
	if inv.BillingReason != wire.BillingReasonSubscriptionCycle || inv.Payment == "" {
		t.Fatalf("the renewal's invoice = %+v", inv)
	}
	complete := "/_sandbox/payments/" + inv.Payment + "/complete"
	e.post(complete, vals("outcome", wire.OutcomeDeclined)).fails(400, wire.ErrorTypeInvalidRequest, wire.ErrorCodeParameterInvalid, wire.ParamOutcome)
	if got := e.invoice(inv.ID); got.Status != wire.InvoiceStatusOpen || got.NextPaymentAttempt != "" {
		t.Errorf("a refused completion changed the invoice: %+v", got)
	}
	e.post(complete, vals("outcome", wire.OutcomeApproved)).ok(nil)
	if got := e.invoice(inv.ID); got.Status != wire.InvoiceStatusPaid {
		t.Errorf("approved, the invoice is %s", got.Status)
	}
}

// TestTestClocks_CardExpiryWithinBounds: a test token's card stored for
// a customer on a clock expires 3 years after the clock's year, but
// never after 9999.
func TestTestClocks_CardExpiryWithinBounds(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	for _, tc := range []struct {
		frozen string
		want   int64
	}{
		{"1971-01-01T00:00:00Z", 1974},
		{"9996-06-01T00:00:00Z", 9999},
		{"9998-06-01T00:00:00Z", 9999},
		{wire.MaxTime.Format(time.RFC3339), 9999},
	} {
		k := e.testClock("frozen_time", tc.frozen)
		cu := e.customer(vals("test_clock", k.ID))
		var src wire.Source
		e.post("/v1/customers/"+cu.ID+"/sources", vals("source", sandbox.TokenVisa)).ok(&src)
		if src.ExpYear != tc.want || src.ExpMonth != 12 {
			t.Errorf("a card stored at %s expires %d/%d, want 12/%d", tc.frozen, src.ExpMonth, src.ExpYear, tc.want)
		}
	}
}

// TestTestClocks_RandomWalkNearMaxTime: subscriptions of every length,
// cards that pay, decline or wait for 3-D Secure, trials, 3-D Secure
// completions and advances at random on a clock in the last years before
// wire.MaxTime. Each answer is a success or a refusal naming its
// parameter, and every one is checked against the OpenAPI document,
// whose timestamps have four-digit years: no time past the bound is ever
// written. The seed is logged; replay with -seed.
func TestTestClocks_RandomWalkNearMaxTime(t *testing.T) {
	t.Parallel()
	seed := uint64(testSeed(t)) //nolint:gosec // seeds are positive
	rng := rand.New(rand.NewPCG(seed, seed))
	e := newEnv(t)
	p := e.product("name", "Plans")
	var prices []string
	for _, pd := range []struct {
		interval string
		count    int
	}{{"day", 1}, {"day", 20}, {"week", 3}, {"month", 1}, {"month", 7}, {"year", 1}, {"year", 3}} {
		pr := e.price(p.ID, "unit_amount", "700", "recurring[interval]", pd.interval, "recurring[interval_count]", strconv.Itoa(pd.count))
		prices = append(prices, pr.ID)
	}
	now := time.Date(9996+rng.IntN(4), time.Month(1+rng.IntN(12)), 1+rng.IntN(28), rng.IntN(24), 0, 0, 0, time.UTC)
	k := e.testClock("frozen_time", now.Format(time.RFC3339))
	advance := wire.PathTestClocks + "/" + k.ID + "/advance"
	tokens := []string{sandbox.TokenVisa, sandbox.TokenDeclinedLater, sandbox.Token3DS}
	outcomes := []string{wire.OutcomeApproved, wire.OutcomeDeclined, wire.OutcomeAuthorized}
	// refusedOr400 accepts a success, or a 400 naming one of params.
	refusedOr400 := func(what string, r *result, params ...string) bool {
		t.Helper()
		if r.status == http.StatusOK {
			return true
		}
		var eb wire.ErrorBody
		if err := json.Unmarshal(r.body, &eb); err != nil || r.status != http.StatusBadRequest || eb.Error == nil || !slices.Contains(params, eb.Error.Param) {
			t.Fatalf("%s: %d %s", what, r.status, r.body)
		}
		return false
	}
	for range 120 {
		switch rng.IntN(5) {
		case 0, 1:
			cu := e.customer(vals("source", tokens[rng.IntN(len(tokens))], "test_clock", k.ID))
			f := vals("customer", cu.ID, "items[0][price]", prices[rng.IntN(len(prices))])
			if rng.IntN(3) == 0 {
				f.Set(wire.ParamTrialPeriodDays, strconv.Itoa(1+rng.IntN(60)))
			}
			refusedOr400("subscribing", e.post(wire.PathSubscriptions, f), "items[0][price]", wire.ParamTrialPeriodDays)
		case 2:
			var l wire.List[wire.Payment]
			e.get(wire.PathPayments, vals("limit", "100")).ok(&l)
			for _, py := range l.Data {
				if py.Status == wire.PaymentStatusPending {
					refusedOr400("completing "+py.ID, e.post("/_sandbox/payments/"+py.ID+"/complete", vals("outcome", outcomes[rng.IntN(len(outcomes))])), wire.ParamOutcome)
					break
				}
			}
		default:
			to := now.Add(time.Duration(1+rng.Int64N(400*24)) * time.Hour)
			if rng.IntN(3) == 0 {
				// Straight into the last days, where the bound bites.
				to = wire.MaxTime.Add(-time.Duration(rng.Int64N(40*24)) * time.Hour)
			}
			if to.After(wire.MaxTime) {
				to = wire.MaxTime
			}
			if !to.After(now) {
				continue
			}
			if refusedOr400("advancing to "+to.Format(time.RFC3339), e.post(advance, vals("frozen_time", to.Format(time.RFC3339))), wire.ParamFrozenTime) {
				now = to
			}
		}
	}
	t.Logf("the clock ended at %s", now.Format(time.RFC3339))
	// Read everything back once more, through the same checks.
	e.get(wire.PathSubscriptions, vals("limit", "100")).ok(nil)
	e.get(wire.PathInvoices, vals("limit", "100")).ok(nil)
	e.get(wire.PathPayments, vals("limit", "100")).ok(nil)
	e.get(wire.PathEvents, vals("limit", "100")).ok(nil)
}

// TestTestClocks_PaymentActionsOnTheClocksTime: a capture, a refund, an
// update and a dispute of a payment of a customer on a test clock happen
// at the clock's time, as the payment's creation did: their events and
// the summary's days say so.
func TestTestClocks_PaymentActionsOnTheClocksTime(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	k := e.testClock("frozen_time", "2031-05-01T00:00:00Z")
	cu := e.customer(vals("source", "tok_visa", "test_clock", k.ID))
	held := e.payment(pay("1000", "USD", "", "customer", cu.ID, "capture", "false"))
	charged := e.payment(pay("2000", "USD", "", "customer", cu.ID))
	disputed := e.payment(pay("3000", "USD", "", "customer", cu.ID))
	e.post(wire.PathTestClocks+"/"+k.ID+"/advance", vals("frozen_time", "2031-06-15T00:00:00Z")).ok(nil)
	e.post(wire.PathPayments+"/"+held.ID+"/capture", nil).ok(nil)
	e.post(wire.PathPayments+"/"+charged.ID+"/refund", vals("amount", "500")).ok(nil)
	e.post(wire.PathPayments+"/"+charged.ID, vals("description", "part refunded")).ok(nil)
	e.post("/_sandbox/payments/"+disputed.ID+"/dispute", nil).ok(nil)
	types, times := e.timedEvents()
	ready := slices.Index(types, "test_helpers.test_clock.ready")
	after := types[ready+1:]
	if !slices.Equal(after, []string{"payment.approved", "payment.partially_refunded", "payment.updated", "payment.disputed"}) {
		t.Fatalf("events after the advance = %v, want the capture's, the refund's, the update's and the dispute's", after)
	}
	for i, typ := range after {
		if at := times[ready+1+i]; at != "2031-06-15T00:00:00Z" {
			t.Errorf("%s at %s, want the clock's 2031-06-15T00:00:00Z", typ, at)
		}
	}
	s := e.summary("366")
	var day *wire.SummaryDay
	for i := range s.Days {
		if s.Days[i].Date == "2031-06-15" {
			day = &s.Days[i]
		}
	}
	if day == nil || len(day.Payments) != 1 || day.Payments[0].Refunded.Amount != 500 || day.Payments[0].Disputed.Amount != 3000 {
		t.Fatalf("the summary's 2031-06-15 = %+v, want the refund of 500 and the dispute of 3000 on it", day)
	}
}
