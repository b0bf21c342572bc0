package provider

import (
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/paymentsdev/terraform-provider-payments/internal/client"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// attrAllowLivePayments is the provider argument that lets a live key move
// money: create, capture and refund payments.
const attrAllowLivePayments = "allow_live_payments"

// providerData is what the provider hands to its resources and actions:
// the client, and the settings that guard operations on real money.
type providerData struct {
	client *client.Client
	// allowLivePayments is allow_live_payments: without it a live key may
	// manage customers and cards but not charge, capture or refund.
	allowLivePayments bool
}

// providerDataFrom is the Configure step of every resource, data source
// and action: nil data (before the provider is configured, as during
// validation) is no error and returns nil; anything else but the
// provider's data is a bug, reported as such.
func providerDataFrom(data any, diags *diag.Diagnostics) *providerData {
	switch d := data.(type) {
	case nil:
		return nil
	case *providerData:
		return d
	case *client.Client:
		// A provider that hands out the bare client allows no live payments.
		return &providerData{client: d}
	default:
		diags.AddError("Unexpected Provider Data Type",
			fmt.Sprintf("Expected *providerData, got %T. This is a bug in the provider; please report it.", data))
		return nil
	}
}

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
