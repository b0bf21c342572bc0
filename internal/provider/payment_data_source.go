package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/datasource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"

	"github.com/paymentsdev/terraform-provider-payments/internal/client"
)

var (
	_ datasource.DataSource              = (*paymentDataSource)(nil)
	_ datasource.DataSourceWithConfigure = (*paymentDataSource)(nil)
)

// NewPaymentDataSource returns the payments_payment data source.
func NewPaymentDataSource() datasource.DataSource {
	return &paymentDataSource{}
}

// paymentDataSource reads one existing payment by id.
type paymentDataSource struct {
	client *client.Client
}

// paymentDataSourceModel is the payments_payment data source's data: the
// payment's fields plus the timeouts.
type paymentDataSourceModel struct {
	paymentModel
	Timeouts timeouts.Value `tfsdk:"timeouts"`
}

func (m *paymentDataSourceModel) readTimeouts() timeouts.Value { return m.Timeouts }

func (d *paymentDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_payment"
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

func (d *paymentDataSource) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	d.client = clientFromProviderData(req.ProviderData, &resp.Diagnostics)
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
	if client.IsNotFound(err) {
		resp.Diagnostics.AddAttributeError(path.Root("id"), "Payment Not Found",
			fmt.Sprintf("No payment with id %q exists for the account of the configured key. "+
				"Check the id, and that the payment belongs to this account "+
				"(a sandbox key never sees live objects, nor one account another's).", id))
		return
	}
	if err != nil {
		resp.Diagnostics.Append(dataSourceErrorDiagnostic("Error Reading Payment", "payment "+id, err))
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
