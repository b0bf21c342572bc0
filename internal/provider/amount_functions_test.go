package provider

import (
	"context"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/function"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"
)

// runFunction calls f with args as Terraform would, and returns its result
// and error.
func runFunction(t *testing.T, f function.Function, args ...attr.Value) (attr.Value, *function.FuncError) {
	t.Helper()
	ctx := context.Background()
	var def function.DefinitionResponse
	f.Definition(ctx, function.DefinitionRequest{}, &def)
	if len(def.Diagnostics) > 0 {
		t.Fatalf("definition: %v", def.Diagnostics)
	}
	result, ferr := def.Definition.Return.NewResultData(ctx)
	if ferr != nil {
		t.Fatalf("result data: %s", ferr.Text)
	}
	resp := function.RunResponse{Result: result}
	f.Run(ctx, function.RunRequest{Arguments: function.NewArgumentsData(args)}, &resp)
	return resp.Result.Value(), resp.Error
}

func TestMinorUnitsFunction_Run(t *testing.T) {
	cases := []struct {
		amount, currency string
		want             int64
		// errArg is the index of the argument the error names; errHas must
		// all be in its text. Empty errHas: no error.
		errArg int64
		errHas []string
	}{
		{amount: "19.99", currency: "USD", want: 1999},
		{amount: "1200", currency: "JPY", want: 1200},
		{amount: "0.5", currency: "EUR", want: 50},
		{amount: "19.999", currency: "USD", errArg: 0, errHas: []string{"USD has two decimals"}},
		{amount: "12.5", currency: "JPY", errArg: 0, errHas: []string{"JPY has zero decimals"}},
		{amount: "abc", currency: "USD", errArg: 0, errHas: []string{"Invalid amount", "not a decimal number"}},
		{amount: "1", currency: "XXX", errArg: 1, errHas: []string{"Invalid currency", "USD, EUR"}},
		{amount: "1", currency: "usd", errArg: 1, errHas: []string{"upper case"}},
	}
	for _, tc := range cases {
		t.Run(tc.amount+"_"+tc.currency, func(t *testing.T) {
			got, ferr := runFunction(t, NewMinorUnitsFunction(), types.StringValue(tc.amount), types.StringValue(tc.currency))
			if len(tc.errHas) == 0 {
				if ferr != nil {
					t.Fatalf("unexpected error: %s", ferr.Text)
				}
				if !got.Equal(types.Int64Value(tc.want)) {
					t.Fatalf("got %s, want %d", got, tc.want)
				}
				return
			}
			if ferr == nil {
				t.Fatalf("got %s, want an error", got)
			}
			if ferr.FunctionArgument == nil || *ferr.FunctionArgument != tc.errArg {
				t.Errorf("error names argument %v, want %d", ferr.FunctionArgument, tc.errArg)
			}
			for _, frag := range tc.errHas {
				if !strings.Contains(ferr.Text, frag) {
					t.Errorf("error %q does not contain %q", ferr.Text, frag)
				}
			}
		})
	}
}

func TestFormatAmountFunction_Run(t *testing.T) {
	cases := []struct {
		n        int64
		currency string
		want     string
		errHas   string
	}{
		{n: 1999, currency: "USD", want: "19.99 USD"},
		{n: 1200, currency: "JPY", want: "1200 JPY"},
		{n: 5, currency: "GBP", want: "0.05 GBP"},
		{n: 5, currency: "CHF", errHas: "use one of USD"},
	}
	for _, tc := range cases {
		got, ferr := runFunction(t, NewFormatAmountFunction(), types.Int64Value(tc.n), types.StringValue(tc.currency))
		if tc.errHas != "" {
			if ferr == nil || !strings.Contains(ferr.Text, tc.errHas) || ferr.FunctionArgument == nil || *ferr.FunctionArgument != 1 {
				t.Errorf("format_amount(%d, %q): got %v, %v; want an error on currency containing %q", tc.n, tc.currency, got, ferr, tc.errHas)
			}
			continue
		}
		if ferr != nil || !got.Equal(types.StringValue(tc.want)) {
			t.Errorf("format_amount(%d, %q) = %v, %v; want %q", tc.n, tc.currency, got, ferr, tc.want)
		}
	}
}

// The functions through the CLI: Terraform 1.8 and later, OpenTofu 1.7 and
// later call provider functions; they need no provider configuration.
func TestAccFunctionMinorUnits_RoundTrip(t *testing.T) {
	resource.UnitTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_8_0)},
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: `
output "usd" {
  value = provider::payments::minor_units("19.99", "USD")
}
output "jpy" {
  value = provider::payments::minor_units("1200", "JPY")
}
output "back" {
  value = provider::payments::format_amount(provider::payments::minor_units("19.9", "USD"), "USD")
}
`,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownOutputValue("usd", knownvalue.Int64Exact(1999)),
				statecheck.ExpectKnownOutputValue("jpy", knownvalue.Int64Exact(1200)),
				statecheck.ExpectKnownOutputValue("back", knownvalue.StringExact("19.90 USD")),
			},
		}},
	})
}

func TestAccFunctions_BadArguments(t *testing.T) {
	resource.UnitTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_8_0)},
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: `
output "jpy" {
  value = provider::payments::minor_units("12.5", "JPY")
}
`,
			ExpectError: phrasesRegexp("amount", "JPY has zero decimals"),
		}, {
			Config: `
output "x" {
  value = provider::payments::format_amount(100, "CHF")
}
`,
			ExpectError: phrasesRegexp("currency", "use one of USD, EUR"),
		}},
	})
}
