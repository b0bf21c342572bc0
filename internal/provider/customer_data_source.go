package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/datasource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
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

// customerDataSourceModel is the payments_customer data source's data.
type customerDataSourceModel struct {
	ID            types.String         `tfsdk:"id"`
	Email         types.String         `tfsdk:"email"`
	Name          types.String         `tfsdk:"name"`
	Phone         types.String         `tfsdk:"phone"`
	Metadata      types.Map            `tfsdk:"metadata"`
	DefaultSource types.String         `tfsdk:"default_source"`
	Sources       []sourceSummaryModel `tfsdk:"sources"`
	CreatedAt     types.String         `tfsdk:"created_at"`
	Livemode      types.Bool           `tfsdk:"livemode"`
	Timeouts      timeouts.Value       `tfsdk:"timeouts"`
}

func (d *customerDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_customer"
}

func (d *customerDataSource) Schema(ctx context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Reads an existing customer by id: its contact details, metadata and stored payment methods. " +
			"The customer must exist for the account of the configured key; a missing customer is an error.",
		Attributes: map[string]schema.Attribute{
			// Required.
			"id": schema.StringAttribute{
				MarkdownDescription: fmt.Sprintf("The identifier of the customer to read: %s.", customerIDShape),
				Required:            true,
				Validators: []validator.String{
					stringvalidator.RegexMatches(customerIDRegexp, "must be a customer id: "+customerIDShape),
				},
			},
			// Computed.
			"email": schema.StringAttribute{
				MarkdownDescription: "The customer's e-mail address. Null when it has none.",
				Computed:            true,
			},
			"name": schema.StringAttribute{
				MarkdownDescription: "The cardholder's name. Null when it has none.",
				Computed:            true,
			},
			"phone": schema.StringAttribute{
				MarkdownDescription: "The customer's telephone number in E.164 format, for example `+14155550123`. Null when it has none.",
				Computed:            true,
			},
			"metadata": schema.MapAttribute{
				MarkdownDescription: "The customer's string keys and values. Null when it has none.",
				ElementType:         types.StringType,
				Computed:            true,
			},
			"default_source": schema.StringAttribute{
				MarkdownDescription: "The id of the payment method charged when a payment names the customer without a source. Null when the customer has no payment method.",
				Computed:            true,
			},
			"sources": schema.ListNestedAttribute{
				MarkdownDescription: "The customer's stored payment methods, in the order the service lists them. Empty when it has none.",
				Computed:            true,
				NestedObject: schema.NestedAttributeObject{
					Attributes: map[string]schema.Attribute{
						"id": schema.StringAttribute{
							MarkdownDescription: fmt.Sprintf("The payment method's identifier: %s.", sourceIDShape),
							Computed:            true,
						},
						"brand": schema.StringAttribute{
							MarkdownDescription: "The card brand, for example `visa`.",
							Computed:            true,
						},
						"last4": schema.StringAttribute{
							MarkdownDescription: "The last four digits of the card number.",
							Computed:            true,
						},
					},
				},
			},
			"created_at": schema.StringAttribute{
				MarkdownDescription: "When the customer was created, as an RFC 3339 UTC timestamp with second precision.",
				Computed:            true,
			},
			"livemode": schema.BoolAttribute{
				MarkdownDescription: "Whether the customer belongs to a live key's account (`true`) or a sandbox key's (`false`).",
				Computed:            true,
			},
		},
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
	resp.Diagnostics.Append(req.Config.Get(ctx, &data)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if d.client == nil {
		resp.Diagnostics.Append(notConfiguredDiagnostic())
		return
	}
	ctx, cancel, diags := withReadTimeout(ctx, data.Timeouts)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
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

	data.Email = nullableString(cus.Email)
	data.Name = nullableString(cus.Name)
	data.Phone = nullableString(cus.Phone)
	data.DefaultSource = nullableString(cus.DefaultSource)
	data.CreatedAt = types.StringValue(cus.CreatedAt)
	data.Livemode = types.BoolValue(cus.Livemode)
	data.Metadata, diags = stringMapValue(cus.Metadata)
	resp.Diagnostics.Append(diags...)
	// A non-nil slice, so that no payment method is an empty list, not null.
	data.Sources = make([]sourceSummaryModel, 0, len(cus.Sources.Data))
	for _, s := range cus.Sources.Data {
		data.Sources = append(data.Sources, sourceSummaryModel{
			ID:    types.StringValue(s.ID),
			Brand: nullableString(s.Brand),
			Last4: nullableString(s.Last4),
		})
	}
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &data)...)
}
