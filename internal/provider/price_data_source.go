package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/paymentsdev/terraform-provider-payments/internal/client"
)

// NewPriceDataSource returns the payments_price data source.
func NewPriceDataSource() datasource.DataSource {
	return &priceDataSource{dataSourceBase{name: "price"}}
}

// priceDataSource reads one existing price by id, or the active price
// holding a lookup key.
type priceDataSource struct {
	dataSourceBase
}

func (d *priceDataSource) Schema(ctx context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Reads an existing price of the catalog: by `id`, archived or not, or by `lookup_key`, the " +
			"active price that holds the key. Reading by lookup key follows the key when a new price takes it " +
			"(`transfer_lookup_key`), so a configuration that charges \"the gold monthly price\" need not know " +
			"which price that is today. A missing price is an error.",
		Attributes: priceDataSourceAttributes(),
		Blocks: map[string]schema.Block{
			"timeouts": dataSourceTimeoutsBlock(ctx),
		},
	}
}

func (d *priceDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var data priceDataSourceModel
	ctx, cancel, ok := beginRead(ctx, d.client, req.Config, &data, &resp.Diagnostics)
	if !ok {
		return
	}
	defer cancel()

	var p *client.Price
	if data.LookupKey.IsNull() {
		id := data.ID.ValueString()
		var err error
		p, err = d.client.GetPrice(ctx, id)
		if !dataSourceFound(resp, err, "price", id, "belongs to this account") {
			return
		}
	} else {
		key := data.LookupKey.ValueString()
		active := true
		page, err := d.client.ListPrices(ctx, &client.ListPricesParams{Active: &active, LookupKeys: []string{key}})
		if err != nil {
			resp.Diagnostics.Append(dataSourceErrorDiagnostic("Error Reading Price", fmt.Sprintf("the price with lookup key %q", key), err))
			return
		}
		if len(page.Data) == 0 {
			resp.Diagnostics.AddAttributeError(path.Root("lookup_key"), "Price Not Found",
				fmt.Sprintf("No active price holds the lookup key %s in the account of the configured key. Check the key, "+
					"and that the price holding it was not archived (an archived price can still be read by id).",
					quoteForError(key)))
			return
		}
		// Lookup keys are unique among active prices: one at most.
		p = page.Data[0]
	}

	resp.Diagnostics.Append(data.fromAPI(p)...)
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &data)...)
}
