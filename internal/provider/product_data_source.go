package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
)

// NewProductDataSource returns the payments_product data source.
func NewProductDataSource() datasource.DataSource {
	return &productDataSource{dataSourceBase{name: "product"}}
}

// productDataSource reads one existing product by id.
type productDataSource struct {
	dataSourceBase
}

func (d *productDataSource) Schema(ctx context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Reads an existing product of the catalog by id, archived or not. " +
			"The product must exist for the account of the configured key; a missing product is an error.",
		Attributes: productDataSourceAttributes(),
		Blocks: map[string]schema.Block{
			"timeouts": dataSourceTimeoutsBlock(ctx),
		},
	}
}

func (d *productDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var data productDataSourceModel
	ctx, cancel, ok := beginRead(ctx, d.client, req.Config, &data, &resp.Diagnostics)
	if !ok {
		return
	}
	defer cancel()

	id := data.ID.ValueString()
	p, err := d.client.GetProduct(ctx, id)
	if !dataSourceFound(resp, err, "product", id, "was not deleted and belongs to this account") {
		return
	}

	resp.Diagnostics.Append(data.fromAPI(p)...)
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &data)...)
}
