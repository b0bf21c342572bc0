package sandbox_test

import (
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/clock"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/sandboxtest"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// jan31 is a start whose monthly periods meet short months.
var jan31 = time.Date(2026, 1, 31, 12, 0, 0, 0, time.UTC)

func (e *env) subscription(id string) *wire.Subscription {
	e.t.Helper()
	var s wire.Subscription
	e.get(wire.PathSubscriptions+"/"+id, nil).ok(&s)
	return &s
}

// invoices are the subscription's invoices, oldest first.
func (e *env) invoices(sub string) []*wire.Invoice {
	e.t.Helper()
	var l wire.InvoiceList
	e.get(wire.PathInvoices, vals("subscription", sub, "limit", "100")).ok(&l)
	slices.Reverse(l.Data)
	return l.Data
}

func TestRenewals_PaidPeriods(t *testing.T) {
	t.Parallel()
	fake := clock.NewFake(jan31)
	e := newEnv(t, sandboxtest.WithClock(fake))
	pr := e.plan("1500")
	cu := e.customer(vals("source", sandbox.TokenVisa))
	s := e.subscribe("customer", cu.ID, "items[0][price]", pr.ID)
	fake.Set(time.Date(2026, 5, 6, 0, 0, 0, 0, time.UTC))
	waitFor(t, 10*time.Second, "three renewals", func() bool { return len(e.invoices(s.ID)) == 4 })
	want := []string{"2026-01-31T12:00:00Z", "2026-02-28T12:00:00Z", "2026-03-31T12:00:00Z", "2026-04-30T12:00:00Z", "2026-05-31T12:00:00Z"}
	for i, inv := range e.invoices(s.ID) {
		reason := wire.BillingReasonSubscriptionCycle
		if i == 0 {
			reason = wire.BillingReasonSubscriptionCreate
		}
		if inv.Status != wire.InvoiceStatusPaid || inv.BillingReason != reason || inv.PeriodStart != want[i] || inv.PeriodEnd != want[i+1] ||
			inv.AmountPaid != 1500 || inv.CreatedAt != inv.PeriodStart {
			t.Errorf("invoice %d = %+v", i, inv)
		}
	}
	got := e.subscription(s.ID)
	if got.Status != wire.SubscriptionStatusActive || got.CurrentPeriodStart != want[3] || got.CurrentPeriodEnd != want[4] {
		t.Errorf("subscription = %+v", got)
	}
	if n := len(e.ids(wire.PathPayments, "status", "approved")); n != 4 {
		t.Errorf("%d approved payments, want 4", n)
	}
	if n := len(slices.DeleteFunc(e.eventTypes(), func(s string) bool { return s != wire.EventSubscriptionUpdated })); n != 3 {
		t.Errorf("%d customer.subscription.updated, want one per renewal", n)
	}
}

func TestRenewals_Dunning(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		end, want string
		control   string // the account's choice (POST /_sandbox/billing), over end
		last      string // the subscription's last event
	}{
		{"", wire.SubscriptionStatusCanceled, "", wire.EventSubscriptionDeleted},
		{wire.SubscriptionStatusUnpaid, wire.SubscriptionStatusUnpaid, "", wire.EventSubscriptionUpdated},
		{wire.SubscriptionStatusPastDue, wire.SubscriptionStatusPastDue, "", wire.EventInvoiceMarkedUncollectible},
		{"", wire.SubscriptionStatusUnpaid, wire.SubscriptionStatusUnpaid, wire.EventSubscriptionUpdated},
		{wire.SubscriptionStatusUnpaid, wire.SubscriptionStatusCanceled, wire.SubscriptionStatusCanceled, wire.EventSubscriptionDeleted},
	} {
		name := "end " + tc.want
		if tc.control != "" {
			name += " chosen by the account"
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			fake := clock.NewFake(jan31)
			e := newEnv(t, sandboxtest.WithOptions(sandbox.Options{Clock: fake, DunningEnd: tc.end}))
			if tc.control != "" {
				e.post(wire.PathSandboxBilling, vals(wire.ParamDunningEnd, tc.control)).ok(nil)
			}
			pr := e.plan("1500")
			cu := e.customer(vals("source", sandbox.TokenDeclined))
			s := e.subscribe("customer", cu.ID, "items[0][price]", pr.ID, "trial_period_days", "1")
			skip := len(e.eventTypes())
			// The trial ends with a declined charge: past_due, retried on
			// days 3, 8 and 15.
			fake.Advance(25 * time.Hour)
			waitFor(t, 10*time.Second, "the trial's end", func() bool { return len(e.invoices(s.ID)) == 2 })
			inv := e.invoices(s.ID)[1]
			if sub := e.subscription(s.ID); sub.Status != wire.SubscriptionStatusPastDue || inv.AttemptCount != 1 ||
				inv.NextPaymentAttempt != "2026-02-04T12:00:00Z" {
				t.Fatalf("after the trial: subscription %s, invoice %+v", sub.Status, inv)
			}
			fake.Advance(20 * 24 * time.Hour)
			waitFor(t, 10*time.Second, "dunning's end", func() bool {
				return e.invoice(inv.ID).Status == wire.InvoiceStatusUncollectible
			})
			inv = e.invoice(inv.ID)
			if sub := e.subscription(s.ID); sub.Status != tc.want || inv.AttemptCount != 4 || inv.NextPaymentAttempt != "" {
				t.Errorf("after dunning: subscription %s, invoice %+v", sub.Status, inv)
			}
			events := e.eventTypes()[skip:]
			if n := slices.Index(events, wire.EventInvoiceMarkedUncollectible); n < 0 || events[len(events)-1] != tc.last {
				t.Errorf("events = %v", events)
			}
			if n := len(slices.DeleteFunc(slices.Clone(events), func(s string) bool { return s != wire.EventInvoicePaymentFailed })); n != 4 {
				t.Errorf("%d invoice.payment_failed, want 4: %v", n, events)
			}
		})
	}
}

// TestRenewals_DeclinedLater starts a subscription on the card that
// approves its first charge only: the first renewal is declined.
func TestRenewals_DeclinedLater(t *testing.T) {
	t.Parallel()
	fake := clock.NewFake(jan31)
	e := newEnv(t, sandboxtest.WithClock(fake))
	pr := e.plan("1500")
	cu := e.customer(vals("source", sandbox.TokenDeclinedLater))
	s := e.subscribe("customer", cu.ID, "items[0][price]", pr.ID, "payment_behavior", "error_if_incomplete")
	if s.Status != wire.SubscriptionStatusActive {
		t.Fatalf("the first charge left the subscription %s, want active", s.Status)
	}
	fake.Set(time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC))
	waitFor(t, 10*time.Second, "the declined renewal", func() bool { return e.subscription(s.ID).Status == wire.SubscriptionStatusPastDue })
	invs := e.invoices(s.ID)
	if len(invs) != 2 || invs[1].Status != wire.InvoiceStatusOpen || invs[1].AttemptCount != 1 {
		t.Errorf("invoices = %+v", invs)
	}
	var p wire.Payment
	e.get(wire.PathPayments+"/"+invs[1].Payment, nil).ok(&p)
	if p.Status != wire.PaymentStatusDeclined || p.Source.Last4 != "0341" {
		t.Errorf("the renewal's payment = %+v", p)
	}
}

func TestRenewals_EndsAndExpiries(t *testing.T) {
	t.Parallel()
	fake := clock.NewFake(jan31)
	e := newEnv(t, sandboxtest.WithClock(fake))
	pr := e.plan("1500")
	visa := e.customer(vals("source", sandbox.TokenVisa))
	declined := e.customer(vals("source", sandbox.TokenDeclined))
	ending := e.subscribe("customer", visa.ID, "items[0][price]", pr.ID, "cancel_at_period_end", "true")
	incomplete := e.subscribe("customer", declined.ID, "items[0][price]", pr.ID)
	trial := e.subscribe("customer", visa.ID, "items[0][price]", pr.ID, "trial_period_days", "10")
	fake.Advance(8 * 24 * time.Hour)
	waitFor(t, 10*time.Second, "the incomplete subscription's expiry", func() bool {
		return e.subscription(incomplete.ID).Status == wire.SubscriptionStatusIncompleteExpired
	})
	if inv := e.invoice(incomplete.LatestInvoice); inv.Status != wire.InvoiceStatusVoid {
		t.Errorf("an expired subscription's invoice is %s, want void", inv.Status)
	}
	waitFor(t, 10*time.Second, "the trial's notice", func() bool {
		return slices.Contains(e.eventTypes(), wire.EventSubscriptionTrialWillEnd)
	})
	fake.Set(time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC))
	waitFor(t, 10*time.Second, "the cancel at the period's end", func() bool {
		return e.subscription(ending.ID).Status == wire.SubscriptionStatusCanceled
	})
	if got := e.subscription(ending.ID); got.CanceledAt != "2026-02-28T12:00:00Z" || len(e.invoices(ending.ID)) != 1 {
		t.Errorf("canceled at the period's end: %+v, %d invoices", got, len(e.invoices(ending.ID)))
	}
	waitFor(t, 10*time.Second, "the trial's end", func() bool { return e.subscription(trial.ID).Status == wire.SubscriptionStatusActive })
	if invs := e.invoices(trial.ID); len(invs) != 2 || invs[1].AmountPaid != 1500 || invs[1].PeriodStart != "2026-02-10T12:00:00Z" {
		t.Errorf("the trial's invoices = %+v", invs)
	}
}

// TestRenewals_AfterRestart stops a sandbox with a data file, lets two
// periods end while it is down, and starts it again: they are invoiced at
// start, in order, once each.
func TestRenewals_AfterRestart(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "data.db")
	fake := clock.NewFake(jan31)
	key := sandboxtest.NewKey(t)
	start := func() (*env, func()) { return openEnv(t, path, key, sandboxtest.WithClock(fake)) }
	e, stop := start()
	pr := e.plan("1500")
	cu := e.customer(vals("source", sandbox.TokenVisa))
	s := e.subscribe("customer", cu.ID, "items[0][price]", pr.ID)
	stop()
	fake.Set(time.Date(2026, 4, 15, 0, 0, 0, 0, time.UTC))
	e, stop = start()
	defer stop()
	invs := e.invoices(s.ID)
	if len(invs) != 3 || invs[1].PeriodStart != "2026-02-28T12:00:00Z" || invs[2].PeriodStart != "2026-03-31T12:00:00Z" {
		t.Fatalf("invoices after the restart = %+v", invs)
	}
	if n := len(e.ids(wire.PathPayments)); n != 3 {
		t.Errorf("%d payments, want 3", n)
	}
}

// TestRenewals_WaitForRoom: renewals on real time cannot take an account
// past -max-account-bytes. A full account's renewals wait; once it has
// room they run, each period once and at its own time.
func TestRenewals_WaitForRoom(t *testing.T) {
	t.Parallel()
	const limit = 256 << 10
	fake := clock.NewFake(jan31)
	sb := sandboxtest.Start(t, sandboxtest.WithClock(fake), sandboxtest.WithLimits(sandbox.Limits{MaxAccountBytes: limit}))
	e := envOn(t, sb, sandboxtest.NewKey(t))
	pr := e.plan("1500")
	cu := e.customer(vals("source", sandbox.TokenVisa))
	s := e.subscribe("customer", cu.ID, "items[0][price]", pr.ID)
	fillAccount(t, e)

	full, _ := sandbox.AccountBytes(sb.Server, e.key)
	fake.Set(time.Date(2026, 4, 1, 0, 0, 0, 0, time.UTC)) // two periods ended
	sandbox.RunRenewals(sb.Server)
	if running, recounted := sandbox.AccountBytes(sb.Server, e.key); running > full || running != recounted {
		t.Errorf("after renewals on a full account it keeps %d bytes (recount %d), %d before", running, recounted, full)
	}
	if n := len(e.invoices(s.ID)); n != 1 {
		t.Errorf("a full account's subscription was invoiced %d times, want only its first invoice", n)
	}

	for _, id := range e.ids(wire.PathCustomers, "limit", "40") {
		if id != cu.ID {
			e.del(wire.PathCustomers + "/" + id).ok(nil)
		}
	}
	sandbox.RunRenewals(sb.Server)
	invs := e.invoices(s.ID)
	var periods []string
	for _, inv := range invs {
		periods = append(periods, inv.PeriodStart+" "+inv.Status)
	}
	want := []string{"2026-01-31T12:00:00Z paid", "2026-02-28T12:00:00Z paid", "2026-03-31T12:00:00Z paid"}
	if !slices.Equal(periods, want) {
		t.Errorf("with room again the invoices are %v, want %v", periods, want)
	}
	if got := e.subscription(s.ID); got.Status != wire.SubscriptionStatusActive || got.CurrentPeriodEnd != "2026-04-30T12:00:00Z" {
		t.Errorf("subscription = %s until %s", got.Status, got.CurrentPeriodEnd)
	}
}
