package wire_test

import (
	"math"
	"strings"
	"testing"

	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

func TestParseAmount_Cases(t *testing.T) {
	cases := []struct {
		amount, currency string
		want             int64
		errHas           []string // every fragment must be in the error; nil means no error
	}{
		{"19.99", "USD", 1999, nil},
		{"19.9", "USD", 1990, nil},
		{"19", "USD", 1900, nil},
		{"0.01", "EUR", 1, nil},
		{"0", "GBP", 0, nil},
		{"007.50", "CAD", 750, nil},
		{"1200", "JPY", 1200, nil},
		{"999999.99", "MXN", 99999999, nil},
		{"19.999", "USD", 0, []string{"USD", "two decimals", "3 decimals"}},
		{"12.5", "JPY", 0, []string{"JPY", "zero decimals"}},
		{"12.", "USD", 0, []string{"not a decimal number"}},
		{".5", "USD", 0, []string{"not a decimal number"}},
		{"", "USD", 0, []string{"not a decimal number"}},
		{"-1", "USD", 0, []string{"not a decimal number", "without a sign"}},
		{"+1", "USD", 0, []string{"not a decimal number"}},
		{"1e3", "USD", 0, []string{"not a decimal number"}},
		{"1,000", "USD", 0, []string{"thousands separators"}},
		{" 1", "USD", 0, []string{"not a decimal number"}},
		{"1.2.3", "USD", 0, []string{"not a decimal number"}},
		{"99999999999999999999", "USD", 0, []string{"too large"}},
		{"19.99", "usd", 0, []string{"upper case", `"USD"`}},
		{"19.99", "XYZ", 0, []string{"not accepted", strings.Join(wire.Currencies, ", ")}},
	}
	for _, tc := range cases {
		t.Run(tc.amount+"_"+tc.currency, func(t *testing.T) {
			got, err := wire.ParseAmount(tc.amount, tc.currency)
			if tc.errHas == nil {
				if err != nil || got != tc.want {
					t.Fatalf("ParseAmount(%q, %q) = %d, %v; want %d", tc.amount, tc.currency, got, err, tc.want)
				}
				return
			}
			if err == nil {
				t.Fatalf("ParseAmount(%q, %q) = %d, want an error", tc.amount, tc.currency, got)
			}
			for _, frag := range tc.errHas {
				if !strings.Contains(err.Error(), frag) {
					t.Errorf("error %q does not contain %q", err, frag)
				}
			}
		})
	}
}

func TestFormatAmount_Cases(t *testing.T) {
	cases := []struct {
		n        int64
		currency string
		want     string
	}{
		{1999, "USD", "19.99"},
		{1, "USD", "0.01"},
		{10, "EUR", "0.10"},
		{0, "GBP", "0.00"},
		{1200, "JPY", "1200"},
		{-1999, "USD", "-19.99"},
		{-5, "USD", "-0.05"},
		{math.MinInt64, "JPY", "-9223372036854775808"},
	}
	for _, tc := range cases {
		if got := wire.FormatAmount(tc.n, tc.currency); got != tc.want {
			t.Errorf("FormatAmount(%d, %q) = %q, want %q", tc.n, tc.currency, got, tc.want)
		}
	}
}

// Formatting and parsing are inverse for every accepted currency.
func TestParseAmount_RoundTrip(t *testing.T) {
	for _, c := range wire.Currencies {
		for _, n := range []int64{0, 1, 9, 10, 99, 100, 1999, wire.PaymentAmountMax, math.MaxInt64} {
			got, err := wire.ParseAmount(wire.FormatAmount(n, c), c)
			if err != nil || got != n {
				t.Errorf("%s: ParseAmount(FormatAmount(%d)) = %d, %v", c, n, got, err)
			}
		}
	}
}

func TestFormatMoney_Cases(t *testing.T) {
	for _, tc := range []struct {
		n        int64
		currency string
		want     string
	}{
		{900, "GBP", "9.00 GBP"},
		{900, "gbp", "9.00 GBP"},
		{1200, "JPY", "1200 JPY"},
		{5, "USD", "0.05 USD"},
		{-1999, "EUR", "-19.99 EUR"},
	} {
		if got := wire.FormatMoney(tc.n, tc.currency); got != tc.want {
			t.Errorf("FormatMoney(%d, %q) = %q, want %q", tc.n, tc.currency, got, tc.want)
		}
	}
}
