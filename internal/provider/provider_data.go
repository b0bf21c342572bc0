package provider

import (
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/paymentsdev/terraform-provider-payments/internal/client"
)

// providerData is what the provider's Configure hands to every type it
// serves (resources, list resources, data sources, actions, ephemeral
// resources), the same value to each: the client, and the settings that
// guard operations on real money.
type providerData struct {
	client *client.Client
	// allowLivePayments is allow_live_payments: without it a live key may
	// manage customers and cards but not charge, capture or refund.
	allowLivePayments bool
}

// configure is the Configure step of every type, called by the bases in
// base.go: nil data (before the provider is configured, as during
// validation) is no error and leaves d empty, so d.client stays nil;
// anything but the provider's data is a bug, reported as such.
func (d *providerData) configure(data any, diags *diag.Diagnostics) {
	switch v := data.(type) {
	case nil:
	case *providerData:
		*d = *v
	default:
		diags.AddError("Unexpected Provider Data Type",
			fmt.Sprintf("Expected *providerData, got %T. This is a bug in the provider; please report it.", data))
	}
}
