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
