package provider

import (
	"context"
	"fmt"

	dtimeouts "github.com/hashicorp/terraform-plugin-framework-timeouts/datasource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework-timetypes/timetypes"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	dschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/paymentsdev/terraform-provider-payments/internal/client"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// customerModel is one customer as the payments_customer resource and data
// source both describe it; each embeds it. Email, name and phone are null
// when the customer has none; metadata is null or {} as the configuration
// wrote it when the customer has no keys.
//
// The resource has no default_source nor sources: they change whenever a
// payments_customer_source is stored, removed or made the default, so a
// resource holding them would show every card change as the customer
// "changed outside of Terraform", and every rename as those lists becoming
// unknown. The data source, read at plan time, tells them
// (customerDataSourceModel).
type customerModel struct {
	ID        types.String      `tfsdk:"id"`
	Email     types.String      `tfsdk:"email"`
	Name      types.String      `tfsdk:"name"`
	Phone     types.String      `tfsdk:"phone"`
	Metadata  types.Map         `tfsdk:"metadata"`
	TestClock types.String      `tfsdk:"test_clock"`
	CreatedAt timetypes.RFC3339 `tfsdk:"created_at"`
	Livemode  types.Bool        `tfsdk:"livemode"`
}

// sourceSummaryModel is one element of the data source's sources: the
// summary a customer object carries of each stored method.
type sourceSummaryModel struct {
	ID    types.String `tfsdk:"id"`
	Brand types.String `tfsdk:"brand"`
	Last4 types.String `tfsdk:"last4"`
}

// fromAPI sets every attribute of m from the service's customer. It is the
// only mapping of a customer, so the resource and the data source cannot
// drift apart. Empty metadata keeps m's spelling ({} or null), so that
// neither shows a diff.
func (m *customerModel) fromAPI(c *client.Customer) diag.Diagnostics {
	var diags, d diag.Diagnostics
	m.ID = types.StringValue(c.ID)
	m.Email = nullableString(c.Email)
	m.Name = nullableString(c.Name)
	m.Phone = nullableString(c.Phone)
	m.TestClock = nullableString(c.TestClock)
	m.Livemode = types.BoolValue(c.Livemode)
	m.CreatedAt, d = rfc3339Value("created_at", c.CreatedAt)
	diags.Append(d...)
	m.Metadata, d = metadataValue(c.Metadata, m.Metadata)
	diags.Append(d...)
	return diags
}

// newSourceSummaries maps a customer's sources list: never nil, so that no
// method is an empty list rather than null; brand and last4 null when the
// service leaves them out, as everywhere else.
func newSourceSummaries(c *client.Customer) []sourceSummaryModel {
	out := make([]sourceSummaryModel, 0, len(c.Sources.Data))
	for _, s := range c.Sources.Data {
		out = append(out, sourceSummaryModel{
			ID:    types.StringValue(s.ID),
			Brand: nullableString(s.Brand),
			Last4: nullableString(s.Last4),
		})
	}
	return out
}

// argumentsKnown reports whether every argument of m is known, so that the
// request it makes can be built.
func (m *customerModel) argumentsKnown() bool {
	if m.Email.IsUnknown() || m.Name.IsUnknown() || m.Phone.IsUnknown() || m.Metadata.IsUnknown() || m.TestClock.IsUnknown() {
		return false
	}
	for _, v := range m.Metadata.Elements() {
		if v.IsUnknown() {
			return false
		}
	}
	return true
}

// createParams is the create request for m: every field m sets.
func (m *customerModel) createParams(ctx context.Context) (*client.CustomerParams, diag.Diagnostics) {
	p := &client.CustomerParams{
		Email:     stringPointer(m.Email),
		Name:      stringPointer(m.Name),
		Phone:     stringPointer(m.Phone),
		TestClock: stringPointer(m.TestClock),
	}
	diags := m.Metadata.ElementsAs(ctx, &p.Metadata, false)
	return p, diags
}

// customerUpdateParams is the update that takes the customer from state
// to plan: changed scalars are sent, removed ones are sent as "" (which
// clears them), and each metadata key removed is sent empty (which deletes
// it). changed is false when nothing needs sending.
func customerUpdateParams(ctx context.Context, plan, state *customerModel) (params *client.CustomerParams, changed bool, diags diag.Diagnostics) {
	params = &client.CustomerParams{}
	for _, f := range []struct {
		plan, state types.String
		dst         **string
	}{
		{plan.Email, state.Email, &params.Email},
		{plan.Name, state.Name, &params.Name},
		{plan.Phone, state.Phone, &params.Phone},
	} {
		if f.plan.Equal(f.state) {
			continue
		}
		v := f.plan.ValueString() // "" when null: clears the field
		*f.dst = &v
		changed = true
	}

	params.Metadata = metadataChanges(ctx, plan.Metadata, state.Metadata, &diags)
	if diags.HasError() {
		return nil, false, diags
	}
	return params, changed || params.Metadata != nil, diags
}

// customerDescriptions say what each attribute is, once for the resource
// and the data source; the resource adds the rules of its arguments.
var customerDescriptions = struct {
	ID, Email, Name, Phone, Metadata, TestClock, CreatedAt, Livemode, DefaultSource, Sources string
	SourceID, SourceBrand, SourceLast4                                                       string
}{
	ID:       fmt.Sprintf("The customer's identifier: %s.", customerIDShape),
	Email:    "The customer's e-mail address.",
	Name:     "The customer's name.",
	Phone:    "The customer's telephone number in E.164 format, for example `+14155550123`.",
	Metadata: "Your own key-value pairs about the customer.",
	TestClock: fmt.Sprintf("The identifier of the test clock the customer lives on (%s), whose time its subscriptions "+
		"follow; null for a customer on real time.", testClockIDShape),
	CreatedAt: "When the customer was created, as an RFC 3339 UTC timestamp with second precision.",
	Livemode:  "Whether the customer belongs to a live key's account (`true`) or a sandbox key's (`false`).",
	DefaultSource: "The identifier of the payment method charged when a payment names the customer without a source; " +
		"null when the customer has no payment method. The first method stored becomes the default; " +
		"`payments_customer_source` with `default = true` changes it.",
	Sources:     "The customer's stored payment methods, however they were stored, in the order the service lists them; empty when it has none.",
	SourceID:    fmt.Sprintf("The payment method's identifier: %s.", sourceIDShape),
	SourceBrand: "The card brand, for example `visa`; null when the service leaves it out.",
	SourceLast4: "The last four digits of the card number; null when the service leaves them out.",
}

// customerResourceAttributes is the payments_customer resource's schema:
// the arguments, optional and validated at plan time from the wire
// contract's limits, then the computed attributes.
func customerResourceAttributes() map[string]rschema.Attribute {
	d := customerDescriptions
	return map[string]rschema.Attribute{
		// Optional.
		"email": rschema.StringAttribute{
			MarkdownDescription: fmt.Sprintf("%s Of the form `local@domain`, at most %d characters.", d.Email, wire.EmailMaxLength),
			Optional:            true,
			Validators: []validator.String{
				stringvalidator.UTF8LengthAtMost(wire.EmailMaxLength),
				stringvalidator.RegexMatches(emailRegexp, "must be an e-mail address of the form local@domain"),
			},
		},
		"name": rschema.StringAttribute{
			MarkdownDescription: fmt.Sprintf("%s From 1 to %d characters, without control characters other than tab "+
				"and newline nor bidirectional controls; omit it rather than set it to an empty string.", d.Name, wire.NameMaxLength),
			Optional: true,
			Validators: []validator.String{
				stringvalidator.UTF8LengthBetween(1, wire.NameMaxLength),
				stringvalidator.RegexMatches(noControlRegexp, noControlMessage),
			},
		},
		"phone": rschema.StringAttribute{
			MarkdownDescription: fmt.Sprintf("%s A plus sign and %d to %d digits, with no spaces or dashes.",
				d.Phone, wire.PhoneMinDigits, wire.PhoneMaxDigits),
			Optional: true,
			Validators: []validator.String{
				stringvalidator.RegexMatches(phoneRegexp, fmt.Sprintf(
					"must be in E.164 format: a plus sign followed by %d to %d digits, with no spaces or dashes, "+
						"for example +14155550123", wire.PhoneMinDigits, wire.PhoneMaxDigits)),
			},
		},
		"metadata": metadataAttribute(d.Metadata, "customer"),
		"test_clock": rschema.StringAttribute{
			MarkdownDescription: d.TestClock + " Set only at creation: changing it replaces the customer. Destroying " +
				"the clock deletes the customer with it, and the next plan creates it again.",
			Optional:      true,
			PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()},
			Validators: []validator.String{
				stringvalidator.RegexMatches(testClockIDRegexp, "must be a test clock id: "+testClockIDShape),
			},
		},
		// Computed.
		"id": keptString(d.ID),
		"created_at": rschema.StringAttribute{
			MarkdownDescription: d.CreatedAt,
			CustomType:          timetypes.RFC3339Type{},
			Computed:            true,
			PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
		},
		"livemode": keptBool(d.Livemode),
	}
}

// customerDataSourceAttributes is the payments_customer data source's
// schema: id, then everything the customer object tells, computed.
func customerDataSourceAttributes() map[string]dschema.Attribute {
	d := customerDescriptions
	const none = " Null when the customer has none."
	return map[string]dschema.Attribute{
		// Required.
		"id": dschema.StringAttribute{
			MarkdownDescription: fmt.Sprintf("The identifier of the customer to read: %s.", customerIDShape),
			Required:            true,
			Validators: []validator.String{
				stringvalidator.RegexMatches(customerIDRegexp, "must be a customer id: "+customerIDShape),
			},
		},
		// Computed.
		"email":      dschema.StringAttribute{MarkdownDescription: d.Email + none, Computed: true},
		"name":       dschema.StringAttribute{MarkdownDescription: d.Name + none, Computed: true},
		"phone":      dschema.StringAttribute{MarkdownDescription: d.Phone + none, Computed: true},
		"metadata":   dschema.MapAttribute{MarkdownDescription: d.Metadata + none, ElementType: types.StringType, Computed: true},
		"test_clock": dschema.StringAttribute{MarkdownDescription: d.TestClock, Computed: true},
		"created_at": dschema.StringAttribute{MarkdownDescription: d.CreatedAt, CustomType: timetypes.RFC3339Type{}, Computed: true},
		"livemode":   dschema.BoolAttribute{MarkdownDescription: d.Livemode, Computed: true},
		"default_source": dschema.StringAttribute{
			MarkdownDescription: d.DefaultSource,
			Computed:            true,
		},
		"sources": dschema.ListNestedAttribute{
			MarkdownDescription: d.Sources,
			Computed:            true,
			NestedObject: dschema.NestedAttributeObject{
				Attributes: map[string]dschema.Attribute{
					"id":    dschema.StringAttribute{MarkdownDescription: d.SourceID, Computed: true},
					"brand": dschema.StringAttribute{MarkdownDescription: d.SourceBrand, Computed: true},
					"last4": dschema.StringAttribute{MarkdownDescription: d.SourceLast4, Computed: true},
				},
			},
		},
	}
}

// customerDataSourceModel is the payments_customer data source's data: the
// customer (customerModel), with its payment methods and default, which
// only the data source tells.
type customerDataSourceModel struct {
	customerModel
	DefaultSource types.String         `tfsdk:"default_source"`
	Sources       []sourceSummaryModel `tfsdk:"sources"`
	Timeouts      dtimeouts.Value      `tfsdk:"timeouts"`
}

func (m *customerDataSourceModel) readTimeouts() dtimeouts.Value { return m.Timeouts }
