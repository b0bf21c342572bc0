package provider

import (
	"context"
	"fmt"

	dtimeouts "github.com/hashicorp/terraform-plugin-framework-timeouts/datasource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework-timetypes/timetypes"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// NewSubscriptionDataSource returns the payments_subscription data source.
func NewSubscriptionDataSource() datasource.DataSource {
	return &subscriptionDataSource{dataSourceBase{name: "subscription"}}
}

// subscriptionDataSource reads one subscription by id.
type subscriptionDataSource struct {
	dataSourceBase
}

// subscriptionDataSourceModel is the payments_subscription data source's data.
type subscriptionDataSourceModel struct {
	subscriptionModel
	Timeouts dtimeouts.Value `tfsdk:"timeouts"`
}

func (m *subscriptionDataSourceModel) readTimeouts() dtimeouts.Value { return m.Timeouts }

func (d *subscriptionDataSource) Schema(ctx context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	s := subscriptionDescriptions
	rfc := func(desc string) schema.StringAttribute {
		return schema.StringAttribute{MarkdownDescription: desc, CustomType: timetypes.RFC3339Type{}, Computed: true}
	}
	resp.Schema = schema.Schema{
		MarkdownDescription: "Reads an existing subscription by `id`, ended or not, as the service has it now: read at " +
			"plan time, it tells what renewals did (its `status`, current period and latest invoice), so that a test " +
			"can assert them. A missing subscription is an error.",
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{
				MarkdownDescription: fmt.Sprintf("The identifier of the subscription to read: %s.", subscriptionIDShape),
				Required:            true,
				Validators: []validator.String{
					stringvalidator.RegexMatches(subscriptionIDRegexp, "must be a subscription id: "+subscriptionIDShape),
				},
			},
			"customer": schema.StringAttribute{MarkdownDescription: s.Customer, Computed: true},
			"items": schema.ListNestedAttribute{
				MarkdownDescription: s.Items,
				Computed:            true,
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"price":    schema.StringAttribute{MarkdownDescription: s.ItemPrice, Computed: true},
					"quantity": schema.Int64Attribute{MarkdownDescription: s.ItemQuantity, Computed: true},
				}},
			},
			"default_source":       schema.StringAttribute{MarkdownDescription: s.DefaultSource, Computed: true},
			"cancel_at_period_end": schema.BoolAttribute{MarkdownDescription: s.CancelAtPeriodEnd, Computed: true},
			"metadata": schema.MapAttribute{MarkdownDescription: s.Metadata + " Null when it has none.",
				ElementType: types.StringType, Computed: true},
			"status":               schema.StringAttribute{MarkdownDescription: s.Status, Computed: true},
			"current_period_start": rfc(s.CurrentPeriodStart),
			"current_period_end":   rfc(s.CurrentPeriodEnd),
			"trial_end":            rfc(s.TrialEnd),
			"latest_invoice":       schema.StringAttribute{MarkdownDescription: s.LatestInvoice, Computed: true},
			"canceled_at":          rfc(s.CanceledAt),
			"created_at":           rfc(s.CreatedAt),
			"livemode":             schema.BoolAttribute{MarkdownDescription: s.Livemode, Computed: true},
		},
		Blocks: map[string]schema.Block{
			"timeouts": dataSourceTimeoutsBlock(ctx),
		},
	}
}

func (d *subscriptionDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var data subscriptionDataSourceModel
	ctx, cancel, ok := beginRead(ctx, d.client, req.Config, &data, &resp.Diagnostics)
	if !ok {
		return
	}
	defer cancel()

	id := data.ID.ValueString()
	s, err := d.client.GetSubscription(ctx, id)
	if !dataSourceFound(resp, err, "subscription", id, "belongs to this account") {
		return
	}
	data.Metadata = types.MapNull(types.StringType)
	resp.Diagnostics.Append(data.fromAPI(s)...)
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &data)...)
}
