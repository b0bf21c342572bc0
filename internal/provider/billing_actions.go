package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/action/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/paymentsdev/terraform-provider-payments/internal/client"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

var (
	_ action.ActionWithConfigure  = (*subscriptionCancelAction)(nil)
	_ action.ActionWithConfigure  = (*invoicePayAction)(nil)
	_ action.ActionWithModifyPlan = (*invoicePayAction)(nil)
)

// NewSubscriptionCancelAction returns the payments_subscription_cancel action.
func NewSubscriptionCancelAction() action.Action {
	return &subscriptionCancelAction{actionBase{name: "subscription_cancel"}}
}

// subscriptionCancelAction cancels a subscription Terraform does not manage.
type subscriptionCancelAction struct {
	actionBase
}

// subscriptionCancelModel is payments_subscription_cancel's configuration.
type subscriptionCancelModel struct {
	Subscription types.String `tfsdk:"subscription"`
	At           types.String `tfsdk:"at"`
}

func (a *subscriptionCancelAction) Schema(_ context.Context, _ action.SchemaRequest, resp *action.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Cancels a subscription that Terraform does not manage, for example one made by an " +
			"application under test: at once, or at the end of the period it is in. Use `cancel_at_period_end` or a " +
			"destroy of `payments_subscription` for subscriptions Terraform manages. Runs on Terraform 1.14 and " +
			fmt.Sprintf("later. An invocation may take up to %s, retries included.", client.FormatDuration(paymentActionTimeout)),
		Attributes: map[string]schema.Attribute{
			"subscription": schema.StringAttribute{
				MarkdownDescription: fmt.Sprintf("The identifier of the subscription to cancel: %s.", subscriptionIDShape),
				Required:            true,
				Validators: []validator.String{
					stringvalidator.RegexMatches(subscriptionIDRegexp, "must be a subscription id: "+subscriptionIDShape),
				},
			},
			"at": schema.StringAttribute{
				MarkdownDescription: fmt.Sprintf("When it ends: `%s` (the default) cancels it now; `%s` lets it run to "+
					"the end of its current period and not renew.", cancelImmediately, cancelAtPeriodEnd),
				Optional:   true,
				Validators: []validator.String{stringvalidator.OneOf(cancelOnDestroyValues...)},
			},
		},
	}
}

func (a *subscriptionCancelAction) Invoke(ctx context.Context, req action.InvokeRequest, resp *action.InvokeResponse) {
	var cfg subscriptionCancelModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if a.client == nil {
		resp.Diagnostics.Append(notConfiguredDiagnostic())
		return
	}
	ctx, cancel := context.WithTimeout(ctx, paymentActionTimeout)
	defer cancel()
	id := cfg.Subscription.ValueString()
	var s *client.Subscription
	var err error
	if cfg.At.ValueString() == cancelAtPeriodEnd {
		s, err = a.client.UpdateSubscription(ctx, id, &client.SubscriptionUpdateParams{CancelAtPeriodEnd: new(true)})
	} else {
		s, err = a.client.CancelSubscription(ctx, id)
	}
	const summary = "Error Canceling Subscription"
	switch {
	case client.IsNotFound(err):
		resp.Diagnostics.AddAttributeError(path.Root("subscription"), summary,
			fmt.Sprintf("No subscription %s exists for the account of the configured key. Check the id and the provider's key.", id))
		return
	case client.HasCode(err, wire.ErrorCodeSubscriptionUnexpectedState):
		resp.Diagnostics.AddAttributeError(path.Root("subscription"), summary,
			fmt.Sprintf("Subscription %s has ended already (canceled or incomplete_expired). Nothing was changed.", id))
		return
	case err != nil:
		resp.Diagnostics.Append(apiErrorDiagnostic(summary, "subscription "+id, err))
		return
	}
	msg := fmt.Sprintf("Subscription %s is now %s", id, s.Status)
	if s.CancelAtPeriodEnd && s.Status != wire.SubscriptionStatusCanceled {
		msg += ", ending at " + s.CurrentPeriodEnd
	}
	tflog.Debug(ctx, msg)
	if resp.SendProgress != nil {
		resp.SendProgress(action.InvokeProgressEvent{Message: msg})
	}
}

// NewInvoicePayAction returns the payments_invoice_pay action.
func NewInvoicePayAction() action.Action {
	return &invoicePayAction{actionBase{name: "invoice_pay"}}
}

// invoicePayAction attempts the payment of an open invoice now.
type invoicePayAction struct {
	actionBase
}

// invoicePayModel is payments_invoice_pay's configuration.
type invoicePayModel struct {
	Invoice types.String `tfsdk:"invoice"`
}

func (a *invoicePayAction) Schema(_ context.Context, _ action.SchemaRequest, resp *action.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Attempts the payment of an open invoice now, rather than at its next retry, for example " +
			"after a new card was stored for a `past_due` subscription. A declined attempt is an error of the action naming " +
			"the invoice and the declined payment; the attempt counts all the same (the invoice stays unpaid, one attempt " +
			"more). The invoice must be `open`, or " +
			"`uncollectible` once its retries ran out: paid, it makes an `unpaid` or `past_due` subscription `active` again. " +
			fmt.Sprintf("With a live key, the provider needs `%s = true`. Runs on Terraform 1.14 and later. An "+
				"invocation may take up to %s, retries included.", attrAllowLivePayments, client.FormatDuration(paymentActionTimeout)),
		Attributes: map[string]schema.Attribute{
			"invoice": schema.StringAttribute{
				MarkdownDescription: fmt.Sprintf("The identifier of the invoice to pay: %s.", invoiceIDShape),
				Required:            true,
				Validators: []validator.String{
					stringvalidator.RegexMatches(invoiceIDRegexp, "must be an invoice id: "+invoiceIDShape),
				},
			},
		},
	}
}

// ModifyPlan refuses, at plan time, an invocation that would move real
// money without allow_live_payments.
func (a *invoicePayAction) ModifyPlan(ctx context.Context, req action.ModifyPlanRequest, resp *action.ModifyPlanResponse) {
	var cfg invoicePayModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if d := a.livePaymentDiagnostic("Paying invoice " + cfg.Invoice.ValueString()); d != nil {
		resp.Diagnostics.Append(d)
	}
}

func (a *invoicePayAction) Invoke(ctx context.Context, req action.InvokeRequest, resp *action.InvokeResponse) {
	var cfg invoicePayModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if a.client == nil {
		resp.Diagnostics.Append(notConfiguredDiagnostic())
		return
	}
	id := cfg.Invoice.ValueString()
	if d := a.livePaymentDiagnostic("Paying invoice " + id); d != nil {
		resp.Diagnostics.Append(d)
		return
	}
	ctx, cancel := context.WithTimeout(ctx, paymentActionTimeout)
	defer cancel()
	const summary = "Error Paying Invoice"
	inv, err := a.client.PayInvoice(ctx, id)
	switch {
	case client.IsNotFound(err):
		resp.Diagnostics.AddAttributeError(path.Root("invoice"), summary,
			fmt.Sprintf("No invoice %s exists for the account of the configured key. Check the id and the provider's key.", id))
		return
	case client.IsCardError(err):
		payment := "a declined payment"
		if e, ok := client.AsError(err); ok && e.Payment != "" {
			payment = "payment " + e.Payment
		}
		resp.Diagnostics.AddAttributeError(path.Root("invoice"), summary,
			fmt.Sprintf("The card was declined: invoice %s stays unpaid, and this attempt, %s, counts toward its "+
				"attempt_count. Store another card for the invoice's customer (or set the subscription's default "+
				"source), then pay it again. The service said: %s", id, payment, err))
		return
	case client.HasCode(err, wire.ErrorCodeInvoiceUnexpectedState):
		resp.Diagnostics.AddAttributeError(path.Root("invoice"), summary,
			fmt.Sprintf("Invoice %s is not open or uncollectible (paid or void already, or its payment still waits for "+
				"3-D Secure), so it cannot be paid. Nothing was charged. The service said: %s", id, err))
		return
	case err != nil:
		resp.Diagnostics.Append(apiErrorDiagnostic(summary, "invoice "+id, err))
		return
	}
	msg := fmt.Sprintf("Invoice %s is %s after attempt %d: %s paid of %s", id, inv.Status, inv.AttemptCount,
		wire.FormatMoney(inv.AmountPaid, inv.Currency), wire.FormatMoney(inv.AmountDue, inv.Currency))
	tflog.Debug(ctx, msg)
	if resp.SendProgress != nil {
		resp.SendProgress(action.InvokeProgressEvent{Message: msg})
	}
}
