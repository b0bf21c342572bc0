package dashboard

import "testing"

func TestFormatMoney_MinorUnits(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		amount   int64
		currency string
		want     string
	}{
		{1200, "JPY", "¥1,200"},
		{1999, "USD", "$19.99"},
		{5, "USD", "$0.05"},
		{0, "GBP", "£0.00"},
		{123456789, "EUR", "€1,234,567.89"},
		{99999999, "JPY", "¥99,999,999"},
		{100000, "BRL", "R$1,000.00"},
		{1999, "usd", "$19.99"},
		{1999, "CHF", "1999 CHF"}, // not accepted: its decimals are unknown, so minor units as they are
		{-250, "USD", "-$2.50"},
	} {
		if got := formatMoney(tc.amount, tc.currency); got != tc.want {
			t.Errorf("formatMoney(%d, %s) = %q, want %q", tc.amount, tc.currency, got, tc.want)
		}
	}
}

func TestFormatTime_UTCWithOffset(t *testing.T) {
	t.Parallel()
	got := string(formatTime("2026-11-25T15:04:05+02:00"))
	want := `<time datetime="2026-11-25T13:04:05Z">2026-11-25 13:04:05 UTC+00:00</time>`
	if got != want {
		t.Errorf("formatTime = %s, want %s", got, want)
	}
	if got := string(formatTime("<b>")); got != "&lt;b&gt;" {
		t.Errorf("a value that is not a time: %s", got)
	}
}

func TestShorten_LongValues(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"", ""},
		{"order-1042", "order-1042"},
		{"12345678901234567890", "12345678901234567890"},
		{"123456789012345678901", "1234567890123456789…"},
		{"ééééééééééééééééééééé", "ééééééééééééééééééé…"},
	} {
		if got := shorten(tc.in); got != tc.want {
			t.Errorf("shorten(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestFormatSpan_Lengths: under a day in hours, minutes and seconds,
// under a year in days, longer in years, months and days on the
// calendar; never a time.Duration of the whole span, which saturates
// near 292 years.
func TestFormatSpan_Lengths(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ start, end, want string }{
		{"2026-01-15T12:00:00Z", "2026-01-15T12:00:00Z", "0 seconds"},
		{"2026-01-15T12:00:00Z", "2026-01-15T13:30:00Z", "1 hour 30 minutes"},
		{"2026-01-15T12:00:00Z", "2026-01-16T12:00:00Z", "1 day"},
		{"2026-01-15T12:00:00Z", "2026-01-17T00:00:00Z", "1 day 12 hours"},
		{"2026-01-15T12:00:00Z", "2026-02-15T12:00:00Z", "31 days"},
		{"2026-01-01T00:00:00Z", "2026-02-15T00:00:00Z", "45 days"},
		{"2026-01-01T00:00:00Z", "2026-12-31T23:59:59Z", "364 days 23 hours 59 minutes 59 seconds"},
		{"2026-01-01T00:00:00Z", "2027-01-01T00:00:00Z", "1 year"},
		{"2024-02-29T00:00:00Z", "2025-02-28T00:00:00Z", "1 year"},
		{"2026-01-31T00:00:00Z", "2027-02-28T00:00:00Z", "1 year 1 month"},
		{"2026-01-31T00:00:00Z", "2029-03-31T00:00:00Z", "3 years 2 months"},
		{"2026-01-31T00:00:00Z", "2029-04-04T06:00:00Z", "3 years 2 months 4 days 6 hours"},
		{"9996-12-30T00:00:00Z", "9999-12-30T00:00:00Z", "3 years"},
		{"2026-11-29T00:00:00Z", "9999-12-31T23:59:59Z", "7973 years 1 month 2 days 23 hours 59 minutes 59 seconds"},
		{"0001-01-01T00:00:00Z", "9999-12-31T23:59:59Z", "9998 years 11 months 30 days 23 hours 59 minutes 59 seconds"},
		{"2026-01-01T02:00:00+02:00", "2026-01-02T00:00:00Z", "1 day"},
		{"2029-03-31T00:00:00Z", "2026-01-31T00:00:00Z", "minus 3 years 2 months"},
		{"2026-01-16T12:00:00Z", "2026-01-15T12:00:00Z", "minus 1 day"},
		{"", "2026-01-15T12:00:00Z", ""},
		{"2026-01-15T12:00:00Z", "10002-12-30T00:00:00Z", ""},
	} {
		if got := formatSpan(tc.start, tc.end); got != tc.want {
			t.Errorf("formatSpan(%s, %s) = %q, want %q", tc.start, tc.end, got, tc.want)
		}
	}
}
