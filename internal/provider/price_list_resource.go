package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-framework/list/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/paymentsdev/terraform-provider-payments/internal/client"
)

// NewPriceListResource returns the payments_price list resource.
func NewPriceListResource() list.ListResource {
	return &priceListResource{resourceBase{name: "price"}}
}

// priceListResource is the payments_price list resource.
type priceListResource struct {
	resourceBase
}

// priceListConfigModel is the `config` block of a payments_price list.
type priceListConfigModel struct {
	Product types.String `tfsdk:"product"`
	Active  types.Bool   `tfsdk:"active"`
}

func (r *priceListResource) ListResourceConfigSchema(_ context.Context, _ list.ListResourceSchemaRequest, resp *list.ListResourceSchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Lists the prices of the configured key's account, newest first, for `terraform query` " +
			"(Terraform 1.14 and later), all or those of one product: each result carries the price's identity, for an " +
			"`import` block, and a display name such as \"Gold monthly (9.99 USD per month)\". " +
			"`terraform query -generate-config-out=FILE` writes `payments_price` resources and `import` blocks that " +
			"plan with nothing to change.",
		Attributes: map[string]schema.Attribute{
			"product": schema.StringAttribute{
				MarkdownDescription: "Only the prices of this product (" + productIDShape + "). Omit it to list the prices of every product.",
				Optional:            true,
				Validators: []validator.String{
					stringvalidator.RegexMatches(productIDRegexp, "must be a product id: "+productIDShape),
				},
			},
			"active": activeFilterAttribute("prices"),
		},
	}
}

func (r *priceListResource) List(ctx context.Context, req list.ListRequest, stream *list.ListResultsStream) {
	var config priceListConfigModel
	if diags := req.Config.Get(ctx, &config); diags.HasError() {
		stream.Results = list.ListResultsStreamDiagnostics(diags)
		return
	}
	if r.client == nil {
		stream.Results = list.ListResultsStreamDiagnostics(diag.Diagnostics{notConfiguredDiagnostic()})
		return
	}
	params := &client.ListPricesParams{Product: config.Product.ValueString(), Active: boolPointer(config.Active)}
	params.Limit = listPageSize(req.Limit)
	stream.Results = listResults(ctx, req, r.client.AllPrices(ctx, params), "Error Listing Prices", "the price list",
		func(p *client.Price, result *list.ListResult) {
			result.DisplayName = priceDisplayName(p)
			result.Diagnostics.Append(priceKind.setIdentity(ctx, result.Identity, p.ID)...)
			if req.IncludeResource && !result.Diagnostics.HasError() {
				m := &priceResourceModel{
					priceModel:        priceModel{Metadata: types.MapNull(types.StringType)},
					TransferLookupKey: types.BoolNull(),
					Timeouts:          nullTimeouts(),
				}
				result.Diagnostics.Append(m.fromAPI(p)...)
				if !result.Diagnostics.HasError() {
					result.Diagnostics.Append(result.Resource.Set(ctx, m)...)
				}
			}
		})
}
