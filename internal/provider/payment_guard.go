package provider

import (
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// attrAllowLivePayments is the provider argument that lets a live key move
// money: create, capture and refund payments.
const attrAllowLivePayments = "allow_live_payments"

// livePaymentDiagnostic is the error of an operation that would move real
// money (what names it, e.g. "Creating payment") with a live key while
// allow_live_payments is not true; nil when the operation may go ahead.
// It is checked at plan time, so that nothing is sent.
func (d *providerData) livePaymentDiagnostic(what string) diag.Diagnostic {
	if d == nil || d.client == nil || !d.client.Livemode() || d.allowLivePayments {
		return nil
	}
	return diag.NewErrorDiagnostic("Live Payments Not Allowed", fmt.Sprintf(
		"%s would move real money: the provider's secret key is a live key (%s…). "+
			"allow_livemode = true lets a live key manage customers and cards; creating, capturing or refunding "+
			"payments needs %s = true in the provider configuration as well. Set both to go ahead, "+
			"or use a sandbox key (%s…).",
		what, wire.SecretKeyLivePrefix, attrAllowLivePayments, wire.SecretKeySandboxPrefix))
}
