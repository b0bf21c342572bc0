package model

import (
	"strings"
	"testing"

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
			r := k.CheckAdvance(tc.to, tc.subs)
			wantRefusal(t, r, wire.ErrorCodeParameterInvalid, tc.want)
			if r != nil && (r.Param != wire.ParamFrozenTime || !strings.HasPrefix(r.Message, "frozen_time ")) {
				t.Fatalf("refusal %+v", r)
			}
		})
	}
}

// TestParseFrozenTime_Values: RFC 3339, from 1971 to 9999, in seconds.
func TestParseFrozenTime_Values(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		v    string
		want int64
		ok   bool
	}{
		{"2026-01-01T00:00:00Z", 1_767_225_600, true},
		{"2026-01-01T01:00:00+01:00", 1_767_225_600, true},
		{"1971-01-01T00:00:00Z", 31_536_000, true},
		{"1970-12-31T23:59:59Z", 0, false},
		{"2026-01-01", 0, false},
		{"tomorrow", 0, false},
	} {
		got, r := ParseFrozenTime(tc.v)
		if got != tc.want || (r == nil) != tc.ok || r != nil && (r.Param != wire.ParamFrozenTime || !strings.Contains(r.Message, "is not an RFC 3339 time")) {
			t.Errorf("%q: %d, %+v", tc.v, got, r)
		}
	}
}
