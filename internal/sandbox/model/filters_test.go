package model

import (
	"strings"
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

// TestCreatedRange_Bounds: open without bounds, whole seconds rounded
// inwards, and a refusal naming the bound that is not a time.
func TestCreatedRange_Bounds(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, gte, lte string
		from, to       int64
		param          string
	}{
		{"no bounds", "", "", -1 << 63, 1<<63 - 1, ""},
		{"whole seconds", "2026-01-01T00:00:00Z", "2026-01-01T00:00:10Z", 1_767_225_600, 1_767_225_610, ""},
		{"fractions round inwards", "2026-01-01T00:00:00.5Z", "2026-01-01T00:00:10.5Z", 1_767_225_601, 1_767_225_610, ""},
		{"a date alone", "2026-01-01", "", 0, 0, wire.ParamCreatedGTE},
		{"not a time", "", "yesterday", 0, 0, wire.ParamCreatedLTE},
	} {
		t.Run(tc.name, func(t *testing.T) {
			from, to, r := CreatedRange(tc.gte, tc.lte)
			switch {
			case tc.param == "" && (r != nil || from != tc.from || to != tc.to):
				t.Fatalf("%d..%d, %v", from, to, r)
			case tc.param != "" && (r == nil || r.Param != tc.param || !strings.Contains(r.Message, "is not an RFC 3339 time")):
				t.Fatalf("refusal %+v, want one of %s", r, tc.param)
			}
		})
	}
}
