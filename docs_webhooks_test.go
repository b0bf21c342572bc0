package main

import (
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/sandboxtest"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// TestDocs_WebhookGuidesStateTheWiresValues keeps the webhook prose in step
// with internal/wire and the sandbox's defaults.
func TestDocs_WebhookGuidesStateTheWiresValues(t *testing.T) {
	const assumptions = "templates/guides/api-assumptions.md.tmpl"
	requireContains(t, assumptions, readFile(t, assumptions),
		fmt.Sprintf("(`%s…`, at most %d per account", wire.WebhookEndpointIDPrefix, wire.MaxWebhookEndpoints),
		fmt.Sprintf("at most %s bytes", withThousands(wire.WebhookURLMaxLength)),
		fmt.Sprintf("(`%s…`, kept %d days", wire.EventIDPrefix, int(wire.EventRetention/(24*time.Hour))),
		fmt.Sprintf("`%s: t=<unix seconds>,v1=<hex HMAC-SHA256 of \"<t>.<body>\">`", wire.HeaderSignature),
		fmt.Sprintf("(`%s` and %d letters or digits)", wire.WebhookSecretPrefix, wire.WebhookSecretRandomLength),
		fmt.Sprintf("within %d seconds", int(wire.DeliveryTimeout/time.Second)),
		fmt.Sprintf("at most %s characters", withThousands(wire.WebhookDescriptionMaxLength)),
		fmt.Sprintf("(default %d) after %d s", sandbox.DefaultWebhookAttempts, int(sandbox.DefaultWebhookRetryBase/time.Second)),
	)
	const guide = "templates/guides/testing-webhooks.md.tmpl"
	text := readFile(t, guide)
	requireContains(t, guide, text,
		fmt.Sprintf("(default %d)", sandbox.DefaultWebhookAttempts),
		fmt.Sprintf("within %d seconds", int(wire.DeliveryTimeout/time.Second)),
		fmt.Sprintf("older than %d minutes", int(wire.SignatureTolerance/time.Minute)),
		wire.PathSandboxDeliveries,
		"the account's default, `"+wire.APIVersion+"`",
		wire.HeaderSignature,
	)
	requireContains(t, assumptions, readFile(t, assumptions), "this API's own version,\n  `"+wire.APIVersion+"`")
	for _, typ := range wire.EventTypes {
		if typ == wire.EventPaymentAuthorized || typ == wire.EventPaymentUpdated {
			continue // not among the guide's examples
		}
		requireContains(t, guide, text, "`"+typ+"`")
	}
}

// TestDocs_PublishableKeyExampleRuns runs the keys guide's script against
// a sandbox: it reads the account's publishable key and mints a token
// with it alone.
func TestDocs_PublishableKeyExampleRuns(t *testing.T) {
	if _, err := exec.LookPath("curl"); err != nil {
		t.Skip("curl is not installed")
	}
	sb := sandboxtest.Start(t)
	key := sandboxtest.NewKey(t)
	cmd := exec.Command("bash", "examples/guides/keys-and-livemode/publishable-key.sh")
	cmd.Env = append(os.Environ(), "PAYMENTS_SECRET_KEY="+key, "PAYMENTS_BASE_URL="+sb.URL)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the script failed: %v\n%s", err, out)
	}
	if !regexp.MustCompile(`publishable key: pk_sandbox_[0-9a-f]{32}\n\{"id":"tok_`).Match(out) || strings.Contains(string(out), key) {
		t.Errorf("the script's output is not a publishable key and a token, or shows the secret key:\n%s", out)
	}
}
