package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/ephemeral"
	"github.com/hashicorp/terraform-plugin-framework/resource"
)

// The parts every type the provider serves has in common: its type name and
// what the provider configured (providerData, provider_data.go). Each type
// embeds the base of its kind, which gives it Metadata and Configure, and
// reaches the client as r.client: nil before the provider is configured, as
// during validation, which every operation checks before using it.
//
// A new kind (an ephemeral resource) gets a base here like these: Metadata
// names it, Configure calls providerData.configure; provider.go already
// hands it the same providerData. Provider functions are never configured
// by Terraform, so they get no provider data.

// resourceBase is embedded by every resource and list resource (the
// framework configures both with a resource.ConfigureRequest).
type resourceBase struct {
	// name is the type name after the provider's: "customer" for
	// payments_customer.
	name string
	providerData
}

func (b *resourceBase) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_" + b.name
}

func (b *resourceBase) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	b.configure(req.ProviderData, &resp.Diagnostics)
}

// dataSourceBase is embedded by every data source.
type dataSourceBase struct {
	// name is the type name after the provider's: "payment" for
	// payments_payment.
	name string
	providerData
}

func (b *dataSourceBase) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_" + b.name
}

func (b *dataSourceBase) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	b.configure(req.ProviderData, &resp.Diagnostics)
}

// actionBase is embedded by every action.
type actionBase struct {
	// name is the type name after the provider's: "payment_capture" for
	// payments_payment_capture.
	name string
	providerData
}

func (b *actionBase) Metadata(_ context.Context, req action.MetadataRequest, resp *action.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_" + b.name
}

func (b *actionBase) Configure(_ context.Context, req action.ConfigureRequest, resp *action.ConfigureResponse) {
	b.configure(req.ProviderData, &resp.Diagnostics)
}

// ephemeralBase is embedded by every ephemeral resource.
type ephemeralBase struct {
	// name is the type name after the provider's: "card_token" for
	// payments_card_token.
	name string
	providerData
}

func (b *ephemeralBase) Metadata(_ context.Context, req ephemeral.MetadataRequest, resp *ephemeral.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_" + b.name
}

func (b *ephemeralBase) Configure(_ context.Context, req ephemeral.ConfigureRequest, resp *ephemeral.ConfigureResponse) {
	b.configure(req.ProviderData, &resp.Diagnostics)
}
