package ids_test

import (
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/ids"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

func TestParse_PrefixAndAlphabet(t *testing.T) {
	t.Parallel()
	good := strings.Repeat("aZ9", 8)
	for _, tc := range []struct {
		name, in string
		ok       bool
	}{
		{"an id", "cus_" + good, true},
		{"another prefix", "pay_" + good, false},
		{"no prefix", good, false},
		{"one short", "cus_" + good[1:], false},
		{"one long", "cus_" + good + "a", false},
		{"a dash", "cus_" + good[1:] + "-", false},
		{"a non-ASCII letter", "cus_" + good[2:] + "é", false},
		{"empty", "", false},
	} {
		r, ok := ids.Parse(tc.in, "cus_")
		if ok != tc.ok {
			t.Errorf("%s: Parse(%q) ok = %v, want %v", tc.name, tc.in, ok, tc.ok)
		}
		if ok && r.Format("cus_") != tc.in {
			t.Errorf("%s: Format = %q, want %q", tc.name, r.Format("cus_"), tc.in)
		}
	}
}

// TestNew_ParsesBackAndDiffers: ids are of the alphabet, parse back, and differ; over many,
// every character of the alphabet turns up.
func TestNew_ParsesBackAndDiffers(t *testing.T) {
	t.Parallel()
	seen := map[ids.RID]bool{}
	chars := map[byte]bool{}
	for range 2000 {
		r := ids.New()
		id := r.Format("evt_")
		back, ok := ids.Parse(id, "evt_")
		if !ok || back != r {
			t.Fatalf("%q does not parse back", id)
		}
		if string(ids.Append(nil, "evt_", r)) != `"`+id+`"` {
			t.Fatalf("Append = %s, want %q", ids.Append(nil, "evt_", r), id)
		}
		if seen[r] {
			t.Fatalf("%q drawn twice", id)
		}
		seen[r] = true
		for _, c := range r {
			chars[c] = true
		}
	}
	if len(chars) != 62 {
		t.Errorf("%d distinct characters in 2000 ids, want all 62", len(chars))
	}
}

func TestAuthorizationCode_AndRequestID(t *testing.T) {
	t.Parallel()
	reqID := regexp.MustCompile(`^req_[A-Za-z0-9]{` + strconv.Itoa(wire.IDRandomLength) + `}$`)
	digits := map[byte]bool{}
	for range 500 {
		if id := ids.RequestID(); !reqID.MatchString(id) {
			t.Fatalf("request id %q", id)
		}
		code := ids.AuthorizationCode()
		if len(code) != 6 || strings.Trim(code, "0123456789") != "" {
			t.Fatalf("authorization code %q is not six digits", code)
		}
		for i := range code {
			digits[code[i]] = true
		}
	}
	if len(digits) != 10 {
		t.Errorf("%d distinct digits in 500 codes, want 10", len(digits))
	}
}

// BenchmarkNew draws ids, six of which a renewal makes.
//
//	go test -run '^$' -bench BenchmarkNew -count 5 ./internal/sandbox/ids/
func BenchmarkNew(b *testing.B) {
	for b.Loop() {
		ids.New()
	}
}
