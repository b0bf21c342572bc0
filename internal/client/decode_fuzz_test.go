package client

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// FuzzDecodeError: any status and body give a non-nil *Error with the
// status, the request id, a Type and a printable, bounded Message, and
// never panic. The seeds run in every `go test`.
func FuzzDecodeError(f *testing.F) {
	seeds := []struct {
		status int
		body   string
	}{
		{400, `{"error":{"type":"invalid_request_error","code":"parameter_unknown","message":"Unknown parameter nickname.","param":"nickname"}}`},
		{402, `{"error":{"type":"card_error","code":"card_declined","message":"declined","payment":"pay_abc"}}`},
		{404, `{"error":{"type":"invalid_request_error","code":"resource_missing","message":"No such customer"}}`},
		{429, `{"error":{"type":"rate_limit_error","message":""}}`},
		{500, ``},
		{503, `<html><body>Service Unavailable</body></html>`},
		{502, "\x00\x01\x02\xff\xfe binary \x1b[31m"},
		{400, `{"error":null}`},
		{400, `{"error":"flat string"}`},
		{401, `{"error":{"type":123}}`},
		{409, `[1,2,3]`},
		{418, `{}`},
		{599, `null`},
		{0, `{"error":{}}`},
		{-1, strings.Repeat("é", 300)},
		{999, strings.Repeat("x", 10000)},
		{413, `{"error":{"type":"invalid_request_error","message":"` + strings.Repeat("m", 70000) + `"}}`},
	}
	for _, s := range seeds {
		f.Add(s.status, []byte(s.body), "req_123")
	}
	f.Add(200, []byte(`{"error":{"message":"odd"}}`), "")
	f.Fuzz(func(t *testing.T, status int, body []byte, requestID string) {
		h := http.Header{}
		h.Set(wire.HeaderRequestID, requestID)
		e := decodeError(status, h, body)
		if e == nil {
			t.Fatal("nil *Error")
		}
		if e.HTTPStatus != status {
			t.Errorf("HTTPStatus = %d, want %d", e.HTTPStatus, status)
		}
		if e.RequestID != h.Get(wire.HeaderRequestID) {
			t.Errorf("RequestID = %q, want %q", e.RequestID, h.Get(wire.HeaderRequestID))
		}
		if e.Type == "" {
			t.Error("empty Type")
		}
		if e.Message == "" {
			t.Error("empty Message")
		}
		var eb wire.ErrorBody
		if decodedMessage(body, &eb) == "" {
			// The message is ours: an excerpt of the body, bounded and valid UTF-8.
			if !utf8.ValidString(e.Message) {
				t.Errorf("Message %q is not valid UTF-8", e.Message)
			}
			if len(e.Message) > 4*maxMessageBytes+64 {
				t.Errorf("Message is %d bytes, want an excerpt", len(e.Message))
			}
		}
		if s := e.Error(); !strings.Contains(s, e.Message) {
			t.Errorf("Error() %q lacks the message", s)
		}
	})
}

// decodedMessage is the body's error.message, "" when there is none.
func decodedMessage(body []byte, eb *wire.ErrorBody) string {
	if err := json.Unmarshal(body, eb); err != nil || eb.Error == nil {
		return ""
	}
	return eb.Error.Message
}

// TestDefaultErrorType_ByStatus: the type inferred from the status when the
// body has none.
func TestDefaultErrorType_ByStatus(t *testing.T) {
	for status, want := range map[int]string{
		400: wire.ErrorTypeInvalidRequest, 404: wire.ErrorTypeInvalidRequest, 413: wire.ErrorTypeInvalidRequest,
		401: wire.ErrorTypeAuthentication, 402: wire.ErrorTypeCard, 403: wire.ErrorTypePermission,
		409: wire.ErrorTypeIdempotency, 429: wire.ErrorTypeRateLimit, 500: wire.ErrorTypeAPI, 503: wire.ErrorTypeAPI,
	} {
		if got := decodeError(status, http.Header{}, nil).Type; got != want {
			t.Errorf("status %d: Type %q, want %q", status, got, want)
		}
	}
}
