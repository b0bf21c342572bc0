package provider

import (
	"fmt"

	dtimeouts "github.com/hashicorp/terraform-plugin-framework-timeouts/datasource/timeouts"
	rtimeouts "github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework-timetypes/timetypes"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/paymentsdev/terraform-provider-payments/internal/client"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// paymentModel is one payment as the payments_payment data source and each
// element of payments_payments.payments describe it. Fields the service may
// leave out (by its published interface: captured, source, customer, description, metadata,
// and amount_refunded, which is ours) are null when absent.
type paymentModel struct {
	paymentFields
	Source *paymentSourceModel `tfsdk:"source"`
}

// paymentSourceModel is a payment method (card) as the service describes
// it: paymentModel.Source, the method a payment used (a nil pointer is a
// null object), and the attributes payments_customer_source has of the
// method it stores (customerSourceResourceModel embeds it).
type paymentSourceModel struct {
	ID       types.String `tfsdk:"id"`
	Brand    types.String `tfsdk:"brand"`
	Last4    types.String `tfsdk:"last4"`
	ExpMonth types.Int64  `tfsdk:"exp_month"`
	ExpYear  types.Int64  `tfsdk:"exp_year"`
}

// newPaymentSourceModel maps a payment method's fields; those the service
// left out are null.
func newPaymentSourceModel(id, brand, last4 string, expMonth, expYear int64) paymentSourceModel {
	return paymentSourceModel{
		ID:       nullableString(id),
		Brand:    nullableString(brand),
		Last4:    nullableString(last4),
		ExpMonth: nullableInt64(expMonth),
		ExpYear:  nullableInt64(expYear),
	}
}

// paymentFields are the attributes of a payment that the payments_payment
// resource and data sources share, with the same types: paymentModel and
// paymentResourceModel embed them, and newPaymentModel maps them for both.
type paymentFields struct {
	ID                types.String      `tfsdk:"id"`
	Amount            types.Int64       `tfsdk:"amount"`
	AmountRefunded    types.Int64       `tfsdk:"amount_refunded"`
	Currency          types.String      `tfsdk:"currency"`
	Status            types.String      `tfsdk:"status"`
	Captured          types.Bool        `tfsdk:"captured"`
	AuthorizationCode types.String      `tfsdk:"authorization_code"`
	Customer          types.String      `tfsdk:"customer"`
	Description       types.String      `tfsdk:"description"`
	Metadata          types.Map         `tfsdk:"metadata"`
	CreatedAt         timetypes.RFC3339 `tfsdk:"created_at"`
	Livemode          types.Bool        `tfsdk:"livemode"`
}

// newPaymentModel maps an API payment to the model. It is the only place
// that does, so the two payment data sources cannot drift apart.
func newPaymentModel(p *client.Payment) (paymentModel, diag.Diagnostics) {
	m := paymentModel{paymentFields: paymentFields{
		ID:                types.StringValue(p.ID),
		Amount:            types.Int64Value(p.Amount),
		AmountRefunded:    types.Int64PointerValue(p.AmountRefunded),
		Currency:          types.StringValue(p.Currency),
		Status:            types.StringValue(p.Status),
		Captured:          types.BoolPointerValue(p.Captured),
		AuthorizationCode: nullableString(p.AuthorizationCode),
		Customer:          nullableString(p.Customer),
		Description:       nullableString(p.Description),
		Livemode:          types.BoolValue(p.Livemode),
	}}
	if p.Source != nil {
		src := newPaymentSourceModel(p.Source.ID, p.Source.Brand, p.Source.Last4, p.Source.ExpMonth, p.Source.ExpYear)
		m.Source = &src
	}
	var diags, d diag.Diagnostics
	m.CreatedAt, d = rfc3339Value("created_at", p.CreatedAt)
	diags.Append(d...)
	// No prior value: empty metadata is null here; the resource's fromAPI
	// maps it again with its own.
	m.Metadata, d = metadataValue(p.Metadata, types.MapNull(types.StringType))
	diags.Append(d...)
	return m, diags
}

// paymentAttributes returns the schema of paymentModel's attributes, all
// computed but id, whose kind the caller decides: the payments_payment data
// source takes it as an argument, payments_payments computes it.
func paymentAttributes(id schema.StringAttribute) map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"id": id,
		"amount": schema.Int64Attribute{
			MarkdownDescription: "The amount of the payment, in the currency's minor unit (cents for `USD`). After a partial capture it is the captured amount.",
			Computed:            true,
		},
		"amount_refunded": schema.Int64Attribute{
			MarkdownDescription: "How much of the amount has been refunded, in the currency's minor unit. Null when the service leaves it out.",
			Computed:            true,
		},
		"currency": schema.StringAttribute{
			MarkdownDescription: "The ISO 4217 currency code of the payment, in upper case, for example `USD`.",
			Computed:            true,
		},
		"status": schema.StringAttribute{
			MarkdownDescription: "The state of the payment: " + quotedList(wire.PaymentStatuses) + ".",
			Computed:            true,
		},
		"captured": schema.BoolAttribute{
			MarkdownDescription: "Whether the charge was authorized and captured. Null when the service leaves it out.",
			Computed:            true,
		},
		"authorization_code": schema.StringAttribute{
			MarkdownDescription: "The authorization code the card issuer returned, a string of digits. Null while the payment is `pending` and when it was `declined`.",
			Computed:            true,
		},
		"customer": schema.StringAttribute{
			MarkdownDescription: "The id of the customer the payment belongs to. Null when the payment charged a token without a customer. It keeps the id after the customer is deleted.",
			Computed:            true,
		},
		"description": schema.StringAttribute{
			MarkdownDescription: "The free text given when the payment was created. Null when there is none.",
			Computed:            true,
		},
		"metadata": schema.MapAttribute{
			MarkdownDescription: "The string keys and values given when the payment was created. Null when there are none.",
			ElementType:         types.StringType,
			Computed:            true,
		},
		"source": schema.SingleNestedAttribute{
			MarkdownDescription: "The payment method the payment used. Null when the service leaves it out.",
			Computed:            true,
			Attributes: map[string]schema.Attribute{
				"id": schema.StringAttribute{
					MarkdownDescription: fmt.Sprintf("The payment method's identifier: %s.", sourceIDShape),
					Computed:            true,
				},
				"brand": schema.StringAttribute{
					MarkdownDescription: "The card brand, for example `visa`.",
					Computed:            true,
				},
				"last4": schema.StringAttribute{
					MarkdownDescription: "The last four digits of the card number.",
					Computed:            true,
				},
				"exp_month": schema.Int64Attribute{
					MarkdownDescription: "The card's expiry month, 1 to 12.",
					Computed:            true,
				},
				"exp_year": schema.Int64Attribute{
					MarkdownDescription: "The card's expiry year, with four digits.",
					Computed:            true,
				},
			},
		},
		"created_at": schema.StringAttribute{
			MarkdownDescription: "When the payment was created, as an RFC 3339 UTC timestamp with second precision.",
			CustomType:          timetypes.RFC3339Type{},
			Computed:            true,
		},
		"livemode": schema.BoolAttribute{
			MarkdownDescription: "Whether the payment was made with a live key (`true`) or a sandbox key (`false`).",
			Computed:            true,
		},
	}
}

// paymentResourceModel is payments_payment's state. Source is what the
// configuration gave (a token or a src_ id), because the service answers
// with a one-off src_ id for a token: it is null after an import until the
// next apply fills it in place. Capture and RefundOnDestroy are settings;
// Capture is refreshed from the payment where the payment tells it.
type paymentResourceModel struct {
	paymentFields
	Source          types.String    `tfsdk:"source"`
	SourceWO        types.String    `tfsdk:"source_wo"` // write-only: null but in Create's config
	SourceWOVersion types.Int64     `tfsdk:"source_wo_version"`
	Capture         types.Bool      `tfsdk:"capture"`
	RefundOnDestroy types.Bool      `tfsdk:"refund_on_destroy"`
	Brand           types.String    `tfsdk:"brand"`
	Last4           types.String    `tfsdk:"last4"`
	Timeouts        rtimeouts.Value `tfsdk:"timeouts"`
}

// paymentDataSourceModel is the payments_payment data source's data: the
// payment's fields plus the timeouts.
type paymentDataSourceModel struct {
	paymentModel
	Timeouts dtimeouts.Value `tfsdk:"timeouts"`
}

func (m *paymentDataSourceModel) readTimeouts() dtimeouts.Value { return m.Timeouts }
