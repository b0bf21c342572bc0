package provider

import (
	"context"
	"fmt"

	dtimeouts "github.com/hashicorp/terraform-plugin-framework-timeouts/datasource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework-timetypes/timetypes"
	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	dschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/int64planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/paymentsdev/terraform-provider-payments/internal/client"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// priceModel is one price of the catalog as the payments_price resource,
// data source and list resource all describe it; each embeds it. Interval
// and interval_count are null for a one-time price; nickname and
// lookup_key are null when the price has none.
type priceModel struct {
	ID            types.String      `tfsdk:"id"`
	Product       types.String      `tfsdk:"product"`
	Currency      types.String      `tfsdk:"currency"`
	UnitAmount    types.Int64       `tfsdk:"unit_amount"`
	Interval      types.String      `tfsdk:"interval"`
	IntervalCount types.Int64       `tfsdk:"interval_count"`
	Nickname      types.String      `tfsdk:"nickname"`
	LookupKey     types.String      `tfsdk:"lookup_key"`
	Active        types.Bool        `tfsdk:"active"`
	Metadata      types.Map         `tfsdk:"metadata"`
	Type          types.String      `tfsdk:"type"`
	CreatedAt     timetypes.RFC3339 `tfsdk:"created_at"`
	Livemode      types.Bool        `tfsdk:"livemode"`
}

// priceIDRegexp and priceIDShape are a price id's shape, from the wire.
var (
	priceIDRegexp = idRegexp(wire.PriceIDPrefix)
	priceIDShape  = idShape(wire.PriceIDPrefix)
)

// fromAPI sets every attribute of m from the service's price: the only
// mapping of a price. Empty metadata keeps m's spelling.
func (m *priceModel) fromAPI(p *client.Price) diag.Diagnostics {
	var diags, d diag.Diagnostics
	m.ID = types.StringValue(p.ID)
	m.Product = types.StringValue(p.Product)
	m.Currency = types.StringValue(p.Currency)
	m.UnitAmount = types.Int64Value(p.UnitAmount)
	m.Interval, m.IntervalCount = types.StringNull(), types.Int64Null()
	if p.Recurring != nil {
		m.Interval = types.StringValue(p.Recurring.Interval)
		m.IntervalCount = types.Int64Value(p.Recurring.IntervalCount)
	}
	m.Nickname = nullableString(p.Nickname)
	m.LookupKey = nullableString(p.LookupKey)
	m.Active = types.BoolValue(p.Active)
	m.Type = types.StringValue(p.Type)
	m.Livemode = types.BoolValue(p.Livemode)
	m.CreatedAt, d = rfc3339Value("created_at", p.CreatedAt)
	diags.Append(d...)
	m.Metadata, d = metadataValue(p.Metadata, m.Metadata)
	diags.Append(d...)
	return diags
}

// createParams is the create request for m; transfer moves the lookup key
// from the active price holding it.
func (m *priceModel) createParams(ctx context.Context, transfer bool) (*client.PriceParams, diag.Diagnostics) {
	p := &client.PriceParams{
		Product:           m.Product.ValueString(),
		Currency:          m.Currency.ValueString(),
		UnitAmount:        m.UnitAmount.ValueInt64(),
		Nickname:          m.Nickname.ValueString(),
		LookupKey:         m.LookupKey.ValueString(),
		TransferLookupKey: transfer && !m.LookupKey.IsNull(),
	}
	if !m.Interval.IsNull() {
		p.Recurring = &client.Recurring{Interval: m.Interval.ValueString(), IntervalCount: m.IntervalCount.ValueInt64()}
	}
	p.Active = boolPointer(m.Active)
	diags := m.Metadata.ElementsAs(ctx, &p.Metadata, false)
	return p, diags
}

// priceUpdateParams is the update that takes the price from state to plan:
// only the fields a price can change. A removed nickname or lookup key is
// sent as "" (which clears it), each removed metadata key empty. transfer
// is sent with a change that may take a lookup key from another price.
// changed is false when nothing needs sending.
func priceUpdateParams(ctx context.Context, plan, state *priceModel, transfer bool) (params *client.PriceUpdateParams, changed bool, diags diag.Diagnostics) {
	params = &client.PriceUpdateParams{}
	for _, f := range []struct {
		plan, state types.String
		dst         **string
	}{
		{plan.Nickname, state.Nickname, &params.Nickname},
		{plan.LookupKey, state.LookupKey, &params.LookupKey},
	} {
		if f.plan.Equal(f.state) {
			continue
		}
		v := f.plan.ValueString() // "" when null: clears it
		*f.dst = &v
		changed = true
	}
	if !plan.Active.Equal(state.Active) {
		v := plan.Active.ValueBool()
		params.Active = &v
		changed = true
	}
	params.Metadata = metadataChanges(ctx, plan.Metadata, state.Metadata, &diags)
	if diags.HasError() {
		return nil, false, diags
	}
	changed = changed || params.Metadata != nil
	params.TransferLookupKey = changed && transfer && !plan.LookupKey.IsNull()
	return params, changed, diags
}

// priceDescriptions say what each attribute is, once for every type that
// shows a price; the resource adds the rules of its arguments.
var priceDescriptions = struct {
	ID, Product, Currency, UnitAmount, Interval, IntervalCount, Nickname, LookupKey, Active, Metadata string
	Type, CreatedAt, Livemode                                                                         string
}{
	ID:            fmt.Sprintf("The price's identifier: %s.", priceIDShape),
	Product:       fmt.Sprintf("The identifier of the product this is a price of: %s.", productIDShape),
	Currency:      "The ISO 4217 currency code, in upper case: " + quotedList(wire.Currencies) + ".",
	UnitAmount:    "What one unit costs, in the currency's minor unit (cents for `USD`); `0` is a free price.",
	Interval:      "How often a recurring price charges: " + quotedList(wire.Intervals) + "; null for a one-time price.",
	IntervalCount: "How many intervals make one period (3 with `month` bills quarterly); null for a one-time price.",
	Nickname:      "A name for the price that customers do not see.",
	LookupKey:     "A key of yours that finds the price, unique among the account's active prices.",
	Active:        "Whether the price can be used for new purchases: `false` once it is archived.",
	Metadata:      "Your own key-value pairs about the price.",
	Type:          fmt.Sprintf("`%s`, or `%s` when the price has an interval.", wire.PriceTypeOneTime, wire.PriceTypeRecurring),
	CreatedAt:     "When the price was created, as an RFC 3339 UTC timestamp with second precision.",
	Livemode:      "Whether the price belongs to a live key's account (`true`) or a sandbox key's (`false`).",
}

// priceResourceAttributes is the payments_price resource's schema. What a
// price charges (product, currency, amount, period) is fixed at the
// service, so changing it replaces the price; the rest changes in place.
func priceResourceAttributes() map[string]rschema.Attribute {
	d := priceDescriptions
	const replaces = " Changing it replaces the price."
	return map[string]rschema.Attribute{
		// Required.
		"product": rschema.StringAttribute{
			MarkdownDescription: d.Product + replaces,
			Required:            true,
			PlanModifiers:       []planmodifier.String{stringplanmodifier.RequiresReplace()},
			Validators: []validator.String{
				stringvalidator.RegexMatches(productIDRegexp, "must be a product id: "+productIDShape),
			},
		},
		"currency": rschema.StringAttribute{
			MarkdownDescription: d.Currency + replaces,
			Required:            true,
			PlanModifiers:       []planmodifier.String{stringplanmodifier.RequiresReplace()},
			Validators:          []validator.String{currencyValidator},
		},
		"unit_amount": rschema.Int64Attribute{
			MarkdownDescription: fmt.Sprintf("%s From %d to %d.%s", d.UnitAmount, wire.PriceAmountMin, wire.PriceAmountMax, replaces),
			Required:            true,
			PlanModifiers:       []planmodifier.Int64{int64planmodifier.RequiresReplace()},
			Validators:          []validator.Int64{int64validator.Between(wire.PriceAmountMin, wire.PriceAmountMax)},
		},
		// Optional.
		"interval": rschema.StringAttribute{
			MarkdownDescription: d.Interval + replaces,
			Optional:            true,
			PlanModifiers:       []planmodifier.String{stringplanmodifier.RequiresReplace()},
			Validators:          []validator.String{intervalValidator},
		},
		"interval_count": rschema.Int64Attribute{
			MarkdownDescription: fmt.Sprintf("%s Needs `interval`; defaults to `1` with it. A period is at most %d years: "+
				"%d days, %d weeks, %d months or %d years.%s", d.IntervalCount, wire.RecurringMaxYears,
				wire.IntervalMaxCount(wire.IntervalDay), wire.IntervalMaxCount(wire.IntervalWeek),
				wire.IntervalMaxCount(wire.IntervalMonth), wire.IntervalMaxCount(wire.IntervalYear), replaces),
			Optional:   true,
			Computed:   true,
			Validators: []validator.Int64{int64validator.AtLeast(1)},
			// Planned, and replaced when it changes, by the resource's
			// ModifyPlan, since its default follows interval.
		},
		"nickname": rschema.StringAttribute{
			MarkdownDescription: fmt.Sprintf("%s From 1 to %d characters, without control characters other than tab and "+
				"newline nor bidirectional controls; removing it clears it.", d.Nickname, wire.NameMaxLength),
			Optional: true,
			Validators: []validator.String{
				stringvalidator.UTF8LengthBetween(1, wire.NameMaxLength),
				stringvalidator.RegexMatches(noControlRegexp, noControlMessage),
			},
		},
		"lookup_key": rschema.StringAttribute{
			MarkdownDescription: fmt.Sprintf("%s From 1 to %d characters; removing it clears it. Setting a key another "+
				"active price holds fails, unless `transfer_lookup_key` is `true`. A key taken by another price outside "+
				"of Terraform is shown as a change.", d.LookupKey, wire.LookupKeyMaxLength),
			Optional: true,
			Validators: []validator.String{
				stringvalidator.UTF8LengthBetween(1, wire.LookupKeyMaxLength),
				stringvalidator.RegexMatches(noControlRegexp, noControlMessage),
			},
		},
		"transfer_lookup_key": rschema.BoolAttribute{
			MarkdownDescription: "Whether creating the price, or setting its `lookup_key`, moves the key from the active " +
				"price that holds it, which is left without one; needs `lookup_key`. With `create_before_destroy`, a " +
				"replacement takes the key from the price it replaces, so the key never points nowhere. It acts only " +
				"when the price is created or updated: the service does not keep it, so refreshing never changes it " +
				"and it shows no change afterwards. After an import it is null: a configured `true` then shows as one " +
				"in-place update that sends nothing.",
			Optional: true,
		},
		"active": rschema.BoolAttribute{
			MarkdownDescription: d.Active + " Defaults to `true`; a price archived outside of Terraform is shown as a " +
				"change and made active again.",
			Optional: true,
			Computed: true,
			Default:  booldefault.StaticBool(true),
		},
		"metadata": metadataAttribute(d.Metadata, "price"),
		// Computed.
		"id":   keptString(d.ID),
		"type": keptString(d.Type),
		"created_at": rschema.StringAttribute{
			MarkdownDescription: d.CreatedAt,
			CustomType:          timetypes.RFC3339Type{},
			Computed:            true,
			PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
		},
		"livemode": keptBool(d.Livemode),
	}
}

// intervalValidator refuses at plan time an interval the service refuses.
var intervalValidator = stringCheck{
	markdown: "value must be one of " + quotedList(wire.Intervals),
	check: func(p path.Path, v string, diags *diag.Diagnostics) {
		if wire.IntervalMaxCount(v) == 0 {
			diags.AddAttributeError(p, "Invalid Price Interval",
				fmt.Sprintf("%s is not an interval the service accepts. Use one of %s, with interval_count for "+
					"periods of several intervals (interval = \"week\" and interval_count = 2 bills every two weeks).",
					quoteForError(v), quotedList(wire.Intervals)))
		}
	},
}

// priceDataSourceAttributes is the payments_price data source's schema:
// id or lookup_key, then everything the price object tells, computed.
func priceDataSourceAttributes() map[string]dschema.Attribute {
	d := priceDescriptions
	return map[string]dschema.Attribute{
		// Optional: exactly one.
		"id": dschema.StringAttribute{
			MarkdownDescription: fmt.Sprintf("The identifier of the price to read: %s. Set exactly one of `id` and `lookup_key`.", priceIDShape),
			Optional:            true,
			Computed:            true,
			Validators: []validator.String{
				stringvalidator.RegexMatches(priceIDRegexp, "must be a price id: "+priceIDShape),
				stringvalidator.ExactlyOneOf(path.MatchRoot("lookup_key")),
			},
		},
		"lookup_key": dschema.StringAttribute{
			MarkdownDescription: "The lookup key of the active price to read; set exactly one of `id` and `lookup_key`. " +
				"Null when the price read by `id` has none. " + d.LookupKey,
			Optional: true,
			Computed: true,
			Validators: []validator.String{
				stringvalidator.UTF8LengthBetween(1, wire.LookupKeyMaxLength),
			},
		},
		// Computed.
		"product":        dschema.StringAttribute{MarkdownDescription: d.Product, Computed: true},
		"currency":       dschema.StringAttribute{MarkdownDescription: d.Currency, Computed: true},
		"unit_amount":    dschema.Int64Attribute{MarkdownDescription: d.UnitAmount, Computed: true},
		"interval":       dschema.StringAttribute{MarkdownDescription: d.Interval, Computed: true},
		"interval_count": dschema.Int64Attribute{MarkdownDescription: d.IntervalCount, Computed: true},
		"nickname":       dschema.StringAttribute{MarkdownDescription: d.Nickname + " Null when the price has none.", Computed: true},
		"active":         dschema.BoolAttribute{MarkdownDescription: d.Active, Computed: true},
		"metadata": dschema.MapAttribute{MarkdownDescription: d.Metadata + " Null when the price has none.",
			ElementType: types.StringType, Computed: true},
		"type":       dschema.StringAttribute{MarkdownDescription: d.Type, Computed: true},
		"created_at": dschema.StringAttribute{MarkdownDescription: d.CreatedAt, CustomType: timetypes.RFC3339Type{}, Computed: true},
		"livemode":   dschema.BoolAttribute{MarkdownDescription: d.Livemode, Computed: true},
	}
}

// priceDataSourceModel is the payments_price data source's data.
type priceDataSourceModel struct {
	priceModel
	Timeouts dtimeouts.Value `tfsdk:"timeouts"`
}

func (m *priceDataSourceModel) readTimeouts() dtimeouts.Value { return m.Timeouts }

// priceDisplayName is how a person recognises a price in a list: "9.99
// USD per month", "90.00 USD every 3 months" or "1200 JPY", after its
// nickname when it has one.
func priceDisplayName(p *client.Price) string {
	s := wire.FormatMoney(p.UnitAmount, p.Currency)
	if r := p.Recurring; r != nil {
		if r.IntervalCount == 1 {
			s += " per " + r.Interval
		} else {
			s += fmt.Sprintf(" every %d %ss", r.IntervalCount, r.Interval)
		}
	}
	if p.Nickname != "" {
		return p.Nickname + " (" + s + ")"
	}
	return s
}
