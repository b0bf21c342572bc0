package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
)

// NewPaymentDataSource returns the payments_payment data source.
func NewPaymentDataSource() datasource.DataSource {
	return &paymentDataSource{dataSourceBase{name: "payment"}}
}

// paymentDataSource reads one existing payment by id.
type paymentDataSource struct {
	dataSourceBase
}

func (d *paymentDataSource) Schema(ctx context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	attrs := paymentAttributes(schema.StringAttribute{
		MarkdownDescription: fmt.Sprintf("The identifier of the payment to read: %s.", paymentIDShape),
		Required:            true,
		Validators: []validator.String{
			stringvalidator.RegexMatches(paymentIDRegexp, "must be a payment id: "+paymentIDShape),
		},
	})
	resp.Schema = schema.Schema{
		MarkdownDescription: "Reads an existing payment by id: its amount, status, payment method, customer and metadata. " +
			"The payment must exist for the account of the configured key; a missing payment is an error. " +
			"Fields the service leaves out are null.",
		Attributes: attrs,
		Blocks: map[string]schema.Block{
			"timeouts": dataSourceTimeoutsBlock(ctx),
		},
	}
}

func (d *paymentDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var data paymentDataSourceModel
	ctx, cancel, ok := beginRead(ctx, d.client, req.Config, &data, &resp.Diagnostics)
	if !ok {
		return
	}
	defer cancel()

	id := data.ID.ValueString()
	pay, err := d.client.GetPayment(ctx, id)
	if !dataSourceFound(resp, err, "payment", id, "belongs to this account") {
		return
	}

	var diags diag.Diagnostics
	data.paymentModel, diags = newPaymentModel(pay)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &data)...)
}
