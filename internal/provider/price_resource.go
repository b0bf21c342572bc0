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

// Default timeouts of payments_price operations.
var priceTimeouts = sameTimeouts(5 * time.Minute)

// NewPriceResource returns the payments_price resource.
func NewPriceResource() resource.Resource {
	return &priceResource{resourceBase{name: "price"}}
}

// priceResource is the payments_price resource.
type priceResource struct {
	resourceBase
}

// priceResourceModel is payments_price's state: the price (priceModel),
// transfer_lookup_key as configured (the service does not keep it), and
// the timeouts block.
type priceResourceModel struct {
	priceModel
	TransferLookupKey types.Bool     `tfsdk:"transfer_lookup_key"`
	Timeouts          timeouts.Value `tfsdk:"timeouts"`
}

func (m *priceResourceModel) timeoutsValue() timeouts.Value { return m.Timeouts }

func (r *priceResource) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "A price of a product: what one unit costs, once or every period. The service never " +
			"changes what a price charges, so changing `product`, `currency`, `unit_amount`, `interval` or " +
			"`interval_count` replaces it; `nickname`, `lookup_key`, `active` and `metadata` change in place. " +
			"The service cannot delete a price: destroying one archives it (`active = false`), with a warning, and " +
			"it stays at the service. Use `create_before_destroy` with `transfer_lookup_key` so that a replacement " +
			"takes the lookup key of the price it replaces.",
		Attributes: priceResourceAttributes(),
		Blocks: map[string]schema.Block{
			"timeouts": priceTimeouts.block(ctx, "price"),
		},
	}
}

// ValidateConfig refuses at plan time the combinations the service
// refuses: a period longer than the service's longest, an interval_count
// without interval, and transfer_lookup_key without a key to transfer.
func (r *priceResource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var config priceResourceModel
	resp.Diagnostics.Append(getModel(ctx, req.Config, &config)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if config.Interval.IsNull() && !config.IntervalCount.IsNull() {
		resp.Diagnostics.AddAttributeError(path.Root("interval_count"), "Interval Count Without Interval",
			fmt.Sprintf("interval_count needs interval: set interval to one of %s for a recurring price, or remove "+
				"interval_count for a one-time price.", quotedList(wire.Intervals)))
	}
	if !config.Interval.IsNull() && !config.Interval.IsUnknown() && !config.IntervalCount.IsNull() && !config.IntervalCount.IsUnknown() {
		interval, count := config.Interval.ValueString(), config.IntervalCount.ValueInt64()
		if maxCount := wire.IntervalMaxCount(interval); maxCount > 0 && count > int64(maxCount) {
			resp.Diagnostics.AddAttributeError(path.Root("interval_count"), "Invalid Price Period",
				fmt.Sprintf("interval_count = %d with interval = %q is a period longer than the service's longest, %d years. "+
					"Use an interval_count from 1 to %d, or a longer interval.", count, interval, wire.RecurringMaxYears, maxCount))
		}
	}
	if config.TransferLookupKey.ValueBool() && config.LookupKey.IsNull() {
		resp.Diagnostics.AddAttributeError(path.Root("transfer_lookup_key"), "Transfer Without Lookup Key",
			"transfer_lookup_key = true moves a lookup key to this price, but lookup_key is not set. Set lookup_key, "+
				"or remove transfer_lookup_key.")
	}
}

// ModifyPlan plans interval_count, whose default follows interval: 1 for a
// recurring price, null for a one-time one. Changing it replaces the price,
// as for the other fields a price is fixed by.
func (r *priceResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() {
		return // destroy
	}
	var configCount, planCount types.Int64
	var interval types.String
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("interval_count"), &configCount)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if req.Plan.Raw.Equal(req.State.Raw) && (!configCount.IsNull() || r.stateCountIsDefault(ctx, req, resp)) {
		// Nothing to change, nor a removed interval_count to take back to
		// its default: a refresh plan of an unchanged price stops here,
		// before reading plan and state into models.
		return
	}
	resp.Diagnostics.Append(req.Plan.GetAttribute(ctx, path.Root("interval"), &interval)...)
	if resp.Diagnostics.HasError() {
		return
	}
	planCount = configCount
	if configCount.IsNull() {
		switch {
		case interval.IsUnknown():
			planCount = types.Int64Unknown()
		case interval.IsNull():
			planCount = types.Int64Null()
		default:
			planCount = types.Int64Value(1)
		}
	}
	resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("interval_count"), planCount)...)
	if !req.State.Raw.IsNull() {
		var stateCount types.Int64
		resp.Diagnostics.Append(req.State.GetAttribute(ctx, path.Root("interval_count"), &stateCount)...)
		if !resp.Diagnostics.HasError() && !planCount.Equal(stateCount) {
			resp.RequiresReplace = append(resp.RequiresReplace, path.Root("interval_count"))
		}
	}
	if resp.Diagnostics.HasError() {
		return
	}
	r.checkRequestSize(ctx, req, resp)
}

// stateCountIsDefault reports whether the state's interval_count is what
// an unset one plans: 1, or null for a one-time price.
func (r *priceResource) stateCountIsDefault(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) bool {
	var count types.Int64
	resp.Diagnostics.Append(req.State.GetAttribute(ctx, path.Root("interval_count"), &count)...)
	return count.IsNull() || count.ValueInt64() == 1
}

// checkRequestSize refuses, at plan time, a create or update whose request
// body would exceed the service's limit (checkRequestSize): the plan's own
// create, or the update from state when nothing forces a replacement.
func (r *priceResource) checkRequestSize(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	var plan priceResourceModel
	resp.Diagnostics.Append(getModel(ctx, resp.Plan, &plan)...)
	if resp.Diagnostics.HasError() || !allKnown(plan.Product, plan.Currency, plan.UnitAmount, plan.Interval,
		plan.IntervalCount, plan.Nickname, plan.LookupKey, plan.Active, plan.Metadata, plan.TransferLookupKey) {
		return // judged again when Terraform plans with the values known, at apply
	}
	const hint = "Nearly all of it is metadata and the nickname: use fewer keys or shorter values."
	if req.State.Raw.IsNull() || len(resp.RequiresReplace) > 0 {
		params, diags := plan.createParams(ctx, plan.TransferLookupKey.ValueBool())
		resp.Diagnostics.Append(diags...)
		if !resp.Diagnostics.HasError() {
			checkRequestSize(&resp.Diagnostics, "Price", "price", "create", params.EncodedSize(), hint)
		}
		return
	}
	var state priceResourceModel
	resp.Diagnostics.Append(getModel(ctx, req.State, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	params, _, diags := priceUpdateParams(ctx, &plan.priceModel, &state.priceModel, plan.TransferLookupKey.ValueBool())
	resp.Diagnostics.Append(diags...)
	if !resp.Diagnostics.HasError() {
		checkRequestSize(&resp.Diagnostics, "Price", "price", "update", params.EncodedSize(), hint)
	}
}

func (r *priceResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var plan priceResourceModel
	ctx, cancel, ok := priceTimeouts.begin(ctx, opCreate, r.client, req.Plan, &plan, &resp.Diagnostics)
	if !ok {
		return
	}
	defer cancel()

	params, diags := plan.createParams(ctx, plan.TransferLookupKey.ValueBool())
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	p, err := r.client.CreatePrice(ctx, params)
	if err != nil {
		resp.Diagnostics.Append(priceErrorDiagnostics("Error Creating Price", "a new price", err)...)
		return
	}
	tflog.Debug(ctx, "Created price", map[string]any{"id": p.ID})
	resp.Diagnostics.Append(priceKind.setIdentity(ctx, resp.Identity, p.ID)...)

	resp.Diagnostics.Append(plan.fromAPI(p)...)
	resp.Diagnostics.Append(setModel(ctx, &resp.State, &plan)...)
}

func (r *priceResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var state priceResourceModel
	ctx, cancel, ok := priceTimeouts.begin(ctx, opRead, r.client, req.State, &state, &resp.Diagnostics)
	if !ok {
		return
	}
	defer cancel()

	id := state.ID.ValueString()
	resp.Diagnostics.Append(priceKind.setIdentity(ctx, resp.Identity, id)...)
	p, err := r.client.GetPrice(ctx, id)
	if !readFound(ctx, resp, err, "Price", "price "+id) {
		return
	}

	// transfer_lookup_key stays as the state has it.
	resp.Diagnostics.Append(state.fromAPI(p)...)
	resp.Diagnostics.Append(setModel(ctx, &resp.State, &state)...)
}

func (r *priceResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan, state priceResourceModel
	ctx, cancel, ok := priceTimeouts.beginUpdate(ctx, r.client, req, &plan, &state, &resp.Diagnostics)
	if !ok {
		return
	}
	defer cancel()

	params, changed, diags := priceUpdateParams(ctx, &plan.priceModel, &state.priceModel, plan.TransferLookupKey.ValueBool())
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}

	id := state.ID.ValueString()
	var p *client.Price
	var err error
	if changed {
		p, err = r.client.UpdatePrice(ctx, id, params)
	} else {
		// Only transfer_lookup_key or Terraform-side settings changed:
		// read, so that every attribute is still refreshed.
		p, err = r.client.GetPrice(ctx, id)
	}
	if client.IsNotFound(err) {
		resp.Diagnostics.Append(goneDiagnostic("Error Updating Price", "Price "+id, err))
		return
	}
	if err != nil {
		resp.Diagnostics.Append(priceErrorDiagnostics("Error Updating Price", "price "+id, err)...)
		return
	}

	resp.Diagnostics.Append(plan.fromAPI(p)...)
	resp.Diagnostics.Append(setModel(ctx, &resp.State, &plan)...)
	resp.Diagnostics.Append(priceKind.setIdentity(ctx, resp.Identity, id)...)
}

// Delete archives the price: the service has no price delete.
func (r *priceResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state priceResourceModel
	ctx, cancel, ok := priceTimeouts.begin(ctx, opDelete, r.client, req.State, &state, &resp.Diagnostics)
	if !ok {
		return
	}
	defer cancel()

	id := state.ID.ValueString()
	inactive := false
	_, err := r.client.UpdatePrice(ctx, id, &client.PriceUpdateParams{Active: &inactive})
	if client.IsNotFound(err) {
		return
	}
	if err != nil {
		resp.Diagnostics.Append(apiErrorDiagnostic("Error Archiving Price", "price "+id, err))
		return
	}
	tflog.Debug(ctx, "Archived price", map[string]any{"id": id})
	resp.Diagnostics.AddWarning("Price Archived, Not Deleted",
		fmt.Sprintf("The payments service cannot delete a price, so Terraform archived price %s (%s) instead (active = false) "+
			"and forgot it. It stays at the service, archived: nothing new can be bought at it, and its product can "+
			"no longer be deleted, only archived.", id, state.summary()))
}

// summary says what a price charges, as people read it: "5.00 EUR every
// month", "49.00 USD every 3 months", "50.00 USD once". A destroy warns
// once per price, and the ids alone do not tell them apart.
func (m *priceModel) summary() string {
	money := wire.FormatMoney(m.UnitAmount.ValueInt64(), m.Currency.ValueString())
	interval := m.Interval.ValueString()
	switch n := m.IntervalCount.ValueInt64(); {
	case interval == "":
		return money + " once"
	case n > 1:
		return fmt.Sprintf("%s every %d %ss", money, n, interval)
	default:
		return money + " every " + interval
	}
}

// priceParamAttributes maps the service's form parameters to the
// attributes they come from, so that a refusal points at the attribute.
var priceParamAttributes = map[string]string{
	wire.ParamProduct:                "product",
	wire.ParamCurrency:               "currency",
	wire.ParamUnitAmount:             "unit_amount",
	wire.ParamRecurringInterval:      "interval",
	wire.ParamRecurringIntervalCount: "interval_count",
	wire.ParamNickname:               "nickname",
	wire.ParamLookupKey:              "lookup_key",
	wire.ParamActive:                 "active",
	wire.ParamMetadata:               "metadata",
}

// priceErrorDiagnostics is apiErrorDiagnostic, attached to the attribute
// the service named when it refused a parameter.
func priceErrorDiagnostics(summary, object string, err error) diag.Diagnostics {
	return paramErrorDiagnostics(summary, object, err, priceParamAttributes)
}

func (r *priceResource) IdentitySchema(_ context.Context, _ resource.IdentitySchemaRequest, resp *resource.IdentitySchemaResponse) {
	resp.IdentitySchema = priceKind.identitySchema()
}

func (r *priceResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	priceKind.importState(ctx, req, resp)
}
