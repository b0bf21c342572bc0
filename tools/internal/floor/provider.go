// Package floor is a do-nothing Terraform provider built on the same
// framework as the payments provider. Its resources have the same attributes
// as payments_customer and payments_customer_source but make no request: Create
// fills the computed attributes, Read returns the state, Delete forgets it.
// Timing it gives the floor that Terraform, the plugin protocol and the
// framework set, which the benchmark compares the real provider against.
package floor

import (
	"context"
	"crypto/rand"
	"encoding/hex"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource"
)

var _ provider.Provider = (*floorProvider)(nil)

// Source is the floor provider's source address in required_providers.
const Source = "bench/floor"

// Address is the registry address the floor provider is served under; the
// benchmark's CLI configuration points a dev_overrides entry at it.
const Address = "registry.terraform.io/" + Source

type floorProvider struct{}

// New returns the floor provider.
func New() provider.Provider { return &floorProvider{} }

func (p *floorProvider) Metadata(_ context.Context, _ provider.MetadataRequest, resp *provider.MetadataResponse) {
	resp.TypeName = "floor"
	resp.Version = "dev"
}

func (p *floorProvider) Schema(_ context.Context, _ provider.SchemaRequest, resp *provider.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "A do-nothing provider that only keeps its attributes: the benchmark's floor.",
	}
}

func (p *floorProvider) Configure(_ context.Context, _ provider.ConfigureRequest, _ *provider.ConfigureResponse) {
}

func (p *floorProvider) Resources(_ context.Context) []func() resource.Resource {
	return []func() resource.Resource{newCustomerResource, newCustomerSourceResource}
}

func (p *floorProvider) DataSources(_ context.Context) []func() datasource.DataSource {
	return nil
}

// newID returns prefix and 24 random hex digits, like the service's ids.
func newID(prefix string) string {
	b := make([]byte, 12)
	_, _ = rand.Read(b) // crypto/rand.Read never fails (Go 1.24+)
	return prefix + hex.EncodeToString(b)
}
