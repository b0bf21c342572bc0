package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/datasource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/paymentsdev/terraform-provider-payments/internal/client"
)

var (
	_ datasource.DataSource              = (*customerDataSource)(nil)
	_ datasource.DataSourceWithConfigure = (*customerDataSource)(nil)
)

// NewCustomerDataSource returns the payments_customer data source.
func NewCustomerDataSource() datasource.DataSource {
	return &customerDataSource{}
}

// customerDataSource reads one existing customer by id.
type customerDataSource struct {
	client *client.Client
}

// customerDataSourceModel is the payments_customer data source's data: the
// customer (customerModel), with its payment methods and default, which
// only the data source tells.
type customerDataSourceModel struct {
	customerModel
	DefaultSource types.String         `tfsdk:"default_source"`
	Sources       []sourceSummaryModel `tfsdk:"sources"`
	Timeouts      timeouts.Value       `tfsdk:"timeouts"`
}

func (m *customerDataSourceModel) readTimeouts() timeouts.Value { return m.Timeouts }

func (d *customerDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_customer"
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

func (d *customerDataSource) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	d.client = clientFromProviderData(req.ProviderData, &resp.Diagnostics)
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
	if client.IsNotFound(err) {
		resp.Diagnostics.AddAttributeError(path.Root("id"), "Customer Not Found",
			fmt.Sprintf("No customer with id %q exists for the account of the configured key. "+
				"Check the id, and that the customer was not deleted and belongs to this account "+
				"(a sandbox key never sees live objects, nor one account another's).", id))
		return
	}
	if err != nil {
		resp.Diagnostics.Append(dataSourceErrorDiagnostic("Error Reading Customer", "customer "+id, err))
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
