package sandbox

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/form"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/model"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

var formSeeds = []string{
	"",
	"email=jo%40example.com&name=Jo+Doe&phone=%2B14155550123",
	"metadata[plan]=gold&metadata[tier]=&metadata=",
	"metadata%5Bplan%5D=gold",
	"metadata[a][b]=1",
	"metadata[=1",
	"metadata]=1",
	"[x]=1",
	"metadata[]=1",
	"a=1&a=2",
	"a=%zz",
	"%ff=1",
	"a=%ff",
	"&&&=&=",
	"a",
	"created[gte]=2030-01-01T00:00:00Z&created[lte]=2030-01-02T00:00:00%2B01:00",
	"amount=100&currency=USD&source=tok_visa&capture=false",
	"name=" + strings.Repeat("é", 300),
}

// FuzzParseForm: no input panics, and an accepted form survives a
// round trip through url.Values encoding unchanged.
func FuzzParseForm(f *testing.F) {
	for _, s := range formSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		got, e := form.Parse(nil, raw)
		if e != nil {
			if e.Status != http.StatusBadRequest || e.Message == "" {
				t.Fatalf("error %+v", e)
			}
			return
		}
		v := url.Values{}
		for i, p := range got {
			if !utf8.ValidString(p.Name) || !utf8.ValidString(p.Value) {
				t.Fatalf("accepted invalid UTF-8: %q=%q", p.Name, p.Value)
			}
			if i > 0 && got[i-1].Name >= p.Name {
				t.Fatalf("not sorted or duplicated: %q then %q", got[i-1].Name, p.Name)
			}
			if p.Bracketed && (p.Base+"["+p.Sub+"]" != p.Name || p.Sub == "" || p.Base == "") {
				t.Fatalf("bad bracket split of %q: %q %q", p.Name, p.Base, p.Sub)
			}
			v.Set(p.Name, p.Value)
		}
		again, e := form.Parse(nil, v.Encode())
		if e != nil || !slices.Equal(again, got) {
			t.Fatalf("round trip of %q: %v %+v != %+v", raw, e, again, got)
		}
		if form.Fingerprint("POST", "/p", got) != form.Fingerprint("POST", "/p", again) {
			t.Fatal("fingerprint differs after a round trip")
		}

		// Metadata rules hold on whatever was accepted.
		meta, me := form.ApplyMetadata(model.Metadata{{K: "keep", V: "1"}}, got)
		if me != nil {
			if me.Param == "" {
				t.Fatalf("metadata error without param: %+v", me)
			}
			return
		}
		if len(meta) > wire.MetadataMaxKeys {
			t.Fatalf("%d keys accepted", len(meta))
		}
		for i, kv := range meta {
			if kv.V == "" || utf8.RuneCountInString(kv.K) > wire.MetadataKeyMaxLength ||
				utf8.RuneCountInString(kv.V) > wire.MetadataValueMaxLength || (i > 0 && meta[i-1].K >= kv.K) {
				t.Fatalf("metadata broke a rule: %+v", meta)
			}
		}
	})
}

// FuzzServe posts arbitrary bodies to the create endpoints: no panic, and
// every answer is a JSON object with a status of the contract.
func FuzzServe(f *testing.F) {
	for _, s := range formSeeds {
		f.Add("/v1/customers", s)
		f.Add("/v1/payments", s)
	}
	f.Add("/v1/payments", "amount=1&currency=USD&source=tok_declined")
	f.Add("/v1/payments?limit=2", "")
	srv, err := New(Options{})
	if err != nil {
		f.Fatal(err)
	}
	key := wire.SecretKeySandboxPrefix + "fuzzfuzzfuzz"
	f.Fuzz(func(t *testing.T, path, body string) {
		if !strings.HasPrefix(path, "/") || strings.ContainsAny(path, " \r\n\t") || len(path) > 200 {
			return
		}
		for _, method := range []string{http.MethodPost, http.MethodGet} {
			r, err := http.NewRequest(method, "http://sandbox"+path, strings.NewReader(body))
			if err != nil {
				return
			}
			r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			r.SetBasicAuth(key, "")
			w := httptest.NewRecorder()
			srv.ServeHTTP(w, r)
			if w.Code == http.StatusMovedPermanently || w.Code == http.StatusTemporaryRedirect {
				continue // net/http cleaning the path, before our code
			}
			var obj map[string]any
			if err := json.Unmarshal(w.Body.Bytes(), &obj); err != nil {
				t.Fatalf("%s %s %q: %d %q is not a JSON object", method, path, body, w.Code, w.Body.String())
			}
			switch w.Code {
			case 200, 400, 402, 404, 413:
			default:
				t.Fatalf("%s %s %q: status %d", method, path, body, w.Code)
			}
		}
	})
}
