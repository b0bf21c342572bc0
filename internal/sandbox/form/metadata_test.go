package form

import (
	"strconv"
	"strings"
	"testing"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/model"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// TestApplyMetadata_Changes: metadata= clears, metadata[k]= removes k,
// metadata[k]=v sets it, the result stays sorted and the input is never
// changed; a bad key or value is refused naming it.
func TestApplyMetadata_Changes(t *testing.T) {
	cur := model.Metadata{{K: "a", V: "1"}, {K: "c", V: "3"}}
	for _, tc := range []struct {
		raw   string
		want  string // k=v,… ; "" for none
		param string // the refusal's param, "" when accepted
		msg   string
	}{
		{raw: "", want: "a=1,c=3"},
		{raw: "metadata[b]=2", want: "a=1,b=2,c=3"},
		{raw: "metadata[a]=9", want: "a=9,c=3"},
		{raw: "metadata[a]=", want: "c=3"},
		{raw: "metadata[zz]=", want: "a=1,c=3"},
		{raw: "metadata=", want: ""},
		{raw: "metadata=&metadata[x]=y", want: "x=y"},
		{raw: "metadata=&metadata[x]=", want: ""},
		{raw: "metadata=x", param: wire.ParamMetadata, msg: "takes its keys in brackets"},
		{raw: "metadata[" + strings.Repeat("k", wire.MetadataKeyMaxLength+1) + "]=v", param: "metadata[" + strings.Repeat("k", wire.MetadataKeyMaxLength+1) + "]", msg: "use at most"},
		{raw: "metadata[k]=" + strings.Repeat("v", wire.MetadataValueMaxLength+1), param: "metadata[k]", msg: "use at most"},
		{raw: "metadata[a%01b]=v", param: `metadata[a\x01b]`, msg: `The metadata key "a\x01b" holds the control character U+0001`},
		{raw: "metadata[k]=%E2%80%AE", param: "metadata[k]", msg: "bidirectional control U+202E"},
	} {
		t.Run(tc.raw, func(t *testing.T) {
			f, fe := Parse(nil, tc.raw)
			if fe != nil {
				t.Fatal(fe)
			}
			next, e := ApplyMetadata(cur, f)
			if cur[0] != (model.KV{K: "a", V: "1"}) || cur[1] != (model.KV{K: "c", V: "3"}) || len(cur) != 2 {
				t.Fatalf("the input changed: %v", cur)
			}
			if tc.param != "" {
				if e == nil || e.Param != tc.param || !strings.Contains(e.Message, tc.msg) {
					t.Fatalf("got %v, %+v; want a refusal naming %s with %q", next, e, tc.param, tc.msg)
				}
				return
			}
			var got []string
			for _, kv := range next {
				got = append(got, kv.K+"="+kv.V)
			}
			if e != nil || strings.Join(got, ",") != tc.want {
				t.Errorf("got %q, %v; want %q", strings.Join(got, ","), e, tc.want)
			}
		})
	}
}

func TestApplyMetadata_TooManyKeys(t *testing.T) {
	var b strings.Builder
	for i := range wire.MetadataMaxKeys + 1 {
		b.WriteString("&metadata[k" + strconv.Itoa(i) + "]=v")
	}
	f, fe := Parse(nil, b.String())
	if fe != nil {
		t.Fatal(fe)
	}
	if _, e := ApplyMetadata(nil, f); e == nil || e.Param != wire.ParamMetadata || !strings.Contains(e.Message, "keys; use at most") {
		t.Errorf("got %+v, want a refusal of too many keys", e)
	}
}
