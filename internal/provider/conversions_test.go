package provider

import (
	"strings"
	"testing"
	"time"

	"github.com/paymentsdev/terraform-provider-payments/internal/client"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// TestRFC3339Value_Bounds: every time the service writes, from the epoch
// to wire.MaxTime, reads back as the same instant; a year of five digits
// (which the service never writes) is an error naming the field, not a
// value that fails later.
func TestRFC3339Value_Bounds(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		in  string
		err bool
	}{
		{"1970-01-01T00:00:00Z", false},
		{"1971-01-01T00:00:00Z", false},
		{"2026-11-29T00:00:00Z", false},
		{"9999-12-30T00:00:00Z", false},
		{wire.MaxTime.Format(time.RFC3339), false},
		{"9999-12-31T23:59:59+00:00", false},
		{"10000-01-01T00:00:00Z", true},
		{"10002-12-30T00:00:00Z", true},
		{"9999-12-31 23:59:59Z", true},
	} {
		v, diags := rfc3339Value("current_period_end", tc.in)
		if tc.err {
			if !diags.HasError() || !v.IsNull() || !strings.Contains(diags[0].Detail(), "current_period_end") {
				t.Errorf("%s: %v, %v; want an error naming the field", tc.in, v, diags)
			}
			continue
		}
		if diags.HasError() {
			t.Errorf("%s: %v", tc.in, diags)
			continue
		}
		got, d := v.ValueRFC3339Time()
		want, _ := time.Parse(time.RFC3339, tc.in)
		if d.HasError() || !got.Equal(want) || got.UTC().Year() > wire.TestClockMaxYear {
			t.Errorf("%s reads back as %v, %v", tc.in, got, d)
		}
	}
	if v, diags := rfc3339Value("trial_end", ""); diags.HasError() || !v.IsNull() {
		t.Errorf("an absent time: %v, %v; want null", v, diags)
	}
}

// TestTrialDays_NearMaxTime: a trial's length reads the same at the end
// of the times the service writes as anywhere else.
func TestTrialDays_NearMaxTime(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		start, end string
		want       int64
	}{
		{"2026-01-01T00:00:00Z", "2026-01-15T00:00:00Z", 14},
		{"9998-01-01T00:00:00Z", "9999-12-31T00:00:00Z", 729},
		{"9999-12-30T00:00:00Z", wire.MaxTime.Format(time.RFC3339), 1},
	} {
		if got := trialDays(&client.Subscription{TrialStart: tc.start, TrialEnd: tc.end}); got != tc.want {
			t.Errorf("trialDays(%s, %s) = %d, want %d", tc.start, tc.end, got, tc.want)
		}
	}
}
