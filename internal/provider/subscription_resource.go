package provider

import (
	"context"
	"fmt"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/paymentsdev/terraform-provider-payments/internal/client"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

var (
	_ resource.ResourceWithConfigure   = (*subscriptionResource)(nil)
	_ resource.ResourceWithModifyPlan  = (*subscriptionResource)(nil)
	_ resource.ResourceWithImportState = (*subscriptionResource)(nil)
)

// Default timeouts of payments_subscription operations.
var subscriptionTimeouts = sameTimeouts(5 * time.Minute)

// NewSubscriptionResource returns the payments_subscription resource.
func NewSubscriptionResource() resource.Resource {
	return &subscriptionResource{resourceBase{name: "subscription"}}
}

// subscriptionResource is the payments_subscription resource.
type subscriptionResource struct {
	resourceBase
}

// subscriptionResourceModel is payments_subscription's state: the
// subscription, the settings that act only at creation or destroy, and
// the timeouts block.
type subscriptionResourceModel struct {
	subscriptionModel
	TrialPeriodDays types.Int64    `tfsdk:"trial_period_days"`
	PaymentBehavior types.String   `tfsdk:"payment_behavior"`
	CancelOnDestroy types.String   `tfsdk:"cancel_on_destroy"`
	Timeouts        timeouts.Value `tfsdk:"timeouts"`
}

func (m *subscriptionResourceModel) timeoutsValue() timeouts.Value { return m.Timeouts }

func (r *subscriptionResource) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "A customer's subscription to recurring prices, charged every period. Changing `customer` " +
			"replaces it; `items`, `default_source`, `cancel_at_period_end` and `metadata` change in place, from the " +
			"next period. `trial_period_days` and `payment_behavior` act at creation only. `status`, the current " +
			"period, `latest_invoice` and `canceled_at` follow renewals without showing a diff. Destroying it cancels " +
			"it, at once or at the period's end (`cancel_on_destroy`). A subscription found `canceled` or " +
			"`incomplete_expired` when refreshed leaves the state, with a warning, and the next plan creates a new one.",
		Attributes: subscriptionResourceAttributes(),
		Blocks: map[string]schema.Block{
			"timeouts": subscriptionTimeouts.block(ctx, "subscription"),
		},
	}
}

// ModifyPlan refuses at plan time items the service would refuse: prices
// of two currencies or two periods. It reads the prices only when the
// items are created or change and every price is known, so that the plan
// of an unchanged subscription sends no request.
func (r *subscriptionResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() || req.Plan.Raw.Equal(req.State.Raw) || r.client == nil {
		return
	}
	var planItems, stateItems types.List
	resp.Diagnostics.Append(req.Plan.GetAttribute(ctx, path.Root("items"), &planItems)...)
	if !req.State.Raw.IsNull() {
		resp.Diagnostics.Append(req.State.GetAttribute(ctx, path.Root("items"), &stateItems)...)
	}
	if resp.Diagnostics.HasError() || planItems.IsUnknown() || planItems.Equal(stateItems) {
		return
	}
	var items []subscriptionItemModel
	resp.Diagnostics.Append(planItems.ElementsAs(ctx, &items, false)...)
	if resp.Diagnostics.HasError() {
		return
	}
	for _, it := range items {
		if it.Price.IsUnknown() {
			return // judged by the service at apply
		}
	}
	checkItemsAgree(ctx, r.client, items, &resp.Diagnostics)
}

// checkItemsAgree reads each item's price terms and refuses, on the
// item's price, one of another currency or period than the first item's.
// Terms never change, so a price the provider created or read before is
// no request. A price that cannot be read is left to the service, which
// names it.
func checkItemsAgree(ctx context.Context, c *client.Client, items []subscriptionItemModel, diags *diag.Diagnostics) {
	var first *client.PriceTerms
	for i, it := range items {
		p, err := c.GetPriceTerms(ctx, it.Price.ValueString())
		if err != nil {
			return
		}
		at := path.Root("items").AtListIndex(i).AtName("price")
		if p.Recurring == nil {
			diags.AddAttributeError(at, "Subscription Price Not Recurring",
				fmt.Sprintf("items[%d].price %s is a one-time price; a subscription needs recurring prices (with an "+
					"interval). Use a recurring price of the product.", i, p.ID))
			continue
		}
		if first == nil {
			first = &p
			continue
		}
		if p.Currency != first.Currency {
			diags.AddAttributeError(at, "Subscription Items of Two Currencies",
				fmt.Sprintf("items[%d].price %s charges in %s, but items[0].price %s charges in %s: a subscription "+
					"bills every item in one currency. Use prices of one currency, or a subscription per currency.",
					i, p.ID, p.Currency, first.ID, first.Currency))
		}
		if *p.Recurring != *first.Recurring {
			diags.AddAttributeError(at, "Subscription Items of Two Periods",
				fmt.Sprintf("items[%d].price %s bills every %d %s, but items[0].price %s every %d %s: a subscription "+
					"bills every item in one period. Use prices of one period, or a subscription per period.",
					i, p.ID, p.Recurring.IntervalCount, p.Recurring.Interval, first.ID,
					first.Recurring.IntervalCount, first.Recurring.Interval))
		}
	}
}

func (r *subscriptionResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var plan subscriptionResourceModel
	ctx, cancel, ok := subscriptionTimeouts.begin(ctx, opCreate, r.client, req.Plan, &plan, &resp.Diagnostics)
	if !ok {
		return
	}
	defer cancel()

	items, diags := plan.itemParams(ctx)
	resp.Diagnostics.Append(diags...)
	params := &client.SubscriptionParams{
		Customer:        plan.Customer.ValueString(),
		Items:           items,
		DefaultSource:   plan.DefaultSource.ValueString(),
		PaymentBehavior: plan.PaymentBehavior.ValueString(),
		TrialPeriodDays: plan.TrialPeriodDays.ValueInt64(),
	}
	if v := plan.CancelAtPeriodEnd; !v.IsNull() && !v.IsUnknown() && v.ValueBool() {
		params.CancelAtPeriodEnd = new(true)
	}
	resp.Diagnostics.Append(plan.Metadata.ElementsAs(ctx, &params.Metadata, false)...)
	if resp.Diagnostics.HasError() {
		return
	}
	s, err := r.client.CreateSubscription(ctx, params)
	if err != nil {
		resp.Diagnostics.Append(subscriptionCreateError(params, err)...)
		return
	}
	tflog.Debug(ctx, "Created subscription", map[string]any{"id": s.ID, "status": s.Status})
	resp.Diagnostics.Append(subscriptionKind.setIdentity(ctx, resp.Identity, s.ID)...)
	if s.Status == wire.SubscriptionStatusIncomplete {
		resp.Diagnostics.AddWarning("Subscription Created Incomplete",
			fmt.Sprintf("Subscription %s was created, but its first charge did not succeed (declined, or waiting for "+
				"3-D Secure), so it is %s: invoice %s is open. It becomes active once that invoice is paid (the "+
				"payments_invoice_pay action, or a new default_source), and %s if it is still unpaid %d hours after "+
				"its creation, when the next refresh removes it from the state. Set payment_behavior = %q to fail "+
				"instead.", s.ID, wire.SubscriptionStatusIncomplete, s.LatestInvoice,
				wire.SubscriptionStatusIncompleteExpired, wire.IncompleteExpiryHours, wire.PaymentBehaviorErrorIfIncomplete))
	}
	resp.Diagnostics.Append(plan.fromAPI(s)...)
	resp.Diagnostics.Append(setModel(ctx, &resp.State, &plan)...)
}

// subscriptionCreateError is the diagnostic of a refused create: a
// declined first charge (error_if_incomplete) names the card error and
// the payment; a refused parameter points at its attribute.
func subscriptionCreateError(params *client.SubscriptionParams, err error) diag.Diagnostics {
	if e, ok := client.AsError(err); ok && e.Type == wire.ErrorTypeCard {
		var diags diag.Diagnostics
		diags.AddAttributeError(path.Root("payment_behavior"), "Subscription First Charge Declined",
			fmt.Sprintf("The first charge of the subscription of customer %s was declined (%s: %s; payment %s), and "+
				"payment_behavior = %q created nothing. Store another card on the customer (payments_customer_source) "+
				"or set default_source to one that can pay, then apply again; or set payment_behavior = %q to create "+
				"the subscription incomplete and pay its first invoice later.",
				params.Customer, e.Code, e.Message, e.Payment, wire.PaymentBehaviorErrorIfIncomplete, wire.PaymentBehaviorAllowIncomplete))
		return diags
	}
	return paramErrorDiagnostics("Error Creating Subscription", "a new subscription of customer "+params.Customer, err, subscriptionParamAttributes)
}

func (r *subscriptionResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var state subscriptionResourceModel
	ctx, cancel, ok := subscriptionTimeouts.begin(ctx, opRead, r.client, req.State, &state, &resp.Diagnostics)
	if !ok {
		return
	}
	defer cancel()

	id := state.ID.ValueString()
	resp.Diagnostics.Append(subscriptionKind.setIdentity(ctx, resp.Identity, id)...)
	s, err := r.client.GetSubscription(ctx, id)
	if !readFound(ctx, resp, err, "Subscription", "subscription "+id) {
		return
	}
	if subscriptionEnded(s) {
		resp.Diagnostics.AddWarning("Subscription Ended",
			fmt.Sprintf("Subscription %s is %s at the service, so Terraform removed it from the state; the next plan "+
				"creates a new subscription for customer %s. An ended subscription cannot be started again.",
				id, s.Status, s.Customer))
		resp.State.RemoveResource(ctx)
		return
	}
	state.readSettings(s)
	resp.Diagnostics.Append(state.fromAPI(s)...)
	resp.Diagnostics.Append(setModel(ctx, &resp.State, &state)...)
}

// subscriptionEnded reports whether s can never bill again.
func subscriptionEnded(s *client.Subscription) bool {
	return s.Status == wire.SubscriptionStatusCanceled || s.Status == wire.SubscriptionStatusIncompleteExpired
}

// readSettings fills the settings the service does not keep, after an
// import, with what creates a subscription like s: its trial's length,
// and the defaults. Settings already in state are kept.
func (m *subscriptionResourceModel) readSettings(s *client.Subscription) {
	if m.TrialPeriodDays.IsNull() {
		if days := trialDays(s); days > 0 {
			m.TrialPeriodDays = types.Int64Value(days)
		}
	}
	if m.PaymentBehavior.IsNull() {
		m.PaymentBehavior = types.StringValue(wire.PaymentBehaviorAllowIncomplete)
	}
	if m.CancelOnDestroy.IsNull() {
		m.CancelOnDestroy = types.StringValue(cancelImmediately)
	}
}

func (r *subscriptionResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan, state subscriptionResourceModel
	ctx, cancel, ok := subscriptionTimeouts.beginUpdate(ctx, r.client, req, &plan, &state, &resp.Diagnostics)
	if !ok {
		return
	}
	defer cancel()

	params, changed, diags := subscriptionUpdateParams(ctx, &plan.subscriptionModel, &state.subscriptionModel)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	id := state.ID.ValueString()
	var s *client.Subscription
	var err error
	if changed {
		s, err = r.client.UpdateSubscription(ctx, id, params)
	} else {
		// Only settings of creation or destroy changed: read, so that
		// every attribute is still refreshed.
		s, err = r.client.GetSubscription(ctx, id)
	}
	if client.IsNotFound(err) {
		resp.Diagnostics.Append(goneDiagnostic("Error Updating Subscription", "Subscription "+id, err))
		return
	}
	if err != nil {
		resp.Diagnostics.Append(paramErrorDiagnostics("Error Updating Subscription", "subscription "+id, err, subscriptionParamAttributes)...)
		return
	}
	planned := plan.subscriptionModel
	resp.Diagnostics.Append(plan.fromAPI(s)...)
	plan.keepRenewed(&planned)
	resp.Diagnostics.Append(setModel(ctx, &resp.State, &plan)...)
	resp.Diagnostics.Append(subscriptionKind.setIdentity(ctx, resp.Identity, id)...)
}

// subscriptionUpdateParams is the update that takes the subscription from
// state to plan: the whole items list when it changed, a removed
// default_source sent as "" (the customer's default again), and each
// metadata key removed sent empty. changed is false when nothing needs
// sending.
func subscriptionUpdateParams(ctx context.Context, plan, state *subscriptionModel) (params *client.SubscriptionUpdateParams, changed bool, diags diag.Diagnostics) {
	params = &client.SubscriptionUpdateParams{}
	if !plan.Items.Equal(state.Items) {
		params.Items, diags = plan.itemParams(ctx)
		changed = true
	}
	if !plan.DefaultSource.Equal(state.DefaultSource) {
		v := plan.DefaultSource.ValueString()
		params.DefaultSource = &v
		changed = true
	}
	if !plan.CancelAtPeriodEnd.Equal(state.CancelAtPeriodEnd) {
		v := plan.CancelAtPeriodEnd.ValueBool()
		params.CancelAtPeriodEnd = &v
		changed = true
	}
	params.Metadata = metadataChanges(ctx, plan.Metadata, state.Metadata, &diags)
	if diags.HasError() {
		return nil, false, diags
	}
	return params, changed || params.Metadata != nil, diags
}

// Delete cancels the subscription, at once or at the period's end as
// cancel_on_destroy says. One that has ended already is forgotten.
func (r *subscriptionResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state subscriptionResourceModel
	ctx, cancel, ok := subscriptionTimeouts.begin(ctx, opDelete, r.client, req.State, &state, &resp.Diagnostics)
	if !ok {
		return
	}
	defer cancel()

	id := state.ID.ValueString()
	var s *client.Subscription
	var err error
	if state.CancelOnDestroy.ValueString() == cancelAtPeriodEnd {
		s, err = r.client.UpdateSubscription(ctx, id, &client.SubscriptionUpdateParams{CancelAtPeriodEnd: new(true)})
	} else {
		s, err = r.client.CancelSubscription(ctx, id)
	}
	if isGone(err) || client.HasCode(err, wire.ErrorCodeSubscriptionUnexpectedState) {
		return // deleted with its customer, or ended already
	}
	if err != nil {
		resp.Diagnostics.Append(apiErrorDiagnostic("Error Canceling Subscription", "subscription "+id, err))
		return
	}
	tflog.Debug(ctx, "Canceled subscription", map[string]any{"id": id, "status": s.Status})
	if state.CancelOnDestroy.ValueString() == cancelAtPeriodEnd {
		resp.Diagnostics.AddWarning("Subscription Ends at Period End",
			fmt.Sprintf("Subscription %s was set to cancel at the end of its current period (%s) and Terraform forgot "+
				"it: it stays %s until then, and is not renewed.", id, s.CurrentPeriodEnd, s.Status))
	}
}

func (r *subscriptionResource) IdentitySchema(_ context.Context, _ resource.IdentitySchemaRequest, resp *resource.IdentitySchemaResponse) {
	resp.IdentitySchema = subscriptionKind.identitySchema()
}

func (r *subscriptionResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	subscriptionKind.importState(ctx, req, resp)
}

// subscriptionParamAttributes maps the service's parameters to attributes.
var subscriptionParamAttributes = map[string]string{
	wire.ParamCustomer:          "customer",
	wire.ParamItems:             "items",
	wire.ParamDefaultSource:     "default_source",
	wire.ParamCancelAtPeriodEnd: "cancel_at_period_end",
	wire.ParamTrialPeriodDays:   "trial_period_days",
	wire.ParamPaymentBehavior:   "payment_behavior",
	wire.ParamMetadata:          "metadata",
}
