package provider

import (
	"context"
	"fmt"
	"regexp"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/ephemeral"
	"github.com/hashicorp/terraform-plugin-framework/ephemeral/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/paymentsdev/terraform-provider-payments/internal/client"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

var cvcRegexp = regexp.MustCompile(`^[0-9]{3,4}$`)

// NewCardTokenEphemeralResource returns the payments_card_token ephemeral
// resource.
func NewCardTokenEphemeralResource() ephemeral.EphemeralResource {
	return &cardTokenEphemeralResource{ephemeralBase{name: "card_token"}}
}

// cardTokenEphemeralResource is payments_card_token: a card tokenized for
// the length of one plan or apply, never written to state or plan.
type cardTokenEphemeralResource struct {
	ephemeralBase
}

// cardTokenModel is payments_card_token.
type cardTokenModel struct {
	Number   types.String `tfsdk:"number"`
	ExpMonth types.Int64  `tfsdk:"exp_month"`
	ExpYear  types.Int64  `tfsdk:"exp_year"`
	CVC      types.String `tfsdk:"cvc"`

	ID          types.String `tfsdk:"id"`
	Brand       types.String `tfsdk:"brand"`
	Last4       types.String `tfsdk:"last4"`
	Fingerprint types.String `tfsdk:"fingerprint"`
}

// ephemeralVersions says which CLIs open ephemeral resources, and what a
// user of an older one writes instead.
const ephemeralVersions = "Ephemeral resources need Terraform 1.10 or later, or OpenTofu 1.11 or later; " +
	"on an older CLI, name a sandbox test token (`tok_visa`) in `token` or `source` instead."

// writeOnlyVersions says which CLIs take write-only arguments, and what a
// user of an older one writes instead.
const writeOnlyVersions = "Write-only arguments need Terraform 1.11 or later, or OpenTofu 1.11 or later; on an older " +
	"CLI, use the plain argument with a sandbox test token."

func (r *cardTokenEphemeralResource) Schema(_ context.Context, _ ephemeral.SchemaRequest, resp *ephemeral.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Tokenizes a card (`POST /v1/tokens`) for the length of one plan or apply: the card's " +
			"number and CVC and the token are never written to the state or the plan. Pass `id` to a write-only " +
			"argument, `token_wo` of `payments_customer_source` or `source_wo` of `payments_payment`, which keep " +
			"no value either. Terraform opens the resource in both plan and apply, so each run mints a new " +
			"single-use token; the resources use the one minted in apply.\n\n" +
			"The sandbox tokenizes only its test card numbers: `4242424242424242` (Visa), `5555555555554444` " +
			"(Mastercard), `378282246310005` (American Express, 4-digit CVC), `4000000000000002` (declined), " +
			"`4000000000003220` (3-D Secure) and `4000000000000259` (disputable); see the guide API assumptions.\n\n" +
			ephemeralVersions,
		Attributes: map[string]schema.Attribute{
			"number": schema.StringAttribute{
				MarkdownDescription: fmt.Sprintf("The card number: %d to %d digits, no spaces, passing the Luhn check.",
					wire.CardNumberMinDigits, wire.CardNumberMaxDigits),
				Required:  true,
				Sensitive: true,
				Validators: []validator.String{stringCheck{
					markdown: "must be a card number: 12 to 19 digits passing the Luhn check",
					check: func(p path.Path, v string, diags *diag.Diagnostics) {
						if msg := checkCardNumber(v); msg != "" {
							diags.AddAttributeError(p, "Invalid Card Number", msg)
						}
					},
				}},
			},
			"exp_month": schema.Int64Attribute{
				MarkdownDescription: "The card's expiry month, from 1 to 12.",
				Required:            true,
				Validators:          []validator.Int64{int64validator.Between(1, 12)},
			},
			"exp_year": schema.Int64Attribute{
				MarkdownDescription: "The card's expiry year, four digits. A card is valid to the end of its expiry month (UTC).",
				Required:            true,
				Validators:          []validator.Int64{int64validator.Between(1000, 9999)},
			},
			"cvc": schema.StringAttribute{
				MarkdownDescription: fmt.Sprintf("The card's security code: %d digits, %d for American Express.",
					wire.CardCVCDigits, wire.CardCVCDigitsAmex),
				Required:   true,
				Sensitive:  true,
				Validators: []validator.String{stringvalidator.RegexMatches(cvcRegexp, "must be 3 or 4 digits")},
			},
			"id": schema.StringAttribute{
				MarkdownDescription: "The token (`tok_…`), single-use: attaching or charging it uses it up.",
				Computed:            true,
			},
			"brand":       schema.StringAttribute{MarkdownDescription: "The card's brand, for example `visa`.", Computed: true},
			"last4":       schema.StringAttribute{MarkdownDescription: "The last four digits of the card number.", Computed: true},
			"fingerprint": schema.StringAttribute{MarkdownDescription: "The same for every token of one card number in one account; not the number.", Computed: true},
		},
	}
}

// ValidateConfig refuses, at plan time, an expiry that has passed.
func (r *cardTokenEphemeralResource) ValidateConfig(ctx context.Context, req ephemeral.ValidateConfigRequest, resp *ephemeral.ValidateConfigResponse) {
	var m cardTokenModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() || m.ExpMonth.IsNull() || m.ExpMonth.IsUnknown() || m.ExpYear.IsNull() || m.ExpYear.IsUnknown() {
		return
	}
	if msg := expiryPassed(m.ExpMonth.ValueInt64(), m.ExpYear.ValueInt64(), time.Now()); msg != "" {
		resp.Diagnostics.AddAttributeError(path.Root("exp_year"), "Card Expired", msg)
	}
}

func (r *cardTokenEphemeralResource) Open(ctx context.Context, req ephemeral.OpenRequest, resp *ephemeral.OpenResponse) {
	var m cardTokenModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if r.client == nil {
		resp.Diagnostics.Append(notConfiguredDiagnostic())
		return
	}
	tok, err := r.client.CreateToken(ctx, &client.CardParams{
		Number: m.Number.ValueString(), ExpMonth: m.ExpMonth.ValueInt64(), ExpYear: m.ExpYear.ValueInt64(), CVC: m.CVC.ValueString(),
	})
	if err != nil {
		resp.Diagnostics.Append(apiErrorDiagnostic("Error Tokenizing Card", "card ending "+last4Of(m.Number.ValueString()), err))
		return
	}
	m.ID = types.StringValue(tok.ID)
	m.Brand = types.StringValue(tok.Card.Brand)
	m.Last4 = types.StringValue(tok.Card.Last4)
	m.Fingerprint = types.StringValue(tok.Card.Fingerprint)
	resp.Diagnostics.Append(resp.Result.Set(ctx, &m)...)
}

// checkCardNumber is the plan-time check of a card number: its shape and
// the Luhn digit, never quoting it.
func checkCardNumber(v string) string {
	if len(v) < wire.CardNumberMinDigits || len(v) > wire.CardNumberMaxDigits {
		return fmt.Sprintf("The card number has %d characters; a card number has %d to %d digits, without spaces or dashes.",
			len(v), wire.CardNumberMinDigits, wire.CardNumberMaxDigits)
	}
	if !wire.AllDigits(v) {
		return "The card number may hold digits only, without spaces or dashes."
	}
	if !wire.LuhnValid(v) {
		return "The card number fails the Luhn check: a digit is mistyped."
	}
	return ""
}

// expiryPassed is the message for a card whose expiry month has ended
// before now, or "".
func expiryPassed(month, year int64, now time.Time) string {
	if month < 1 || month > 12 {
		return ""
	}
	end := time.Date(int(year), time.Month(month)+1, 1, 0, 0, 0, 0, time.UTC)
	if now.Before(end) {
		return ""
	}
	return fmt.Sprintf("The card expired at the end of %02d/%d. Use a card whose expiry month has not passed, such as 12/%d.",
		month, year, now.UTC().Year()+3)
}

// last4Of names a card in messages without its number.
func last4Of(number string) string {
	if len(number) < 4 {
		return "?"
	}
	return number[len(number)-4:]
}
