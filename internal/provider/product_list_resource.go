package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-framework/list/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/paymentsdev/terraform-provider-payments/internal/client"
)

// The list resources of the catalog, which `terraform query` (Terraform
// 1.14 and later) uses to find products and prices to import. Each result
// carries the object's identity and, with include_resource, the object as
// the resource's state would hold it after an import, through the
// resource's own mapping.

// NewProductListResource returns the payments_product list resource.
func NewProductListResource() list.ListResource {
	return &productListResource{resourceBase{name: "product"}}
}

// productListResource is the payments_product list resource.
type productListResource struct {
	resourceBase
}

// productListConfigModel is the `config` block of a payments_product list.
type productListConfigModel struct {
	Active types.Bool `tfsdk:"active"`
}

// activeFilterAttribute is the `active` filter of a catalog list.
func activeFilterAttribute(what string) schema.BoolAttribute {
	return schema.BoolAttribute{
		MarkdownDescription: "`true` lists only the active " + what + ", `false` only the archived ones; omit it to list all.",
		Optional:            true,
	}
}

func (r *productListResource) ListResourceConfigSchema(_ context.Context, _ list.ListResourceSchemaRequest, resp *list.ListResourceSchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Lists the products of the configured key's account, newest first, for `terraform query` " +
			"(Terraform 1.14 and later): each result carries the product's identity, for an `import` block, and its " +
			"name as display name. `terraform query -generate-config-out=FILE` writes `payments_product` resources " +
			"and `import` blocks that plan with nothing to change.",
		Attributes: map[string]schema.Attribute{
			"active": activeFilterAttribute("products"),
		},
	}
}

func (r *productListResource) List(ctx context.Context, req list.ListRequest, stream *list.ListResultsStream) {
	var config productListConfigModel
	if diags := req.Config.Get(ctx, &config); diags.HasError() {
		stream.Results = list.ListResultsStreamDiagnostics(diags)
		return
	}
	if r.client == nil {
		stream.Results = list.ListResultsStreamDiagnostics(diag.Diagnostics{notConfiguredDiagnostic()})
		return
	}
	params := &client.ListProductsParams{Active: boolPointer(config.Active)}
	params.Limit = listPageSize(req.Limit)
	stream.Results = listResults(ctx, req, r.client.AllProducts(ctx, params), "Error Listing Products", "the product list",
		func(p *client.Product, result *list.ListResult) {
			result.DisplayName = p.Name
			result.Diagnostics.Append(productKind.setIdentity(ctx, result.Identity, p.ID)...)
			if req.IncludeResource && !result.Diagnostics.HasError() {
				m := &productResourceModel{productModel: productModel{Metadata: types.MapNull(types.StringType)}, Timeouts: nullTimeouts()}
				result.Diagnostics.Append(m.fromAPI(p)...)
				if !result.Diagnostics.HasError() {
					result.Diagnostics.Append(result.Resource.Set(ctx, m)...)
				}
			}
		})
}

// listResults streams the objects of all, each made a result by fill, up
// to the query's limit; a failure of the list ends the stream with the
// diagnostic titled summary.
func listResults[T any](ctx context.Context, req list.ListRequest, all func(func(*T, error) bool), summary, object string,
	fill func(*T, *list.ListResult)) func(func(list.ListResult) bool) {
	return func(push func(list.ListResult) bool) {
		var n int64
		for obj, err := range all {
			if err != nil {
				push(list.ListResult{Diagnostics: diag.Diagnostics{apiErrorDiagnostic(summary, object, err)}})
				return
			}
			result := req.NewListResult(ctx)
			fill(obj, &result)
			if !push(result) {
				return
			}
			if n++; req.Limit > 0 && n >= req.Limit {
				return
			}
		}
	}
}
