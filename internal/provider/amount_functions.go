package provider

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/function"

	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

var (
	_ function.Function = (*minorUnitsFunction)(nil)
	_ function.Function = (*formatAmountFunction)(nil)
)

// currenciesText lists the accepted currencies with their decimals, for
// the functions' descriptions, so that the docs follow wire's table.
func currenciesText() string {
	parts := make([]string, 0, len(wire.Currencies))
	for _, c := range wire.Currencies {
		parts = append(parts, fmt.Sprintf("`%s` (%d)", c, wire.CurrencyDecimals[c]))
	}
	return strings.Join(parts, ", ")
}

// functionVersions says which CLIs call provider functions, and what a user
// of an older one writes instead.
const functionVersions = " Provider functions need Terraform 1.8 or later, or OpenTofu 1.7 or later; " +
	"on an older CLI, write the amount in minor units yourself."

// currencyParameter is the second argument of both functions.
var currencyParameter = function.StringParameter{
	Name:                "currency",
	MarkdownDescription: "The ISO 4217 currency code in upper case: one of " + quotedList(wire.Currencies) + ".",
}

// currencyError is the error on the currency argument, or nil.
func currencyError(currency string) *function.FuncError {
	if err := wire.CheckCurrency(currency); err != nil {
		return function.NewArgumentFuncError(1, "Invalid currency: "+err.Error()+".")
	}
	return nil
}

// NewMinorUnitsFunction returns provider::payments::minor_units.
func NewMinorUnitsFunction() function.Function { return &minorUnitsFunction{} }

// minorUnitsFunction turns "19.99" USD into 1999.
type minorUnitsFunction struct{}

func (f *minorUnitsFunction) Metadata(_ context.Context, _ function.MetadataRequest, resp *function.MetadataResponse) {
	resp.Name = "minor_units"
}

func (f *minorUnitsFunction) Definition(_ context.Context, _ function.DefinitionRequest, resp *function.DefinitionResponse) {
	resp.Definition = function.Definition{
		Summary: "Converts a decimal amount into the currency's minor units",
		MarkdownDescription: "Converts an amount written in major units as a decimal string (`\"19.99\"`) into the " +
			"currency's minor units (`1999` for USD), the unit every amount of the payments API is in, by the " +
			"currency's ISO 4217 exponent. An amount with more decimals than its currency has is an error, never " +
			"rounded: `\"19.999\"` in USD and `\"12.5\"` in JPY are refused. The accepted currencies, with their " +
			"decimals: " + currenciesText() + "." + functionVersions,
		Parameters: []function.Parameter{
			function.StringParameter{
				Name: "amount",
				MarkdownDescription: "The amount in major units: digits with an optional decimal point and at most " +
					"the currency's number of decimals, such as `\"19.99\"` or `\"1200\"`. No sign, exponent, " +
					"spaces or thousands separators. A string, not a number, so that no decimal is lost to " +
					"floating point on the way.",
			},
			currencyParameter,
		},
		Return: function.Int64Return{},
	}
}

func (f *minorUnitsFunction) Run(ctx context.Context, req function.RunRequest, resp *function.RunResponse) {
	var amount, currency string
	resp.Error = function.ConcatFuncErrors(req.Arguments.Get(ctx, &amount, &currency))
	if resp.Error != nil {
		return
	}
	if resp.Error = currencyError(currency); resp.Error != nil {
		return
	}
	n, err := wire.ParseAmount(amount, currency)
	if err != nil {
		resp.Error = function.NewArgumentFuncError(0, "Invalid amount: "+err.Error()+".")
		return
	}
	resp.Error = function.ConcatFuncErrors(resp.Result.Set(ctx, n))
}

// NewFormatAmountFunction returns provider::payments::format_amount.
func NewFormatAmountFunction() function.Function { return &formatAmountFunction{} }

// formatAmountFunction turns 1999 USD into "19.99 USD".
type formatAmountFunction struct{}

func (f *formatAmountFunction) Metadata(_ context.Context, _ function.MetadataRequest, resp *function.MetadataResponse) {
	resp.Name = "format_amount"
}

func (f *formatAmountFunction) Definition(_ context.Context, _ function.DefinitionRequest, resp *function.DefinitionResponse) {
	resp.Definition = function.Definition{
		Summary: "Writes an amount in minor units as a decimal with its currency",
		MarkdownDescription: "Writes an amount in the currency's minor units, as the payments API gives it " +
			"(`payments_payment.amount`, `amount_refunded`), as a decimal in major units followed by the " +
			"currency code: `1999` in USD is `\"19.99 USD\"`, `1200` in JPY is `\"1200 JPY\"`. The result always " +
			"has the currency's number of decimals (ISO 4217): " + currenciesText() + ". It is the inverse of " +
			"`provider::payments::minor_units` for the number part." + functionVersions,
		Parameters: []function.Parameter{
			function.Int64Parameter{
				Name:                "minor_units",
				MarkdownDescription: "The amount in the currency's minor units, such as `1999` for 19.99 USD.",
			},
			currencyParameter,
		},
		Return: function.StringReturn{},
	}
}

func (f *formatAmountFunction) Run(ctx context.Context, req function.RunRequest, resp *function.RunResponse) {
	var n int64
	var currency string
	resp.Error = function.ConcatFuncErrors(req.Arguments.Get(ctx, &n, &currency))
	if resp.Error != nil {
		return
	}
	if resp.Error = currencyError(currency); resp.Error != nil {
		return
	}
	resp.Error = function.ConcatFuncErrors(resp.Result.Set(ctx, wire.FormatMoney(n, currency)))
}
