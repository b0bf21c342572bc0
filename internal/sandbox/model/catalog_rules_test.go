package model

import (
	"testing"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/ids"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// TestCatalog_DeleteProduct: a product with prices stays, and one
// without goes.
func TestCatalog_DeleteProduct(t *testing.T) {
	t.Parallel()
	var cat Catalog
	bare, priced := &Product{ID: ids.New()}, &Product{ID: ids.New()}
	cat.AddProduct(bare)
	cat.AddProduct(priced)
	cat.AddPrice(&Price{ID: ids.New(), Product: priced.ID, Active: true})
	r := cat.DeleteProduct(priced)
	wantRefusal(t, r, wire.ErrorCodeProductHasPrices, "has 1 price(s), and prices cannot be deleted")
	if cat.Products[priced.ID] == nil || len(cat.ProductOrder) != 2 {
		t.Fatal("a refused delete removed the product")
	}
	if r := cat.DeleteProduct(bare); r != nil || cat.Products[bare.ID] != nil || len(cat.ProductOrder) != 1 || cat.ProductOrder[0] != priced {
		t.Fatalf("delete: %v, order %v", r, cat.ProductOrder)
	}
}

// TestCatalog_LookupKeyHolder: a lookup_key is held by one active price;
// another takes it only under transfer, and an archived price may share
// it.
func TestCatalog_LookupKeyHolder(t *testing.T) {
	t.Parallel()
	var cat Catalog
	holder := &Price{ID: ids.New(), LookupKey: "gold", Active: true}
	cat.AddPrice(holder)
	for _, tc := range []struct {
		name       string
		pr         Price
		transfer   bool
		wantHolder *Price
		want       string
	}{
		{"no key", Price{ID: ids.New(), Active: true}, false, nil, ""},
		{"a free key", Price{ID: ids.New(), LookupKey: "silver", Active: true}, false, nil, ""},
		{"its own key", Price{ID: holder.ID, LookupKey: "gold", Active: true}, false, nil, ""},
		{"a held key", Price{ID: ids.New(), LookupKey: "gold", Active: true}, false, nil, `lookup_key "gold" is held by the active price`},
		{"a held key, transferred", Price{ID: ids.New(), LookupKey: "gold", Active: true}, true, holder, ""},
		{"a held key, archived", Price{ID: ids.New(), LookupKey: "gold"}, false, nil, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, r := cat.LookupKeyHolder(&tc.pr, tc.transfer)
			wantRefusal(t, r, wire.ErrorCodeParameterInvalid, tc.want)
			if got != tc.wantHolder || r != nil && r.Param != wire.ParamLookupKey {
				t.Fatalf("holder %v, refusal %v", got, r)
			}
		})
	}

	next := *holder
	cat.TakeLookupKey(holder)
	if holder.LookupKey != "" || cat.ByLookupKey["gold"] != nil {
		t.Fatal("the key stayed with its holder")
	}
	next.LookupKey, next.Nickname = "platinum", "n"
	cat.UpdatePrice(holder, next)
	if cat.ByLookupKey["platinum"] != holder || holder.Nickname != "n" {
		t.Fatal("an update did not index the price's new key")
	}
}

// TestCheckPriceChange_Fixed: what a price is of, costs and bills never
// changes.
func TestCheckPriceChange_Fixed(t *testing.T) {
	t.Parallel()
	if r := CheckPriceChange(func(string) bool { return false }); r != nil {
		t.Fatalf("refused an update of nothing fixed: %v", r)
	}
	for _, name := range PriceFixed {
		r := CheckPriceChange(func(n string) bool { return n == name })
		wantRefusal(t, r, wire.ErrorCodeParameterUnknown, name+" cannot change after a price is created")
		if r.Param != name {
			t.Fatalf("param %q, want %q", r.Param, name)
		}
	}
}

// TestParseRecurring_Values: neither for a one-time price, a count only
// with an interval, 1 by default.
func TestParseRecurring_Values(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, interval    string
		hasInterval       bool
		count             string
		hasCount          bool
		want              wire.Recurring
		param, code, text string
	}{
		{"one-time", "", false, "", false, wire.Recurring{}, "", "", ""},
		{"monthly", "month", true, "", false, wire.Recurring{Interval: wire.IntervalMonth, IntervalCount: 1}, "", "", ""},
		{"every 3 weeks", "week", true, "3", true, wire.Recurring{Interval: wire.IntervalWeek, IntervalCount: 3}, "", "", ""},
		{"a count alone", "", false, "3", true, wire.Recurring{}, wire.ParamRecurringInterval, wire.ErrorCodeParameterMissing, "needs recurring[interval]"},
		{"a signed count", "week", true, "+3", true, wire.Recurring{}, wire.ParamRecurringIntervalCount, wire.ErrorCodeParameterInvalid, "is not a whole number"},
		{"an empty count", "week", true, "", true, wire.Recurring{}, wire.ParamRecurringIntervalCount, wire.ErrorCodeParameterInvalid, "is not a whole number"},
		{"an unknown interval", "fortnight", true, "", false, wire.Recurring{}, wire.ParamRecurringInterval, wire.ErrorCodeParameterInvalid, "fortnight"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, r := ParseRecurring(tc.interval, tc.hasInterval, tc.count, tc.hasCount)
			wantRefusal(t, r, tc.code, tc.text)
			if got != tc.want || r != nil && r.Param != tc.param {
				t.Fatalf("%+v, refusal %+v", got, r)
			}
		})
	}
}
