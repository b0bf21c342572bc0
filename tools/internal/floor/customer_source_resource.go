package floor

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/int64planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

var _ resource.Resource = (*customerSourceResource)(nil)

// customerSourceResource has payments_customer_source's attributes.
type customerSourceResource struct {
	stateOnly[customerSourceResourceModel]
}

type customerSourceResourceModel struct {
	ID       types.String   `tfsdk:"id"`
	Customer types.String   `tfsdk:"customer"`
	Token    types.String   `tfsdk:"token"`
	Default  types.Bool     `tfsdk:"default"`
	Brand    types.String   `tfsdk:"brand"`
	Last4    types.String   `tfsdk:"last4"`
	ExpMonth types.Int64    `tfsdk:"exp_month"`
	ExpYear  types.Int64    `tfsdk:"exp_year"`
	Timeouts timeouts.Value `tfsdk:"timeouts"`
}

func newCustomerSourceResource() resource.Resource {
	return &customerSourceResource{stateOnly[customerSourceResourceModel]{fill: func(m *customerSourceResourceModel) {
		m.ID = types.StringValue(newID("src_"))
		m.Brand = types.StringValue("visa")
		m.Last4 = types.StringValue("4242")
		m.ExpMonth = types.Int64Value(12)
		m.ExpYear = types.Int64Value(2034)
	}}}
}

func (r *customerSourceResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_customer_source"
}

func (r *customerSourceResource) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	// The plan modifiers and the default are payments_customer_source's.
	replace := []planmodifier.String{stringplanmodifier.RequiresReplace()}
	keep := []planmodifier.String{stringplanmodifier.UseStateForUnknown()}
	keepInt := []planmodifier.Int64{int64planmodifier.UseStateForUnknown()}
	resp.Schema = schema.Schema{
		MarkdownDescription: "A card that exists only in state, with the attributes of `payments_customer_source`.",
		Attributes: map[string]schema.Attribute{
			"customer": schema.StringAttribute{Required: true, PlanModifiers: replace, MarkdownDescription: "The customer's id."},
			"token":    schema.StringAttribute{Required: true, PlanModifiers: replace, MarkdownDescription: "The card token."},
			"default": schema.BoolAttribute{Optional: true, Computed: true, Default: booldefault.StaticBool(false),
				MarkdownDescription: "Kept as given."},
			"id":        schema.StringAttribute{Computed: true, PlanModifiers: keep, MarkdownDescription: "A random `src_` id."},
			"brand":     schema.StringAttribute{Computed: true, PlanModifiers: keep, MarkdownDescription: "Always `visa`."},
			"last4":     schema.StringAttribute{Computed: true, PlanModifiers: keep, MarkdownDescription: "Always `4242`."},
			"exp_month": schema.Int64Attribute{Computed: true, PlanModifiers: keepInt, MarkdownDescription: "Always 12."},
			"exp_year":  schema.Int64Attribute{Computed: true, PlanModifiers: keepInt, MarkdownDescription: "Always 2034."},
		},
		Blocks: map[string]schema.Block{"timeouts": timeoutsBlock(ctx)},
	}
}
