package provider

import (
	"context"
	"fmt"
	"github.com/hashicorp/terraform-plugin-framework-timetypes/timetypes"
	"slices"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/mapvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/boolplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/int64planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/paymentsdev/terraform-provider-payments/internal/client"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

var (
	_ resource.Resource                   = (*paymentResource)(nil)
	_ resource.ResourceWithConfigure      = (*paymentResource)(nil)
	_ resource.ResourceWithImportState    = (*paymentResource)(nil)
	_ resource.ResourceWithModifyPlan     = (*paymentResource)(nil)
	_ resource.ResourceWithValidateConfig = (*paymentResource)(nil)
)

// Default timeouts of payments_payment operations. Create, update and
// delete may each take two requests (charge then refund, capture then
// refund, read then refund).
var paymentTimeouts = resourceTimeouts{
	Create: 5 * time.Minute,
	Read:   5 * time.Minute,
	Update: 5 * time.Minute,
	Delete: 5 * time.Minute,
}

// Attribute names of payments_payment that code refers to.
const (
	attrPaymentAmount         = "amount"
	attrPaymentCurrency       = "currency"
	attrPaymentCustomer       = "customer"
	attrPaymentSource         = "source"
	attrPaymentCapture        = "capture"
	attrPaymentAmountRefunded = "amount_refunded"
)

// refundableStatuses are the statuses from which a payment can be refunded.
var refundableStatuses = []string{wire.PaymentStatusApproved, wire.PaymentStatusPartiallyRefunded}

// NewPaymentResource returns the payments_payment resource.
func NewPaymentResource() resource.Resource {
	return &paymentResource{}
}

// paymentResource is the payments_payment resource.
type paymentResource struct {
	data *providerData
}

// paymentResourceModel is payments_payment's state. Source is what the
// configuration gave (a token or a src_ id), because the service answers
// with a one-off src_ id for a token: it is null after an import until the
// next apply fills it in place. Capture and RefundOnDestroy are settings;
// Capture is refreshed from the payment where the payment tells it.
type paymentResourceModel struct {
	ID                types.String      `tfsdk:"id"`
	Amount            types.Int64       `tfsdk:"amount"`
	Currency          types.String      `tfsdk:"currency"`
	Customer          types.String      `tfsdk:"customer"`
	Source            types.String      `tfsdk:"source"`
	Description       types.String      `tfsdk:"description"`
	Metadata          types.Map         `tfsdk:"metadata"`
	Capture           types.Bool        `tfsdk:"capture"`
	AmountRefunded    types.Int64       `tfsdk:"amount_refunded"`
	RefundOnDestroy   types.Bool        `tfsdk:"refund_on_destroy"`
	Status            types.String      `tfsdk:"status"`
	Captured          types.Bool        `tfsdk:"captured"`
	AuthorizationCode types.String      `tfsdk:"authorization_code"`
	Brand             types.String      `tfsdk:"brand"`
	Last4             types.String      `tfsdk:"last4"`
	CreatedAt         timetypes.RFC3339 `tfsdk:"created_at"`
	Livemode          types.Bool        `tfsdk:"livemode"`
	Timeouts          timeouts.Value    `tfsdk:"timeouts"`
}

func (r *paymentResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_payment"
}

func (r *paymentResource) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "A payment: one charge of a card, by token or through a customer. " +
			"Meant for seeding test environments with a payment history. " +
			"`description` and `metadata` change in place; `capture` can go from `false` to `true` (a capture) and " +
			"`amount_refunded` can grow (a refund), in place. Any change to `amount`, `currency`, `customer` or " +
			"`source` replaces the payment, which is a new charge; the plan warns when it does. " +
			"Payments cannot be deleted: destroying one keeps it at the service, refunded first when " +
			"`refund_on_destroy = true`. With a live key, the provider needs `allow_live_payments = true`.",
		Attributes: map[string]schema.Attribute{
			attrPaymentAmount: schema.Int64Attribute{
				MarkdownDescription: fmt.Sprintf("The amount to charge, in the currency's minor unit (cents for `USD`), "+
					"from %d to %d. Changing it replaces the payment (a new charge).", wire.PaymentAmountMin, wire.PaymentAmountMax),
				Required:   true,
				Validators: []validator.Int64{int64validator.Between(wire.PaymentAmountMin, wire.PaymentAmountMax)},
			},
			attrPaymentCurrency: schema.StringAttribute{
				MarkdownDescription: "The ISO 4217 currency code, in upper case: " + quotedList(wire.Currencies) +
					". Changing it replaces the payment (a new charge).",
				Required:   true,
				Validators: []validator.String{currencyValidator{}},
			},
			attrPaymentCustomer: schema.StringAttribute{
				MarkdownDescription: fmt.Sprintf("The customer to charge (%s). Without `source`, the customer's default "+
					"payment method is charged. At least one of `customer` and `source` must be set. "+
					"Changing it replaces the payment (a new charge).", customerIDShape),
				Optional: true,
				Validators: []validator.String{
					stringvalidator.RegexMatches(customerIDRegexp, "must be a customer id: "+customerIDShape),
				},
			},
			attrPaymentSource: schema.StringAttribute{
				MarkdownDescription: fmt.Sprintf("What to charge: a payment-method token (for example `%s` in the sandbox), "+
					"or one of the customer's stored methods (%s, with `customer` set). At least one of `customer` and "+
					"`source` must be set. The service does not return a token, so the state keeps the configured value; "+
					"after an import it is null until the next apply stores the configured value, in place. "+
					"Changing it otherwise replaces the payment (a new charge).", "tok_visa", sourceIDShape),
				Optional:   true,
				Validators: []validator.String{stringvalidator.LengthAtLeast(1), paymentSourceValidator{}},
			},
			"description": schema.StringAttribute{
				MarkdownDescription: "Free text about the payment, at least 1 character. Changes in place; removing it clears it at the service.",
				Optional:            true,
				Validators:          []validator.String{stringvalidator.LengthAtLeast(1)},
			},
			"metadata": schema.MapAttribute{
				MarkdownDescription: fmt.Sprintf("Your own key-value pairs about the payment: at most %d keys, "+
					"each of 1 to %d characters without square brackets, with a value of 1 to %d characters. "+
					"Changes in place; keys removed from the configuration, or added outside of Terraform, are deleted at the service.",
					wire.MetadataMaxKeys, wire.MetadataKeyMaxLength, wire.MetadataValueMaxLength),
				ElementType: types.StringType,
				Optional:    true,
				Validators:  metadataValidators(),
			},
			attrPaymentCapture: schema.BoolAttribute{
				MarkdownDescription: "Whether the charge is captured. `false` only authorizes it (status `authorized`); " +
					"changing it to `true` later captures the payment in place. A captured payment cannot be " +
					"uncaptured, so changing `true` to `false` is refused at plan time. Defaults to `true`.",
				Optional:      true,
				Computed:      true,
				Default:       booldefault.StaticBool(true),
				PlanModifiers: []planmodifier.Bool{boolplanmodifier.UseStateForUnknown()},
			},
			attrPaymentAmountRefunded: schema.Int64Attribute{
				MarkdownDescription: "How much of the amount is refunded, in the currency's minor unit. Set it to refund: " +
					"raising it refunds the difference in place. It cannot be lowered (a refund cannot be undone), " +
					"exceed `amount`, or be set with `capture = false`; such plans are refused. " +
					"Left unset, it shows what the service reports, refunds made outside of Terraform included.",
				Optional:      true,
				Computed:      true,
				Validators:    []validator.Int64{int64validator.Between(0, wire.PaymentAmountMax)},
				PlanModifiers: []planmodifier.Int64{int64planmodifier.UseStateForUnknown()},
			},
			"refund_on_destroy": schema.BoolAttribute{
				MarkdownDescription: "Whether destroying the resource refunds what is left of the payment. " +
					"Payments cannot be deleted: with `false` (the default) destroying only removes the payment from " +
					"Terraform's state and the charge stands, with a warning; with `true` it is refunded first " +
					"(nothing is done when nothing is refundable, for example a payment that is declined, pending, " +
					"only authorized, disputed or already refunded; the warning says which).",
				Optional: true,
				Computed: true,
				Default:  booldefault.StaticBool(false),
			},
			"id": schema.StringAttribute{
				MarkdownDescription: fmt.Sprintf("The payment's identifier: %s.", paymentIDShape),
				Computed:            true,
				PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"status": schema.StringAttribute{
				MarkdownDescription: "The state of the payment: " + quotedList(wire.PaymentStatuses) + ". " +
					"A payment that needs 3-D Secure is `pending` until the bank finishes it.",
				Computed:      true,
				PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"captured": schema.BoolAttribute{
				MarkdownDescription: "Whether the charge has been captured.",
				Computed:            true,
				PlanModifiers:       []planmodifier.Bool{boolplanmodifier.UseStateForUnknown()},
			},
			"authorization_code": schema.StringAttribute{
				MarkdownDescription: "The authorization code the card issuer returned. Null while the payment is `pending` and when it was `declined`.",
				Computed:            true,
				PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"brand": schema.StringAttribute{
				MarkdownDescription: "The brand of the card charged, for example `visa`.",
				Computed:            true,
				PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"last4": schema.StringAttribute{
				MarkdownDescription: "The last four digits of the card charged.",
				Computed:            true,
				PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"created_at": schema.StringAttribute{
				MarkdownDescription: "When the payment was created, as an RFC 3339 UTC timestamp.",
				CustomType:          timetypes.RFC3339Type{},
				Computed:            true,
				PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"livemode": schema.BoolAttribute{
				MarkdownDescription: "Whether the payment was made with a live key (`true`) or a sandbox key (`false`).",
				Computed:            true,
				PlanModifiers:       []planmodifier.Bool{boolplanmodifier.UseStateForUnknown()},
			},
		},
		Blocks: map[string]schema.Block{
			"timeouts": paymentTimeouts.block(ctx, "payment"),
		},
	}
}

// metadataValidators are the wire contract's metadata rules, checked at
// plan time; payments_customer applies the same.
func metadataValidators() []validator.Map {
	return []validator.Map{
		mapvalidator.SizeAtMost(wire.MetadataMaxKeys),
		mapvalidator.KeysAre(
			stringvalidator.UTF8LengthBetween(1, wire.MetadataKeyMaxLength),
			stringvalidator.RegexMatches(metadataKeyRegexp, "must not contain square brackets"),
		),
		mapvalidator.ValueStringsAre(
			notEmptyMetadataValueValidator{},
			stringvalidator.UTF8LengthAtMost(wire.MetadataValueMaxLength),
		),
	}
}

func (r *paymentResource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	r.data = providerDataFrom(req.ProviderData, &resp.Diagnostics)
}

// client is the API client, or nil before the provider is configured.
func (r *paymentResource) client() *client.Client {
	if r.data == nil {
		return nil
	}
	return r.data.client
}

// ValidateConfig refuses, at plan time, configurations the service would
// refuse or that could never converge.
func (r *paymentResource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var cfg paymentResourceModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if cfg.Customer.IsNull() && cfg.Source.IsNull() {
		resp.Diagnostics.AddAttributeError(path.Root(attrPaymentSource), "Missing Payment Source",
			fmt.Sprintf("A payment needs something to charge. Set customer (a customer id: the customer's default "+
				"payment method is charged), source (a payment-method token such as %s), or both (a token or one of "+
				"the customer's %s… ids, charged for that customer).", "tok_visa", wire.SourceIDPrefix))
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
		resp.Diagnostics.AddAttributeError(path.Root(attrPaymentAmountRefunded), "Refund Above The Amount",
			fmt.Sprintf("amount_refunded is %d but the payment's amount is %d: at most the whole amount can be refunded. "+
				"Set amount_refunded to a value from 0 to %d.", refunded.ValueInt64(), cfg.Amount.ValueInt64(), cfg.Amount.ValueInt64()))
	}
}

// ModifyPlan guards real money, decides replacement (and warns that it is
// a new charge), and refuses changes the service cannot make in place.
func (r *paymentResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() {
		// Destroy: a refund on destroy moves money too.
		var state paymentResourceModel
		resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
		if !resp.Diagnostics.HasError() && state.RefundOnDestroy.ValueBool() {
			if d := r.data.livePaymentDiagnostic("Refunding payment " + state.ID.ValueString() + " on destroy (refund_on_destroy = true)"); d != nil {
				resp.Diagnostics.Append(d)
			}
		}
		return
	}
	var plan paymentResourceModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if req.State.Raw.IsNull() {
		if d := r.data.livePaymentDiagnostic("Creating a payment"); d != nil {
			resp.Diagnostics.Append(d)
		}
		return
	}
	var state paymentResourceModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	id := state.ID.ValueString()

	if changed := paymentReplacements(&state, &plan); len(changed) > 0 {
		for _, name := range changed {
			resp.RequiresReplace = append(resp.RequiresReplace, path.Root(name))
		}
		if d := r.data.livePaymentDiagnostic("Replacing payment " + id + " (a new charge)"); d != nil {
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
		if d := r.data.livePaymentDiagnostic("Capturing payment " + id); d != nil {
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
			fmt.Sprintf("Payment %s has %d refunded; a refund cannot be undone, so amount_refunded cannot go down to %d. "+
				"Set amount_refunded to %d or more (at most %d), or remove it to follow what the service reports.",
				id, have, want, have, state.Amount.ValueInt64()))
	case want > have:
		status := state.Status.ValueString()
		if !slices.Contains(refundableStatuses, status) && !(capturing && status == wire.PaymentStatusAuthorized) {
			resp.Diagnostics.AddAttributeError(path.Root(attrPaymentAmountRefunded), "Payment Cannot Be Refunded",
				fmt.Sprintf("Payment %s is %s; only a payment that is %s can be refunded, so amount_refunded cannot "+
					"rise to %d now.", id, status, strings.Join(refundableStatuses, " or "), want))
			return
		}
		if d := r.data.livePaymentDiagnostic(fmt.Sprintf("Refunding %d of payment %s", want-have, id)); d != nil {
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
	} {
		if f.name == attrPaymentSource && f.state.IsNull() {
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
	return fmt.Sprintf("Changing %s replaces payment %s: applying charges %s %s again as a new payment. %s "+
		"To change only the description or metadata, leave amount, currency, customer and source as they are.",
		strings.Join(parts, ", "), id, show(plan.Amount), strings.Trim(show(plan.Currency), `"`), old)
}

func (r *paymentResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var plan paymentResourceModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	c := r.client()
	if c == nil {
		resp.Diagnostics.Append(notConfiguredDiagnostic())
		return
	}
	timeout, diags := plan.Timeouts.Create(ctx, paymentTimeouts.Create)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()

	capture := plan.Capture.ValueBool()
	params := &client.PaymentParams{
		Amount:      plan.Amount.ValueInt64(),
		Currency:    plan.Currency.ValueString(),
		Customer:    plan.Customer.ValueString(),
		Source:      plan.Source.ValueString(),
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
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
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
			fmt.Sprintf("a refund of %d of the new payment %s (status %s; it is saved in state, and amount_refunded shows %d)",
				delta, plan.ID.ValueString(), plan.Status.ValueString(), plan.AmountRefunded.ValueInt64()), err))
		return
	}
	resp.Diagnostics.Append(plan.fromAPI(pay)...)
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
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
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	c := r.client()
	if c == nil {
		resp.Diagnostics.Append(notConfiguredDiagnostic())
		return
	}
	timeout, diags := state.Timeouts.Read(ctx, paymentTimeouts.Read)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()

	id := state.ID.ValueString()
	pay, err := c.GetPayment(ctx, id)
	if client.IsNotFound(err) {
		tflog.Warn(ctx, "Payment not found; removing it from state so that it is planned for creation", map[string]any{"id": id})
		resp.State.RemoveResource(ctx)
		return
	}
	if err != nil {
		resp.Diagnostics.Append(apiErrorDiagnostic("Error Reading Payment", "payment "+id, err))
		return
	}
	resp.Diagnostics.Append(state.fromAPI(pay)...)
	if state.RefundOnDestroy.IsNull() {
		// Imported: the setting's default.
		state.RefundOnDestroy = types.BoolValue(false)
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
}

func (r *paymentResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan, state paymentResourceModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	c := r.client()
	if c == nil {
		resp.Diagnostics.Append(notConfiguredDiagnostic())
		return
	}
	timeout, diags := plan.Timeouts.Update(ctx, paymentTimeouts.Update)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()

	id := state.ID.ValueString()
	// fail keeps in state what did happen before the step that failed:
	// the prior state, refreshed from the last answer.
	var last *client.Payment
	fail := func(summary, what string, err error) {
		resp.Diagnostics.Append(apiErrorDiagnostic(summary, what, err))
		if last != nil {
			resp.Diagnostics.Append(state.fromAPI(last)...)
			resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
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
				fail("Error Refunding Payment", fmt.Sprintf("a refund of %d of payment %s", delta, id), err)
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
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
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
	var want, have map[string]string
	var diags diag.Diagnostics
	diags.Append(plan.Metadata.ElementsAs(ctx, &want, false)...)
	diags.Append(state.Metadata.ElementsAs(ctx, &have, false)...)
	if diags.HasError() {
		return nil, false, diags
	}
	delta := map[string]string{}
	for k, v := range want {
		if old, ok := have[k]; !ok || old != v {
			delta[k] = v
		}
	}
	for k := range have {
		if _, ok := want[k]; !ok {
			delta[k] = "" // deletes the key at the service
		}
	}
	if len(delta) > 0 {
		params.Metadata = delta
		changed = true
	}
	return params, changed, diags
}

func (r *paymentResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state paymentResourceModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
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
	c := r.client()
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
			"Payment %s is %s with %d of %d refunded, so there was nothing to refund (only a payment that is %s can be "+
				"refunded). It stays at the service, as payments cannot be deleted, and was removed from Terraform's state.",
			id, pay.Status, refunded, pay.Amount, strings.Join(refundableStatuses, " or ")))
		return
	}
	if _, err := c.RefundPayment(ctx, id, nil); err != nil {
		resp.Diagnostics.Append(apiErrorDiagnostic("Error Refunding Payment On Destroy",
			fmt.Sprintf("a refund of the %d left of payment %s", pay.Amount-refunded, id), err))
		return
	}
	tflog.Debug(ctx, "Refunded payment on destroy", map[string]any{"id": id, "amount": pay.Amount - refunded})
	resp.Diagnostics.AddWarning("Payment Refunded And Kept At The Service", fmt.Sprintf(
		"Payment %s was refunded (%d %s, what was left) because refund_on_destroy = true, and removed from Terraform's "+
			"state. It stays at the service as a refunded payment: payments cannot be deleted.", id, pay.Amount-refunded, pay.Currency))
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
	m.ID = pm.ID
	m.Amount = pm.Amount
	m.Currency = pm.Currency
	m.Customer = pm.Customer
	m.Description = pm.Description
	if len(p.Metadata) == 0 && !(m.Metadata.IsNull() || m.Metadata.IsUnknown()) && len(m.Metadata.Elements()) == 0 {
		m.Metadata = types.MapValueMust(types.StringType, map[string]attr.Value{})
	} else {
		m.Metadata = pm.Metadata
	}
	m.AmountRefunded = pm.AmountRefunded
	if m.AmountRefunded.IsNull() {
		m.AmountRefunded = types.Int64Value(0)
	}
	m.Status = pm.Status
	m.Captured = pm.Captured
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
	m.AuthorizationCode = pm.AuthorizationCode
	m.Brand, m.Last4 = types.StringNull(), types.StringNull()
	if pm.Source != nil {
		m.Brand, m.Last4 = pm.Source.Brand, pm.Source.Last4
	}
	m.CreatedAt = pm.CreatedAt
	m.Livemode = pm.Livemode
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

// currencyValidator accepts the contract's currency codes, exactly: a
// lower-case code is refused with the code to use, not converted.
type currencyValidator struct{}

var _ validator.String = currencyValidator{}

func (currencyValidator) Description(context.Context) string {
	return "value must be one of " + strings.Join(wire.Currencies, ", ") + ", in upper case"
}

func (v currencyValidator) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (currencyValidator) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	v := req.ConfigValue.ValueString()
	if slices.Contains(wire.Currencies, v) {
		return
	}
	if up := strings.ToUpper(v); slices.Contains(wire.Currencies, up) {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid Currency",
			fmt.Sprintf("Currency codes are upper case: use %q, not %q.", up, v))
		return
	}
	resp.Diagnostics.AddAttributeError(req.Path, "Invalid Currency",
		fmt.Sprintf("%s is not a currency the service accepts. Use one of %s (ISO 4217, upper case).",
			quoteForError(v), strings.Join(wire.Currencies, ", ")))
}

// paymentSourceValidator checks the shape of a stored method's id; a
// token's shape is the service's business.
type paymentSourceValidator struct{}

var _ validator.String = paymentSourceValidator{}

func (paymentSourceValidator) Description(context.Context) string {
	return "value must be a payment-method token, or a source id: " + sourceIDShape
}

func (v paymentSourceValidator) MarkdownDescription(ctx context.Context) string {
	return v.Description(ctx)
}

func (paymentSourceValidator) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	v := req.ConfigValue.ValueString()
	if strings.HasPrefix(v, wire.SourceIDPrefix) && !sourceIDRegexp.MatchString(v) {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid Payment Source",
			fmt.Sprintf("source %s starts like a stored payment method's id but is not one: expected %s, or a "+
				"payment-method token such as %s.", quoteForError(v), sourceIDShape, "tok_visa"))
	}
}
