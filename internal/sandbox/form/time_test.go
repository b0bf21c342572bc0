package form

import (
	"strings"
	"testing"

	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// TestParseTime_Forms: Unix seconds and RFC 3339 read alike, within the
// same bounds; anything else is refused naming the parameter and both
// forms, and a time out of bounds says where it falls in UTC.
func TestParseTime_Forms(t *testing.T) {
	t.Parallel()
	const (
		notTime = "is not a time; send Unix seconds, as in 1769860800, or RFC 3339, as in 2026-01-31T12:00:00Z, from 1971-01-01T00:00:00Z to 9999-12-31T23:59:59Z."
		outside = "send a time from 1971-01-01T00:00:00Z to 9999-12-31T23:59:59Z (Unix seconds 31536000 to 253402300799)."
	)
	for _, tc := range []struct {
		v    string
		want int64
		err  string
	}{
		{"2026-01-01T00:00:00Z", 1_767_225_600, ""},
		{"1767225600", 1_767_225_600, ""},
		{"2026-01-01T01:00:00+01:00", 1_767_225_600, ""},
		{"1971-01-01T00:00:00Z", wire.TestClockMinUnix, ""},
		{"31536000", wire.TestClockMinUnix, ""},
		{"9999-12-31T23:59:59Z", wire.MaxTimeUnix, ""},
		{"253402300799", wire.MaxTimeUnix, ""},
		{"9999-12-31T23:59:59+01:00", wire.MaxTimeUnix - 3600, ""},
		{"2026-01-01T00:00:00.25Z", 1_767_225_600, ""},
		// The same bounds in either form.
		{"1970-12-31T23:59:59Z", 0, `"1970-12-31T23:59:59Z" is 1970-12-31T23:59:59Z in UTC; ` + outside},
		{"31535999", 0, `"31535999" is 1970-12-31T23:59:59Z in UTC; ` + outside},
		{"1971-01-01T00:30:00+01:00", 0, "is 1970-12-31T23:30:00Z in UTC"},
		{"0", 0, "is 1970-01-01T00:00:00Z in UTC"},
		{"0001-01-01T00:00:00Z", 0, "is 0001-01-01T00:00:00Z in UTC"},
		{"9999-12-31T23:00:00-02:00", 0, "is 10000-01-01T01:00:00Z in UTC; " + outside},
		{"253402300800", 0, "is 10000-01-01T00:00:00Z in UTC"},
		{"9999-12-31T23:59:59.5Z", 0, "in UTC; " + outside},
		// Neither form.
		{"999999999999999", 0, notTime},
		{"10000-01-01T00:00:00Z", 0, notTime},
		{"01767225600", 0, notTime},
		{"+1767225600", 0, notTime},
		{"-1", 0, notTime},
		{"1767225600.5", 0, notTime},
		{"1e9", 0, notTime},
		{" 1767225600", 0, notTime},
		{"2026-01-01", 0, notTime},
		{"tomorrow", 0, notTime},
		{"", 0, notTime},
	} {
		got, e := ParseTime(wire.ParamFrozenTime, tc.v, wire.TestClockMinUnix, wire.MaxTimeUnix)
		switch {
		case tc.err == "" && (e != nil || got.Unix() != tc.want):
			t.Errorf("%q: %d, %v", tc.v, got.Unix(), e)
		case tc.err != "" && (e == nil || e.Param != wire.ParamFrozenTime || e.Code != wire.ErrorCodeParameterInvalid ||
			!strings.HasPrefix(e.Message, "frozen_time ") || !strings.Contains(e.Message, tc.err)):
			t.Errorf("%q: refusal %+v, want one holding %q", tc.v, e, tc.err)
		}
	}
}

// TestCreatedRange_Bounds: open without bounds, inclusive and exclusive
// bounds in either form, whole seconds rounded inwards, the narrower of
// two bounds of a side, and a refusal naming the bound that is not a time.
func TestCreatedRange_Bounds(t *testing.T) {
	t.Parallel()
	const open0, open1 = -1 << 63, 1<<63 - 1
	for _, tc := range []struct {
		name     string
		raw      string
		from, to int64
		param    string
	}{
		{"no bounds", "", open0, open1, ""},
		{"empty bounds", "created[gte]=&created[lt]=", open0, open1, ""},
		{"whole seconds", "created[gte]=2026-01-01T00:00:00Z&created[lte]=2026-01-01T00:00:10Z", 1_767_225_600, 1_767_225_610, ""},
		{"unix seconds", "created[gte]=1767225600&created[lte]=1767225610", 1_767_225_600, 1_767_225_610, ""},
		{"exclusive", "created[gt]=1767225600&created[lt]=1767225610", 1_767_225_601, 1_767_225_609, ""},
		{"fractions round inwards", "created[gte]=2026-01-01T00:00:00.5Z&created[lte]=2026-01-01T00:00:10.5Z", 1_767_225_601, 1_767_225_610, ""},
		{"exclusive fractions", "created[gt]=2026-01-01T00:00:00.5Z&created[lt]=2026-01-01T00:00:10.5Z", 1_767_225_601, 1_767_225_610, ""},
		{"the narrower bound", "created[gte]=1767225605&created[gt]=1767225600&created[lte]=1767225610&created[lt]=1767225620", 1_767_225_605, 1_767_225_610, ""},
		{"from the epoch", "created[gte]=0", 0, open1, ""},
		{"a date alone", "created[gte]=2026-01-01", 0, 0, wire.ParamCreatedGTE},
		{"not a time", "created[lt]=yesterday", 0, 0, wire.ParamCreatedLT},
		{"before the epoch", "created[gt]=1969-12-31T23:59:59Z", 0, 0, wire.ParamCreatedGT},
		{"past the latest", "created[lte]=253402300800", 0, 0, wire.ParamCreatedLTE},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, pe := Parse(nil, tc.raw)
			if pe != nil {
				t.Fatal(pe)
			}
			from, to, e := CreatedRange(f)
			switch {
			case tc.param == "" && (e != nil || from != tc.from || to != tc.to):
				t.Fatalf("%d..%d, %v", from, to, e)
			case tc.param != "" && (e == nil || e.Param != tc.param || !strings.HasPrefix(e.Message, tc.param+" ")):
				t.Fatalf("refusal %+v, want one of %s", e, tc.param)
			}
		})
	}
}
