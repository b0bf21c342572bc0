package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/datasource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework-timetypes/timetypes"
	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/paymentsdev/terraform-provider-payments/internal/client"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// Invoice ids and their shape, from the wire.
var (
	invoiceIDRegexp = idRegexp(wire.InvoiceIDPrefix)
	invoiceIDShape  = idShape(wire.InvoiceIDPrefix)
)

// billingReasons are the invoices' billing reasons.
var billingReasons = []string{wire.BillingReasonSubscriptionCreate, wire.BillingReasonSubscriptionCycle}

// NewInvoicesDataSource returns the payments_invoices data source.
func NewInvoicesDataSource() datasource.DataSource {
	return &invoicesDataSource{dataSourceBase{name: "invoices"}}
}

// invoicesDataSource lists the invoices that match a set of filters.
type invoicesDataSource struct {
	dataSourceBase
}

// invoicesDataSourceModel is the payments_invoices data source's data.
type invoicesDataSourceModel struct {
	Customer      types.String   `tfsdk:"customer"`
	Subscription  types.String   `tfsdk:"subscription"`
	Status        types.String   `tfsdk:"status"`
	BillingReason types.String   `tfsdk:"billing_reason"`
	Limit         types.Int64    `tfsdk:"limit"`
	Invoices      []invoiceModel `tfsdk:"invoices"`
	Timeouts      timeouts.Value `tfsdk:"timeouts"`
}

func (m *invoicesDataSourceModel) readTimeouts() timeouts.Value { return m.Timeouts }

// invoiceModel is one invoice of the list.
type invoiceModel struct {
	ID                 types.String      `tfsdk:"id"`
	Customer           types.String      `tfsdk:"customer"`
	Subscription       types.String      `tfsdk:"subscription"`
	Status             types.String      `tfsdk:"status"`
	BillingReason      types.String      `tfsdk:"billing_reason"`
	AmountDue          types.Int64       `tfsdk:"amount_due"`
	AmountPaid         types.Int64       `tfsdk:"amount_paid"`
	Currency           types.String      `tfsdk:"currency"`
	AttemptCount       types.Int64       `tfsdk:"attempt_count"`
	NextPaymentAttempt timetypes.RFC3339 `tfsdk:"next_payment_attempt"`
	Payment            types.String      `tfsdk:"payment"`
	PeriodStart        timetypes.RFC3339 `tfsdk:"period_start"`
	PeriodEnd          timetypes.RFC3339 `tfsdk:"period_end"`
	CreatedAt          timetypes.RFC3339 `tfsdk:"created_at"`
	Livemode           types.Bool        `tfsdk:"livemode"`
}

// newInvoiceModel maps the service's invoice: the only mapping of one.
func newInvoiceModel(inv *client.Invoice) (invoiceModel, diag.Diagnostics) {
	var diags, d diag.Diagnostics
	m := invoiceModel{
		ID:            types.StringValue(inv.ID),
		Customer:      types.StringValue(inv.Customer),
		Subscription:  nullableString(inv.Subscription),
		Status:        types.StringValue(inv.Status),
		BillingReason: nullableString(inv.BillingReason),
		AmountDue:     types.Int64Value(inv.AmountDue),
		AmountPaid:    types.Int64Value(inv.AmountPaid),
		Currency:      types.StringValue(inv.Currency),
		AttemptCount:  types.Int64Value(inv.AttemptCount),
		Payment:       nullableString(inv.Payment),
		Livemode:      types.BoolValue(inv.Livemode),
	}
	for _, f := range []struct {
		dst   *timetypes.RFC3339
		field string
		v     string
	}{
		{&m.NextPaymentAttempt, "next_payment_attempt", inv.NextPaymentAttempt},
		{&m.PeriodStart, "period_start", inv.PeriodStart},
		{&m.PeriodEnd, "period_end", inv.PeriodEnd},
		{&m.CreatedAt, "created_at", inv.CreatedAt},
	} {
		*f.dst, d = rfc3339Value(f.field, f.v)
		diags.Append(d...)
	}
	return m, diags
}

func (d *invoicesDataSource) Schema(ctx context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	rfc := func(desc string) schema.StringAttribute {
		return schema.StringAttribute{MarkdownDescription: desc, CustomType: timetypes.RFC3339Type{}, Computed: true}
	}
	str := func(desc string) schema.StringAttribute {
		return schema.StringAttribute{MarkdownDescription: desc, Computed: true}
	}
	num := func(desc string) schema.Int64Attribute {
		return schema.Int64Attribute{MarkdownDescription: desc, Computed: true}
	}
	resp.Schema = schema.Schema{
		MarkdownDescription: "Lists the invoices of the configured key's account that match every filter given, newest " +
			"first: what a subscription billed each period and how its payment went. Read at plan time, it lets a " +
			"test assert what renewals did, such as three paid `subscription_cycle` invoices after a test clock " +
			"advanced three periods.",
		Attributes: map[string]schema.Attribute{
			// Optional.
			"customer": schema.StringAttribute{
				MarkdownDescription: fmt.Sprintf("Only the invoices of this customer (%s).", customerIDShape),
				Optional:            true,
				Validators: []validator.String{
					stringvalidator.RegexMatches(customerIDRegexp, "must be a customer id: "+customerIDShape),
				},
			},
			"subscription": schema.StringAttribute{
				MarkdownDescription: fmt.Sprintf("Only the invoices of this subscription (%s).", subscriptionIDShape),
				Optional:            true,
				Validators: []validator.String{
					stringvalidator.RegexMatches(subscriptionIDRegexp, "must be a subscription id: "+subscriptionIDShape),
				},
			},
			"status": schema.StringAttribute{
				MarkdownDescription: "Only invoices in this status, one of " + quotedList(wire.InvoiceStatuses) + ".",
				Optional:            true,
				Validators:          []validator.String{stringvalidator.OneOf(wire.InvoiceStatuses...)},
			},
			"billing_reason": schema.StringAttribute{
				MarkdownDescription: "Only invoices made for this reason: `" + wire.BillingReasonSubscriptionCreate +
					"` (a subscription's first) or `" + wire.BillingReasonSubscriptionCycle + "` (a renewal).",
				Optional:   true,
				Validators: []validator.String{stringvalidator.OneOf(billingReasons...)},
			},
			"limit": schema.Int64Attribute{
				MarkdownDescription: fmt.Sprintf("The most invoices to return, the newest ones, from 1 to %d. When unset, "+
					"every matching invoice is returned.", paymentsLimitMax),
				Optional:   true,
				Validators: []validator.Int64{int64validator.Between(1, paymentsLimitMax)},
			},
			// Computed.
			"invoices": schema.ListNestedAttribute{
				MarkdownDescription: "The matching invoices, newest first. Empty when none match.",
				Computed:            true,
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"id":             str(fmt.Sprintf("The invoice's identifier: %s.", invoiceIDShape)),
					"customer":       str("The identifier of the customer billed."),
					"subscription":   str("The identifier of the subscription the invoice bills."),
					"status":         str("The invoice's status: " + quotedList(wire.InvoiceStatuses) + "."),
					"billing_reason": str("Why the invoice was made: " + quotedList(billingReasons) + "."),
					"amount_due":     num("What the invoice bills, in the currency's minor unit."),
					"amount_paid":    num("What was paid of it, in the currency's minor unit."),
					"currency":       str("The ISO 4217 currency code, in upper case."),
					"attempt_count":  num("How many times its payment was attempted."),
					"next_payment_attempt": rfc("When its payment is attempted again, as an RFC 3339 UTC timestamp; " +
						"null when no retry is due."),
					"payment":      str("The identifier of its latest payment attempt; null when none was made."),
					"period_start": rfc("The start of the period billed, as an RFC 3339 UTC timestamp."),
					"period_end":   rfc("The end of the period billed, as an RFC 3339 UTC timestamp."),
					"created_at":   rfc("When the invoice was made (in the test clock's time for a customer on one)."),
					"livemode":     schema.BoolAttribute{MarkdownDescription: "Whether the invoice belongs to a live key's account.", Computed: true},
				}},
			},
		},
		Blocks: map[string]schema.Block{
			"timeouts": dataSourceTimeoutsBlock(ctx),
		},
	}
}

func (d *invoicesDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var data invoicesDataSourceModel
	ctx, cancel, ok := beginRead(ctx, d.client, req.Config, &data, &resp.Diagnostics)
	if !ok {
		return
	}
	defer cancel()

	params := &client.ListInvoicesParams{
		Customer:     data.Customer.ValueString(),
		Subscription: data.Subscription.ValueString(),
		Status:       data.Status.ValueString(),
		ListParams:   client.ListParams{Limit: wire.ListLimitMax},
	}
	limit := -1
	reason := data.BillingReason.ValueString()
	if !data.Limit.IsNull() {
		limit = int(data.Limit.ValueInt64())
		// No page larger than needed: limit = 1 reads 1 invoice, not 100.
		// The billing reason is filtered here, not by the service, so with
		// one the pages stay full.
		if reason == "" {
			params.Limit = min(limit, wire.ListLimitMax)
		}
	}
	// A non-nil slice, so that no match is an empty list, not null.
	data.Invoices = []invoiceModel{}
	for inv, err := range d.client.AllInvoices(ctx, params) {
		if err != nil {
			d.addListError(resp, err)
			return
		}
		// The service does not filter by billing reason.
		if reason != "" && inv.BillingReason != reason {
			continue
		}
		m, diags := newInvoiceModel(inv)
		resp.Diagnostics.Append(diags...)
		if resp.Diagnostics.HasError() {
			return
		}
		data.Invoices = append(data.Invoices, m)
		if len(data.Invoices) == limit {
			break
		}
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &data)...)
}

// addListError reports a failed list, pointing at the filter the service
// says names nothing.
func (d *invoicesDataSource) addListError(resp *datasource.ReadResponse, err error) {
	if e, ok := client.AsError(err); ok && e.Code == wire.ErrorCodeResourceMissing &&
		(e.Param == wire.ParamCustomer || e.Param == wire.ParamSubscription) {
		resp.Diagnostics.AddAttributeError(path.Root(e.Param), "Error Listing Invoices",
			fmt.Sprintf("The service found nothing named by %s: %s Check the id, and that it belongs to this account.", e.Param, e.Message))
		return
	}
	resp.Diagnostics.Append(dataSourceErrorDiagnostic("Error Listing Invoices", "invoices", err))
}
