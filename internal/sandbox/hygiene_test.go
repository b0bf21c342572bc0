package sandbox_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// TestInputHygiene_FreeText: every free-text field has its length limit,
// names and metadata keys refuse control characters other than tab and
// newline, and names, descriptions and metadata refuse bidirectional
// controls, with 400 parameter_invalid naming the field.
func TestInputHygiene_FreeText(t *testing.T) {
	e := newEnv(t)
	cu := e.customer(vals("name", "Jo"))
	p := e.payment(pay("100", "USD", sandbox.TokenVisa))
	var ep struct {
		ID string `json:"id"`
	}
	if err := json.Unmarshal(e.post("/v1/webhook_endpoints", vals("url", "http://127.0.0.1:9/h", "enabled_events[]", "*")).ok(nil).body, &ep); err != nil {
		t.Fatal(err)
	}
	prod := e.product("name", "Gold")
	pr := e.price(prod.ID)
	price := func(kv ...string) url.Values {
		return vals(append([]string{"product", prod.ID, "currency", "USD", "unit_amount", "1"}, kv...)...)
	}
	for _, tc := range []struct {
		name, path string
		form       url.Values
		param      string // "" when accepted
		says       string // in the message
	}{
		{"name with a tab and a newline", "/v1/customers", vals("name", "Jo\tSmith\nJr"), "", ""},
		{"name with U+0001", "/v1/customers", vals("name", "Jo\x01"), "name", "U+0001 at character 3"},
		{"name with a carriage return", "/v1/customers", vals("name", "Jo\r\n"), "name", "U+000D"},
		{"name with DEL", "/v1/customers", vals("name", "\x7fJo"), "name", "U+007F at character 1"},
		{"name with a C1 control", "/v1/customers", vals("name", "Jo\u0085"), "name", "U+0085"},
		{"name on update", "/v1/customers/" + cu.ID, vals("name", "\x1b[31mred"), "name", "U+001B"},
		{"name of 256 characters", "/v1/customers", vals("name", strings.Repeat("é", wire.NameMaxLength)), "", ""},
		{"name of 257 characters", "/v1/customers", vals("name", strings.Repeat("é", wire.NameMaxLength+1)), "name", "at most 256"},
		{"metadata key with U+0001", "/v1/customers", vals("metadata[ke\x01y]", "v"), `metadata[ke\x01y]`, `"ke\x01y"`},
		{"metadata key with a newline", "/v1/payments/" + p.ID, vals("metadata[a\nb]", "v"), "", ""},
		{"metadata key with NUL", "/v1/payments/" + p.ID, vals("metadata[\x00]", "v"), `metadata[\x00]`, "U+0000"},
		{"metadata key with U+009F", "/v1/webhook_endpoints/" + ep.ID, vals("metadata[k\u009f]", "v"), `metadata[k\u009f]`, "U+009F"},
		{"metadata value with a control character", "/v1/customers", vals("metadata[k]", "a\x01b"), "", ""},
		{"metadata key of 41 characters", "/v1/customers", vals("metadata["+strings.Repeat("k", 41)+"]", "v"), "metadata[" + strings.Repeat("k", 41) + "]", "at most 40"},
		{"metadata value of 501 characters", "/v1/customers", vals("metadata[k]", strings.Repeat("v", 501)), "metadata[k]", "at most 500"},
		{"payment description of 1000 characters", "/v1/payments", pay("100", "USD", sandbox.TokenVisa, "description", strings.Repeat("d", wire.PaymentDescriptionMaxLength)), "", ""},
		{"payment description of 1001 characters", "/v1/payments", pay("100", "USD", sandbox.TokenVisa, "description", strings.Repeat("d", wire.PaymentDescriptionMaxLength+1)), "description", "at most 1000"},
		{"payment description on update", "/v1/payments/" + p.ID, vals("description", strings.Repeat("d", wire.PaymentDescriptionMaxLength+1)), "description", "at most 1000"},
		{"product name with U+0001", wire.PathProducts, vals("name", "Go\x01ld"), "name", "U+0001 at character 3"},
		{"product name on update with ESC", wire.PathProducts + "/" + prod.ID, vals("name", "\x1b[1m"), "name", "U+001B"},
		{"product description of 5000 characters", wire.PathProducts, vals("name", "a", "description", strings.Repeat("d", wire.ProductDescriptionMaxLength)), "", ""},
		{"product description of 5001 characters", wire.PathProducts, vals("name", "a", "description", strings.Repeat("d", wire.ProductDescriptionMaxLength+1)), "description", "at most 5000"},
		{"price nickname with a tab", wire.PathPrices, price("nickname", "a\tb"), "", ""},
		{"price nickname with U+0085", wire.PathPrices + "/" + pr.ID, vals("nickname", "a\u0085"), "nickname", "U+0085"},
		{"price nickname of 257 characters", wire.PathPrices, price("nickname", strings.Repeat("n", wire.NameMaxLength+1)), "nickname", "at most 256"},
		{"lookup key with NUL", wire.PathPrices, price("lookup_key", "k\x00"), "lookup_key", "U+0000"},
		{"lookup key of 200 characters", wire.PathPrices, price("lookup_key", strings.Repeat("é", wire.LookupKeyMaxLength)), "", ""},
		{"lookup key of 201 characters", wire.PathPrices + "/" + pr.ID, vals("lookup_key", strings.Repeat("k", wire.LookupKeyMaxLength+1)), "lookup_key", "at most 200"},
		{"name with a right-to-left override", "/v1/customers", vals("name", "Jo\u202Efdp.exe"), "name", "bidirectional control U+202E at character 3"},
		{"name with each bidirectional control", "/v1/customers/" + cu.ID, vals("name", "a\u2066b"), "name", "U+2066"},
		{"name with a left-to-right mark", "/v1/customers", vals("name", "\u200EJo"), "name", "U+200E at character 1"},
		{"name with an Arabic letter mark", "/v1/customers", vals("name", "Jo\u061C"), "name", "U+061C"},
		{"name with a zero-width joiner", "/v1/customers", vals("name", "Jo\u200D"), "", ""},
		{"name in Hebrew", "/v1/customers", vals("name", "\u05E9\u05DC\u05D5\u05DD"), "", ""},
		{"metadata key with a bidirectional control", "/v1/customers", vals("metadata[k\u202Ay]", "v"), `metadata[k\u202ay]`, "U+202A"},
		{"metadata value with a bidirectional control", "/v1/payments/" + p.ID, vals("metadata[k]", "a\u2069"), "metadata[k]", "U+2069 at character 2"},
		{"payment description with a bidirectional control", "/v1/payments", pay("100", "USD", sandbox.TokenVisa, "description", "\u202Dx"), "description", "U+202D"},
		{"payment description on update with one", "/v1/payments/" + p.ID, vals("description", "x\u200F"), "description", "U+200F"},
		{"webhook description with a bidirectional control", "/v1/webhook_endpoints/" + ep.ID, vals("description", "\u2067"), "description", "U+2067"},
		{"product description with a bidirectional control", wire.PathProducts, vals("name", "a", "description", "x\u202Ey"), "description", "U+202E"},
		{"price nickname with a bidirectional control", wire.PathPrices + "/" + pr.ID, vals("nickname", "\u2068n"), "nickname", "U+2068"},
		{"webhook description of 5001 characters", "/v1/webhook_endpoints/" + ep.ID, vals("description", strings.Repeat("d", wire.WebhookDescriptionMaxLength+1)), "description", "at most 5000"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := &env{t: t, url: e.url, key: e.key, hc: e.hc}
			r := e.post(tc.path, tc.form)
			if tc.param == "" {
				r.ok(nil)
				return
			}
			eb := r.fails(http.StatusBadRequest, wire.ErrorTypeInvalidRequest, wire.ErrorCodeParameterInvalid, tc.param)
			if !strings.Contains(eb.Error.Message, tc.says) {
				t.Errorf("message %q does not say %q", eb.Error.Message, tc.says)
			}
		})
	}
	// A refused update changes nothing.
	var got wire.Customer
	e.get("/v1/customers/"+cu.ID, nil).ok(&got)
	if got.Name != "Jo" {
		t.Errorf("after refused updates the name is %q", got.Name)
	}
}

// TestInputHygiene_EchoesClipped: an error quotes at most 64 characters of
// what the request sent, cut between characters, so that a 10 KB bogus id
// is never sent back.
func TestInputHygiene_EchoesClipped(t *testing.T) {
	e := newEnv(t)
	long := "cus_" + strings.Repeat("x", 10_000)
	wide := strings.Repeat("é", 200)
	prod := e.product("name", "Gold").ID
	e.price(prod, "lookup_key", wide)
	price := func(kv ...string) url.Values {
		return vals(append([]string{"product", prod, "currency", "USD", "unit_amount", "1"}, kv...)...)
	}
	for _, tc := range []struct {
		name   string
		r      *result
		status int
		code   string
	}{
		{"id in the path", e.get("/v1/customers/"+long, nil), http.StatusNotFound, wire.ErrorCodeResourceMissing},
		{"multi-byte id in the path", e.get("/v1/payments/"+url.PathEscape(wide), nil), http.StatusNotFound, wire.ErrorCodeResourceMissing},
		{"unknown parameter", e.post("/v1/customers", vals(strings.Repeat("p", 10_000), "v")), http.StatusBadRequest, wire.ErrorCodeParameterUnknown},
		{"parameter given twice", e.doRaw(http.MethodPost, "/v1/customers", "metadata["+wide+"]=1&metadata["+wide+"]=2"), http.StatusBadRequest, wire.ErrorCodeParameterInvalid},
		{"malformed field name", e.doRaw(http.MethodPost, "/v1/customers", strings.Repeat("[", 5000)+"=1"), http.StatusBadRequest, wire.ErrorCodeParameterInvalid},
		{"customer reference", e.post("/v1/payments", pay("100", "USD", "", "customer", long)), http.StatusBadRequest, wire.ErrorCodeResourceMissing},
		{"token", e.post("/v1/customers", vals("source", "tok_"+wide)), http.StatusBadRequest, wire.ErrorCodeTokenInvalid},
		{"product reference", e.post(wire.PathPrices, vals("product", "prod_"+wide, "currency", "USD", "unit_amount", "1")), http.StatusBadRequest, wire.ErrorCodeResourceMissing},
		{"product filter", e.get(wire.PathPrices, vals("product", long)), http.StatusBadRequest, wire.ErrorCodeResourceMissing},
		{"interval", e.post(wire.PathPrices, price("recurring[interval]", wide)), http.StatusBadRequest, wire.ErrorCodeParameterInvalid},
		{"lookup key taken", e.post(wire.PathPrices, price("lookup_key", wide)), http.StatusBadRequest, wire.ErrorCodeParameterInvalid},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var eb wire.ErrorBody
			if err := json.Unmarshal(tc.r.body, &eb); err != nil || eb.Error == nil {
				t.Fatalf("status %d, body %.200s", tc.r.status, tc.r.body)
			}
			if tc.r.status != tc.status || eb.Error.Code != tc.code {
				t.Fatalf("got %d %s, want %d %s: %s", tc.r.status, eb.Error.Code, tc.status, tc.code, eb.Error.Message)
			}
			if len(tc.r.body) > 600 {
				t.Errorf("the answer is %d bytes: %.300s", len(tc.r.body), tc.r.body)
			}
			if !strings.Contains(eb.Error.Message, "…") && !strings.Contains(eb.Error.Param, "…") {
				t.Errorf("neither message %q nor param %q shows the clip", eb.Error.Message, eb.Error.Param)
			}
			if n := utf8.RuneCountInString(eb.Error.Param); n > wire.ErrorEchoMaxLength+1 {
				t.Errorf("param is %d characters: %q", n, eb.Error.Param)
			}
			if !utf8.ValidString(eb.Error.Message) || strings.ContainsRune(eb.Error.Message, utf8.RuneError) {
				t.Errorf("message %q was cut inside a character", eb.Error.Message)
			}
		})
	}
}
