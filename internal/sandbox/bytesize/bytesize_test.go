package bytesize_test

import (
	"strings"
	"testing"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/bytesize"
)

func TestParse_UnitsAndErrors(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int64
		bad  bool
	}{
		{in: "0", want: 0},
		{in: "1048576", want: 1 << 20},
		{in: "64MiB", want: 64 << 20},
		{in: "64 MiB", want: 64 << 20},
		{in: "64mib", want: 64 << 20},
		{in: "16KiB", want: 16 << 10},
		{in: "2GiB", want: 2 << 30},
		{in: "500MB", want: 500_000_000},
		{in: "10KB", want: 10_000},
		{in: "1GB", want: 1_000_000_000},
		{in: "100B", want: 100},
		{in: "", bad: true},
		{in: "MiB", bad: true},
		{in: "-1MiB", bad: true},
		{in: "+5", bad: true},
		{in: "1.5GiB", bad: true},
		{in: "64M", bad: true},
		{in: "64 mebibytes", bad: true},
		{in: "99999999999TiB", bad: true},
	} {
		got, err := bytesize.Parse(tc.in)
		switch {
		case tc.bad && err == nil:
			t.Errorf("Parse(%q) = %d, want an error", tc.in, got)
		case tc.bad && !strings.Contains(err.Error(), "such as 64MiB"):
			t.Errorf("Parse(%q): error %q gives no example", tc.in, err)
		case !tc.bad && (err != nil || got != tc.want):
			t.Errorf("Parse(%q) = %d, %v; want %d", tc.in, got, err, tc.want)
		}
	}
}

func TestFormat_Units(t *testing.T) {
	for in, want := range map[int64]string{
		0: "0 bytes", 1023: "1023 bytes", 1024: "1 KiB", 64 << 20: "64 MiB", 3 << 29: "1.5 GiB", 256<<20 + 1: "256 MiB",
	} {
		if got := bytesize.Format(in); got != want {
			t.Errorf("Format(%d) = %q, want %q", in, got, want)
		}
	}
}
