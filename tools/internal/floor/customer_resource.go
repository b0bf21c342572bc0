package floor

import (
	"context"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/boolplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

var _ resource.ResourceWithImportState = (*customerResource)(nil)

// customerResource has payments_customer's attributes. Like it, it has no
// sources or default_source: those are told by the payments_customer data
// source and payments_customer_source.
type customerResource struct {
	stateOnly[customerResourceModel]
}

type customerResourceModel struct {
	ID        types.String   `tfsdk:"id"`
	Email     types.String   `tfsdk:"email"`
	Name      types.String   `tfsdk:"name"`
	Phone     types.String   `tfsdk:"phone"`
	Metadata  types.Map      `tfsdk:"metadata"`
	CreatedAt types.String   `tfsdk:"created_at"`
	Livemode  types.Bool     `tfsdk:"livemode"`
	Timeouts  timeouts.Value `tfsdk:"timeouts"`
}

func newCustomerResource() resource.Resource {
	return &customerResource{stateOnly[customerResourceModel]{fill: func(m *customerResourceModel) {
		m.ID = types.StringValue(newID("cus_"))
		m.CreatedAt = types.StringValue(time.Now().UTC().Format(time.RFC3339))
		m.Livemode = types.BoolValue(false)
	}}}
}

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
			"email":      schema.StringAttribute{Optional: true, MarkdownDescription: "The customer's email address."},
			"name":       schema.StringAttribute{Optional: true, MarkdownDescription: "The customer's name."},
			"phone":      schema.StringAttribute{Optional: true, MarkdownDescription: "The customer's phone number."},
			"metadata":   schema.MapAttribute{Optional: true, ElementType: types.StringType, MarkdownDescription: "Free-form key-value pairs."},
			"id":         schema.StringAttribute{Computed: true, PlanModifiers: keep, MarkdownDescription: "A random `cus_` id."},
			"created_at": schema.StringAttribute{Computed: true, PlanModifiers: keep, MarkdownDescription: "When Create ran, in RFC 3339."},
			"livemode": schema.BoolAttribute{Computed: true, PlanModifiers: []planmodifier.Bool{boolplanmodifier.UseStateForUnknown()},
				MarkdownDescription: "Always false."},
		},
		Blocks: map[string]schema.Block{"timeouts": timeoutsBlock(ctx)},
	}
}

func (r *customerResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	resource.ImportStatePassthroughID(ctx, path.Root("id"), req, resp)
}
