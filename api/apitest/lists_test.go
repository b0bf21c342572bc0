package apitest

import (
	"net/url"
	"testing"
)

// TestIndexedToBrackets_Cases: a declared list's entries numbered from 0
// without a gap become x[] in index order; any other shape, and any
// other name, is left as sent for the document to judge.
func TestIndexedToBrackets_Cases(t *testing.T) {
	lists := []string{"e[]"}
	for _, tc := range []struct {
		name, raw string
		want      url.Values // nil: left as sent
	}{
		{"brackets", "e[]=a&e[]=b", nil},
		{"indexes", "e[1]=b&e[0]=a&url=u", url.Values{"e[]": {"a", "b"}, "url": {"u"}}},
		{"past 9", "e[0]=a&e[1]=b&e[2]=c&e[3]=d&e[4]=e&e[5]=f&e[6]=g&e[7]=h&e[8]=i&e[9]=j&e[10]=k",
			url.Values{"e[]": {"a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k"}}},
		{"gap", "e[0]=a&e[2]=b", nil},
		{"not from 0", "e[1]=a", nil},
		{"both forms", "e[]=a&e[1]=b", nil},
		{"index twice", "e[0]=a&e[0]=b", nil},
		{"leading zero", "e[00]=a", nil},
		{"another list", "f[0]=a", nil},
		{"a field of an entry", "e[0][price]=a", nil},
		{"bad encoding", "e[0]=%zz", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := indexedToBrackets(tc.raw, lists)
			if tc.want == nil {
				if ok || got != tc.raw {
					t.Errorf("indexedToBrackets(%q) = %q, %v; want it left as sent", tc.raw, got, ok)
				}
				return
			}
			if !ok || got != tc.want.Encode() {
				t.Errorf("indexedToBrackets(%q) = %q, %v; want %q", tc.raw, got, ok, tc.want.Encode())
			}
		})
	}
}
