package wire_test

import (
	"testing"
	"time"

	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

func TestFormatDurationWords_Cases(t *testing.T) {
	for _, tc := range []struct {
		in   time.Duration
		want string
	}{
		{0, "0 seconds"},
		{500 * time.Microsecond, "500µs"},
		{250 * time.Millisecond, "250 milliseconds"},
		{time.Millisecond, "1 millisecond"},
		{time.Second, "1 second"},
		{1500 * time.Millisecond, "1.5 seconds"},
		{30 * time.Second, "30 seconds"},
		{time.Minute, "1 minute"},
		{30 * time.Minute, "30 minutes"},
		{90 * time.Second, "1 minute 30 seconds"},
		{time.Minute + 400*time.Millisecond, "1 minute"},
		{2 * time.Hour, "2 hours"},
		{time.Hour + 30*time.Minute, "1 hour 30 minutes"},
		{720 * time.Hour, "720 hours"},
		{-2 * time.Second, "minus 2 seconds"},
	} {
		if got := wire.FormatDurationWords(tc.in); got != tc.want {
			t.Errorf("FormatDurationWords(%v) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
