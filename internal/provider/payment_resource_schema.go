package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework-timetypes/timetypes"
	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/boolplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/int64planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

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
				Validators: []validator.String{currencyValidator},
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
				Validators: []validator.String{stringvalidator.LengthAtLeast(1), paymentSourceValidator},
			},
			attrPaymentSourceWO: schema.StringAttribute{
				MarkdownDescription: "Write-only: what to charge, as `source`, but never kept in the state or the plan; for a " +
					"single-use token such as the `id` of an ephemeral `payments_card_token`. Set `source` or `source_wo`, not " +
					"both, and `source_wo_version` with it. " + writeOnlyVersions,
				Optional:   true,
				WriteOnly:  true,
				Sensitive:  true,
				Validators: []validator.String{stringvalidator.LengthAtLeast(1), paymentSourceValidator},
			},
			attrPaymentSourceWOVer: schema.Int64Attribute{
				MarkdownDescription: "The version of `source_wo`, required with it. Terraform cannot see a write-only value " +
					"change, so changing the version is how to charge a new source: it replaces the payment (a new charge).",
				Optional: true,
			},
			"description": schema.StringAttribute{
				MarkdownDescription: fmt.Sprintf("Free text about the payment, from 1 to %d characters. Changes in place; "+
					"removing it clears it at the service.", wire.PaymentDescriptionMaxLength),
				Optional: true,
				Validators: []validator.String{
					stringvalidator.UTF8LengthBetween(1, wire.PaymentDescriptionMaxLength),
					stringvalidator.RegexMatches(noBidiRegexp, noBidiMessage),
				},
			},
			"metadata": schema.MapAttribute{
				MarkdownDescription: fmt.Sprintf("Your own key-value pairs about the payment: at most %d keys, "+
					"each of 1 to %d characters without square brackets or control characters, with a value of 1 to %d characters. "+
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
			"id": keptString(fmt.Sprintf("The payment's identifier: %s.", paymentIDShape)),
			"status": schema.StringAttribute{
				MarkdownDescription: "The state of the payment: " + quotedList(wire.PaymentStatuses) + ". " +
					"A payment that needs 3-D Secure is `pending` until the bank finishes it.",
				Computed:      true,
				PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"captured":           keptBool("Whether the charge has been captured."),
			"authorization_code": keptString("The authorization code the card issuer returned. Null while the payment is `pending` and when it was `declined`."),
			"brand":              keptString("The brand of the card charged, for example `visa`."),
			"last4":              keptString("The last four digits of the card charged."),
			"created_at": schema.StringAttribute{
				MarkdownDescription: "When the payment was created, as an RFC 3339 UTC timestamp.",
				CustomType:          timetypes.RFC3339Type{},
				Computed:            true,
				PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"livemode": keptBool("Whether the payment was made with a live key (`true`) or a sandbox key (`false`)."),
		},
		Blocks: map[string]schema.Block{
			"timeouts": paymentTimeouts.block(ctx, "payment"),
		},
	}
}
