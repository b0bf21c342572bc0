package jsonw_test

import (
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/jsonw"
)

var samples = []string{
	"", "plain", `"quoted"\`, "<script>&amp;</script>", "tab\tnew\nline\rret\x00\x1f\x7f", "back\bspace form\ffeed",
	"é ünïcode 日本", "bad \xff byte \xc3", "sep\u2028para\u2029", strings.Repeat("<", 500),
}

// randomStrings are n strings of random bytes, seeded and logged.
func randomStrings(t *testing.T, n int) []string {
	seed := time.Now().UnixNano()
	t.Logf("seed %d", seed)
	r := rand.New(rand.NewPCG(uint64(seed), 0))
	out := make([]string, n)
	for i := range out {
		b := make([]byte, r.IntN(40))
		for j := range b {
			b[j] = byte(r.IntN(256))
		}
		out[i] = string(b)
	}
	return out
}

// TestString_MatchesEncodingJSON: String writes what encoding/json
// writes, byte for byte, except that it spells backspace and form feed
// \u0008 and \u000c where encoding/json now writes \b and \f (both
// read back the same); Len is its length without the quotes.
func TestString_MatchesEncodingJSON(t *testing.T) {
	t.Parallel()
	for _, s := range append(samples, randomStrings(t, 2000)...) {
		want, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		got := jsonw.String(nil, s)
		if !strings.ContainsAny(s, "\b\f") && string(got) != string(want) {
			t.Errorf("String(%q) = %s, want %s", s, got, want)
		}
		var back, wantBack string
		if err := json.Unmarshal(got, &back); err != nil {
			t.Fatalf("String(%q) = %s, not JSON: %v", s, got, err)
		}
		_ = json.Unmarshal(want, &wantBack)
		if back != wantBack {
			t.Errorf("String(%q) reads back as %q, want %q", s, back, wantBack)
		}
		if n := jsonw.Len(s); n != len(got)-2 {
			t.Errorf("Len(%q) = %d, want %d", s, n, len(got)-2)
		}
	}
}

// TestTime_AsTimeFormats: the hand-written dates are time's, at the
// edges of months, leap years, eras and the range written by hand, and
// at random seconds (seed logged).
func TestTime_AsTimeFormats(t *testing.T) {
	t.Parallel()
	at := func(y int, m time.Month, d, hh, mm, ss int) int64 {
		return time.Date(y, m, d, hh, mm, ss, 0, time.UTC).Unix()
	}
	cases := []struct {
		name string
		unix int64
	}{
		{"the epoch", 0},
		{"a second before the epoch", -1},
		{"year 1", at(1, 1, 1, 0, 0, 0)},
		{"the end of February in a leap year", at(2024, 2, 29, 23, 59, 59)},
		{"March 1 after a leap day", at(2024, 3, 1, 0, 0, 0)},
		{"2000, a leap century", at(2000, 2, 29, 12, 0, 0)},
		{"2100, no leap day", at(2100, 3, 1, 0, 0, 0)},
		{"the end of a year", at(2026, 12, 31, 23, 59, 59)},
		{"the start of an era", at(2400, 3, 1, 0, 0, 0)},
		{"the last second written by hand", at(9999, 12, 31, 23, 59, 59)},
		{"the first past it", at(10000, 1, 1, 0, 0, 0)},
	}
	seed := time.Now().UnixNano()
	t.Logf("seed %d", seed)
	r := rand.New(rand.NewPCG(uint64(seed), 0))
	for range 2000 {
		cases = append(cases, struct {
			name string
			unix int64
		}{"random", r.Int64N(at(10001, 1, 1, 0, 0, 0))})
	}
	for _, tc := range cases {
		want := `"` + time.Unix(tc.unix, 0).UTC().Format(time.RFC3339) + `"`
		if got := string(jsonw.Time([]byte("x"), tc.unix)); got != "x"+want {
			t.Errorf("%s: Time(%d) = %s, want x%s", tc.name, tc.unix, got, want)
		}
	}
}

func TestWriters_OptStringTimeFloat(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ got, want string }{
		{string(jsonw.OptString(nil, "")), "null"},
		{string(jsonw.OptString([]byte("x:"), "a<b")), `x:"a\u003cb"`},
		{string(jsonw.Time(nil, 0)), `"1970-01-01T00:00:00Z"`},
		{string(jsonw.Time(nil, 1767225600)), `"2026-01-01T00:00:00Z"`},
	} {
		if tc.got != tc.want {
			t.Errorf("got %s, want %s", tc.got, tc.want)
		}
	}
	for _, f := range []float64{0, 1, 0.25, 0.1, 0.001, 0.3333333333333333, 0.999} {
		want, _ := json.Marshal(f)
		if got := jsonw.Float(nil, f); string(got) != string(want) {
			t.Errorf("Float(%v) = %s, want %s", f, got, want)
		}
	}
}
