package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/resource"
)

// The parts every resource, list resource and data source has in common:
// its type name and what the provider configured (providerData). Each
// embeds one of the bases below, which give it Metadata and Configure, and
// reaches the client as r.client: nil before the provider is configured,
// as during validation, which every operation checks before using it.

// resourceBase is embedded by every resource and list resource.
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
	if d := providerDataFrom(req.ProviderData, &resp.Diagnostics); d != nil {
		b.providerData = *d
	}
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
	if d := providerDataFrom(req.ProviderData, &resp.Diagnostics); d != nil {
		b.providerData = *d
	}
}
