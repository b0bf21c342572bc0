package provider

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// ValidateConfig refuses, at plan time, configurations the service would
// refuse or that could never converge.
func (r *paymentResource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var cfg paymentResourceModel
	resp.Diagnostics.Append(getModel(ctx, req.Config, &cfg)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if cfg.Customer.IsNull() && cfg.Source.IsNull() && cfg.SourceWO.IsNull() {
		resp.Diagnostics.AddAttributeError(path.Root(attrPaymentSource), "Missing Payment Source",
			fmt.Sprintf("A payment needs something to charge. Set customer (a customer id: the customer's default "+
				"payment method is charged), source (a payment-method token such as %s), or both (a token or one of "+
				"the customer's %s… ids, charged for that customer).", "tok_visa", wire.SourceIDPrefix))
	}
	if !cfg.Source.IsNull() && !cfg.SourceWO.IsNull() {
		resp.Diagnostics.AddAttributeError(path.Root(attrPaymentSourceWO), "Conflicting Payment Sources",
			"Set source or source_wo, not both. source_wo (with source_wo_version) keeps a single-use token out of "+
				"the state and plan, for example the id of an ephemeral payments_card_token; source is kept in the state.")
	}
	if !cfg.SourceWO.IsNull() && cfg.SourceWOVersion.IsNull() {
		resp.Diagnostics.AddAttributeError(path.Root(attrPaymentSourceWOVer), "Missing Write-Only Version",
			"source_wo is write-only, so Terraform cannot see it change: set source_wo_version (for example 1) "+
				"beside it, and change the version to charge a new source (a new payment).")
	}
	if !cfg.SourceWOVersion.IsNull() && cfg.SourceWO.IsNull() {
		resp.Diagnostics.AddAttributeError(path.Root(attrPaymentSourceWOVer), "Version Without Write-Only Source",
			"source_wo_version versions source_wo; set source_wo too, or remove source_wo_version.")
	}
	if !cfg.Source.IsUnknown() && strings.HasPrefix(cfg.Source.ValueString(), wire.SourceIDPrefix) && cfg.Customer.IsNull() {
		resp.Diagnostics.AddAttributeError(path.Root(attrPaymentSource), "Stored Source Without Customer",
			fmt.Sprintf("source %s is a stored payment method (%s…), which can only be charged together with the "+
				"customer it is attached to. Set customer to that customer's id, or set source to a token.",
				quoteForError(cfg.Source.ValueString()), wire.SourceIDPrefix))
	}
	refunded := cfg.AmountRefunded
	if refunded.IsNull() || refunded.IsUnknown() {
		return
	}
	if !cfg.Capture.IsUnknown() && !cfg.Capture.IsNull() && !cfg.Capture.ValueBool() {
		resp.Diagnostics.AddAttributeError(path.Root(attrPaymentAmountRefunded), "Refund Of An Uncaptured Payment",
			"amount_refunded is set but capture = false: an authorized payment that is not captured cannot be refunded. "+
				"Remove amount_refunded, or set capture = true to capture the payment before refunding it.")
	}
	if !cfg.Amount.IsUnknown() && !cfg.Amount.IsNull() && refunded.ValueInt64() > cfg.Amount.ValueInt64() {
		cur := cfg.Currency.ValueString() // "" while unknown: then minor units only
		resp.Diagnostics.AddAttributeError(path.Root(attrPaymentAmountRefunded), "Refund Above The Amount",
			fmt.Sprintf("amount_refunded is %d%s but the payment's amount is %d%s: at most the whole amount can be refunded. "+
				"Set amount_refunded to a value from 0 to %d.", refunded.ValueInt64(), inMajorUnits(refunded.ValueInt64(), cur),
				cfg.Amount.ValueInt64(), inMajorUnits(cfg.Amount.ValueInt64(), cur), cfg.Amount.ValueInt64()))
	}
}

// inMajorUnits follows an amount in minor units, as the configuration
// writes it, with how people read it: " (9.00 GBP)" after 900. It is ""
// when the currency is not one the provider knows (or not known yet).
func inMajorUnits(minorUnits int64, currency string) string {
	if wire.CheckCurrency(currency) != nil {
		return ""
	}
	return " (" + wire.FormatMoney(minorUnits, currency) + ")"
}

// ModifyPlan guards real money, decides replacement (and warns that it is
// a new charge), and refuses changes the service cannot make in place.
func (r *paymentResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() {
		// Destroy: a refund on destroy moves money too.
		var state paymentResourceModel
		resp.Diagnostics.Append(getModel(ctx, req.State, &state)...)
		if !resp.Diagnostics.HasError() && state.RefundOnDestroy.ValueBool() {
			if d := r.livePaymentDiagnostic("Refunding payment " + state.ID.ValueString() + " on destroy (refund_on_destroy = true)"); d != nil {
				resp.Diagnostics.Append(d)
			}
		}
		return
	}
	var plan paymentResourceModel
	resp.Diagnostics.Append(getModel(ctx, req.Plan, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if req.State.Raw.IsNull() {
		if d := r.livePaymentDiagnostic("Creating a payment"); d != nil {
			resp.Diagnostics.Append(d)
		}
		return
	}
	var state paymentResourceModel
	resp.Diagnostics.Append(getModel(ctx, req.State, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	id := state.ID.ValueString()

	if changed := paymentReplacements(&state, &plan); len(changed) > 0 {
		for _, name := range changed {
			resp.RequiresReplace = append(resp.RequiresReplace, path.Root(name))
		}
		if d := r.livePaymentDiagnostic("Replacing payment " + id + " (a new charge)"); d != nil {
			resp.Diagnostics.Append(d)
		}
		resp.Diagnostics.AddWarning("Replacing Payment Makes A New Charge", replacementDetail(id, changed, &state, &plan))
		return
	}

	capturing := !state.Capture.IsNull() && !state.Capture.ValueBool() && plan.Capture.ValueBool()
	if state.Capture.ValueBool() && !plan.Capture.IsUnknown() && !plan.Capture.ValueBool() {
		resp.Diagnostics.AddAttributeError(path.Root(attrPaymentCapture), "Cannot Uncapture Payment",
			fmt.Sprintf("Payment %s is captured (capture = true, status %s); a capture cannot be undone, so capture "+
				"cannot change to false. Set capture = true, or set amount_refunded to refund the payment.", id, state.Status.ValueString()))
		return
	}
	if capturing {
		if state.Status.ValueString() != wire.PaymentStatusAuthorized {
			resp.Diagnostics.AddAttributeError(path.Root(attrPaymentCapture), "Payment Cannot Be Captured",
				fmt.Sprintf("Payment %s is %s; only an %s payment can be captured, so capture cannot change to true now. "+
					"Keep capture = false until the payment is %s.", id, state.Status.ValueString(),
					wire.PaymentStatusAuthorized, wire.PaymentStatusAuthorized))
			return
		}
		if d := r.livePaymentDiagnostic("Capturing payment " + id); d != nil {
			resp.Diagnostics.Append(d)
		}
		resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("status"), types.StringUnknown())...)
		resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("captured"), types.BoolUnknown())...)
	}

	var configured types.Int64
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root(attrPaymentAmountRefunded), &configured)...)
	if resp.Diagnostics.HasError() || configured.IsNull() || configured.IsUnknown() {
		return
	}
	want, have := configured.ValueInt64(), state.AmountRefunded.ValueInt64()
	switch {
	case want < have:
		resp.Diagnostics.AddAttributeError(path.Root(attrPaymentAmountRefunded), "Cannot Lower Amount Refunded",
			fmt.Sprintf("Payment %s has %s refunded; a refund cannot be undone, so amount_refunded cannot go down to %d%s. "+
				"Set amount_refunded to %d or more (at most %d), or remove it to follow what the service reports.",
				id, wire.FormatMoney(have, state.Currency.ValueString()), want, inMajorUnits(want, state.Currency.ValueString()),
				have, state.Amount.ValueInt64()))
	case want > have:
		status := state.Status.ValueString()
		if !slices.Contains(refundableStatuses, status) && !(capturing && status == wire.PaymentStatusAuthorized) {
			resp.Diagnostics.AddAttributeError(path.Root(attrPaymentAmountRefunded), "Payment Cannot Be Refunded",
				fmt.Sprintf("Payment %s is %s; only a payment that is %s can be refunded, so amount_refunded cannot "+
					"rise to %d now.", id, status, strings.Join(refundableStatuses, " or "), want))
			return
		}
		if d := r.livePaymentDiagnostic(fmt.Sprintf("Refunding %s of payment %s", wire.FormatMoney(want-have, state.Currency.ValueString()), id)); d != nil {
			resp.Diagnostics.Append(d)
		}
		resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("status"), types.StringUnknown())...)
	}
}

// paymentReplacements lists the arguments that are the charge itself (a
// change to any is a new payment, a new charge) whose planned value
// differs from the state. A null source in state is not a difference: the
// payment was imported, and the service never tells the token, so the
// configured value is stored in place.
func paymentReplacements(state, plan *paymentResourceModel) []string {
	var changed []string
	for _, f := range []struct {
		name        string
		state, plan attr.Value
	}{
		{attrPaymentAmount, state.Amount, plan.Amount},
		{attrPaymentCurrency, state.Currency, plan.Currency},
		{attrPaymentCustomer, state.Customer, plan.Customer},
		{attrPaymentSource, state.Source, plan.Source},
		{attrPaymentSourceWOVer, state.SourceWOVersion, plan.SourceWOVersion},
	} {
		if (f.name == attrPaymentSource || f.name == attrPaymentSourceWOVer) && f.state.IsNull() && !f.plan.IsNull() {
			continue
		}
		if !f.state.Equal(f.plan) {
			changed = append(changed, f.name)
		}
	}
	return changed
}

// replacementDetail explains what a replacement does with money.
func replacementDetail(id string, changed []string, state, plan *paymentResourceModel) string {
	show := func(v attr.Value) string {
		if v.IsUnknown() {
			return "(known after apply)"
		}
		if v.IsNull() {
			return "null"
		}
		return v.String()
	}
	var parts []string
	for _, name := range changed {
		var from, to attr.Value
		switch name {
		case attrPaymentAmount:
			from, to = state.Amount, plan.Amount
		case attrPaymentCurrency:
			from, to = state.Currency, plan.Currency
		case attrPaymentCustomer:
			from, to = state.Customer, plan.Customer
		case attrPaymentSourceWOVer:
			from, to = state.SourceWOVersion, plan.SourceWOVersion
		default:
			from, to = state.Source, plan.Source
		}
		parts = append(parts, fmt.Sprintf("%s %s -> %s", name, show(from), show(to)))
	}
	old := "The old payment stays at the service and is not refunded (payments cannot be deleted); " +
		"set refund_on_destroy = true first to refund it when it is replaced."
	if state.RefundOnDestroy.ValueBool() {
		old = "The old payment stays at the service (payments cannot be deleted) and what is left of it is refunded, " +
			"because refund_on_destroy = true."
	}
	charge := show(plan.Amount) + " " + strings.Trim(show(plan.Currency), `"`)
	if !plan.Amount.IsUnknown() && !plan.Amount.IsNull() && !plan.Currency.IsUnknown() && !plan.Currency.IsNull() {
		charge = wire.FormatMoney(plan.Amount.ValueInt64(), plan.Currency.ValueString())
	}
	return fmt.Sprintf("Changing %s replaces payment %s: applying charges %s again as a new payment. %s "+
		"To change only the description or metadata, leave amount, currency, customer and source as they are.",
		strings.Join(parts, ", "), id, charge, old)
}

// currencyValidator accepts the contract's currency codes, exactly: a
// lower-case code is refused with the code to use, not converted.
var currencyValidator = stringCheck{
	markdown: "value must be one of " + strings.Join(wire.Currencies, ", ") + ", in upper case",
	check: func(p path.Path, v string, diags *diag.Diagnostics) {
		if slices.Contains(wire.Currencies, v) {
			return
		}
		if up := strings.ToUpper(v); slices.Contains(wire.Currencies, up) {
			diags.AddAttributeError(p, "Invalid Currency", fmt.Sprintf("Currency codes are upper case: use %q, not %q.", up, v))
			return
		}
		diags.AddAttributeError(p, "Invalid Currency",
			fmt.Sprintf("%s is not a currency the service accepts. Use one of %s (ISO 4217, upper case).",
				quoteForError(v), strings.Join(wire.Currencies, ", ")))
	},
}

// paymentSourceValidator checks the shape of a stored method's id; a
// token's shape is the service's business.
var paymentSourceValidator = stringCheck{
	markdown: "value must be a payment-method token, or a source id: " + sourceIDShape,
	check: func(p path.Path, v string, diags *diag.Diagnostics) {
		if strings.HasPrefix(v, wire.SourceIDPrefix) && !sourceIDRegexp.MatchString(v) {
			diags.AddAttributeError(p, "Invalid Payment Source",
				fmt.Sprintf("source %s starts like a stored payment method's id but is not one: expected %s, or a "+
					"payment-method token such as %s.", quoteForError(v), sourceIDShape, "tok_visa"))
		}
	},
}
