package main

import (
	"fmt"
	"testing"
	"time"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox"
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
	)
	for _, typ := range wire.EventTypes {
		if typ == wire.EventPaymentAuthorized || typ == wire.EventPaymentUpdated {
			continue // not among the guide's examples
		}
		requireContains(t, guide, text, "`"+typ+"`")
	}
}
