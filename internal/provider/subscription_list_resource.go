package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-framework/list/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/paymentsdev/terraform-provider-payments/internal/client"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// NewSubscriptionListResource returns the payments_subscription list resource.
func NewSubscriptionListResource() list.ListResource {
	return &subscriptionListResource{resourceBase{name: "subscription"}}
}

// subscriptionListResource is the payments_subscription list resource.
type subscriptionListResource struct {
	resourceBase
}

// subscriptionListConfigModel is the `config` block of a
// payments_subscription list.
type subscriptionListConfigModel struct {
	Customer types.String `tfsdk:"customer"`
	Price    types.String `tfsdk:"price"`
	Status   types.String `tfsdk:"status"`
}

// subscriptionListStatuses are what the status filter takes: a status, or
// every one.
var subscriptionListStatuses = append(append([]string(nil), wire.SubscriptionStatuses...), wire.SubscriptionStatusAll)

func (r *subscriptionListResource) ListResourceConfigSchema(_ context.Context, _ list.ListResourceSchemaRequest, resp *list.ListResourceSchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Lists the subscriptions of the configured key's account, newest first, for `terraform " +
			"query` (Terraform 1.14 and later), by customer, price and status: each result carries the subscription's " +
			"identity, for an `import` block, and a display name such as \"cus_… on 2 prices (active)\". " +
			"`terraform query -generate-config-out=FILE` writes `payments_subscription` resources and `import` blocks " +
			"that plan with nothing to change.",
		Attributes: map[string]schema.Attribute{
			"customer": schema.StringAttribute{
				MarkdownDescription: fmt.Sprintf("Only the subscriptions of this customer (%s).", customerIDShape),
				Optional:            true,
				Validators: []validator.String{
					stringvalidator.RegexMatches(customerIDRegexp, "must be a customer id: "+customerIDShape),
				},
			},
			"price": schema.StringAttribute{
				MarkdownDescription: fmt.Sprintf("Only the subscriptions with an item of this price (%s).", priceIDShape),
				Optional:            true,
				Validators: []validator.String{
					stringvalidator.RegexMatches(priceIDRegexp, "must be a price id: "+priceIDShape),
				},
			},
			"status": schema.StringAttribute{
				MarkdownDescription: fmt.Sprintf("Only the subscriptions in this status, one of %s; `%s` for every one. "+
					"Omitted, every status but `%s`.", quotedList(wire.SubscriptionStatuses), wire.SubscriptionStatusAll,
					wire.SubscriptionStatusCanceled),
				Optional:   true,
				Validators: []validator.String{stringvalidator.OneOf(subscriptionListStatuses...)},
			},
		},
	}
}

func (r *subscriptionListResource) List(ctx context.Context, req list.ListRequest, stream *list.ListResultsStream) {
	var config subscriptionListConfigModel
	if diags := req.Config.Get(ctx, &config); diags.HasError() {
		stream.Results = list.ListResultsStreamDiagnostics(diags)
		return
	}
	if r.client == nil {
		stream.Results = list.ListResultsStreamDiagnostics(diag.Diagnostics{notConfiguredDiagnostic()})
		return
	}
	params := &client.ListSubscriptionsParams{
		Customer: config.Customer.ValueString(),
		Price:    config.Price.ValueString(),
		Status:   config.Status.ValueString(),
	}
	params.Limit = listPageSize(req.Limit)
	stream.Results = listResults(ctx, req, r.client.AllSubscriptions(ctx, params), "Error Listing Subscriptions",
		"the subscription list", func(s *client.Subscription, result *list.ListResult) {
			result.DisplayName = subscriptionDisplayName(s)
			result.Diagnostics.Append(subscriptionKind.setIdentity(ctx, result.Identity, s.ID)...)
			if req.IncludeResource && !result.Diagnostics.HasError() {
				m := &subscriptionResourceModel{
					subscriptionModel: subscriptionModel{Metadata: types.MapNull(types.StringType)},
					TrialPeriodDays:   types.Int64Null(),
					PaymentBehavior:   types.StringNull(),
					CancelOnDestroy:   types.StringNull(),
					Timeouts:          nullTimeouts(),
				}
				m.readSettings(s)
				result.Diagnostics.Append(m.fromAPI(s)...)
				if !result.Diagnostics.HasError() {
					result.Diagnostics.Append(result.Resource.Set(ctx, m)...)
				}
			}
		})
}

// subscriptionDisplayName is how a person recognises a subscription in a
// list: "cus_… on 2 prices (active)".
func subscriptionDisplayName(s *client.Subscription) string {
	prices := "1 price"
	if n := len(s.Items.Data); n != 1 {
		prices = fmt.Sprintf("%d prices", n)
	}
	return fmt.Sprintf("%s on %s (%s)", s.Customer, prices, s.Status)
}
