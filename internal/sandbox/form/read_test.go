package form

import (
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

type failingBody struct{}

func (failingBody) Read([]byte) (int, error) { return 0, errors.New("connection reset") }

// TestRead_Requests: the query and a POST's body make one form; a body
// over the limit, of another type or badly encoded is refused before any
// handler runs, identified by the raw request.
func TestRead_Requests(t *testing.T) {
	big := strings.Repeat("a", wire.MaxRequestBodyBytes+1)
	for _, tc := range []struct {
		name     string
		method   string
		target   string
		body     string
		ctype    string
		length   int64 // ContentLength to claim, when not 0
		names    string
		code     string // the refusal's code, "" when accepted
		tooLarge bool
	}{
		{name: "query", method: http.MethodGet, target: "/v1/x?limit=3&email=a%40b", names: "email,limit"},
		{name: "query and body", method: http.MethodPost, target: "/v1/x?expand=1", body: "name=Jo", ctype: "application/x-www-form-urlencoded; charset=utf-8", names: "expand,name"},
		{name: "body without type", method: http.MethodPost, target: "/v1/x", body: "name=Jo", names: "name"},
		{name: "GET body ignored", method: http.MethodGet, target: "/v1/x", body: "name=Jo", names: ""},
		{name: "claimed too large", method: http.MethodPost, target: "/v1/x", body: "a=1", length: wire.MaxRequestBodyBytes + 1, code: wire.ErrorCodeRequestTooLarge, tooLarge: true},
		{name: "too large", method: http.MethodPost, target: "/v1/x", body: big, length: -1, code: wire.ErrorCodeRequestTooLarge, tooLarge: true},
		{name: "json", method: http.MethodPost, target: "/v1/x", body: `{"a":1}`, ctype: "application/json", code: wire.ErrorCodeParameterInvalid},
		{name: "bad encoding", method: http.MethodPost, target: "/v1/x", body: "a=%zz", code: wire.ErrorCodeParameterInvalid},
		{name: "duplicate across query and body", method: http.MethodPost, target: "/v1/x?a=1", body: "a=2", code: wire.ErrorCodeParameterInvalid},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := httptest.NewRequest(tc.method, tc.target, strings.NewReader(tc.body))
			if tc.ctype != "" {
				r.Header.Set("Content-Type", tc.ctype)
			}
			if tc.length != 0 {
				r.ContentLength = tc.length
			}
			f, refused, err := Read(r)
			if err != nil {
				t.Fatal(err)
			}
			if tc.code != "" {
				if refused == nil || refused.Err.Code != tc.code || refused.TooLarge != tc.tooLarge {
					t.Fatalf("got %v, %+v; want a refusal %s (too large %v)", f, refused, tc.code, tc.tooLarge)
				}
				want := RawFingerprint(r.Method, r.URL.Path, r.URL.RawQuery, []byte(tc.body), false)
				if tc.tooLarge {
					want = RawFingerprint(r.Method, r.URL.Path, r.URL.RawQuery, nil, true)
				}
				if refused.FP != want {
					t.Error("the refusal's fingerprint is not the raw request's")
				}
				return
			}
			if refused != nil {
				t.Fatalf("refused: %+v", refused.Err)
			}
			var names []string
			for _, p := range f {
				names = append(names, p.Name)
			}
			if strings.Join(names, ",") != tc.names {
				t.Errorf("fields %v, want %s", names, tc.names)
			}
		})
	}
}

func TestRead_ClientGone(t *testing.T) {
	r := httptest.NewRequest(http.MethodPost, "/v1/x", io.NopCloser(failingBody{}))
	r.ContentLength = 10
	if _, refused, err := Read(r); !errors.Is(err, ErrClientGone) || refused != nil {
		t.Errorf("got %v, %v; want ErrClientGone", refused, err)
	}
}
