package form

import (
	"strings"
	"testing"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/apierr"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// TestCheck_Values: each value check accepts what the API takes and refuses
// the rest with a message naming the field and the fix.
func TestCheck_Values(t *testing.T) {
	long := func(n int) string { return strings.Repeat("x", n) }
	for _, tc := range []struct {
		name  string
		e     *apierr.Error
		param string // "" when accepted
		msg   string
	}{
		{"email ok", CheckEmail("a@b.c"), "", ""},
		{"email no at", CheckEmail("ab.c"), wire.ParamEmail, "use the form local@domain"},
		{"email two ats", CheckEmail("a@b@c"), wire.ParamEmail, "local@domain"},
		{"email space", CheckEmail("a b@c"), wire.ParamEmail, "local@domain"},
		{"email too long", CheckEmail(long(wire.EmailMaxLength) + "@b"), wire.ParamEmail, "use at most"},
		{"phone ok", CheckPhone("+14155550123"), "", ""},
		{"phone no plus", CheckPhone("14155550123"), wire.ParamPhone, "E.164"},
		{"name ok", CheckName("Ann"), "", ""},
		{"name too long", CheckName(long(wire.NameMaxLength + 1)), wire.ParamName, "use at most"},
		{"name control", CheckName("a\x01b"), wire.ParamName, "control character U+0001 at character 2"},
		{"name tab", CheckName("a\tb"), "", ""},
		{"label bidi", CheckLabel("nickname", "a\u202eb", 10), "nickname", "bidirectional control U+202E"},
		{"description ok", CheckDescription("a\x01b"), "", ""},
		{"description bidi", CheckDescription("\u2066"), wire.ParamDescription, "bidirectional control U+2066 at character 1"},
		{"description too long", CheckDescription(long(wire.PaymentDescriptionMaxLength + 1)), wire.ParamDescription, "use at most"},
		{"refuse control what", RefuseControl("metadata[k]", "The metadata key", "\x7f"), "metadata[k]", "The metadata key holds the control character U+007F"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.param == "" {
				if tc.e != nil {
					t.Fatalf("refused: %v", tc.e)
				}
				return
			}
			if tc.e == nil || tc.e.Param != tc.param || !strings.Contains(tc.e.Message, tc.msg) {
				t.Errorf("got %+v, want param %q and %q", tc.e, tc.param, tc.msg)
			}
		})
	}
}

// TestParseAmount_Bounds: amounts and counts are plain decimal whole numbers within
// their bounds; money's refusal says the bounds in major units too.
func TestParseAmount_Bounds(t *testing.T) {
	for _, tc := range []struct {
		name string
		fn   func(string) (int64, *apierr.Error)
		in   string
		want int64
		msg  string // "" when accepted
	}{
		{"amount", func(v string) (int64, *apierr.Error) { return ParseAmount("amount", v, 1, 100) }, "100", 100, ""},
		{"amount over", func(v string) (int64, *apierr.Error) { return ParseAmount("amount", v, 1, 100) }, "101", 0, `amount "101" is not valid; use a whole number of minor units from 1 to 100.`},
		{"amount sign", func(v string) (int64, *apierr.Error) { return ParseAmount("amount", v, 1, 100) }, "+5", 0, "minor units"},
		{"amount decimal", func(v string) (int64, *apierr.Error) { return ParseAmount("amount", v, 1, 100) }, "1.5", 0, "minor units"},
		{"money", func(v string) (int64, *apierr.Error) { return ParseMoney("amount", v, 1, 900, "GBP") }, "900", 900, ""},
		{"money over", func(v string) (int64, *apierr.Error) { return ParseMoney("amount", v, 1, 900, "GBP") }, "901", 0, "(" + wire.FormatMoney(1, "GBP") + " to " + wire.FormatMoney(900, "GBP") + ")"},
		{"count", func(v string) (int64, *apierr.Error) { return ParseCount("quantity", v, 1, 10) }, "3", 3, ""},
		{"count under", func(v string) (int64, *apierr.Error) { return ParseCount("quantity", v, 1, 10) }, "0", 0, `quantity "0" is not valid; use a whole number from 1 to 10.`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n, e := tc.fn(tc.in)
			if tc.msg == "" {
				if e != nil || n != tc.want {
					t.Fatalf("got %d, %v; want %d", n, e, tc.want)
				}
				return
			}
			if e == nil || !strings.Contains(e.Message, tc.msg) {
				t.Errorf("got %d, %+v; want a refusal with %q", n, e, tc.msg)
			}
		})
	}
}

func TestCurrency_Codes(t *testing.T) {
	c := wire.Currencies[0]
	got, e := Currency(c)
	if e != nil || got != c {
		t.Fatalf("Currency(%q) = %q, %v", c, got, e)
	}
	_, e = Currency(strings.ToLower(c))
	if e == nil || e.Param != wire.ParamCurrency || !strings.Contains(e.Message, "Currency codes are upper case: use "+c+".") {
		t.Errorf("lower case: %+v, want the upper-case hint", e)
	}
	if _, e = Currency("XXX"); e == nil || strings.Contains(e.Message, "upper case") {
		t.Errorf("unknown: %+v, want a refusal without the hint", e)
	}
}

func TestBool_Values(t *testing.T) {
	for _, tc := range []struct {
		raw          string
		val, given   bool
		refused      bool
		dstAfterBool bool
	}{
		{raw: "", val: false, given: false, dstAfterBool: true},
		{raw: "flag=", val: false, given: false, refused: true},
		{raw: "flag=true", val: true, given: true, dstAfterBool: true},
		{raw: "flag=false", val: false, given: true, dstAfterBool: false},
		{raw: "flag=yes", refused: true},
	} {
		t.Run(tc.raw, func(t *testing.T) {
			f, e := Parse(nil, tc.raw)
			if e != nil {
				t.Fatal(e)
			}
			dst := true
			e = Bool(f, "flag", &dst)
			if (e != nil) != tc.refused || (e == nil && dst != tc.dstAfterBool) {
				t.Errorf("Bool: %v, dst %v", e, dst)
			}
			if e != nil && (e.Param != "flag" || !strings.Contains(e.Message, "use true or false")) {
				t.Errorf("Bool's refusal %+v", e)
			}
			val, given, fe := BoolFilter(f, "flag")
			if tc.raw == "flag=yes" {
				if fe == nil {
					t.Error("BoolFilter accepted yes")
				}
				return
			}
			if fe != nil || val != tc.val || given != tc.given {
				t.Errorf("BoolFilter = %v, %v, %v; want %v, %v", val, given, fe, tc.val, tc.given)
			}
		})
	}
}

func TestEscaped_Controls(t *testing.T) {
	if got := Escaped("a\x01\u0085\"b"); got != `a\x01\u0085\"b` {
		t.Errorf("Escaped = %s", got)
	}
}
