package provider

import (
	"context"
	"fmt"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/datasource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/paymentsdev/terraform-provider-payments/internal/client"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// paymentsLimitMax bounds payments_payments.limit. Every payment is held in
// Terraform's state, so a bound keeps a typo (an extra zero) from pulling a
// whole account's history into it; 10,000 is 100 pages of the API's largest
// page size.
const paymentsLimitMax = 10_000

// NewPaymentsDataSource returns the payments_payments data source.
func NewPaymentsDataSource() datasource.DataSource {
	return &paymentsDataSource{dataSourceBase{name: "payments"}}
}

// paymentsDataSource lists the payments that match a set of filters.
type paymentsDataSource struct {
	dataSourceBase
}

// paymentsDataSourceModel is the payments_payments data source's data.
type paymentsDataSourceModel struct {
	Customer      types.String   `tfsdk:"customer"`
	Status        types.String   `tfsdk:"status"`
	CreatedAfter  types.String   `tfsdk:"created_after"`
	CreatedBefore types.String   `tfsdk:"created_before"`
	Limit         types.Int64    `tfsdk:"limit"`
	Payments      []paymentModel `tfsdk:"payments"`
	Timeouts      timeouts.Value `tfsdk:"timeouts"`
}

func (m *paymentsDataSourceModel) readTimeouts() timeouts.Value { return m.Timeouts }

func (d *paymentsDataSource) Schema(ctx context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Lists the payments of the configured key's account that match every filter given, newest first. " +
			"Without filters it lists every payment of the account, following the API's pages; set `limit` to bound how many are read.",
		Attributes: map[string]schema.Attribute{
			// Optional.
			"customer": schema.StringAttribute{
				MarkdownDescription: fmt.Sprintf("Only payments that belong to the customer with this identifier (%s). "+
					"The customer must exist.", customerIDShape),
				Optional: true,
				Validators: []validator.String{
					stringvalidator.RegexMatches(customerIDRegexp, "must be a customer id: "+customerIDShape),
				},
			},
			"status": schema.StringAttribute{
				MarkdownDescription: "Only payments in this status, one of " + quotedList(wire.PaymentStatuses) + ".",
				Optional:            true,
				Validators:          []validator.String{stringvalidator.OneOf(wire.PaymentStatuses...)},
			},
			"created_after": schema.StringAttribute{
				MarkdownDescription: "Only payments created at or after this instant, an RFC 3339 timestamp such as `2025-01-31T00:00:00Z`. " +
					"It must not be later than `created_before`.",
				Optional:   true,
				Validators: []validator.String{rfc3339Validator},
			},
			"created_before": schema.StringAttribute{
				MarkdownDescription: "Only payments created at or before this instant, an RFC 3339 timestamp such as `2025-02-01T00:00:00Z`.",
				Optional:            true,
				Validators:          []validator.String{rfc3339Validator},
			},
			"limit": schema.Int64Attribute{
				MarkdownDescription: fmt.Sprintf("The most payments to return, the newest ones, from 1 to %d. "+
					"When unset, every matching payment is returned.", paymentsLimitMax),
				Optional:   true,
				Validators: []validator.Int64{int64validator.Between(1, paymentsLimitMax)},
			},
			// Computed.
			"payments": schema.ListNestedAttribute{
				MarkdownDescription: "The matching payments, newest first, each with the attributes of the `payments_payment` data source. Empty when none match.",
				Computed:            true,
				NestedObject: schema.NestedAttributeObject{
					Attributes: paymentAttributes(schema.StringAttribute{
						MarkdownDescription: fmt.Sprintf("The payment's identifier: %s.", paymentIDShape),
						Computed:            true,
					}),
				},
			},
		},
		Blocks: map[string]schema.Block{
			"timeouts": dataSourceTimeoutsBlock(ctx),
		},
	}
}

func (d *paymentsDataSource) ConfigValidators(context.Context) []datasource.ConfigValidator {
	return []datasource.ConfigValidator{createdRangeValidator{}}
}

func (d *paymentsDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var data paymentsDataSourceModel
	ctx, cancel, ok := beginRead(ctx, d.client, req.Config, &data, &resp.Diagnostics)
	if !ok {
		return
	}
	defer cancel()

	params := &client.ListPaymentsParams{
		Customer:   data.Customer.ValueString(),
		Status:     data.Status.ValueString(),
		ListParams: client.ListParams{Limit: wire.ListLimitMax},
	}
	// The validators have parsed both bounds already; a parse error here
	// cannot happen, but is reported rather than ignored.
	var err error
	if params.CreatedGTE, err = createdBound(data.CreatedAfter, true); err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("created_after"), "Invalid Timestamp", err.Error())
	}
	if params.CreatedLTE, err = createdBound(data.CreatedBefore, false); err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("created_before"), "Invalid Timestamp", err.Error())
	}
	if resp.Diagnostics.HasError() {
		return
	}
	limit := -1
	if !data.Limit.IsNull() {
		limit = int(data.Limit.ValueInt64())
		// No page larger than needed: limit = 5 reads 5 payments, not 100.
		params.Limit = min(limit, wire.ListLimitMax)
	}

	// A non-nil slice, so that no match is an empty list, not null.
	data.Payments = []paymentModel{}
	if limit != 0 {
		for pay, err := range d.client.AllPayments(ctx, params) {
			if err != nil {
				d.addListError(resp, params, err)
				return
			}
			m, diags := newPaymentModel(pay)
			resp.Diagnostics.Append(diags...)
			if resp.Diagnostics.HasError() {
				return
			}
			data.Payments = append(data.Payments, m)
			if len(data.Payments) == limit {
				break
			}
		}
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &data)...)
}

// addListError reports a failed list, pointing at the customer filter when
// the service says that customer does not exist.
func (d *paymentsDataSource) addListError(resp *datasource.ReadResponse, params *client.ListPaymentsParams, err error) {
	if e, ok := client.AsError(err); ok && e.Code == wire.ErrorCodeResourceMissing && e.Param == "customer" {
		resp.Diagnostics.AddAttributeError(path.Root("customer"), "Customer Not Found",
			fmt.Sprintf("No customer with id %q exists for the account of the configured key, so its payments cannot be listed. "+
				"Check the id, and that the customer was not deleted and belongs to this account.", params.Customer))
		return
	}
	resp.Diagnostics.Append(dataSourceErrorDiagnostic("Error Listing Payments", "payments", err))
}

// createdBound turns an RFC 3339 filter into the API's form: UTC, second
// precision, as the service stores created_at. Since created_at has whole
// seconds, rounding a lower bound up and an upper bound down keeps the
// filter exact for timestamps with fractions of a second. A null value is
// "" (unbounded). No payment is created after wire.MaxTime or before
// 1970, nor could the API spell such a time: a bound outside is moved to
// the nearer end when that keeps every match, and is an error when nothing
// can match.
func createdBound(v types.String, lower bool) (string, error) {
	if v.IsNull() || v.IsUnknown() {
		return "", nil
	}
	t, err := time.Parse(time.RFC3339, v.ValueString())
	if err != nil {
		return "", fmt.Errorf("%q is not an RFC 3339 timestamp: %w", v.ValueString(), err)
	}
	t = t.UTC()
	if whole := t.Truncate(time.Second); lower && !whole.Equal(t) {
		t = whole.Add(time.Second)
	} else {
		t = whole
	}
	if t.After(wire.MaxTime) {
		if lower {
			return "", fmt.Errorf("%q is after %s, the latest time the service writes, so no payment can match; use an earlier time",
				v.ValueString(), wire.MaxTime.Format(time.RFC3339))
		}
		t = wire.MaxTime
	}
	if earliest := time.Unix(wire.MinTimeUnix, 0).UTC(); t.Before(earliest) {
		if !lower {
			return "", fmt.Errorf("%q is before %s, the earliest time the service writes, so no payment can match; use a later time",
				v.ValueString(), earliest.Format(time.RFC3339))
		}
		t = earliest
	}
	return t.Format(time.RFC3339), nil
}

// createdRangeValidator rejects a created_after later than created_before,
// a filter no payment can match, at plan time.
type createdRangeValidator struct{}

var _ datasource.ConfigValidator = createdRangeValidator{}

func (createdRangeValidator) Description(context.Context) string {
	return "created_after must not be later than created_before"
}

func (v createdRangeValidator) MarkdownDescription(ctx context.Context) string {
	return "`created_after` must not be later than `created_before`"
}

func (createdRangeValidator) ValidateDataSource(ctx context.Context, req datasource.ValidateConfigRequest, resp *datasource.ValidateConfigResponse) {
	var after, before types.String
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("created_after"), &after)...)
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("created_before"), &before)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if after.IsNull() || after.IsUnknown() || before.IsNull() || before.IsUnknown() {
		return
	}
	a, errA := time.Parse(time.RFC3339, after.ValueString())
	b, errB := time.Parse(time.RFC3339, before.ValueString())
	if errA != nil || errB != nil {
		// The attribute validators report malformed timestamps.
		return
	}
	if a.After(b) {
		resp.Diagnostics.AddAttributeError(path.Root("created_after"), "Invalid Created Range",
			fmt.Sprintf("created_after (%s) is later than created_before (%s), so no payment can match. "+
				"Swap the two values, or remove one of them.", after.ValueString(), before.ValueString()))
	}
}
