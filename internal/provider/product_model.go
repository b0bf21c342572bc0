package provider

import (
	"context"
	"fmt"

	dtimeouts "github.com/hashicorp/terraform-plugin-framework-timeouts/datasource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework-timetypes/timetypes"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	dschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/paymentsdev/terraform-provider-payments/internal/client"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// productModel is one product of the catalog as the payments_product
// resource, data source and list resource all describe it; each embeds it.
// Description is null when the product has none; metadata is null or {} as
// the configuration wrote it when the product has no keys.
type productModel struct {
	ID          types.String      `tfsdk:"id"`
	Name        types.String      `tfsdk:"name"`
	Description types.String      `tfsdk:"description"`
	Active      types.Bool        `tfsdk:"active"`
	Metadata    types.Map         `tfsdk:"metadata"`
	CreatedAt   timetypes.RFC3339 `tfsdk:"created_at"`
	Livemode    types.Bool        `tfsdk:"livemode"`
}

// productIDRegexp and productIDShape are a product id's shape, from the wire.
var (
	productIDRegexp = idRegexp(wire.ProductIDPrefix)
	productIDShape  = idShape(wire.ProductIDPrefix)
)

// fromAPI sets every attribute of m from the service's product: the only
// mapping of a product, so that the resource, the data source and the list
// resource cannot drift apart. Empty metadata keeps m's spelling.
func (m *productModel) fromAPI(p *client.Product) diag.Diagnostics {
	var diags, d diag.Diagnostics
	m.ID = types.StringValue(p.ID)
	m.Name = types.StringValue(p.Name)
	m.Description = nullableString(p.Description)
	m.Active = types.BoolValue(p.Active)
	m.Livemode = types.BoolValue(p.Livemode)
	m.CreatedAt, d = rfc3339Value("created_at", p.CreatedAt)
	diags.Append(d...)
	m.Metadata, d = metadataValue(p.Metadata, m.Metadata)
	diags.Append(d...)
	return diags
}

// createParams is the create request for m: every field m sets.
func (m *productModel) createParams(ctx context.Context) (*client.ProductParams, diag.Diagnostics) {
	p := &client.ProductParams{
		Name:        stringPointer(m.Name),
		Description: stringPointer(m.Description),
		Active:      boolPointer(m.Active),
	}
	diags := m.Metadata.ElementsAs(ctx, &p.Metadata, false)
	return p, diags
}

// productUpdateParams is the update that takes the product from state to
// plan: changed fields are sent, a removed description as "" (which clears
// it), each removed metadata key empty. changed is false when nothing needs
// sending.
func productUpdateParams(ctx context.Context, plan, state *productModel) (params *client.ProductParams, changed bool, diags diag.Diagnostics) {
	params = &client.ProductParams{}
	if !plan.Name.Equal(state.Name) {
		params.Name = stringPointer(plan.Name)
		changed = true
	}
	if !plan.Description.Equal(state.Description) {
		v := plan.Description.ValueString() // "" when null: clears it
		params.Description = &v
		changed = true
	}
	if !plan.Active.Equal(state.Active) {
		v := plan.Active.ValueBool()
		params.Active = &v
		changed = true
	}
	params.Metadata = metadataChanges(ctx, plan.Metadata, state.Metadata, &diags)
	if diags.HasError() {
		return nil, false, diags
	}
	return params, changed || params.Metadata != nil, diags
}

// productDescriptions say what each attribute is, once for every type that
// shows a product; the resource adds the rules of its arguments.
var productDescriptions = struct {
	ID, Name, Description, Active, Metadata, CreatedAt, Livemode string
}{
	ID:          fmt.Sprintf("The product's identifier: %s.", productIDShape),
	Name:        "The product's name, as customers see it.",
	Description: "What the product is.",
	Active:      "Whether the product can be sold: `false` once it is archived.",
	Metadata:    "Your own key-value pairs about the product.",
	CreatedAt:   "When the product was created, as an RFC 3339 UTC timestamp with second precision.",
	Livemode:    "Whether the product belongs to a live key's account (`true`) or a sandbox key's (`false`).",
}

// productResourceAttributes is the payments_product resource's schema:
// the arguments, validated at plan time from the wire contract's limits,
// then the computed attributes. Every argument changes in place.
func productResourceAttributes() map[string]rschema.Attribute {
	d := productDescriptions
	return map[string]rschema.Attribute{
		// Required.
		"name": rschema.StringAttribute{
			MarkdownDescription: fmt.Sprintf("%s From 1 to %d characters, without control characters other than tab "+
				"and newline nor bidirectional controls.", d.Name, wire.NameMaxLength),
			Required: true,
			Validators: []validator.String{
				stringvalidator.UTF8LengthBetween(1, wire.NameMaxLength),
				stringvalidator.RegexMatches(noControlRegexp, noControlMessage),
			},
		},
		// Optional.
		"description": rschema.StringAttribute{
			MarkdownDescription: fmt.Sprintf("%s From 1 to %d characters; removing it clears it at the service.",
				d.Description, wire.ProductDescriptionMaxLength),
			Optional: true,
			Validators: []validator.String{
				stringvalidator.UTF8LengthBetween(1, wire.ProductDescriptionMaxLength),
				stringvalidator.RegexMatches(noBidiRegexp, noBidiMessage),
			},
		},
		"active": rschema.BoolAttribute{
			MarkdownDescription: d.Active + " Defaults to `true`; a product archived outside of Terraform is shown as a " +
				"change and made active again.",
			Optional: true,
			Computed: true,
			Default:  booldefault.StaticBool(true),
		},
		"metadata": metadataAttribute(d.Metadata, "product"),
		// Computed.
		"id": keptString(d.ID),
		"created_at": rschema.StringAttribute{
			MarkdownDescription: d.CreatedAt,
			CustomType:          timetypes.RFC3339Type{},
			Computed:            true,
			PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
		},
		"livemode": keptBool(d.Livemode),
	}
}

// productDataSourceAttributes is the payments_product data source's
// schema: id, then everything the product object tells, computed.
func productDataSourceAttributes() map[string]dschema.Attribute {
	d := productDescriptions
	return map[string]dschema.Attribute{
		// Required.
		"id": dschema.StringAttribute{
			MarkdownDescription: fmt.Sprintf("The identifier of the product to read: %s.", productIDShape),
			Required:            true,
			Validators: []validator.String{
				stringvalidator.RegexMatches(productIDRegexp, "must be a product id: "+productIDShape),
			},
		},
		// Computed.
		"name":        dschema.StringAttribute{MarkdownDescription: d.Name, Computed: true},
		"description": dschema.StringAttribute{MarkdownDescription: d.Description + " Null when the product has none.", Computed: true},
		"active":      dschema.BoolAttribute{MarkdownDescription: d.Active, Computed: true},
		"metadata": dschema.MapAttribute{MarkdownDescription: d.Metadata + " Null when the product has none.",
			ElementType: types.StringType, Computed: true},
		"created_at": dschema.StringAttribute{MarkdownDescription: d.CreatedAt, CustomType: timetypes.RFC3339Type{}, Computed: true},
		"livemode":   dschema.BoolAttribute{MarkdownDescription: d.Livemode, Computed: true},
	}
}

// productDataSourceModel is the payments_product data source's data.
type productDataSourceModel struct {
	productModel
	Timeouts dtimeouts.Value `tfsdk:"timeouts"`
}

func (m *productDataSourceModel) readTimeouts() dtimeouts.Value { return m.Timeouts }
