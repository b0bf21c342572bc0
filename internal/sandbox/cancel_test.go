package sandbox_test

import (
	"slices"
	"testing"
	"time"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/clock"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/sandboxtest"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// TestSubscriptions_CancelSettlesTheLatestInvoice: a cancel (DELETE, or
// the customer's deletion) voids an incomplete subscription's open first
// invoice, declining a payment of it that waits for 3-D Secure, as an
// expiry does; a later open invoice stays open but is no longer retried.
func TestSubscriptions_CancelSettlesTheLatestInvoice(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, token string
		renewFirst  bool // let the first renewal (declined) make it past_due
		byCustomer  bool // cancel by deleting the customer
		invoice     string
		payment     string // the latest invoice's payment's status after
		events      []string
	}{
		{"incomplete, declined", sandbox.TokenDeclined, false, false, wire.InvoiceStatusVoid, wire.PaymentStatusDeclined,
			[]string{wire.EventInvoiceVoided, wire.EventSubscriptionDeleted}},
		{"incomplete, waiting for 3-D Secure", sandbox.Token3DS, false, false, wire.InvoiceStatusVoid, wire.PaymentStatusDeclined,
			[]string{wire.EventPaymentDeclined, wire.EventInvoiceVoided, wire.EventSubscriptionDeleted}},
		{"incomplete, its customer deleted", sandbox.TokenDeclined, false, true, wire.InvoiceStatusVoid, wire.PaymentStatusDeclined,
			[]string{wire.EventInvoiceVoided, wire.EventSubscriptionDeleted}},
		{"past_due", sandbox.TokenDeclinedLater, true, false, wire.InvoiceStatusOpen, wire.PaymentStatusDeclined,
			[]string{wire.EventSubscriptionDeleted}},
		{"active", sandbox.TokenVisa, false, false, wire.InvoiceStatusPaid, wire.PaymentStatusApproved,
			[]string{wire.EventSubscriptionDeleted}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			fake := clock.NewFake(jan31)
			e := newEnv(t, sandboxtest.WithClock(fake))
			pr := e.plan("1500")
			cu := e.customer(vals("source", tc.token))
			s := e.subscribe("customer", cu.ID, "items[0][price]", pr.ID)
			if tc.renewFirst {
				fake.Set(time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC))
				waitFor(t, 10*time.Second, "the declined renewal", func() bool { return e.subscription(s.ID).Status == wire.SubscriptionStatusPastDue })
				s = e.subscription(s.ID)
				if e.invoice(s.LatestInvoice).NextPaymentAttempt == "" {
					t.Fatal("the declined renewal's invoice has no next attempt")
				}
			}
			skip := len(e.eventTypes())
			if tc.byCustomer {
				e.del("/v1/customers/" + cu.ID).ok(nil)
			} else {
				e.del(wire.PathSubscriptions + "/" + s.ID).ok(nil)
			}
			if got := e.subscription(s.ID); got.Status != wire.SubscriptionStatusCanceled {
				t.Errorf("subscription after the cancel: %s, want canceled", got.Status)
			}
			inv := e.invoice(s.LatestInvoice)
			if inv.Status != tc.invoice || inv.NextPaymentAttempt != "" {
				t.Errorf("invoice after the cancel = %+v, want %s, no next attempt", inv, tc.invoice)
			}
			var p wire.Payment
			e.get(wire.PathPayments+"/"+inv.Payment, nil).ok(&p)
			if p.Status != tc.payment {
				t.Errorf("payment after the cancel: %s, want %s", p.Status, tc.payment)
			}
			got := e.eventTypes()[skip:]
			if tc.byCustomer {
				got = slices.DeleteFunc(got, func(s string) bool { return s != wire.EventInvoiceVoided && s != wire.EventSubscriptionDeleted })
			}
			if !slices.Equal(got, tc.events) {
				t.Errorf("events = %v, want %v", got, tc.events)
			}
		})
	}
}
