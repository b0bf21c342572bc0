package jsonw

import (
	"testing"
	"time"
)

func TestMillis_Microseconds(t *testing.T) {
	for _, tc := range []struct {
		d    time.Duration
		want string
	}{
		{0, "0"},
		{999 * time.Nanosecond, "0"},
		{1500 * time.Microsecond, "1.5"},
		{2 * time.Second, "2000"},
		{1234567 * time.Nanosecond, "1.234"},
	} {
		if got := string(Millis(nil, tc.d)); got != tc.want {
			t.Errorf("Millis(%v) = %s, want %s", tc.d, got, tc.want)
		}
	}
}
