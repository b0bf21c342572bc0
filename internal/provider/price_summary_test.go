package provider

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/types"
)

// TestPriceSummary_AsPeopleReadIt: the destroy warning names each price
// by what it charges, in major units, with its period.
func TestPriceSummary_AsPeopleReadIt(t *testing.T) {
	for _, tc := range []struct {
		name     string
		amount   int64
		currency string
		interval string
		count    int64
		want     string
	}{
		{"monthly", 500, "EUR", "month", 1, "5.00 EUR every month"},
		{"quarterly", 4900, "USD", "month", 3, "49.00 USD every 3 months"},
		{"yearly yen", 120000, "JPY", "year", 1, "120000 JPY every year"},
		{"one-time", 5000, "USD", "", 0, "50.00 USD once"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := priceModel{Currency: types.StringValue(tc.currency), UnitAmount: types.Int64Value(tc.amount),
				Interval: types.StringNull(), IntervalCount: types.Int64Null()}
			if tc.interval != "" {
				m.Interval, m.IntervalCount = types.StringValue(tc.interval), types.Int64Value(tc.count)
			}
			if got := m.summary(); got != tc.want {
				t.Errorf("summary() = %q, want %q", got, tc.want)
			}
		})
	}
}
