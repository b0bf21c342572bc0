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
