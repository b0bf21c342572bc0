package form

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/apierr"
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
		{raw: "e[]=a&e[]=b", want: []Param{{Name: "e[]", Value: "a", Base: "e", Array: true}, {Name: "e[]", Value: "b", Base: "e", Array: true, Index: 1}}},
		{raw: "e[0]=a", want: []Param{{Name: "e[0]", Value: "a", Base: "e", Sub: "0", Bracketed: true}}},
		{raw: "e[0]=a&e[0]=b", param: "e[0]", msg: "given more than once"},
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
	if vals, ok, e := f.All("e[]"); !ok || e != nil || strings.Join(vals, ",") != "x,y" {
		t.Errorf("All(e[]) = %q, %v, %v", vals, ok, e)
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

// TestForm_AllForms: a list is taken as x[]=… in the order sent or as
// x[0]=…, x[1]=… by index, the one way to number entries that items[0][price]
// uses too; a gap, a repeat, a malformed index or both forms at once is
// refused, naming the list (a repeat, naming the field, by Parse).
func TestForm_AllForms(t *testing.T) {
	var ten []string
	for i := range 12 {
		ten = append(ten, fmt.Sprintf("e[%d]=v%d", i, i))
	}
	for _, tc := range []struct {
		name, raw string
		want      string // the values, joined by commas
		found     bool
		param     string // the refusal's param, when refused
		msg       string // a part of the refusal's message
	}{
		{name: "absent", raw: "other=1"},
		{name: "brackets", raw: "e[]=x&e[]=y&e[]=x", want: "x,y,x", found: true},
		{name: "indexes", raw: "e[0]=x&e[1]=y", want: "x,y", found: true},
		{name: "indexes out of order", raw: "e[2]=z&e[0]=x&e[1]=y", want: "x,y,z", found: true},
		{name: "indexes past 9, by number", raw: strings.Join(ten, "&"), want: "v0,v1,v2,v3,v4,v5,v6,v7,v8,v9,v10,v11", found: true},
		{name: "highest index", raw: func() string {
			var b strings.Builder
			for i := range MaxIndex + 1 {
				fmt.Fprintf(&b, "&e[%d]=v", i)
			}
			return b.String()[1:]
		}(), want: strings.TrimSuffix(strings.Repeat("v,", MaxIndex+1), ","), found: true},
		{name: "empty value", raw: "e[0]=", want: "", found: true},
		{name: "gap", raw: "e[0]=x&e[2]=y", param: "e", msg: "e has e[2] but no e[1]"},
		{name: "not from 0", raw: "e[1]=x", param: "e", msg: "e has e[1] but no e[0]"},
		{name: "both forms", raw: "e[]=x&e[1]=y", param: "e", msg: "both as e[] and as e[0]"},
		{name: "both forms, same place", raw: "e[]=x&e[0]=y", param: "e", msg: "both as e[] and as e[0]"},
		{name: "leading zero", raw: "e[00]=x", param: "e", msg: "e[00] is malformed"},
		{name: "sign", raw: "e[%2B1]=x&e[0]=y", param: "e", msg: "e[+1] is malformed"},
		{name: "over the highest index", raw: fmt.Sprintf("e[%d]=x", MaxIndex+1), param: "e", msg: "malformed"},
		{name: "a key, not an index", raw: "e[a]=x", param: "e", msg: "e[a] is malformed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, e := Parse(nil, tc.raw)
			if e != nil {
				t.Fatalf("Parse: %v", e)
			}
			vals, found, e := f.All("e[]")
			checkE := f.Check("e[]", "other")
			if tc.msg != "" {
				for name, e := range map[string]*apierr.Error{"All": e, "Check": checkE} {
					if e == nil || e.Status != http.StatusBadRequest || e.Code != wire.ErrorCodeParameterInvalid || e.Param != tc.param || !strings.Contains(e.Message, tc.msg) {
						t.Errorf("%s(%q) refused %+v, want param %q and %q", name, tc.raw, e, tc.param, tc.msg)
					}
				}
				return
			}
			if e != nil || checkE != nil {
				t.Fatalf("All: %v; Check: %v", e, checkE)
			}
			if strings.Join(vals, ",") != tc.want || found != tc.found || (found && len(vals) == 0) {
				t.Errorf("All(%q) = %q, %v; want %q, %v", tc.raw, vals, found, tc.want, tc.found)
			}
		})
	}
	// A map's key that looks like an index stays a key where the
	// parameter is a map.
	f, _ := Parse(nil, "metadata[0]=x&metadata[01]=y")
	if e := f.Check(MetadataKeys); e != nil {
		t.Errorf("metadata[0] and metadata[01] refused: %v", e)
	}
	if _, found, _ := f.All("e[]"); found {
		t.Error("All(e[]) found metadata's keys")
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
	// A list is the same request in either form, in any order of its
	// indexes; not with its entries in another order.
	list := fp("POST", "/v1/webhook_endpoints", "url=u&e[]=a&e[]=b&e[]=c&e[]=d&e[]=e&e[]=f&e[]=g&e[]=h&e[]=i&e[]=j&e[]=k")
	for _, raw := range []string{
		"url=u&e[0]=a&e[1]=b&e[2]=c&e[3]=d&e[4]=e&e[5]=f&e[6]=g&e[7]=h&e[8]=i&e[9]=j&e[10]=k",
		"e[10]=k&e[9]=j&e[8]=i&e[7]=h&e[6]=g&e[5]=f&e[4]=e&e[3]=d&e[2]=c&e[1]=b&e[0]=a&url=u",
	} {
		if fp("POST", "/v1/webhook_endpoints", raw) != list {
			t.Errorf("%q fingerprints apart from the same list sent with e[]", raw)
		}
	}
	if fp("POST", "/v1/webhook_endpoints", "url=u&e[]=b&e[]=a&e[]=c&e[]=d&e[]=e&e[]=f&e[]=g&e[]=h&e[]=i&e[]=j&e[]=k") == list {
		t.Error("a list in another order has the same fingerprint")
	}
	if RawFingerprint("POST", "/p", "", nil, true) == RawFingerprint("POST", "/p", "", nil, false) {
		t.Error("a body over the limit fingerprints as an empty body")
	}
}

// TestCheck_ExpandNotServed: Stripe's expand, in any of its forms, is
// refused as no endpoint takes it, naming expand and saying that
// expansion is not served.
func TestCheck_ExpandNotServed(t *testing.T) {
	t.Parallel()
	for _, raw := range []string{
		"expand[]=latest_invoice",
		"expand[0]=latest_invoice&expand[1]=customer",
		"expand=latest_invoice",
		"expand[]=data.latest_invoice&limit=3",
	} {
		f, pe := Parse(nil, raw)
		if pe != nil {
			t.Fatalf("%s: %v", raw, pe)
		}
		e := f.Check("limit", "enabled_events[]")
		if e == nil || e.Status != http.StatusBadRequest || e.Code != wire.ErrorCodeParameterUnknown || e.Param != wire.ParamExpand ||
			!strings.HasPrefix(e.Message, "expand is not served: ") || !strings.Contains(e.Message, "latest_invoice") {
			t.Errorf("%s: %+v", raw, e)
		}
	}
}
