package provider

import (
	"context"
	"errors"
	"maps"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/paymentsdev/terraform-provider-payments/internal/client"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

func stringMap(kv ...string) types.Map {
	if len(kv) == 0 {
		return types.MapNull(types.StringType)
	}
	elems := map[string]attr.Value{}
	for i := 0; i+1 < len(kv); i += 2 {
		elems[kv[i]] = types.StringValue(kv[i+1])
	}
	return types.MapValueMust(types.StringType, elems)
}

func TestPriceUpdateParams_Changes(t *testing.T) {
	t.Parallel()
	base := priceModel{
		Nickname:  types.StringValue("Monthly"),
		LookupKey: types.StringValue("gold"),
		Active:    types.BoolValue(true),
		Metadata:  stringMap("a", "1"),
	}
	str := func(s string) *string { return &s }
	boolean := func(b bool) *bool { return &b }
	for _, tc := range []struct {
		name     string
		edit     func(m *priceModel)
		transfer bool
		want     *client.PriceUpdateParams // nil: nothing to send
	}{
		{name: "unchanged", edit: func(*priceModel) {}},
		{name: "unchanged, transfer sends nothing", edit: func(*priceModel) {}, transfer: true},
		{name: "nickname removed clears it", edit: func(m *priceModel) { m.Nickname = types.StringNull() },
			want: &client.PriceUpdateParams{Nickname: str("")}},
		{name: "lookup key changed", edit: func(m *priceModel) { m.LookupKey = types.StringValue("platinum") },
			want: &client.PriceUpdateParams{LookupKey: str("platinum")}},
		{name: "lookup key changed with transfer", edit: func(m *priceModel) { m.LookupKey = types.StringValue("platinum") }, transfer: true,
			want: &client.PriceUpdateParams{LookupKey: str("platinum"), TransferLookupKey: true}},
		{name: "lookup key removed: nothing to transfer", edit: func(m *priceModel) { m.LookupKey = types.StringNull() }, transfer: true,
			want: &client.PriceUpdateParams{LookupKey: str("")}},
		{name: "archived", edit: func(m *priceModel) { m.Active = types.BoolValue(false) },
			want: &client.PriceUpdateParams{Active: boolean(false)}},
		{name: "metadata key replaced", edit: func(m *priceModel) { m.Metadata = stringMap("b", "2") },
			want: &client.PriceUpdateParams{Metadata: map[string]string{"a": "", "b": "2"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			state, plan := base, base
			tc.edit(&plan)
			got, changed, diags := priceUpdateParams(context.Background(), &plan, &state, tc.transfer)
			if diags.HasError() {
				t.Fatal(diags)
			}
			if tc.want == nil {
				if changed {
					t.Fatalf("changed, sending %+v; want nothing sent", got)
				}
				return
			}
			if !changed {
				t.Fatal("nothing to send; want a change")
			}
			if !equalPtr(got.Nickname, tc.want.Nickname) || !equalPtr(got.LookupKey, tc.want.LookupKey) ||
				!equalPtr(got.Active, tc.want.Active) || got.TransferLookupKey != tc.want.TransferLookupKey ||
				!maps.Equal(got.Metadata, tc.want.Metadata) {
				t.Errorf("params = %s, want %s", describeUpdate(got), describeUpdate(tc.want))
			}
		})
	}
}

func equalPtr[T comparable](a, b *T) bool {
	return (a == nil) == (b == nil) && (a == nil || *a == *b)
}

func describeUpdate(p *client.PriceUpdateParams) string {
	var b strings.Builder
	if p.Nickname != nil {
		b.WriteString("nickname=" + *p.Nickname + " ")
	}
	if p.LookupKey != nil {
		b.WriteString("lookup_key=" + *p.LookupKey + " ")
	}
	if p.Active != nil {
		b.WriteString("active ")
	}
	if p.TransferLookupKey {
		b.WriteString("transfer ")
	}
	for k, v := range p.Metadata {
		b.WriteString("metadata[" + k + "]=" + v + " ")
	}
	return "{" + b.String() + "}"
}

func TestPriceDisplayName_Prices(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		price client.Price
		want  string
	}{
		{client.Price{UnitAmount: 999, Currency: "USD", Recurring: &client.Recurring{Interval: "month", IntervalCount: 1}}, "9.99 USD per month"},
		{client.Price{UnitAmount: 9000, Currency: "EUR", Recurring: &client.Recurring{Interval: "month", IntervalCount: 3}}, "90.00 EUR every 3 months"},
		{client.Price{UnitAmount: 1200, Currency: "JPY"}, "1200 JPY"},
		{client.Price{UnitAmount: 0, Currency: "GBP", Nickname: "Free", Recurring: &client.Recurring{Interval: "year", IntervalCount: 1}}, "Free (0.00 GBP per year)"},
	} {
		if got := priceDisplayName(&tc.price); got != tc.want {
			t.Errorf("priceDisplayName(%+v) = %q, want %q", tc.price, got, tc.want)
		}
	}
}

func TestParamErrorDiagnostics_Attributes(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		param string
		want  path.Path // empty: no attribute
	}{
		{wire.ParamRecurringIntervalCount, path.Root("interval_count")},
		{wire.ParamRecurringInterval, path.Root("interval")},
		{"metadata[plan]", path.Root("metadata")},
		{wire.ParamLookupKey, path.Root("lookup_key")},
		{"recurring[usage_type]", path.Empty()},
		{"", path.Empty()},
	} {
		err := &client.Error{HTTPStatus: 400, Type: wire.ErrorTypeInvalidRequest, Param: tc.param, Message: "refused"}
		diags := priceErrorDiagnostics("Error Creating Price", "a new price", err)
		if len(diags) != 1 {
			t.Fatalf("%q: %d diagnostics, want 1", tc.param, len(diags))
		}
		var got path.Path
		if d, ok := diags[0].(interface{ Path() path.Path }); ok {
			got = d.Path()
		}
		if got.String() != tc.want.String() {
			t.Errorf("param %q: diagnostic at %q, want %q", tc.param, got, tc.want)
		}
		if !strings.Contains(diags[0].Detail(), "refused") {
			t.Errorf("param %q: detail %q does not carry the service's message", tc.param, diags[0].Detail())
		}
	}
	// Not the service's refusal: no attribute.
	if d := priceErrorDiagnostics("Error Creating Price", "a new price", errors.New("boom")); len(d) != 1 {
		t.Errorf("%d diagnostics for a plain error, want 1", len(d))
	}
}
