// Package floor is a do-nothing Terraform provider built on the same
// framework as the payments provider. Its resources have the schemas of
// payments_customer, payments_customer_source, payments_product,
// payments_price and payments_subscription, taken from them, but make no
// request: Create fills the computed attributes, Read returns the state,
// Delete forgets it.
// Timing it gives the floor that Terraform, the plugin protocol and the
// framework set, which the benchmark compares the real provider against.
// With EnvAPIURL and EnvAPIKey set it is the request floor instead: the
// same, plus one plain request per resource and operation (see
// requests.go).
package floor

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	payments "github.com/paymentsdev/terraform-provider-payments/internal/provider"
)

var (
	_ provider.Provider                = (*floorProvider)(nil)
	_ resource.ResourceWithImportState = (*stateOnly)(nil)
)

// Source is the floor provider's source address in required_providers.
const Source = "bench/floor"

// Address is the registry address the floor provider is served under; the
// benchmark's CLI configuration points a dev_overrides entry at it.
const Address = "registry.terraform.io/" + Source

type floorProvider struct {
	shared
}

// shared is what all the provider's resources use.
type shared struct {
	// pace is shared by all the provider's creates, as a client's rate
	// limit is; nil unless EnvRateLimit is set.
	pace *pacer
	// api sends the request floor's requests; nil unless EnvAPIURL and
	// EnvAPIKey are set.
	api *requester
}

// New returns the floor provider: the request floor when the environment
// names an API and a key.
func New() provider.Provider {
	return &floorProvider{shared{pace: newPacerFromEnv(), api: newRequesterFromEnv()}}
}

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
	return []func() resource.Resource{
		func() resource.Resource { return newCustomerResource(p.shared) },
		func() resource.Resource { return newCustomerSourceResource(p.shared) },
		func() resource.Resource { return newProductResource(p.shared) },
		func() resource.Resource { return newPriceResource(p.shared) },
		func() resource.Resource { return newSubscriptionResource(p.shared) },
	}
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

// stateOnly is a floor resource: the schema of the payments resource it
// mirrors (taken from it, so that the two cannot drift apart: the same
// attributes, plan modifiers, defaults and validators, which are Terraform's
// and the framework's work), and no requests. Create fills the computed
// attributes the plan leaves unknown, from fill by attribute name (null
// for the others), Read keeps the state, Update stores the plan and Delete
// forgets. It has none of the real resource's ModifyPlan or identity.
// The request floor adds a request to Create, Read and Delete.
type stateOnly struct {
	shared
	mirrors resource.Resource
	// prefix begins the resource's ids ("cus_").
	prefix string
	fill   map[string]func() tftypes.Value
}

func (s *stateOnly) Metadata(ctx context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	s.mirrors.Metadata(ctx, resource.MetadataRequest{ProviderTypeName: "payments"}, resp)
	resp.TypeName = req.ProviderTypeName + strings.TrimPrefix(resp.TypeName, "payments")
}

func (s *stateOnly) Schema(ctx context.Context, req resource.SchemaRequest, resp *resource.SchemaResponse) {
	s.mirrors.Schema(ctx, req, resp)
}

func (s *stateOnly) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	if err := s.pace.wait(ctx); err != nil {
		resp.Diagnostics.AddError("Floor Create Interrupted", err.Error())
		return
	}
	id := newID(s.prefix)
	if s.api != nil {
		part, err := s.api.create(ctx)
		if err != nil {
			resp.Diagnostics.AddError("Floor Create Failed", err.Error())
			return
		}
		id = s.prefix + part
	}
	raw, err := s.filled(req.Plan.Raw, id)
	if err != nil {
		resp.Diagnostics.AddError("Floor Create Failed", err.Error())
		return
	}
	resp.State.Raw = raw
}

// Read keeps the state as it is: there is nothing behind it to refresh
// from. The request floor fetches the customer behind it and throws the
// answer away.
func (s *stateOnly) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	if s.api == nil {
		return
	}
	if err := s.api.read(ctx, stateID(req.State.Raw)); err != nil {
		resp.Diagnostics.AddError("Floor Read Failed", err.Error())
	}
}

func (s *stateOnly) Update(_ context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	raw, err := s.filled(req.Plan.Raw, stateID(req.State.Raw))
	if err != nil {
		resp.Diagnostics.AddError("Floor Update Failed", err.Error())
		return
	}
	resp.State.Raw = raw
}

// Delete does nothing but the request floor's request; the framework
// removes the resource from state.
func (s *stateOnly) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	if s.api == nil {
		return
	}
	if err := s.api.remove(ctx, stateID(req.State.Raw)); err != nil {
		resp.Diagnostics.AddError("Floor Delete Failed", err.Error())
	}
}

// stateID is the id attribute of a state, or "" when it has none.
func stateID(state tftypes.Value) string {
	var attrs map[string]tftypes.Value
	var id string
	if state.As(&attrs) != nil || attrs["id"].As(&id) != nil {
		return ""
	}
	return id
}

func (*stateOnly) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	resource.ImportStatePassthroughID(ctx, path.Root("id"), req, resp)
}

// filled is plan with every unknown top-level attribute given its value:
// id for the id, from fill for the others, or null.
func (s *stateOnly) filled(plan tftypes.Value, id string) (tftypes.Value, error) {
	return tftypes.Transform(plan, func(p *tftypes.AttributePath, v tftypes.Value) (tftypes.Value, error) {
		if v.IsKnown() {
			return v, nil
		}
		if steps := p.Steps(); len(steps) == 1 {
			if name, ok := steps[0].(tftypes.AttributeName); ok {
				if name == "id" {
					return tftypes.NewValue(tftypes.String, id), nil
				}
				if f, ok := s.fill[string(name)]; ok {
					return f(), nil
				}
			}
		}
		return tftypes.NewValue(v.Type(), nil), nil
	})
}

func newCustomerResource(sh shared) resource.Resource {
	return &stateOnly{shared: sh, prefix: "cus_", mirrors: payments.NewCustomerResource(), fill: map[string]func() tftypes.Value{
		"created_at": now,
		"livemode":   boolean(false),
	}}
}

func newCustomerSourceResource(sh shared) resource.Resource {
	return &stateOnly{shared: sh, prefix: "src_", mirrors: payments.NewCustomerSourceResource(), fill: map[string]func() tftypes.Value{
		"brand":     str("visa"),
		"last4":     str("4242"),
		"exp_month": number(12),
		"exp_year":  number(2034),
	}}
}

// now is the current time as the service writes it, for computed times.
func now() tftypes.Value {
	return tftypes.NewValue(tftypes.String, time.Now().UTC().Format(time.RFC3339))
}

func str(v string) func() tftypes.Value {
	return func() tftypes.Value { return tftypes.NewValue(tftypes.String, v) }
}

func id(prefix string) func() tftypes.Value {
	return func() tftypes.Value { return tftypes.NewValue(tftypes.String, newID(prefix)) }
}

func boolean(v bool) func() tftypes.Value {
	return func() tftypes.Value { return tftypes.NewValue(tftypes.Bool, v) }
}

func number(v int) func() tftypes.Value {
	return func() tftypes.Value { return tftypes.NewValue(tftypes.Number, v) }
}

func newProductResource(sh shared) resource.Resource {
	return &stateOnly{shared: sh, prefix: "prod_", mirrors: payments.NewProductResource(), fill: map[string]func() tftypes.Value{
		"created_at": now,
		"livemode":   boolean(false),
	}}
}

func newPriceResource(sh shared) resource.Resource {
	return &stateOnly{shared: sh, prefix: "price_", mirrors: payments.NewPriceResource(), fill: map[string]func() tftypes.Value{
		"type":           str("recurring"),
		"interval_count": number(1),
		"created_at":     now,
		"livemode":       boolean(false),
	}}
}

func newSubscriptionResource(sh shared) resource.Resource {
	return &stateOnly{shared: sh, prefix: "sub_", mirrors: payments.NewSubscriptionResource(), fill: map[string]func() tftypes.Value{
		"status":               str("active"),
		"current_period_start": now,
		"current_period_end": func() tftypes.Value {
			return tftypes.NewValue(tftypes.String, time.Now().UTC().AddDate(0, 1, 0).Format(time.RFC3339))
		},
		"latest_invoice":       id("in_"),
		"cancel_at_period_end": boolean(false),
		"created_at":           now,
		"livemode":             boolean(false),
	}}
}
