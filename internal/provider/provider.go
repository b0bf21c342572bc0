// Package provider implements the payments Terraform provider.
package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource"
)

var _ provider.Provider = (*paymentsProvider)(nil)

// paymentsProvider is the payments provider.
type paymentsProvider struct {
	version string
}

// New returns a function that builds the provider for the given version.
func New(version string) func() provider.Provider {
	return func() provider.Provider {
		return &paymentsProvider{version: version}
	}
}

func (p *paymentsProvider) Metadata(_ context.Context, _ provider.MetadataRequest, resp *provider.MetadataResponse) {
	resp.TypeName = "payments"
	resp.Version = p.version
}

func (p *paymentsProvider) Schema(_ context.Context, _ provider.SchemaRequest, resp *provider.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "The payments provider manages customers and their payment sources, and reads payments, through the payments service's REST API.",
	}
}

func (p *paymentsProvider) Configure(_ context.Context, _ provider.ConfigureRequest, _ *provider.ConfigureResponse) {
}

func (p *paymentsProvider) Resources(_ context.Context) []func() resource.Resource {
	return nil
}

func (p *paymentsProvider) DataSources(_ context.Context) []func() datasource.DataSource {
	return nil
}
