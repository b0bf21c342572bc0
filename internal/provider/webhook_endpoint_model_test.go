package provider

import (
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

func TestSecretRollWanted_Versions(t *testing.T) {
	t.Parallel()
	secret := types.StringValue("whsec_x")
	null := types.StringNull()
	v := types.Int64Value
	none := types.Int64Null()
	for _, tc := range []struct {
		name        string
		plan, state types.Int64
		stateSecret types.String
		want        bool
	}{
		{"unchanged", v(1), v(1), secret, false},
		{"changed", v(1), v(2), secret, true},
		{"first set", v(1), none, secret, true},
		{"removed", none, v(3), secret, false},
		{"never set", none, none, secret, false},
		{"after import: only recorded", v(1), none, null, false},
		{"after import and record: rolls", v(2), v(1), null, true},
	} {
		if got := secretRollWanted(tc.plan, tc.state, tc.stateSecret); got != tc.want {
			t.Errorf("%s: secretRollWanted = %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestWebhookURLProblem_URLs(t *testing.T) {
	t.Parallel()
	for url, want := range map[string]string{
		"https://example.com/hooks":          "",
		"http://127.0.0.1:4242/webhooks?x=1": "",
		"ftp://example.com/":                 "not an https or http URL",
		"example.com/hooks":                  "not an https or http URL",
		"https:///hooks":                     "no host",
		"https:example.com":                  "no host",
		"https://example.com/#top":           "fragment",
		"":                                   "cannot be parsed",
		"https://example.com/" + strings.Repeat("a", wire.WebhookURLMaxLength): "at most 2048",
	} {
		got := webhookURLProblem(url)
		if (want == "") != (got == "") || !strings.Contains(got, want) {
			t.Errorf("webhookURLProblem(%.40q) = %q, want %q", url, got, want)
		}
	}
}

func TestParseWebhookEndpointImportID_Shapes(t *testing.T) {
	t.Parallel()
	good := wire.WebhookEndpointIDPrefix + strings.Repeat("A", 24)
	if id, err := parseWebhookEndpointImportID(good); err != nil || id != good {
		t.Errorf("%s: %v", good, err)
	}
	for _, bad := range []string{"", "we_123", "cus_" + strings.Repeat("A", 24), good + "/x", " " + good} {
		if _, err := parseWebhookEndpointImportID(bad); err == nil || !strings.Contains(err.Error(), "we_ followed by 24") {
			t.Errorf("%q: %v", bad, err)
		}
	}
}
