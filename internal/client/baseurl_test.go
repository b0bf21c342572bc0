package client_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/paymentsdev/terraform-provider-payments/internal/client"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// TestParseBaseURL_ProblemsAndFixes: the one base URL check, shared by
// client.New and the provider's validator, says what is wrong and what to
// do, never echoing credentials.
func TestParseBaseURL_ProblemsAndFixes(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		raw  string
		want string // the URL returned, or a phrase of the error
		ok   bool
	}{
		{raw: "http://127.0.0.1:12111", want: "http://127.0.0.1:12111", ok: true},
		{raw: "https://api.example.com/", want: "https://api.example.com", ok: true},
		{raw: "https://api.example.com/base/path//", want: "https://api.example.com/base/path", ok: true},
		{raw: "https://api.example.com/v10", want: "https://api.example.com/v10", ok: true},
		{raw: "https://api.example.com/apiv1", want: "https://api.example.com/apiv1", ok: true},
		{raw: "https://api.example.com/v1", want: "Remove /v1: the provider adds it. Use https://api.example.com instead."},
		{raw: "https://api.example.com/v1/", want: "Remove /v1: the provider adds it"},
		{raw: "http://127.0.0.1:12111/V1", want: "Use http://127.0.0.1:12111 instead."},
		{raw: "https://api.example.com/payments/v1", want: "Use https://api.example.com/payments instead."},
		{raw: "", want: "The base URL is empty."},
		{raw: "   ", want: "The base URL is empty."},
		{raw: "127.0.0.1:12111", want: "absolute http or https URL"},
		{raw: "localhost:12111", want: "no scheme, or one other than http or https"},
		{raw: "ftp://api.example.com", want: `scheme is "ftp", not http or https`},
		{raw: "http://", want: "has no host"},
		{raw: "https://user:hunter2@api.example.com", want: "must not contain credentials"},
		{raw: "https://api.example.com?key=hunter2", want: "must not have a query or fragment"},
		{raw: "https://api.example.com/#hunter2", want: "must not have a query or fragment"},
	} {
		u, err := client.ParseBaseURL(tc.raw)
		if tc.ok {
			if err != nil || u.String() != tc.want {
				t.Errorf("ParseBaseURL(%q) = %v, %v; want %s", tc.raw, u, err, tc.want)
			}
			continue
		}
		var be *client.BaseURLError
		if !errors.As(err, &be) {
			t.Errorf("ParseBaseURL(%q) = %v, %v; want a *BaseURLError", tc.raw, u, err)
			continue
		}
		if !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ParseBaseURL(%q) error %q does not contain %q", tc.raw, err, tc.want)
		}
		if strings.Contains(err.Error(), "hunter2") {
			t.Errorf("ParseBaseURL(%q) error %q echoes the credentials", tc.raw, err)
		}
		// client.New refuses exactly what ParseBaseURL refuses.
		if _, nerr := client.New(client.Config{BaseURL: tc.raw, SecretKey: wire.SecretKeySandboxPrefix + "abcdefgh12"}); nerr == nil || nerr.Error() != err.Error() {
			t.Errorf("client.New(%q) = %v, want ParseBaseURL's error %v", tc.raw, nerr, err)
		}
	}
}
