package model

import (
	"testing"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/ids"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// TestCheckStatusFilter_Values: a list takes its kind's statuses, "all"
// where it has one, and nothing else.
func TestCheckStatusFilter_Values(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, v, kind string
		statuses      []string
		all, want     string
	}{
		{"none", "", "a payment", wire.PaymentStatuses, "", ""},
		{"a payment status", wire.PaymentStatusApproved, "a payment", wire.PaymentStatuses, "", ""},
		{"another kind's status", wire.InvoiceStatusVoid, "a payment", wire.PaymentStatuses, "", `status "void" is not a payment status; use one of pending, `},
		{"all where there is none", wire.SubscriptionStatusAll, "an invoice", wire.InvoiceStatuses, "", `status "all" is not an invoice status`},
		{"all", wire.SubscriptionStatusAll, "a subscription", wire.SubscriptionStatuses, wire.SubscriptionStatusAll, ""},
		{"unknown, with all", "gone", "a subscription", wire.SubscriptionStatuses, wire.SubscriptionStatusAll, ", or all."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := CheckStatusFilter(tc.v, tc.kind, tc.statuses, tc.all)
			wantRefusal(t, r, wire.ErrorCodeParameterInvalid, tc.want)
			if r != nil && r.Param != wire.ParamStatus {
				t.Fatalf("param %q", r.Param)
			}
		})
	}
}

// TestSubscriptionFilter_Match: by customer, by price, and by status,
// canceled ones only when asked.
func TestSubscriptionFilter_Match(t *testing.T) {
	t.Parallel()
	cu, pr := ids.New(), monthly("USD", 1)
	active := &Subscription{Customer: cu, Status: wire.SubscriptionStatusActive, Items: []SubItem{{Price: pr}}}
	canceled := &Subscription{Customer: cu, Status: wire.SubscriptionStatusCanceled, Items: []SubItem{{Price: monthly("USD", 2)}}}
	for _, tc := range []struct {
		name             string
		f                SubscriptionFilter
		active, canceled bool
	}{
		{"no filter hides canceled", SubscriptionFilter{}, true, false},
		{"all", SubscriptionFilter{Status: wire.SubscriptionStatusAll}, true, true},
		{"canceled", SubscriptionFilter{Status: wire.SubscriptionStatusCanceled}, false, true},
		{"their customer", SubscriptionFilter{Customer: cu, Status: wire.SubscriptionStatusAll}, true, true},
		{"another customer", SubscriptionFilter{Customer: ids.New(), Status: wire.SubscriptionStatusAll}, false, false},
		{"a price", SubscriptionFilter{Price: pr, Status: wire.SubscriptionStatusAll}, true, false},
	} {
		if got := [2]bool{tc.f.Match(active), tc.f.Match(canceled)}; got != [2]bool{tc.active, tc.canceled} {
			t.Errorf("%s: matched %v", tc.name, got)
		}
	}
}
