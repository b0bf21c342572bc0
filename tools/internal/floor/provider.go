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

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
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

// timeoutsBlock is the timeouts block the payments resources have, so that
// the floor's schema and state have their shape. The floor never waits.
func timeoutsBlock(ctx context.Context) rschema.Block {
	return timeouts.Block(ctx, timeouts.Opts{Create: true, Read: true, Update: true, Delete: true})
}

// stateOnly is what every floor resource does besides its schema: Create
// fills the computed attributes of the plan, Read keeps the state, Update
// stores the plan and Delete forgets. M is the resource's model.
type stateOnly[M any] struct {
	fill func(*M)
}

func (s stateOnly[M]) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var m M
	resp.Diagnostics.Append(req.Plan.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	s.fill(&m)
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

// Read keeps the state as it is: there is nothing behind it to refresh from.
func (stateOnly[M]) Read(_ context.Context, _ resource.ReadRequest, _ *resource.ReadResponse) {
}

func (stateOnly[M]) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan M
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

// Delete does nothing; the framework removes the resource from state.
func (stateOnly[M]) Delete(_ context.Context, _ resource.DeleteRequest, _ *resource.DeleteResponse) {
}
