package floor

import (
	"context"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/boolplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

var _ resource.ResourceWithImportState = (*customerResource)(nil)

// sourceSummaryType is the element type of floor_customer.sources, the same
// as payments_customer.sources.
var sourceSummaryType = types.ObjectType{AttrTypes: map[string]attr.Type{
	"id":    types.StringType,
	"brand": types.StringType,
	"last4": types.StringType,
}}

// timeoutsBlock is the timeouts block the payments resources have, so that
// the floor's schema and state have their shape. The floor never waits.
func timeoutsBlock(ctx context.Context) schema.Block {
	return timeouts.Block(ctx, timeouts.Opts{Create: true, Read: true, Update: true, Delete: true})
}

type customerResource struct{}

type customerResourceModel struct {
	ID            types.String   `tfsdk:"id"`
	Email         types.String   `tfsdk:"email"`
	Name          types.String   `tfsdk:"name"`
	Phone         types.String   `tfsdk:"phone"`
	Metadata      types.Map      `tfsdk:"metadata"`
	DefaultSource types.String   `tfsdk:"default_source"`
	Sources       types.List     `tfsdk:"sources"`
	CreatedAt     types.String   `tfsdk:"created_at"`
	Livemode      types.Bool     `tfsdk:"livemode"`
	Timeouts      timeouts.Value `tfsdk:"timeouts"`
}

func newCustomerResource() resource.Resource { return &customerResource{} }

func (r *customerResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_customer"
}

func (r *customerResource) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	// The plan modifiers are payments_customer's: they decide what a plan
	// shows as unknown, which is Terraform's work, not the provider's.
	keep := []planmodifier.String{stringplanmodifier.UseStateForUnknown()}
	resp.Schema = schema.Schema{
		MarkdownDescription: "A customer that exists only in state, with the attributes of `payments_customer`.",
		Attributes: map[string]schema.Attribute{
			"email":    schema.StringAttribute{Optional: true, MarkdownDescription: "The customer's email address."},
			"name":     schema.StringAttribute{Optional: true, MarkdownDescription: "The customer's name."},
			"phone":    schema.StringAttribute{Optional: true, MarkdownDescription: "The customer's phone number."},
			"metadata": schema.MapAttribute{Optional: true, ElementType: types.StringType, MarkdownDescription: "Free-form key-value pairs."},
			"id":       schema.StringAttribute{Computed: true, PlanModifiers: keep, MarkdownDescription: "A random `cus_` id."},
			"default_source": schema.StringAttribute{Computed: true,
				MarkdownDescription: "Always null: the floor keeps no sources on the customer."},
			"sources": schema.ListNestedAttribute{Computed: true,
				MarkdownDescription: "Always empty: the floor keeps no sources on the customer.",
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"id":    schema.StringAttribute{Computed: true, MarkdownDescription: "The source's id."},
					"brand": schema.StringAttribute{Computed: true, MarkdownDescription: "The card brand."},
					"last4": schema.StringAttribute{Computed: true, MarkdownDescription: "The card's last four digits."},
				}}},
			"created_at": schema.StringAttribute{Computed: true, PlanModifiers: keep, MarkdownDescription: "When Create ran, in RFC 3339."},
			"livemode": schema.BoolAttribute{Computed: true, PlanModifiers: []planmodifier.Bool{boolplanmodifier.UseStateForUnknown()},
				MarkdownDescription: "Always false."},
		},
		Blocks: map[string]schema.Block{"timeouts": timeoutsBlock(ctx)},
	}
}

func (r *customerResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var m customerResourceModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	m.ID = types.StringValue(newID("cus_"))
	m.DefaultSource = types.StringNull()
	m.Sources = types.ListValueMust(sourceSummaryType, nil)
	m.CreatedAt = types.StringValue(time.Now().UTC().Format(time.RFC3339))
	m.Livemode = types.BoolValue(false)
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

// Read keeps the state as it is: there is nothing behind it to refresh from.
func (r *customerResource) Read(_ context.Context, _ resource.ReadRequest, _ *resource.ReadResponse) {
}

func (r *customerResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan, state customerResourceModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	plan.DefaultSource, plan.Sources = state.DefaultSource, state.Sources
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

// Delete does nothing; the framework removes the resource from state.
func (r *customerResource) Delete(_ context.Context, _ resource.DeleteRequest, _ *resource.DeleteResponse) {
}

func (r *customerResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	resource.ImportStatePassthroughID(ctx, path.Root("id"), req, resp)
}
