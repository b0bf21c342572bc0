package model

import (
	"strings"
	"testing"

	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// TestParseWebhookURL_Shapes: an absolute http or https URL without a
// fragment, its port defaulted by scheme; the host policy comes after.
func TestParseWebhookURL_Shapes(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, url, host string
		port            uint16
		code, want      string
	}{
		{"http on a port", "http://127.0.0.1:4242/webhooks", "127.0.0.1", 4242, "", ""},
		{"https by default", "https://example.com/h", "example.com", 443, "", ""},
		{"http by default", "http://[::1]/h", "::1", 80, "", ""},
		{"empty", "", "", 0, wire.ErrorCodeParameterMissing, "url is required"},
		{"too long", "https://example.com/" + strings.Repeat("a", wire.WebhookURLMaxLength), "", 0, wire.ErrorCodeParameterInvalid, "bytes long"},
		{"relative", "/webhooks", "", 0, wire.ErrorCodeParameterInvalid, "is not an absolute https or http URL"},
		{"another scheme", "ftp://example.com/h", "", 0, wire.ErrorCodeParameterInvalid, "is not an absolute https or http URL"},
		{"a fragment", "https://example.com/h#x", "", 0, wire.ErrorCodeParameterInvalid, "has a fragment"},
		{"port 0", "https://example.com:0/h", "", 0, wire.ErrorCodeParameterInvalid, `has port "0"`},
		{"port too high", "https://example.com:65536/h", "", 0, wire.ErrorCodeParameterInvalid, `has port "65536"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			host, port, r := ParseWebhookURL(tc.url)
			wantRefusal(t, r, tc.code, tc.want)
			if r != nil && r.Param != wire.ParamURL || host != tc.host || port != tc.port {
				t.Fatalf("host %q port %d refusal %+v", host, port, r)
			}
		})
	}
}

// TestEnabledEvents_Values: known types once each, at least one.
func TestEnabledEvents_Values(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		vals []string
		out  []string
		want string
	}{
		{"every type", []string{wire.EventTypeAll}, []string{wire.EventTypeAll}, ""},
		{"each once, empties skipped", []string{wire.EventPaymentUpdated, "", wire.EventPaymentUpdated}, []string{wire.EventPaymentUpdated}, ""},
		{"unknown", []string{"payment.exploded"}, nil, `enabled_events has "payment.exploded", which is not an event type`},
		{"only empties", []string{"", ""}, nil, "enabled_events is empty"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, r := EnabledEvents(tc.vals)
			wantRefusal(t, r, wire.ErrorCodeParameterInvalid, tc.want)
			if strings.Join(out, ",") != strings.Join(tc.out, ",") {
				t.Fatalf("events %v, want %v", out, tc.out)
			}
		})
	}
}
