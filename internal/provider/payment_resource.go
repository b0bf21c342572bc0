package provider

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework-timetypes/timetypes"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/paymentsdev/terraform-provider-payments/internal/client"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// Default timeouts of payments_payment operations. Create, update and
// delete may each take two requests (charge then refund, capture then
// refund, read then refund).
var paymentTimeouts = sameTimeouts(5 * time.Minute)

// Attribute names of payments_payment that code refers to.
const (
	attrPaymentAmount         = "amount"
	attrPaymentCurrency       = "currency"
	attrPaymentCustomer       = "customer"
	attrPaymentSource         = "source"
	attrPaymentSourceWO       = "source_wo"
	attrPaymentSourceWOVer    = "source_wo_version"
	attrPaymentCapture        = "capture"
	attrPaymentAmountRefunded = "amount_refunded"
)

// refundableStatuses are the statuses from which a payment can be refunded.
var refundableStatuses = []string{wire.PaymentStatusApproved, wire.PaymentStatusPartiallyRefunded}

// NewPaymentResource returns the payments_payment resource.
func NewPaymentResource() resource.Resource {
	return &paymentResource{resourceBase{name: "payment"}}
}

// paymentResource is the payments_payment resource.
type paymentResource struct {
	resourceBase
}

func (r *paymentResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var plan paymentResourceModel
	c := r.client
	ctx, cancel, ok := paymentTimeouts.begin(ctx, opCreate, c, req.Plan, &plan, &resp.Diagnostics)
	if !ok {
		return
	}
	defer cancel()

	capture := plan.Capture.ValueBool()
	source := plan.Source
	if source.IsNull() {
		// A write-only value is in the configuration only, never the plan.
		resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root(attrPaymentSourceWO), &source)...)
	}
	params := &client.PaymentParams{
		Amount:      plan.Amount.ValueInt64(),
		Currency:    plan.Currency.ValueString(),
		Customer:    plan.Customer.ValueString(),
		Source:      source.ValueString(),
		Description: plan.Description.ValueString(),
		Capture:     &capture,
	}
	resp.Diagnostics.Append(plan.Metadata.ElementsAs(ctx, &params.Metadata, false)...)
	if resp.Diagnostics.HasError() {
		return
	}
	wantRefunded := plan.AmountRefunded

	pay, err := c.CreatePayment(ctx, params)
	if e, ok := client.AsError(err); ok && e.Type == wire.ErrorTypeCard && e.Payment != "" {
		r.saveDeclined(ctx, c, e, &plan, resp)
		return
	}
	if err != nil {
		resp.Diagnostics.Append(paymentCreateDiagnostic(err))
		return
	}
	tflog.Debug(ctx, "Created payment", map[string]any{"id": pay.ID, "status": pay.Status})

	// Save the payment before anything else can fail, so that it is in
	// state (tainted on error) instead of charged and lost.
	resp.Diagnostics.Append(plan.fromAPI(pay)...)
	resp.Diagnostics.Append(setModel(ctx, &resp.State, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}

	if wantRefunded.IsUnknown() || wantRefunded.IsNull() || wantRefunded.ValueInt64() <= plan.AmountRefunded.ValueInt64() {
		return
	}
	delta := wantRefunded.ValueInt64() - plan.AmountRefunded.ValueInt64()
	pay, err = c.RefundPayment(ctx, pay.ID, &delta)
	if err != nil {
		resp.Diagnostics.Append(apiErrorDiagnostic("Error Refunding Payment",
			fmt.Sprintf("a refund of %s of the new payment %s (status %s; it is saved in state, and amount_refunded shows %d)",
				wire.FormatMoney(delta, pay.Currency), plan.ID.ValueString(), plan.Status.ValueString(), plan.AmountRefunded.ValueInt64()), err))
		return
	}
	resp.Diagnostics.Append(plan.fromAPI(pay)...)
	resp.Diagnostics.Append(setModel(ctx, &resp.State, &plan)...)
}

// saveDeclined records a declined charge in state and fails the apply with
// the decline: the payment exists at the service (402 names it), so it
// must be tracked (Terraform marks it tainted) rather than orphaned.
func (r *paymentResource) saveDeclined(ctx context.Context, c *client.Client, e *client.Error, plan *paymentResourceModel, resp *resource.CreateResponse) {
	declined, err := c.GetPayment(ctx, e.Payment)
	if err == nil {
		resp.Diagnostics.Append(plan.fromAPI(declined)...)
	} else {
		// Keep at least the id; the next refresh fills in the rest.
		plan.ID = types.StringValue(e.Payment)
		plan.Status = types.StringValue(wire.PaymentStatusDeclined)
		plan.nullUnknowns()
		tflog.Warn(ctx, "Reading the declined payment failed; saving its id only", map[string]any{"id": e.Payment, "error": err.Error()})
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, plan)...)
	resp.Diagnostics.AddAttributeError(path.Root(attrPaymentSource), "Payment Declined",
		fmt.Sprintf("The charge was declined: %s\n\nThe declined payment %s exists at the service (payments cannot be "+
			"deleted), so it is kept in state, where Terraform marks it tainted: the next apply replaces it with a new "+
			"charge. Charge another source or customer, or remove the resource from the configuration (destroying it "+
			"keeps the declined payment at the service).", e.Message, e.Payment))
}

// paymentCreateDiagnostic points a refused create at the attribute at
// fault: the service names its form parameter.
func paymentCreateDiagnostic(err error) diag.Diagnostic {
	d := apiErrorDiagnostic("Error Creating Payment", "a new payment", err)
	e, ok := client.AsError(err)
	if !ok {
		return d
	}
	switch {
	case e.Code == wire.ErrorCodeMissingSource:
		return diag.NewAttributeErrorDiagnostic(path.Root(attrPaymentCustomer), d.Summary(),
			"The customer has no default payment method to charge. Attach one with payments_customer_source, "+
				"or set source.\n\n"+d.Detail())
	case e.Code == wire.ErrorCodeTokenInvalid:
		return diag.NewAttributeErrorDiagnostic(path.Root(attrPaymentSource), d.Summary(),
			"The service refused the token. Set source to a payment-method token it accepts.\n\n"+d.Detail())
	case e.Param == attrPaymentCustomer || e.Param == attrPaymentSource || e.Param == attrPaymentAmount || e.Param == attrPaymentCurrency:
		return diag.NewAttributeErrorDiagnostic(path.Root(e.Param), d.Summary(), d.Detail())
	}
	return d
}

func (r *paymentResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var state paymentResourceModel
	c := r.client
	ctx, cancel, ok := paymentTimeouts.begin(ctx, opRead, c, req.State, &state, &resp.Diagnostics)
	if !ok {
		return
	}
	defer cancel()

	id := state.ID.ValueString()
	pay, err := c.GetPayment(ctx, id)
	if !readFound(ctx, resp, err, "Payment", "payment "+id) {
		return
	}
	resp.Diagnostics.Append(state.fromAPI(pay)...)
	if state.RefundOnDestroy.IsNull() {
		// Imported: the setting's default.
		state.RefundOnDestroy = types.BoolValue(false)
	}
	resp.Diagnostics.Append(setModel(ctx, &resp.State, &state)...)
}

func (r *paymentResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan, state paymentResourceModel
	c := r.client
	ctx, cancel, ok := paymentTimeouts.beginUpdate(ctx, c, req, &plan, &state, &resp.Diagnostics)
	if !ok {
		return
	}
	defer cancel()

	id := state.ID.ValueString()
	// fail keeps in state what did happen before the step that failed:
	// the prior state, refreshed from the last answer.
	var last *client.Payment
	fail := func(summary, what string, err error) {
		resp.Diagnostics.Append(apiErrorDiagnostic(summary, what, err))
		if last != nil {
			resp.Diagnostics.Append(state.fromAPI(last)...)
			resp.Diagnostics.Append(setModel(ctx, &resp.State, &state)...)
		}
	}

	params, changed, diags := paymentUpdateParams(ctx, &plan, &state)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	if changed {
		pay, err := c.UpdatePayment(ctx, id, params)
		if err != nil {
			fail("Error Updating Payment", "payment "+id, err)
			return
		}
		last = pay
	}
	if !state.Capture.IsNull() && !state.Capture.ValueBool() && plan.Capture.ValueBool() {
		pay, err := c.CapturePayment(ctx, id, nil)
		if err != nil {
			fail("Error Capturing Payment", "payment "+id, err)
			return
		}
		tflog.Debug(ctx, "Captured payment", map[string]any{"id": id})
		last = pay
	}
	if want := plan.AmountRefunded; !want.IsNull() && !want.IsUnknown() {
		have := state.AmountRefunded.ValueInt64()
		if last != nil && last.AmountRefunded != nil {
			have = *last.AmountRefunded
		}
		if delta := want.ValueInt64() - have; delta > 0 {
			pay, err := c.RefundPayment(ctx, id, &delta)
			if err != nil {
				fail("Error Refunding Payment", fmt.Sprintf("a refund of %s of payment %s", wire.FormatMoney(delta, state.Currency.ValueString()), id), err)
				return
			}
			tflog.Debug(ctx, "Refunded payment", map[string]any{"id": id, "amount": delta})
			last = pay
		}
	}
	if last == nil {
		// Only Terraform-side settings changed (source filled in after an
		// import, refund_on_destroy, timeouts); refresh the rest.
		pay, err := c.GetPayment(ctx, id)
		if err != nil {
			fail("Error Updating Payment", "payment "+id, err)
			return
		}
		last = pay
	}
	resp.Diagnostics.Append(plan.fromAPI(last)...)
	resp.Diagnostics.Append(setModel(ctx, &resp.State, &plan)...)
}

// paymentUpdateParams is the update that takes description and metadata
// from state to plan; changed is false when nothing needs sending.
func paymentUpdateParams(ctx context.Context, plan, state *paymentResourceModel) (*client.PaymentUpdateParams, bool, diag.Diagnostics) {
	params := &client.PaymentUpdateParams{}
	changed := false
	if !plan.Description.Equal(state.Description) {
		v := plan.Description.ValueString() // "" when null: clears it
		params.Description = &v
		changed = true
	}
	var diags diag.Diagnostics
	params.Metadata = metadataChanges(ctx, plan.Metadata, state.Metadata, &diags)
	if diags.HasError() {
		return nil, false, diags
	}
	return params, changed || params.Metadata != nil, diags
}

func (r *paymentResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state paymentResourceModel
	resp.Diagnostics.Append(getModel(ctx, req.State, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	id := state.ID.ValueString()
	if !state.RefundOnDestroy.ValueBool() {
		resp.Diagnostics.AddWarning("Payment Kept At The Service",
			fmt.Sprintf("Payment %s was removed from Terraform's state only: payments cannot be deleted, and the charge "+
				"stands. Set refund_on_destroy = true (and apply) before destroying to refund what is left of a payment.", id))
		return
	}
	c := r.client
	if c == nil {
		resp.Diagnostics.Append(notConfiguredDiagnostic())
		return
	}
	timeout, diags := state.Timeouts.Delete(ctx, paymentTimeouts.Delete)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()

	// Decide on the payment as it is now, not as last refreshed.
	pay, err := c.GetPayment(ctx, id)
	if client.IsNotFound(err) {
		resp.Diagnostics.AddWarning("Payment Not Found", fmt.Sprintf("Payment %s no longer exists for this account; "+
			"there was nothing to refund. It was removed from Terraform's state.", id))
		return
	}
	if err != nil {
		resp.Diagnostics.Append(apiErrorDiagnostic("Error Refunding Payment On Destroy", "payment "+id, err))
		return
	}
	refunded := int64(0)
	if pay.AmountRefunded != nil {
		refunded = *pay.AmountRefunded
	}
	if !slices.Contains(refundableStatuses, pay.Status) || refunded >= pay.Amount {
		resp.Diagnostics.AddWarning("Payment Kept At The Service, Not Refunded", fmt.Sprintf(
			"Payment %s is %s with %s of %s refunded, so there was nothing to refund (only a payment that is %s can be "+
				"refunded). It stays at the service, as payments cannot be deleted, and was removed from Terraform's state.",
			id, pay.Status, wire.FormatMoney(refunded, pay.Currency), wire.FormatMoney(pay.Amount, pay.Currency),
			strings.Join(refundableStatuses, " or ")))
		return
	}
	if _, err := c.RefundPayment(ctx, id, nil); err != nil {
		resp.Diagnostics.Append(apiErrorDiagnostic("Error Refunding Payment On Destroy",
			fmt.Sprintf("a refund of the %s left of payment %s", wire.FormatMoney(pay.Amount-refunded, pay.Currency), id), err))
		return
	}
	tflog.Debug(ctx, "Refunded payment on destroy", map[string]any{"id": id, "amount": pay.Amount - refunded})
	resp.Diagnostics.AddWarning("Payment Refunded And Kept At The Service", fmt.Sprintf(
		"Payment %s was refunded (%s, what was left) because refund_on_destroy = true, and removed from Terraform's "+
			"state. It stays at the service as a refunded payment: payments cannot be deleted.",
		id, wire.FormatMoney(pay.Amount-refunded, pay.Currency)))
}

func (r *paymentResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	if !paymentIDRegexp.MatchString(req.ID) {
		resp.Diagnostics.AddError("Invalid Payment Import ID", fmt.Sprintf(
			"The import ID %s is not a payment id: expected %s, for example %s%s.",
			quoteForError(req.ID), paymentIDShape, wire.PaymentIDPrefix, strings.Repeat("0", wire.IDRandomLength)))
		return
	}
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), req.ID)...)
}

// fromAPI sets every attribute the service knows from its payment, through
// the one mapping of payment_model.go. source is left as configured;
// capture follows the payment where it tells (captured, or only
// authorized) and is otherwise left as it is (pending, declined); empty
// metadata keeps the configuration's spelling ({} or null).
func (m *paymentResourceModel) fromAPI(p *client.Payment) diag.Diagnostics {
	pm, diags := newPaymentModel(p)
	prior := m.Metadata
	m.paymentFields = pm.paymentFields
	var d diag.Diagnostics
	m.Metadata, d = metadataValue(p.Metadata, prior)
	diags.Append(d...)
	if m.AmountRefunded.IsNull() {
		m.AmountRefunded = types.Int64Value(0)
	}
	if m.Captured.IsNull() {
		m.Captured = types.BoolValue(p.Status != wire.PaymentStatusPending && p.Status != wire.PaymentStatusAuthorized &&
			p.Status != wire.PaymentStatusDeclined)
	}
	switch {
	case m.Captured.ValueBool():
		m.Capture = types.BoolValue(true)
	case p.Status == wire.PaymentStatusAuthorized:
		m.Capture = types.BoolValue(false)
	case m.Capture.IsUnknown():
		m.Capture = types.BoolNull()
	}
	m.Brand, m.Last4 = types.StringNull(), types.StringNull()
	if pm.Source != nil {
		m.Brand, m.Last4 = pm.Source.Brand, pm.Source.Last4
	}
	return diags
}

// nullUnknowns turns every unknown computed value into null, for a state
// saved without an answer to fill it.
func (m *paymentResourceModel) nullUnknowns() {
	for _, s := range []*types.String{&m.Status, &m.AuthorizationCode, &m.Brand, &m.Last4} {
		if s.IsUnknown() {
			*s = types.StringNull()
		}
	}
	if m.CreatedAt.IsUnknown() {
		m.CreatedAt = timetypes.NewRFC3339Null()
	}
	for _, b := range []*types.Bool{&m.Captured, &m.Livemode, &m.Capture} {
		if b.IsUnknown() {
			*b = types.BoolNull()
		}
	}
	if m.AmountRefunded.IsUnknown() {
		m.AmountRefunded = types.Int64Null()
	}
}

func (m *paymentResourceModel) timeoutsValue() timeouts.Value { return m.Timeouts }
