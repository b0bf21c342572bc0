package model

import (
	"slices"
	"strings"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/ids"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// The lists' rules: which statuses a list's status filter takes, and
// which subscriptions a list shows.

// CheckStatusFilter refuses v, a list's status filter, when it is none of
// statuses, nor all (when all is not ""); kind names the object with its
// article, as "a payment". An empty v filters nothing.
func CheckStatusFilter(v, kind string, statuses []string, all string) *Refusal {
	switch {
	case v == "" || all != "" && v == all || slices.Contains(statuses, v):
		return nil
	case all != "":
		return invalid(wire.ParamStatus, "status %q is not %s status; use one of %s, or %s.", clip(v), kind, strings.Join(statuses, ", "), all)
	}
	return invalid(wire.ParamStatus, "status %q is not %s status; use one of %s.", clip(v), kind, strings.Join(statuses, ", "))
}

// SubscriptionFilter is what GET /v1/subscriptions keeps: the
// subscriptions of Customer (zero for any), of Status (empty: every
// status but canceled; wire.SubscriptionStatusAll: every one), with an
// item of Price (nil for any).
type SubscriptionFilter struct {
	Customer ids.RID
	Status   string
	Price    *Price
}

// Match reports whether the list keeps s.
func (f *SubscriptionFilter) Match(s *Subscription) bool {
	switch {
	case !f.Customer.IsZero() && s.Customer != f.Customer:
		return false
	case f.Status == "" && s.Status == wire.SubscriptionStatusCanceled:
		return false
	case f.Status != "" && f.Status != wire.SubscriptionStatusAll && s.Status != f.Status:
		return false
	case f.Price != nil && !slices.ContainsFunc(s.Items, func(it SubItem) bool { return it.Price == f.Price }):
		return false
	}
	return true
}
