package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
)

// NewCustomerDataSource returns the payments_customer data source.
func NewCustomerDataSource() datasource.DataSource {
	return &customerDataSource{dataSourceBase{name: "customer"}}
}

// customerDataSource reads one existing customer by id.
type customerDataSource struct {
	dataSourceBase
}

func (d *customerDataSource) Schema(ctx context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Reads an existing customer by id: its contact details, metadata and stored payment methods. " +
			"The customer must exist for the account of the configured key; a missing customer is an error.",
		Attributes: customerDataSourceAttributes(),
		Blocks: map[string]schema.Block{
			"timeouts": dataSourceTimeoutsBlock(ctx),
		},
	}
}

func (d *customerDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var data customerDataSourceModel
	ctx, cancel, ok := beginRead(ctx, d.client, req.Config, &data, &resp.Diagnostics)
	if !ok {
		return
	}
	defer cancel()

	id := data.ID.ValueString()
	cus, err := d.client.GetCustomer(ctx, id)
	if !dataSourceFound(resp, err, "customer", id, "was not deleted and belongs to this account") {
		return
	}

	resp.Diagnostics.Append(data.fromAPI(cus)...)
	data.DefaultSource = nullableString(cus.DefaultSource)
	data.Sources = newSourceSummaries(cus)
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &data)...)
}
