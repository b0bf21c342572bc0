package form

import (
	"net/http"
	"strings"
	"testing"

	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// TestParse_Fields: accepted text gives its fields sorted by name, brackets and
// indexes split; refused text names the field at fault.
func TestParse_Fields(t *testing.T) {
	for _, tc := range []struct {
		raw   string
		want  []Param
		param string // the refusal's param, when refused
		msg   string // a part of the refusal's message
	}{
		{raw: "", want: nil},
		{raw: "b=2&a=1&&", want: []Param{{Name: "a", Value: "1"}, {Name: "b", Value: "2"}}},
		{raw: "name=A%20B+C", want: []Param{{Name: "name", Value: "A B C"}}},
		{raw: "metadata[plan]=gold", want: []Param{{Name: "metadata[plan]", Value: "gold", Base: "metadata", Sub: "plan", Bracketed: true}}},
		{raw: "items[3][price]=p", want: []Param{{Name: "items[3][price]", Value: "p", Base: "items", Sub: "price", Indexed: true, Index: 3}}},
		{raw: "e[]=a&e[]=b", want: []Param{{Name: "e[]", Value: "a", Base: "e", Array: true}, {Name: "e[]", Value: "b", Base: "e", Array: true}}},
		{raw: "a=1&a=2", param: "a", msg: "given more than once"},
		{raw: "a%zz=1", param: "a%zz", msg: "not valid percent-encoding"},
		{raw: "a=%zz", param: "a", msg: "The value of a is not valid percent-encoding"},
		{raw: "=1", param: "", msg: "empty name"},
		{raw: "a=%ff", param: "a", msg: "not valid UTF-8"},
		{raw: "%ff=1", param: "", msg: "name is not valid UTF-8"},
		{raw: "metadata[a][b]=1", param: "metadata[a][b]", msg: "malformed"},
		{raw: "metadata[=1", param: "metadata[", msg: "malformed"},
		{raw: "[a]=1", param: "[a]", msg: "malformed"},
		{raw: "a]=1", param: "a]", msg: "malformed"},
		{raw: "items[1000][price]=p", param: "items[1000][price]", msg: "index and field"},
		{raw: "items[01][price]=p", param: "items[01][price]", msg: "index and field"},
	} {
		t.Run(tc.raw, func(t *testing.T) {
			got, e := Parse(nil, tc.raw)
			if tc.msg != "" {
				if e == nil {
					t.Fatalf("Parse(%q) = %+v, want a refusal", tc.raw, got)
				}
				if e.Status != http.StatusBadRequest || e.Code != wire.ErrorCodeParameterInvalid || e.Param != tc.param || !strings.Contains(e.Message, tc.msg) {
					t.Errorf("Parse(%q) refused %d %s param %q %q, want param %q and %q", tc.raw, e.Status, e.Code, e.Param, e.Message, tc.param, tc.msg)
				}
				return
			}
			if e != nil {
				t.Fatalf("Parse(%q): %v", tc.raw, e)
			}
			if len(got) != len(tc.want) {
				t.Fatalf("Parse(%q) = %+v, want %+v", tc.raw, got, tc.want)
			}
			for i := range got {
				if got[i] != tc.want[i] {
					t.Errorf("Parse(%q)[%d] = %+v, want %+v", tc.raw, i, got[i], tc.want[i])
				}
			}
		})
	}
}

// TestParse_Appends: the body's fields join the query's, and a field in
// both is a duplicate.
func TestParse_Appends(t *testing.T) {
	f, e := Parse(nil, "limit=3")
	if e != nil {
		t.Fatal(e)
	}
	if f, e = Parse(f, "email=a%40b.c"); e != nil || len(f) != 2 || f[0].Name != "email" {
		t.Fatalf("got %+v, %v", f, e)
	}
	if _, e = Parse(f, "limit=4"); e == nil || e.Param != "limit" {
		t.Errorf("limit in query and body: %v, want a refusal naming limit", e)
	}
}

func TestForm_GetAllCheck(t *testing.T) {
	f, e := Parse(nil, "e[]=x&e[]=y&metadata[k]=v&items[0][price]=p&name=n&created[gte]=1")
	if e != nil {
		t.Fatal(e)
	}
	if v, ok := f.Get("name"); !ok || v != "n" {
		t.Errorf("Get(name) = %q, %v", v, ok)
	}
	if _, ok := f.Get("missing"); ok {
		t.Error("Get(missing) found it")
	}
	if vals, ok := f.All("e[]"); !ok || strings.Join(vals, ",") != "x,y" {
		t.Errorf("All(e[]) = %q, %v", vals, ok)
	}
	for _, tc := range []struct {
		name    string
		allowed []string
		param   string // "" when accepted
		code    string
	}{
		{"all allowed", []string{"e[]", MetadataKeys, "items[#][price]", "name", "created[gte]"}, "", ""},
		{"unknown name", []string{"e[]", MetadataKeys, "items[#][price]", "created[gte]"}, "name", wire.ErrorCodeParameterUnknown},
		{"metadata not admitted", []string{"e[]", "items[#][price]", "name", "created[gte]"}, "metadata[k]", wire.ErrorCodeParameterUnknown},
		{"other index field", []string{"e[]", MetadataKeys, "items[#][quantity]", "name", "created[gte]"}, "items[0][price]", wire.ErrorCodeParameterUnknown},
		{"array not taken", []string{MetadataKeys, "items[#][price]", "name", "created[gte]"}, "e[]", wire.ErrorCodeParameterInvalid},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := f.Check(tc.allowed...)
			if tc.param == "" {
				if e != nil {
					t.Fatalf("Check: %v", e)
				}
				return
			}
			if e == nil || e.Param != tc.param || e.Code != tc.code {
				t.Errorf("Check = %+v, want param %q code %s", e, tc.param, tc.code)
			}
		})
	}
}

// TestFingerprint_Identifies: the order of the fields is moot; the method, path and
// values are not; a raw fingerprint never equals a parsed one.
func TestFingerprint_Identifies(t *testing.T) {
	fp := func(method, path, raw string) [32]byte {
		f, e := Parse(nil, raw)
		if e != nil {
			t.Fatal(e)
		}
		return Fingerprint(method, path, f)
	}
	base := fp("POST", "/v1/payments", "amount=100&currency=GBP")
	if fp("POST", "/v1/payments", "currency=GBP&amount=100") != base {
		t.Error("field order changed the fingerprint")
	}
	for _, other := range [][32]byte{
		fp("GET", "/v1/payments", "amount=100&currency=GBP"),
		fp("POST", "/v1/customers", "amount=100&currency=GBP"),
		fp("POST", "/v1/payments", "amount=101&currency=GBP"),
		RawFingerprint("POST", "/v1/payments", "", []byte("amount=100&currency=GBP"), false),
	} {
		if other == base {
			t.Error("a different request has the same fingerprint")
		}
	}
	if RawFingerprint("POST", "/p", "", nil, true) == RawFingerprint("POST", "/p", "", nil, false) {
		t.Error("a body over the limit fingerprints as an empty body")
	}
}
