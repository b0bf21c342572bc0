package client

import (
	"testing"
	"time"
)

func TestFormatDuration_Units(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		in   time.Duration
		want string
	}{
		{0, "0s"},
		{250 * time.Millisecond, "250ms"},
		{2 * time.Second, "2s"},
		{time.Minute, "1m"},
		{90 * time.Second, "1m30s"},
		{2 * time.Hour, "2h"},
		{2*time.Hour + 5*time.Minute, "2h5m"},
		{time.Hour + time.Second, "1h0m1s"},
	} {
		if got := FormatDuration(tc.in); got != tc.want {
			t.Errorf("FormatDuration(%v) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
