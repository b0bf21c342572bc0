package model

import (
	"strings"
	"testing"
	"time"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/ids"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// TestTestClock_CheckAdvance: forward only, and at most
// wire.TestClockAdvancePeriods periods of the clock's shortest live
// subscription; others' subscriptions and ended ones do not count.
func TestTestClock_CheckAdvance(t *testing.T) {
	t.Parallel()
	const jan1 = 1_767_225_600 // 2026-01-01T00:00:00Z
	const day = 86400
	k := &TestClock{ID: ids.New(), Frozen: jan1}
	sub := func(clock ids.RID, interval string, status string) *Subscription {
		pr := &Price{Recurring: wire.Recurring{Interval: interval, IntervalCount: 1}}
		return &Subscription{Clock: clock, Status: status, Items: []SubItem{{Price: pr, Quantity: 1}}}
	}
	weekly := sub(k.ID, wire.IntervalWeek, wire.SubscriptionStatusActive)
	monthlyOne := sub(k.ID, wire.IntervalMonth, wire.SubscriptionStatusActive)
	otherClock := sub(ids.New(), wire.IntervalDay, wire.SubscriptionStatusActive)
	endedDaily := sub(k.ID, wire.IntervalDay, wire.SubscriptionStatusCanceled)
	weekLimit := int64(jan1 + wire.TestClockAdvancePeriods*7*day)
	for _, tc := range []struct {
		name string
		to   int64
		subs []*Subscription
		want string
	}{
		{"backwards", jan1 - 1, nil, "is not after the clock's time, 2026-01-01T00:00:00Z; a test clock only moves forward."},
		{"standing still", jan1, nil, "only moves forward"},
		{"no subscriptions: any distance", jan1 + 3650*day, nil, ""},
		{"to the shortest's limit", weekLimit, []*Subscription{monthlyOne, weekly}, ""},
		{"past the shortest's limit", weekLimit + 1, []*Subscription{monthlyOne, weekly}, "periods of the clock's shortest subscription ahead; advance to 2026-01-15T00:00:00Z at most"},
		{"another clock's and ended ones do not count", weekLimit, []*Subscription{weekly, otherClock, endedDaily}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := k.CheckAdvance(tc.to, tc.subs, 15*day)
			wantRefusal(t, r, wire.ErrorCodeParameterInvalid, tc.want)
			if r != nil && (r.Param != wire.ParamFrozenTime || !strings.HasPrefix(r.Message, "frozen_time ")) {
				t.Fatalf("refusal %+v", r)
			}
		})
	}
}

// TestTestClock_CheckAdvance_MaxTime: an advance that would renew a
// subscription into a period ending after wire.MaxTime, or leave its
// retries running past it, is refused up front, naming the renewal and
// the latest time allowed; subscriptions that will not renew do not
// count.
func TestTestClock_CheckAdvance_MaxTime(t *testing.T) {
	t.Parallel()
	const day = 86400
	const dunning = 15 * day
	at := func(y, m, d int) int64 { return time.Date(y, time.Month(m), d, 0, 0, 0, 0, time.UTC).Unix() }
	k := &TestClock{ID: ids.New()}
	// sub started at start on a price of n intervals, its first period
	// paid.
	sub := func(interval string, n int64, start int64, edit func(*Subscription)) *Subscription {
		pr := &Price{ID: ids.New(), Recurring: wire.Recurring{Interval: interval, IntervalCount: n}}
		s := &Subscription{ID: ids.New(), Clock: k.ID, Status: wire.SubscriptionStatusActive, Items: []SubItem{{Price: pr, Quantity: 1}}}
		s.Start(start, 0)
		if edit != nil {
			edit(s)
		}
		return s
	}
	threeYears := func(edit func(*Subscription)) *Subscription {
		return sub(wire.IntervalYear, 3, at(9996, 12, 30), edit) // renews at 9999-12-30
	}
	jan1 := at(9999, 1, 1)
	for _, tc := range []struct {
		name     string
		from, to int64
		sub      *Subscription
		want     string
	}{
		{"3 years, up to the renewal", jan1, at(9999, 12, 30) - 1, threeYears(nil), ""},
		{"3 years, past its renewal", jan1, wire.MaxTimeUnix, threeYears(nil),
			"frozen_time 9999-12-31T23:59:59Z would renew subscription sub_"},
		{"3 years, to its renewal", jan1, at(9999, 12, 30), threeYears(nil),
			"at 9999-12-30T00:00:00Z, which would start a period of 3 years that ends after 9999-12-31T23:59:59Z, the latest time the API writes; " +
				"advance to 9999-12-29T23:59:59Z at most, or set the subscription's cancel_at_period_end first"},
		{"3 years, ending at its period's end", jan1, wire.MaxTimeUnix, threeYears(func(s *Subscription) { s.CancelAtPeriodEnd = true }), ""},
		{"3 years, unpaid", jan1, wire.MaxTimeUnix, threeYears(func(s *Subscription) { s.Status = wire.SubscriptionStatusUnpaid }), ""},
		{"3 years, canceled", jan1, wire.MaxTimeUnix, threeYears(func(s *Subscription) { s.Status = wire.SubscriptionStatusCanceled }), ""},
		{"3 years, past due", jan1, at(9999, 12, 30), threeYears(func(s *Subscription) { s.Status = wire.SubscriptionStatusPastDue }),
			"would start a period of 3 years"},
		{"3 years, at a trial's end", jan1, at(9999, 12, 30), threeYears(func(s *Subscription) { s.Start(at(9999, 11, 30), 30) }),
			"at 9999-12-30T00:00:00Z, which would start a period of 3 years"},
		{"3 years, on another clock", jan1, wire.MaxTimeUnix, threeYears(func(s *Subscription) { s.Clock = ids.New() }), ""},
		{"daily, retries past the bound", at(9999, 12, 18) + day/2, at(9999, 12, 20), sub(wire.IntervalDay, 1, at(9999, 12, 18), nil),
			"at 9999-12-19T00:00:00Z, which would leave its invoice's retries, should its charge be declined, to run 15 days after it, past 9999-12-31T23:59:59Z"},
		{"daily, retries within the bound", at(9999, 12, 14) + day/2, at(9999, 12, 16), sub(wire.IntervalDay, 1, at(9999, 12, 14), nil), ""},
		{"monthly, a last renewal that fits", at(9999, 10, 15), at(9999, 11, 1), sub(wire.IntervalMonth, 1, at(9999, 10, 1), nil), ""},
		{"monthly, renewed in the last month", at(9999, 12, 1), at(9999, 12, 31), sub(wire.IntervalMonth, 1, at(9999, 11, 30), nil),
			"at 9999-12-30T00:00:00Z, which would start a period of 1 month"},
		{"a renewal left behind: nothing to advance to", jan1, at(9999, 1, 2), sub(wire.IntervalYear, 3, at(9995, 12, 31), nil),
			"at 9998-12-31T00:00:00Z, which would start a period of 3 years that ends after 9999-12-31T23:59:59Z, the latest time the API writes; " +
				"cancel the subscription, or set its cancel_at_period_end, before the clock goes on."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			k := &TestClock{ID: k.ID, Frozen: tc.from}
			r := k.CheckAdvance(tc.to, []*Subscription{tc.sub}, dunning)
			wantRefusal(t, r, wire.ErrorCodeParameterInvalid, tc.want)
			if r != nil && r.Param != wire.ParamFrozenTime {
				t.Fatalf("refusal names %q", r.Param)
			}
		})
	}
}
