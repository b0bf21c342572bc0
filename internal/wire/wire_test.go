package wire_test

import (
	"net/url"
	"regexp"
	"strings"
	"testing"
	"unicode"

	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// TestClassifyKey_EveryKind covers every kind and the malformed shapes.
func TestClassifyKey_EveryKind(t *testing.T) {
	t.Parallel()
	rest := strings.Repeat("k", wire.MinKeySecretLength)
	tests := []struct {
		key  string
		want wire.KeyKind
	}{
		{wire.SecretKeySandboxPrefix + rest, wire.KeySecretSandbox},
		{wire.SecretKeyLivePrefix + rest, wire.KeySecretLive},
		{wire.PublicKeySandboxPrefix + rest, wire.KeyPublicSandbox},
		{wire.PublicKeyLivePrefix + rest, wire.KeyPublicLive},
		{wire.SecretKeySandboxPrefix + "Ab_9" + rest, wire.KeySecretSandbox},
		{wire.SecretKeySandboxPrefix + rest[1:], wire.KeyMalformed},
		{wire.SecretKeySandboxPrefix + rest + "-", wire.KeyMalformed},
		{wire.SecretKeySandboxPrefix + rest + " ", wire.KeyMalformed},
		{wire.SecretKeySandboxPrefix + rest + "é", wire.KeyMalformed},
		{"sk_test_" + rest, wire.KeyMalformed},
		{rest, wire.KeyMalformed},
		{"", wire.KeyMalformed},
		// Short secrets of the allowed alphabet, and malformed shapes.
		{wire.SecretKeySandboxPrefix + "Ab3_xY9_zQ", wire.KeySecretSandbox},
		{wire.SecretKeySandboxPrefix + "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", wire.KeySecretSandbox},
		{wire.SecretKeySandboxPrefix, wire.KeyMalformed},
		{wire.SecretKeyLivePrefix + "aaaa-aaaa", wire.KeyMalformed},
		{wire.SecretKeySandboxPrefix + "aaaa aaaa", wire.KeyMalformed},
		{wire.SecretKeySandboxPrefix + "aaaaaaaé", wire.KeyMalformed},
		{wire.SecretKeySandboxPrefix + rest + "\n", wire.KeyMalformed},
		{"SK_SANDBOX_" + rest, wire.KeyMalformed},
		{" " + wire.SecretKeySandboxPrefix + rest, wire.KeyMalformed},
	}
	for _, tc := range tests {
		if got := wire.ClassifyKey(tc.key); got != tc.want {
			t.Errorf("ClassifyKey(%q) = %v, want %v", tc.key, got, tc.want)
		}
	}
}

// TestSplitAuthorization_Schemes: Basic and Bearer in any case, what
// follows the first space as sent, and no scheme for anything else.
func TestSplitAuthorization_Schemes(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ value, scheme, creds string }{
		{"Basic c2s6", wire.AuthSchemeBasic, "c2s6"},
		{"basic c2s6", wire.AuthSchemeBasic, "c2s6"},
		{"Bearer sk_sandbox_12345678", wire.AuthSchemeBearer, "sk_sandbox_12345678"},
		{"BEARER sk_sandbox_12345678", wire.AuthSchemeBearer, "sk_sandbox_12345678"},
		{"Bearer  sk_sandbox_12345678", wire.AuthSchemeBearer, " sk_sandbox_12345678"},
		{"Bearer", wire.AuthSchemeBearer, ""},
		{"Digest x", "", ""},
		{"Bearersk_sandbox_12345678", "", ""},
		{"", "", ""},
	} {
		if scheme, creds := wire.SplitAuthorization(tc.value); scheme != tc.scheme || creds != tc.creds {
			t.Errorf("SplitAuthorization(%q) = %q, %q; want %q, %q", tc.value, scheme, creds, tc.scheme, tc.creds)
		}
	}
	if got := wire.BasicAuthorization("sk"); got != "Basic c2s6" {
		t.Errorf("BasicAuthorization(sk) = %q", got)
	}
	if got := wire.BearerAuthorization("sk"); got != "Bearer sk" {
		t.Errorf("BearerAuthorization(sk) = %q", got)
	}
}

func TestExpandPath_EscapesIDs(t *testing.T) {
	t.Parallel()
	tests := []struct {
		template string
		ids      []string
		want     string
	}{
		{wire.PathCustomers, nil, "/v1/customers"},
		{wire.PathCustomer, []string{"cus_1"}, "/v1/customers/cus_1"},
		{wire.PathCustomerSource, []string{"cus_1", "src_2"}, "/v1/customers/cus_1/sources/src_2"},
		{wire.PathPaymentRefund, []string{"pay_1"}, "/v1/payments/pay_1/refund"},
		{wire.PathSandboxPaymentComplete, []string{"pay_1"}, "/_sandbox/payments/pay_1/complete"},
		{wire.PathCustomer, []string{"a/b c"}, "/v1/customers/a%2Fb%20c"},
	}
	for _, tc := range tests {
		if got := wire.ExpandPath(tc.template, url.PathEscape, tc.ids...); got != tc.want {
			t.Errorf("ExpandPath(%q, %q) = %q, want %q", tc.template, tc.ids, got, tc.want)
		}
	}
	for _, bad := range []struct {
		template string
		ids      []string
	}{
		{wire.PathCustomer, nil},
		{wire.PathCustomer, []string{"a", "b"}},
		{wire.PathCustomers, []string{"a"}},
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("ExpandPath(%q, %q) did not panic", bad.template, bad.ids)
				}
			}()
			wire.ExpandPath(bad.template, url.PathEscape, bad.ids...)
		}()
	}
}

func TestMetadataParam_Brackets(t *testing.T) {
	t.Parallel()
	if got := wire.MetadataParam("plan"); got != "metadata[plan]" {
		t.Errorf("MetadataParam = %q", got)
	}
}

// Every accepted currency has an exponent, and the table names no other.
func TestCurrencyDecimals_CoversCurrencies(t *testing.T) {
	for _, c := range wire.Currencies {
		if _, ok := wire.CurrencyDecimals[c]; !ok {
			t.Errorf("CurrencyDecimals has no entry for %s", c)
		}
	}
	if len(wire.CurrencyDecimals) != len(wire.Currencies) {
		t.Errorf("CurrencyDecimals has %d entries, Currencies %d", len(wire.CurrencyDecimals), len(wire.Currencies))
	}
}

// TestRefusedControlClass_IsControlButTabAndNewline: the class refuses
// exactly Unicode's control characters other than tab and newline, the
// bidirectional class exactly Unicode's Bidi_Control characters, and the
// patterns refuse what their classes name.
func TestRefusedControlClass_IsControlButTabAndNewline(t *testing.T) {
	in := regexp.MustCompile(`[` + wire.RefusedControlClass + `]`)
	bidi := regexp.MustCompile(`[` + wire.BidiControlClass + `]`)
	clean := regexp.MustCompile(wire.NoRefusedControlPattern)
	noBidi := regexp.MustCompile(wire.NoBidiControlPattern)
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if r >= 0xD800 && r <= 0xDFFF {
			continue // surrogates are not text
		}
		want := unicode.IsControl(r) && r != '\t' && r != '\n'
		wantBidi := unicode.Is(unicode.Bidi_Control, r)
		s := "a" + string(r) + "b"
		if in.MatchString(s) != want || clean.MatchString(s) == (want || wantBidi) {
			t.Errorf("U+%04X: refused %v, want %v", r, in.MatchString(s), want)
		}
		if bidi.MatchString(s) != wantBidi || noBidi.MatchString(s) == wantBidi {
			t.Errorf("U+%04X: refused as bidirectional %v, want %v", r, bidi.MatchString(s), wantBidi)
		}
	}
}

func TestLuhnValid_Cases(t *testing.T) {
	for number, want := range map[string]bool{
		"4242424242424242": true, "378282246310005": true, "5555555555554444": true,
		"4242424242424241": false, "4000000000000001": false, "79927398713": true, "79927398710": false,
	} {
		if got := wire.LuhnValid(number); got != want {
			t.Errorf("LuhnValid(%s) = %v, want %v", number, got, want)
		}
	}
}

func TestClip_Cases(t *testing.T) {
	for _, tc := range []struct {
		s    string
		n    int
		want string
	}{
		{"short", 8, "short"},
		{"exactly8", 8, "exactly8"},
		{"ninechars", 8, "ninechar…"},
		{"漢字漢字漢字", 4, "漢字漢字…"}, // characters, not bytes: never half a rune
		{"", 3, ""},
	} {
		if got := wire.Clip(tc.s, tc.n); got != tc.want {
			t.Errorf("Clip(%q, %d) = %q, want %q", tc.s, tc.n, got, tc.want)
		}
	}
}

// TestSummaryDayOf_UTCDate: a summary's day is the UTC date, times before
// 1970 included, up to the largest time the API writes.
func TestSummaryDayOf_UTCDate(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		unix int64
		date string
	}{
		{0, "1970-01-01"}, {86399, "1970-01-01"}, {86400, "1970-01-02"}, {-1, "1969-12-31"}, {-86400, "1969-12-31"}, {-86401, "1969-12-30"},
		{wire.MaxTimeUnix, "9999-12-31"},
	} {
		if got := wire.SummaryDate(wire.SummaryDayOf(tc.unix)); got != tc.date {
			t.Errorf("SummaryDate(SummaryDayOf(%d)) = %s, want %s", tc.unix, got, tc.date)
		}
	}
}
