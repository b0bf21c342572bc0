package provider

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
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

// paymentActionTimeout bounds one invocation: a read and one write, each
// retried with backoff.
const paymentActionTimeout = 5 * time.Minute

// paymentActionKind is what a payment action does to the payment.
type paymentActionKind struct {
	name string // type name suffix: payment_capture
	// verb, past and gerund name the action in messages.
	verb, past, gerund string
	// from are the statuses the payment must be in.
	from []string
	// left is how much the action can move at most on p.
	left func(p *client.Payment) int64
	do   func(ctx context.Context, c *client.Client, id string, amount *int64) (*client.Payment, error)
	desc string
	// amountDesc describes the optional amount.
	amountDesc string
}

var (
	paymentCaptureKind = paymentActionKind{
		name: "payment_capture", verb: "capture", past: "captured", gerund: "Capturing",
		from: []string{wire.PaymentStatusAuthorized},
		left: func(p *client.Payment) int64 { return p.Amount },
		do: func(ctx context.Context, c *client.Client, id string, amount *int64) (*client.Payment, error) {
			return c.CapturePayment(ctx, id, amount)
		},
		desc: "Captures an authorized payment (one made with `capture = false`) that Terraform does not manage, " +
			"for example one made by an application under test. Use the `capture` argument of `payments_payment` " +
			"for payments Terraform manages. The payment must be `authorized`. Runs on Terraform 1.14 and later.",
		amountDesc: "How much to capture, in the currency's minor unit, at most the authorized amount. " +
			"Less than that captures part and releases the rest; the payment's amount becomes the captured amount. " +
			"Defaults to the whole authorized amount.",
	}
	paymentRefundKind = paymentActionKind{
		name: "payment_refund", verb: "refund", past: "refunded", gerund: "Refunding",
		from: refundableStatuses,
		left: func(p *client.Payment) int64 {
			if p.AmountRefunded == nil {
				return p.Amount
			}
			return p.Amount - *p.AmountRefunded
		},
		do: func(ctx context.Context, c *client.Client, id string, amount *int64) (*client.Payment, error) {
			return c.RefundPayment(ctx, id, amount)
		},
		desc: "Refunds a payment that Terraform does not manage, in whole or in part, for example to reset a test " +
			"environment's payments made by an application under test. Use the `amount_refunded` argument of " +
			"`payments_payment` for payments Terraform manages. The payment must be `approved` or " +
			"`partially_refunded`. Runs on Terraform 1.14 and later.",
		amountDesc: "How much to refund, in the currency's minor unit, at most what is left unrefunded. " +
			"Defaults to everything that is left.",
	}
)

// NewPaymentCaptureAction returns the payments_payment_capture action.
func NewPaymentCaptureAction() action.Action { return newPaymentAction(paymentCaptureKind) }

// NewPaymentRefundAction returns the payments_payment_refund action.
func NewPaymentRefundAction() action.Action { return newPaymentAction(paymentRefundKind) }

func newPaymentAction(kind paymentActionKind) *paymentAction {
	return &paymentAction{actionBase{name: kind.name}, kind}
}

// paymentAction is payments_payment_capture or payments_payment_refund.
type paymentAction struct {
	actionBase
	kind paymentActionKind
}

// paymentActionModel is the configuration of both payment actions.
type paymentActionModel struct {
	Payment types.String `tfsdk:"payment"`
	Amount  types.Int64  `tfsdk:"amount"`
}

func (a *paymentAction) Schema(_ context.Context, _ action.SchemaRequest, resp *action.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: a.kind.desc + fmt.Sprintf(" With a live key, the provider needs `%s = true`. "+
			"An invocation may take up to %s, retries included.", attrAllowLivePayments, client.FormatDuration(paymentActionTimeout)),
		Attributes: map[string]schema.Attribute{
			"payment": schema.StringAttribute{
				MarkdownDescription: fmt.Sprintf("The identifier of the payment to %s: %s.", a.kind.verb, paymentIDShape),
				Required:            true,
				Validators: []validator.String{
					stringvalidator.RegexMatches(paymentIDRegexp, "must be a payment id: "+paymentIDShape),
				},
			},
			"amount": schema.Int64Attribute{
				MarkdownDescription: a.kind.amountDesc,
				Optional:            true,
				Validators:          []validator.Int64{int64validator.Between(wire.PaymentAmountMin, wire.PaymentAmountMax)},
			},
		},
	}
}

// ModifyPlan refuses, at plan time, an invocation that would move real
// money without allow_live_payments.
func (a *paymentAction) ModifyPlan(ctx context.Context, req action.ModifyPlanRequest, resp *action.ModifyPlanResponse) {
	var cfg paymentActionModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	if resp.Diagnostics.HasError() {
		return
	}
	what := fmt.Sprintf("%s payment %s", a.verbing(), cfg.Payment.ValueString())
	if cfg.Payment.IsUnknown() {
		what = a.verbing() + " a payment"
	}
	if d := a.livePaymentDiagnostic(what); d != nil {
		resp.Diagnostics.Append(d)
	}
}

// verbing is "Capturing" or "Refunding".
func (a *paymentAction) verbing() string { return a.kind.gerund }

func (a *paymentAction) Invoke(ctx context.Context, req action.InvokeRequest, resp *action.InvokeResponse) {
	var cfg paymentActionModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if a.client == nil {
		resp.Diagnostics.Append(notConfiguredDiagnostic())
		return
	}
	if d := a.livePaymentDiagnostic(a.verbing() + " payment " + cfg.Payment.ValueString()); d != nil {
		resp.Diagnostics.Append(d)
		return
	}
	c := a.client
	ctx, cancel := context.WithTimeout(ctx, paymentActionTimeout)
	defer cancel()
	progress := func(format string, args ...any) {
		msg := fmt.Sprintf(format, args...)
		tflog.Debug(ctx, msg)
		if resp.SendProgress != nil {
			resp.SendProgress(action.InvokeProgressEvent{Message: msg})
		}
	}
	summary := fmt.Sprintf("Error %s Payment", a.verbing())

	id := cfg.Payment.ValueString()
	progress("Reading payment %s", id)
	pay, err := c.GetPayment(ctx, id)
	if client.IsNotFound(err) {
		resp.Diagnostics.AddAttributeError(path.Root("payment"), summary,
			fmt.Sprintf("No payment %s exists for the account of the configured key. Check the id and the provider's key.", id))
		return
	}
	if err != nil {
		resp.Diagnostics.Append(apiErrorDiagnostic(summary, "payment "+id, err))
		return
	}
	if !slices.Contains(a.kind.from, pay.Status) {
		resp.Diagnostics.AddAttributeError(path.Root("payment"), summary,
			fmt.Sprintf("Payment %s is %s; only a payment that is %s can be %s. Nothing was changed.",
				id, pay.Status, strings.Join(a.kind.from, " or "), a.kind.past))
		return
	}
	left := a.kind.left(pay)
	var amount *int64
	if !cfg.Amount.IsNull() {
		v := cfg.Amount.ValueInt64()
		if v > left {
			resp.Diagnostics.AddAttributeError(path.Root("amount"), summary,
				fmt.Sprintf("amount is %d (%s), but at most %s of payment %s can be %s. Set amount to at most %d, "+
					"or remove it to %s all of it. Nothing was changed.", v, wire.FormatMoney(v, pay.Currency),
					wire.FormatMoney(left, pay.Currency), id, a.kind.past, left, a.kind.verb))
			return
		}
		amount = &v
		left = v
	}
	progress("%s %s of payment %s (status %s)", a.verbing(), wire.FormatMoney(left, pay.Currency), id, pay.Status)
	after, err := a.kind.do(ctx, c, id, amount)
	if err != nil {
		resp.Diagnostics.Append(apiErrorDiagnostic(summary, fmt.Sprintf("a %s of %s of payment %s", a.kind.verb, wire.FormatMoney(left, pay.Currency), id), err))
		return
	}
	refunded := int64(0)
	if after.AmountRefunded != nil {
		refunded = *after.AmountRefunded
	}
	progress("Payment %s is now %s: amount %s, %s refunded", id, after.Status,
		wire.FormatMoney(after.Amount, after.Currency), wire.FormatMoney(refunded, after.Currency))
}
