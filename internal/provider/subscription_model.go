package provider

import (
	"context"
	"fmt"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-timetypes/timetypes"
	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/listvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/int64default"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringdefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/paymentsdev/terraform-provider-payments/internal/client"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// subscriptionModel is one subscription as the payments_subscription
// resource and data source describe it; each embeds it.
type subscriptionModel struct {
	ID                 types.String      `tfsdk:"id"`
	Customer           types.String      `tfsdk:"customer"`
	Items              types.List        `tfsdk:"items"`
	DefaultSource      types.String      `tfsdk:"default_source"`
	CancelAtPeriodEnd  types.Bool        `tfsdk:"cancel_at_period_end"`
	Metadata           types.Map         `tfsdk:"metadata"`
	Status             types.String      `tfsdk:"status"`
	CurrentPeriodStart timetypes.RFC3339 `tfsdk:"current_period_start"`
	CurrentPeriodEnd   timetypes.RFC3339 `tfsdk:"current_period_end"`
	TrialEnd           timetypes.RFC3339 `tfsdk:"trial_end"`
	LatestInvoice      types.String      `tfsdk:"latest_invoice"`
	CanceledAt         timetypes.RFC3339 `tfsdk:"canceled_at"`
	CreatedAt          timetypes.RFC3339 `tfsdk:"created_at"`
	Livemode           types.Bool        `tfsdk:"livemode"`
}

// subscriptionItemModel is one element of items.
type subscriptionItemModel struct {
	Price    types.String `tfsdk:"price"`
	Quantity types.Int64  `tfsdk:"quantity"`
}

// subscriptionItemType is the object type of an element of items.
var subscriptionItemType = types.ObjectType{AttrTypes: map[string]attr.Type{
	"price":    types.StringType,
	"quantity": types.Int64Type,
}}

// Subscription ids and their shape, from the wire.
var (
	subscriptionIDRegexp = idRegexp(wire.SubscriptionIDPrefix)
	subscriptionIDShape  = idShape(wire.SubscriptionIDPrefix)
)

// fromAPI sets every attribute of m from the service's subscription: the
// only mapping of one.
func (m *subscriptionModel) fromAPI(s *client.Subscription) diag.Diagnostics {
	var diags, d diag.Diagnostics
	m.ID = types.StringValue(s.ID)
	m.Customer = types.StringValue(s.Customer)
	// Built value by value rather than with ListValueFrom, whose reflection
	// over the item struct is the framework's slow path (model_codec.go).
	items := make([]attr.Value, 0, len(s.Items.Data))
	for _, it := range s.Items.Data {
		price := ""
		if it.Price != nil {
			price = it.Price.ID
		}
		item, d := types.ObjectValue(subscriptionItemType.AttrTypes, map[string]attr.Value{
			"price": types.StringValue(price), "quantity": types.Int64Value(it.Quantity),
		})
		diags.Append(d...)
		items = append(items, item)
	}
	m.Items, d = types.ListValue(subscriptionItemType, items)
	diags.Append(d...)
	m.DefaultSource = nullableString(s.DefaultSource)
	m.CancelAtPeriodEnd = types.BoolValue(s.CancelAtPeriodEnd)
	m.Status = types.StringValue(s.Status)
	m.LatestInvoice = nullableString(s.LatestInvoice)
	m.Livemode = types.BoolValue(s.Livemode)
	for _, f := range []struct {
		dst   *timetypes.RFC3339
		field string
		v     string
	}{
		{&m.CurrentPeriodStart, "current_period_start", s.CurrentPeriodStart},
		{&m.CurrentPeriodEnd, "current_period_end", s.CurrentPeriodEnd},
		{&m.TrialEnd, "trial_end", s.TrialEnd},
		{&m.CanceledAt, "canceled_at", s.CanceledAt},
		{&m.CreatedAt, "created_at", s.CreatedAt},
	} {
		*f.dst, d = rfc3339Value(f.field, f.v)
		diags.Append(d...)
	}
	m.Metadata, d = metadataValue(s.Metadata, m.Metadata)
	diags.Append(d...)
	return diags
}

// trialDays is the length of s's trial in whole days, 0 without one: what
// trial_period_days created it with.
func trialDays(s *client.Subscription) int64 {
	if s.TrialStart == "" || s.TrialEnd == "" {
		return 0
	}
	start, err1 := time.Parse(time.RFC3339, s.TrialStart)
	end, err2 := time.Parse(time.RFC3339, s.TrialEnd)
	if err1 != nil || err2 != nil || !end.After(start) {
		return 0
	}
	return int64(end.Sub(start) / (24 * time.Hour))
}

// itemParams is m's items as the client sends them.
func (m *subscriptionModel) itemParams(ctx context.Context) ([]client.SubscriptionItemParams, diag.Diagnostics) {
	var items []subscriptionItemModel
	diags := m.Items.ElementsAs(ctx, &items, false)
	out := make([]client.SubscriptionItemParams, 0, len(items))
	for _, it := range items {
		out = append(out, client.SubscriptionItemParams{Price: it.Price.ValueString(), Quantity: it.Quantity.ValueInt64()})
	}
	return out, diags
}

// subscriptionDescriptions say what each attribute is, once for the
// resource and the data source.
var subscriptionDescriptions = struct {
	ID, Customer, Items, ItemPrice, ItemQuantity, DefaultSource, CancelAtPeriodEnd, Metadata string
	Status, CurrentPeriodStart, CurrentPeriodEnd, TrialEnd, LatestInvoice, CanceledAt        string
	CreatedAt, Livemode                                                                      string
}{
	ID:                fmt.Sprintf("The subscription's identifier: %s.", subscriptionIDShape),
	Customer:          fmt.Sprintf("The identifier of the customer subscribed: %s.", customerIDShape),
	Items:             fmt.Sprintf("The recurring prices subscribed to, 1 to %d, each price once, all of one currency and one period.", wire.SubscriptionItemsMax),
	ItemPrice:         fmt.Sprintf("The identifier of an active recurring price: %s.", priceIDShape),
	ItemQuantity:      fmt.Sprintf("How many of the price, 1 to %d.", wire.QuantityMax),
	DefaultSource:     fmt.Sprintf("The identifier of the customer's payment method charged (%s); null charges the customer's default source.", sourceIDShape),
	CancelAtPeriodEnd: "Whether the subscription ends at the end of the current period instead of renewing.",
	Metadata:          "Your own key-value pairs about the subscription.",
	Status:            "The subscription's status: " + quotedList(wire.SubscriptionStatuses) + ".",
	CurrentPeriodStart: "When the current period began, as an RFC 3339 UTC timestamp (in the test clock's time for a " +
		"customer on a clock).",
	CurrentPeriodEnd: "When the current period ends and the subscription renews, as an RFC 3339 UTC timestamp.",
	TrialEnd:         "When the trial ends, as an RFC 3339 UTC timestamp; null without a trial.",
	LatestInvoice:    "The identifier of the subscription's latest invoice (`in_…`).",
	CanceledAt:       "When the subscription was canceled, as an RFC 3339 UTC timestamp; null until it has ended, also while it is set to end at the period's end.",
	CreatedAt:        "When the subscription was created, as an RFC 3339 UTC timestamp with second precision.",
	Livemode:         "Whether the subscription belongs to a live key's account (`true`) or a sandbox key's (`false`).",
}

// Where a subscription's destroy leaves it: cancel_on_destroy.
const (
	cancelImmediately = "immediately"
	cancelAtPeriodEnd = "at_period_end"
)

// cancelOnDestroyValues are cancel_on_destroy's values.
var cancelOnDestroyValues = []string{cancelImmediately, cancelAtPeriodEnd}

// paymentBehaviors are payment_behavior's values.
var paymentBehaviors = []string{wire.PaymentBehaviorAllowIncomplete, wire.PaymentBehaviorErrorIfIncomplete}

// keepRenewed sets the attributes renewals change back to planned's. The
// plan keeps the state's values (UseStateForUnknown), so that an update
// shows exactly the change made; what an update answers may already hold a
// renewal the plan did not show, such as a test clock advanced in the same
// apply, which would be an inconsistent result. The next refresh reads the
// renewal, without a diff.
func (m *subscriptionModel) keepRenewed(planned *subscriptionModel) {
	m.Status = planned.Status
	m.CurrentPeriodStart = planned.CurrentPeriodStart
	m.CurrentPeriodEnd = planned.CurrentPeriodEnd
	m.LatestInvoice = planned.LatestInvoice
	m.CanceledAt = planned.CanceledAt
}

// subscriptionResourceAttributes is the payments_subscription resource's
// schema.
func subscriptionResourceAttributes() map[string]rschema.Attribute {
	d := subscriptionDescriptions
	return map[string]rschema.Attribute{
		// Required.
		"customer": rschema.StringAttribute{
			MarkdownDescription: d.Customer + " Changing it replaces the subscription.",
			Required:            true,
			PlanModifiers:       []planmodifier.String{stringplanmodifier.RequiresReplace()},
			Validators: []validator.String{
				stringvalidator.RegexMatches(customerIDRegexp, "must be a customer id: "+customerIDShape),
			},
		},
		"items": rschema.ListNestedAttribute{
			MarkdownDescription: d.Items + " Changes apply in place, from the next period, without proration. Items " +
				"of two currencies or periods are refused at plan time when their prices exist already. A quantity " +
				"changed outside of Terraform is shown as a change and set back.",
			Required:   true,
			Validators: []validator.List{listvalidator.SizeBetween(1, wire.SubscriptionItemsMax), uniquePricesValidator{}},
			NestedObject: rschema.NestedAttributeObject{
				Attributes: map[string]rschema.Attribute{
					"price": rschema.StringAttribute{
						MarkdownDescription: d.ItemPrice,
						Required:            true,
						Validators: []validator.String{
							stringvalidator.RegexMatches(priceIDRegexp, "must be a price id: "+priceIDShape),
						},
					},
					"quantity": rschema.Int64Attribute{
						MarkdownDescription: d.ItemQuantity + " Defaults to `1`.",
						Optional:            true,
						Computed:            true,
						Default:             int64default.StaticInt64(1),
						Validators:          []validator.Int64{int64validator.Between(1, wire.QuantityMax)},
					},
				},
			},
		},
		// Optional.
		"default_source": rschema.StringAttribute{
			MarkdownDescription: d.DefaultSource + " Changes in place; removing it goes back to the customer's default.",
			Optional:            true,
			Validators: []validator.String{
				stringvalidator.RegexMatches(sourceIDRegexp, "must be a payment method id: "+sourceIDShape),
			},
		},
		"cancel_at_period_end": rschema.BoolAttribute{
			MarkdownDescription: d.CancelAtPeriodEnd + " Defaults to `false`; changes in place.",
			Optional:            true,
			Computed:            true,
			Default:             booldefault.StaticBool(false),
		},
		"metadata": rschema.MapAttribute{
			MarkdownDescription: fmt.Sprintf("%s At most %d keys; changes in place. Keys removed from the configuration "+
				"are deleted at the service.", d.Metadata, wire.MetadataMaxKeys),
			ElementType: types.StringType,
			Optional:    true,
			Validators:  metadataValidators(),
		},
		"trial_period_days": rschema.Int64Attribute{
			MarkdownDescription: fmt.Sprintf("Days of free trial before the first charge, 1 to %d. It applies at "+
				"creation only: refreshing reads it back from the trial, and changing it afterwards is an in-place "+
				"update that sends nothing.", wire.TrialPeriodDaysMax),
			Optional:   true,
			Validators: []validator.Int64{int64validator.Between(1, wire.TrialPeriodDaysMax)},
		},
		"payment_behavior": rschema.StringAttribute{
			MarkdownDescription: fmt.Sprintf("What a declined first charge does: `%s` (the default) creates the "+
				"subscription `incomplete`, with a warning, until its first invoice is paid; `%s` creates nothing and "+
				"fails with the card error. It applies at creation only; changing it afterwards is an in-place update "+
				"that sends nothing.", wire.PaymentBehaviorAllowIncomplete, wire.PaymentBehaviorErrorIfIncomplete),
			Optional:   true,
			Computed:   true,
			Default:    stringdefault.StaticString(wire.PaymentBehaviorAllowIncomplete),
			Validators: []validator.String{stringvalidator.OneOf(paymentBehaviors...)},
		},
		"cancel_on_destroy": rschema.StringAttribute{
			MarkdownDescription: fmt.Sprintf("What destroying the subscription does: `%s` (the default) cancels it at "+
				"once; `%s` lets it run to the end of the period it is in, then end, and Terraform forgets it.",
				cancelImmediately, cancelAtPeriodEnd),
			Optional:   true,
			Computed:   true,
			Default:    stringdefault.StaticString(cancelImmediately),
			Validators: []validator.String{stringvalidator.OneOf(cancelOnDestroyValues...)},
		},
		// Computed.
		"id":                   keptString(d.ID),
		"status":               keptString(d.Status),
		"current_period_start": keptTime(d.CurrentPeriodStart),
		"current_period_end":   keptTime(d.CurrentPeriodEnd),
		"trial_end":            keptTime(d.TrialEnd),
		"latest_invoice":       keptString(d.LatestInvoice),
		"canceled_at":          keptTime(d.CanceledAt),
		"created_at":           keptTime(d.CreatedAt),
		"livemode":             keptBool(d.Livemode),
	}
}

// uniquePricesValidator refuses items that name one price twice, which
// the service refuses.
type uniquePricesValidator struct{}

func (uniquePricesValidator) Description(context.Context) string {
	return "each price at most once"
}

func (v uniquePricesValidator) MarkdownDescription(ctx context.Context) string {
	return v.Description(ctx)
}

func (uniquePricesValidator) ValidateList(ctx context.Context, req validator.ListRequest, resp *validator.ListResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	seen := map[string]int{}
	for i, e := range req.ConfigValue.Elements() {
		o, ok := e.(types.Object)
		if !ok || o.IsUnknown() {
			continue
		}
		p, ok := o.Attributes()["price"].(types.String)
		if !ok || p.IsUnknown() || p.IsNull() {
			continue
		}
		if j, dup := seen[p.ValueString()]; dup {
			resp.Diagnostics.AddAttributeError(req.Path.AtListIndex(i).AtName("price"), "Duplicate Subscription Price",
				fmt.Sprintf("items[%d] and items[%d] both name price %s. Name each price once, with the quantity "+
					"you want.", j, i, p.ValueString()))
			continue
		}
		seen[p.ValueString()] = i
	}
}
