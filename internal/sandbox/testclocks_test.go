package sandbox_test

import (
	"encoding/json"
	"path/filepath"
	"slices"
	"testing"

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
	// Exactly two periods is allowed.
	e.post(wire.PathTestClocks+"/"+k.ID+"/advance", vals("frozen_time", "2026-03-31T12:00:00Z")).ok(nil)
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
