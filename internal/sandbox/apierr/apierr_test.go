package apierr

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// TestError_JSON holds the hand-written body to what encoding/json makes
// of the same wire.ErrorBody, byte for byte.
func TestError_JSON(t *testing.T) {
	for _, tc := range []struct {
		name string
		e    Error
	}{
		{"minimal", Error{Type: wire.ErrorTypeAPI, Code: wire.ErrorCodeServerError, Message: "down"}},
		{"param", Error{Type: wire.ErrorTypeInvalidRequest, Code: wire.ErrorCodeParameterInvalid, Message: "bad", Param: "metadata[a]"}},
		{"payment", Error{Type: wire.ErrorTypeCard, Code: "card_declined", Message: "declined", Payment: "pay_1"}},
		{"escapes", Error{Type: "t", Code: "c", Message: "a \"quote\", <tag> & \u2028 \x01 é", Param: "p\\q"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			want, err := json.Marshal(wire.ErrorBody{Error: &wire.ErrorDetail{
				Type: tc.e.Type, Code: tc.e.Code, Message: tc.e.Message, Param: tc.e.Param, Payment: tc.e.Payment,
			}})
			if err != nil {
				t.Fatal(err)
			}
			if got := tc.e.JSON(); string(got) != string(want) {
				t.Errorf("JSON() = %s, want %s", got, want)
			}
			if tc.e.Error() != tc.e.Message {
				t.Errorf("Error() = %q, want the message", tc.e.Error())
			}
		})
	}
}

// TestError_Constructors: each refusal has its status, type and code, and the
// param it names.
func TestError_Constructors(t *testing.T) {
	for _, tc := range []struct {
		name                 string
		e                    *Error
		status               int
		typ, code, param, in string
	}{
		{"Invalid", Invalid("limit", "limit %q is bad", "x"), http.StatusBadRequest, wire.ErrorTypeInvalidRequest, wire.ErrorCodeParameterInvalid, "limit", `limit "x" is bad`},
		{"MissingParam", MissingParam("amount", "send amount"), http.StatusBadRequest, wire.ErrorTypeInvalidRequest, wire.ErrorCodeParameterMissing, "amount", "send amount"},
		{"UnknownParam", UnknownParam("colour"), http.StatusBadRequest, wire.ErrorTypeInvalidRequest, wire.ErrorCodeParameterUnknown, "colour", "Received unknown parameter: colour."},
		{"MissingRef", MissingRef("customer", "customer %q does not exist.", "cus_1"), http.StatusBadRequest, wire.ErrorTypeInvalidRequest, wire.ErrorCodeResourceMissing, "customer", `customer "cus_1" does not exist.`},
		{"NotFound", NotFound("payment", "pay_1"), http.StatusNotFound, wire.ErrorTypeInvalidRequest, wire.ErrorCodeResourceMissing, "", "No such payment: 'pay_1'"},
		{"UnexpectedState", UnexpectedState("already %s", "refunded"), http.StatusBadRequest, wire.ErrorTypeInvalidRequest, wire.ErrorCodePaymentUnexpectedState, "", "already refunded"},
		{"ServerError", ServerError(http.StatusServiceUnavailable, "try %d", 2), http.StatusServiceUnavailable, wire.ErrorTypeAPI, wire.ErrorCodeServerError, "", "try 2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := tc.e
			if e.Status != tc.status || e.Type != tc.typ || e.Code != tc.code || e.Param != tc.param {
				t.Errorf("got %d %s %s param %q, want %d %s %s param %q", e.Status, e.Type, e.Code, e.Param, tc.status, tc.typ, tc.code, tc.param)
			}
			if !strings.Contains(e.Message, tc.in) {
				t.Errorf("message %q lacks %q", e.Message, tc.in)
			}
		})
	}
}

// TestClip_BoundsAndMasks: request text quoted back is bounded, masked and valid UTF-8,
// in the message and in the param alike.
func TestClip_BoundsAndMasks(t *testing.T) {
	long := strings.Repeat("é", wire.ErrorEchoMaxLength+10)
	if got := Clip(long); utf8.RuneCountInString(got) > wire.ErrorEchoMaxLength+1 || !utf8.ValidString(got) || !strings.HasSuffix(got, "…") {
		t.Errorf("Clip(long) = %q: want at most %d characters and …, valid UTF-8", got, wire.ErrorEchoMaxLength)
	}
	if got := Clip("short"); got != "short" {
		t.Errorf("Clip(short) = %q", got)
	}
	key := "sk_sandbox_" + strings.Repeat("a", 24)
	for _, s := range []string{Clip("key " + key), NotFound("customer", key).Message, Invalid(key, "x").Param, UnknownParam(key).Message} {
		if strings.Contains(s, key) {
			t.Errorf("%q holds the secret key", s)
		}
	}
	if p := Invalid(long, "x").Param; utf8.RuneCountInString(p) > wire.ErrorEchoMaxLength+1 {
		t.Errorf("param %q is not clipped", p)
	}
}
