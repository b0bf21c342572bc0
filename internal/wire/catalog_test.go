package wire_test

import (
	"testing"
	"time"

	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

func TestRecurring_Check(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		r     wire.Recurring
		param string // "" when the period is allowed
	}{
		{wire.Recurring{Interval: "day", IntervalCount: 1}, ""},
		{wire.Recurring{Interval: "day", IntervalCount: 1095}, ""},
		{wire.Recurring{Interval: "day", IntervalCount: 1096}, wire.ParamRecurringIntervalCount},
		{wire.Recurring{Interval: "week", IntervalCount: 156}, ""},
		{wire.Recurring{Interval: "week", IntervalCount: 157}, wire.ParamRecurringIntervalCount},
		{wire.Recurring{Interval: "month", IntervalCount: 36}, ""},
		{wire.Recurring{Interval: "month", IntervalCount: 37}, wire.ParamRecurringIntervalCount},
		{wire.Recurring{Interval: "year", IntervalCount: 3}, ""},
		{wire.Recurring{Interval: "year", IntervalCount: 4}, wire.ParamRecurringIntervalCount},
		{wire.Recurring{Interval: "month", IntervalCount: 0}, wire.ParamRecurringIntervalCount},
		{wire.Recurring{Interval: "month", IntervalCount: -1}, wire.ParamRecurringIntervalCount},
		{wire.Recurring{Interval: "fortnight", IntervalCount: 1}, wire.ParamRecurringInterval},
		{wire.Recurring{Interval: "Month", IntervalCount: 1}, wire.ParamRecurringInterval},
		{wire.Recurring{Interval: "", IntervalCount: 1}, wire.ParamRecurringInterval},
	} {
		param, err := tc.r.Check()
		if param != tc.param || (err == nil) != (tc.param == "") {
			t.Errorf("%+v: Check = %q, %v; want param %q", tc.r, param, err, tc.param)
		}
	}
}

func TestRecurring_PeriodEnd(t *testing.T) {
	t.Parallel()
	at := func(y int, m time.Month, d int) time.Time { return time.Date(y, m, d, 13, 14, 15, 0, time.UTC) }
	for _, tc := range []struct {
		name   string
		r      wire.Recurring
		anchor time.Time
		n      int
		want   time.Time
	}{
		{"one day", wire.Recurring{Interval: "day", IntervalCount: 1}, at(2026, 12, 31), 1, at(2027, 1, 1)},
		{"two weeks", wire.Recurring{Interval: "week", IntervalCount: 2}, at(2026, 2, 20), 1, at(2026, 3, 6)},
		{"a month", wire.Recurring{Interval: "month", IntervalCount: 1}, at(2026, 1, 15), 1, at(2026, 2, 15)},
		{"31 January to February", wire.Recurring{Interval: "month", IntervalCount: 1}, at(2026, 1, 31), 1, at(2026, 2, 28)},
		{"31 January to a leap February", wire.Recurring{Interval: "month", IntervalCount: 1}, at(2028, 1, 31), 1, at(2028, 2, 29)},
		{"31 January, second period ends 31 March", wire.Recurring{Interval: "month", IntervalCount: 1}, at(2026, 1, 31), 2, at(2026, 3, 31)},
		{"31 January, third period ends 30 April", wire.Recurring{Interval: "month", IntervalCount: 1}, at(2026, 1, 31), 3, at(2026, 4, 30)},
		{"quarters across a year", wire.Recurring{Interval: "month", IntervalCount: 3}, at(2026, 11, 30), 1, at(2027, 2, 28)},
		{"a year from 29 February", wire.Recurring{Interval: "year", IntervalCount: 1}, at(2028, 2, 29), 1, at(2029, 2, 28)},
		{"four years from 29 February", wire.Recurring{Interval: "year", IntervalCount: 1}, at(2028, 2, 29), 4, at(2032, 2, 29)},
		{"36 months", wire.Recurring{Interval: "month", IntervalCount: 36}, at(2026, 5, 10), 1, at(2029, 5, 10)},
	} {
		if got := tc.r.PeriodEnd(tc.anchor, tc.n); !got.Equal(tc.want) {
			t.Errorf("%s: PeriodEnd(%s, %d) = %s, want %s", tc.name, tc.anchor, tc.n, got, tc.want)
		}
	}
}

func TestIntervalMaxCount_EveryInterval(t *testing.T) {
	t.Parallel()
	for _, iv := range wire.Intervals {
		if wire.IntervalMaxCount(iv) < 1 {
			t.Errorf("IntervalMaxCount(%s) = %d", iv, wire.IntervalMaxCount(iv))
		}
	}
	if wire.IntervalMaxCount("hour") != 0 {
		t.Error("IntervalMaxCount(hour) is not 0")
	}
}

// TestDaysIn_EveryMonth: the days counted match the calendar's, across
// leap years and the centuries that are not.
func TestDaysIn_EveryMonth(t *testing.T) {
	t.Parallel()
	for _, y := range []int{1900, 2000, 2024, 2026, 2028, 2100, 2400} {
		for m := time.January; m <= time.December; m++ {
			want := time.Date(y, m+1, 0, 0, 0, 0, 0, time.UTC).Day()
			if got := wire.DaysIn(y, m); got != want {
				t.Errorf("DaysIn(%d, %s) = %d, want %d", y, m, got, want)
			}
		}
	}
}
