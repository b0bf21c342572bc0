package client_test

import (
	"context"
	"errors"
	"maps"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/paymentsdev/terraform-provider-payments/internal/client"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandboxclient"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

func mustProduct(tb testing.TB, c *client.Client, name string) *client.Product {
	tb.Helper()
	p, err := c.CreateProduct(context.Background(), &client.ProductParams{Name: &name})
	if err != nil {
		tb.Fatalf("CreateProduct: %v", err)
	}
	return p
}

func mustPrice(tb testing.TB, c *client.Client, p *client.PriceParams) *client.Price {
	tb.Helper()
	pr, err := c.CreatePrice(context.Background(), p)
	if err != nil {
		tb.Fatalf("CreatePrice: %v", err)
	}
	return pr
}

func ids[T any](tb testing.TB, seq func(func(*T, error) bool), id func(*T) string) []string {
	tb.Helper()
	var out []string
	for x, err := range seq {
		if err != nil {
			tb.Fatal(err)
		}
		out = append(out, id(x))
	}
	return out
}

// TestClient_ProductLifecycle: create, read, update, list, delete, and a
// delete refused while the product has prices.
func TestClient_ProductLifecycle(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := newEnv(t)
	created, err := e.c.CreateProduct(ctx, &client.ProductParams{
		Name: new("Gold"), Description: new("The best"), Metadata: map[string]string{"tier": "1"},
	})
	if err != nil {
		t.Fatal(err)
	}
	checkID(t, created.ID, wire.ProductIDPrefix)
	checkTimestamp(t, created.CreatedAt)
	if created.Object != "product" || !created.Active || created.Name != "Gold" || created.Description != "The best" ||
		!maps.Equal(created.Metadata, map[string]string{"tier": "1"}) || created.Livemode {
		t.Errorf("created product: %+v", created)
	}
	if got, err := e.c.GetProduct(ctx, created.ID); err != nil || !reflect.DeepEqual(got, created) {
		t.Errorf("GetProduct = %+v, %v; want %+v", got, err, created)
	}
	upd, err := e.c.UpdateProduct(ctx, created.ID, &client.ProductParams{Description: new(""), Active: new(false), ClearMetadata: true})
	if err != nil || upd.Active || upd.Description != "" || len(upd.Metadata) != 0 || upd.Name != "Gold" {
		t.Errorf("UpdateProduct = %+v, %v", upd, err)
	}
	silver := mustProduct(t, e.c, "Silver")
	for _, tc := range []struct {
		p    *client.ListProductsParams
		want []string
	}{
		{nil, []string{silver.ID, created.ID}},
		{&client.ListProductsParams{Active: new(true)}, []string{silver.ID}},
		{&client.ListProductsParams{Active: new(false)}, []string{created.ID}},
		{&client.ListProductsParams{ListParams: client.ListParams{Limit: 1}}, []string{silver.ID, created.ID}},
	} {
		if got := ids(t, e.c.AllProducts(ctx, tc.p), func(p *client.Product) string { return p.ID }); !slices.Equal(got, tc.want) {
			t.Errorf("AllProducts(%+v) = %v, want %v", tc.p, got, tc.want)
		}
	}
	mustPrice(t, e.c, &client.PriceParams{Product: silver.ID, Currency: "USD", UnitAmount: 100})
	_, err = e.c.DeleteProduct(ctx, silver.ID)
	checkAPIError(t, err, e.key, wantErr{status: 400, typ: wire.ErrorTypeInvalidRequest, code: wire.ErrorCodeProductHasPrices})
	del, err := e.c.DeleteProduct(ctx, created.ID)
	if err != nil || *del != (client.Deleted{ID: created.ID, Object: "product", Deleted: true}) {
		t.Errorf("DeleteProduct = %+v, %v", del, err)
	}
	_, err = e.c.GetProduct(ctx, created.ID)
	if !client.IsNotFound(err) {
		t.Errorf("GetProduct after delete: %v, want not found", err)
	}
}

// TestClient_PriceLifecycle: one-time and recurring prices, the fields an
// update may change, the list's filters and lookup key transfers.
func TestClient_PriceLifecycle(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := newEnv(t)
	gold := mustProduct(t, e.c, "Gold")
	once := mustPrice(t, e.c, &client.PriceParams{Product: gold.ID, Currency: "EUR", UnitAmount: 990})
	checkID(t, once.ID, wire.PriceIDPrefix)
	if once.Type != wire.PriceTypeOneTime || once.Recurring != nil || !once.Active || once.UnitAmount != 990 || once.Currency != "EUR" {
		t.Errorf("one-time price: %+v", once)
	}
	monthly := mustPrice(t, e.c, &client.PriceParams{
		Product: gold.ID, Currency: "USD", UnitAmount: 1500, Recurring: &client.Recurring{Interval: wire.IntervalMonth},
		Nickname: "Monthly", LookupKey: "gold", Metadata: map[string]string{"a": "1"},
	})
	if monthly.Type != wire.PriceTypeRecurring || monthly.Recurring == nil || *monthly.Recurring != (client.Recurring{Interval: "month", IntervalCount: 1}) ||
		monthly.LookupKey != "gold" || monthly.Nickname != "Monthly" {
		t.Errorf("monthly price: %+v", monthly)
	}
	if got, err := e.c.GetPrice(ctx, monthly.ID); err != nil || !reflect.DeepEqual(got, monthly) {
		t.Errorf("GetPrice = %+v, %v; want %+v", got, err, monthly)
	}
	yearly := mustPrice(t, e.c, &client.PriceParams{
		Product: gold.ID, Currency: "USD", UnitAmount: 15000, Recurring: &client.Recurring{Interval: wire.IntervalYear, IntervalCount: 2},
		LookupKey: "gold", TransferLookupKey: true,
	})
	if got, err := e.c.GetPrice(ctx, monthly.ID); err != nil || got.LookupKey != "" {
		t.Errorf("monthly after the transfer: %+v, %v; want no lookup key", got, err)
	}
	upd, err := e.c.UpdatePrice(ctx, once.ID, &client.PriceUpdateParams{Active: new(false), Nickname: new("Old")})
	if err != nil || upd.Active || upd.Nickname != "Old" || upd.UnitAmount != once.UnitAmount {
		t.Errorf("UpdatePrice = %+v, %v", upd, err)
	}
	silver := mustProduct(t, e.c, "Silver")
	other := mustPrice(t, e.c, &client.PriceParams{Product: silver.ID, Currency: "USD", UnitAmount: 1, LookupKey: "silver", Active: new(true)})
	for _, tc := range []struct {
		name string
		p    *client.ListPricesParams
		want []string
	}{
		{"all", nil, []string{other.ID, yearly.ID, monthly.ID, once.ID}},
		{"by product, one a page", &client.ListPricesParams{Product: gold.ID, ListParams: client.ListParams{Limit: 1}}, []string{yearly.ID, monthly.ID, once.ID}},
		{"inactive", &client.ListPricesParams{Active: new(false)}, []string{once.ID}},
		{"by lookup keys", &client.ListPricesParams{LookupKeys: []string{"gold", "silver"}}, []string{other.ID, yearly.ID}},
		{"by lookup key and product", &client.ListPricesParams{LookupKeys: []string{"gold", "silver"}, Product: silver.ID}, []string{other.ID}},
	} {
		if got := ids(t, e.c.AllPrices(ctx, tc.p), func(p *client.Price) string { return p.ID }); !slices.Equal(got, tc.want) {
			t.Errorf("AllPrices %s = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestClient_CatalogErrors: bad input gets a 400 naming the parameter,
// through each call.
func TestClient_CatalogErrors(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := newEnv(t)
	p := mustProduct(t, e.c, "Gold")
	taken := mustPrice(t, e.c, &client.PriceParams{Product: p.ID, Currency: "USD", UnitAmount: 1, LookupKey: "taken"})
	price := func(mod func(*client.PriceParams)) func() error {
		return func() error {
			pp := client.PriceParams{Product: p.ID, Currency: "USD", UnitAmount: 100}
			mod(&pp)
			_, err := e.c.CreatePrice(ctx, &pp)
			return err
		}
	}
	for _, tc := range []struct {
		name string
		call func() error
		want wantErr
	}{
		{"product without name", func() error { _, err := e.c.CreateProduct(ctx, nil); return err },
			wantErr{status: 400, code: wire.ErrorCodeParameterMissing, param: wire.ParamName}},
		{"product name cleared", func() error { _, err := e.c.UpdateProduct(ctx, p.ID, &client.ProductParams{Name: new("")}); return err },
			wantErr{status: 400, code: wire.ErrorCodeParameterMissing, param: wire.ParamName}},
		{"unknown product", func() error { _, err := e.c.GetProduct(ctx, fakeID(wire.ProductIDPrefix)); return err },
			wantErr{status: 404, code: wire.ErrorCodeResourceMissing}},
		{"unknown price", func() error { _, err := e.c.GetPrice(ctx, fakeID(wire.PriceIDPrefix)); return err },
			wantErr{status: 404, code: wire.ErrorCodeResourceMissing}},
		{"price of an unknown product", price(func(pp *client.PriceParams) { pp.Product = fakeID(wire.ProductIDPrefix) }),
			wantErr{status: 400, code: wire.ErrorCodeResourceMissing, param: wire.ParamProduct}},
		{"price in an unknown currency", price(func(pp *client.PriceParams) { pp.Currency = "XYZ" }),
			wantErr{status: 400, code: wire.ErrorCodeParameterInvalid, param: wire.ParamCurrency}},
		{"negative price", price(func(pp *client.PriceParams) { pp.UnitAmount = -1 }),
			wantErr{status: 400, code: wire.ErrorCodeParameterInvalid, param: wire.ParamUnitAmount}},
		{"unknown interval", price(func(pp *client.PriceParams) { pp.Recurring = &client.Recurring{Interval: "fortnight"} }),
			wantErr{status: 400, code: wire.ErrorCodeParameterInvalid, param: wire.ParamRecurringInterval}},
		{"period over 3 years", price(func(pp *client.PriceParams) { pp.Recurring = &client.Recurring{Interval: "month", IntervalCount: 37} }),
			wantErr{status: 400, code: wire.ErrorCodeParameterInvalid, param: wire.ParamRecurringIntervalCount}},
		{"lookup key taken", price(func(pp *client.PriceParams) { pp.LookupKey = "taken" }),
			wantErr{status: 400, code: wire.ErrorCodeParameterInvalid, param: wire.ParamLookupKey}},
		{"lookup key too long on update", func() error {
			_, err := e.c.UpdatePrice(ctx, taken.ID, &client.PriceUpdateParams{LookupKey: new(strings.Repeat("k", wire.LookupKeyMaxLength+1))})
			return err
		}, wantErr{status: 400, code: wire.ErrorCodeParameterInvalid, param: wire.ParamLookupKey}},
		{"too many lookup keys", func() error {
			_, err := e.c.ListPrices(ctx, &client.ListPricesParams{LookupKeys: slices.Repeat([]string{"k"}, wire.LookupKeysMax+1)})
			return err
		}, wantErr{status: 400, code: wire.ErrorCodeParameterInvalid, param: wire.ParamLookupKeys}},
		{"price list of an unknown product", func() error {
			_, err := e.c.ListPrices(ctx, &client.ListPricesParams{Product: fakeID(wire.ProductIDPrefix)})
			return err
		}, wantErr{status: 400, code: wire.ErrorCodeResourceMissing, param: wire.ParamProduct}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.want.typ = wire.ErrorTypeInvalidRequest
			checkAPIError(t, tc.call(), e.key, tc.want)
		})
	}
}

// TestClient_CatalogWritesExactlyOnce: every catalog write keeps one
// Idempotency-Key across its retries, so that answers lost to faults
// neither fail the call nor make an object twice.
func TestClient_CatalogWritesExactlyOnce(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := newEnv(t)
	setFaults(t, e.c, sandboxclient.FaultsParams{ErrorRate: new(0.3), DropRate: new(0.3)})
	rec := newRecorder()
	c := e.client(t, withTransport(rec), withRetries(20))
	const n = 10
	for i := range n {
		p, err := c.CreateProduct(ctx, &client.ProductParams{Name: new("P")})
		if err != nil {
			t.Fatalf("CreateProduct %d: %v", i, err)
		}
		if _, err := c.UpdateProduct(ctx, p.ID, &client.ProductParams{Active: new(false)}); err != nil {
			t.Fatalf("UpdateProduct %d: %v", i, err)
		}
		pr, err := c.CreatePrice(ctx, &client.PriceParams{Product: p.ID, Currency: "USD", UnitAmount: 5, LookupKey: "only", TransferLookupKey: true})
		if err != nil {
			t.Fatalf("CreatePrice %d: %v", i, err)
		}
		if _, err := c.UpdatePrice(ctx, pr.ID, &client.PriceUpdateParams{Nickname: new("n")}); err != nil {
			t.Fatalf("UpdatePrice %d: %v", i, err)
		}
	}
	setFaults(t, e.c, sandboxclient.FaultsParams{ErrorRate: new(0.0), DropRate: new(0.0)})
	keys := map[string]string{}
	for _, x := range rec.exchanges() {
		if x.Method != "POST" {
			continue
		}
		k := x.IdemKey()
		if k == "" {
			t.Fatalf("POST %s without an Idempotency-Key", x.Path)
		}
		if body, seen := keys[k]; seen && body != x.ReqBody {
			t.Errorf("key %s sent with %q and %q", k, body, x.ReqBody)
		}
		keys[k] = x.ReqBody
	}
	if len(keys) != 4*n {
		t.Errorf("%d idempotency keys, want one per write (%d)", len(keys), 4*n)
	}
	products := ids(t, e.c.AllProducts(ctx, nil), func(p *client.Product) string { return p.ID })
	prices := ids(t, e.c.AllPrices(ctx, &client.ListPricesParams{LookupKeys: []string{"only"}}), func(p *client.Price) string { return p.ID })
	all := ids(t, e.c.AllPrices(ctx, nil), func(p *client.Price) string { return p.ID })
	if len(products) != n || len(all) != n || len(prices) != 1 {
		t.Errorf("%d products, %d prices, %d holding the lookup key; want %d, %d, 1", len(products), len(all), len(prices), n, n)
	}
	var e2 *client.Error
	if _, err := e.c.DeleteProduct(ctx, products[0]); !errors.As(err, &e2) || e2.Code != wire.ErrorCodeProductHasPrices {
		t.Errorf("DeleteProduct of a product with a price: %v", err)
	}
}

// TestClient_GetPriceTerms: terms come from the price a client created or
// read, with no request; a price it never saw is read once, and another
// client of the account reads it too.
func TestClient_GetPriceTerms(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := newEnv(t)
	gold := mustProduct(t, e.c, "Gold")
	monthly := mustPrice(t, e.c, &client.PriceParams{
		Product: gold.ID, Currency: "USD", UnitAmount: 1500, Recurring: &client.Recurring{Interval: wire.IntervalMonth},
	})
	once := mustPrice(t, e.c, &client.PriceParams{Product: gold.ID, Currency: "EUR", UnitAmount: 990})
	other := e.client(t)
	gets := func() int64 { return stats(t, e.c).Requests.ByRoute["GET /v1/prices/:id"] }
	for _, tc := range []struct {
		name     string
		c        *client.Client
		price    *client.Price
		wantGets int64 // GET /v1/prices/:id in all after the call
	}{
		{"created, recurring", e.c, monthly, 0},
		{"created, one-time", e.c, once, 0},
		{"unseen by the other client", other, monthly, 1},
		{"read once by the other client", other, monthly, 1},
	} {
		got, err := tc.c.GetPriceTerms(ctx, tc.price.ID)
		want := client.PriceTerms{ID: tc.price.ID, Product: gold.ID, Currency: tc.price.Currency,
			UnitAmount: tc.price.UnitAmount, Recurring: tc.price.Recurring}
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("%s: GetPriceTerms = %+v, %v; want %+v", tc.name, got, err, want)
		}
		if n := gets(); n != tc.wantGets {
			t.Errorf("%s: %d GET /v1/prices/:id, want %d", tc.name, n, tc.wantGets)
		}
	}
	// A caller that changes the period it got changes no one else's.
	mine, err := e.c.GetPriceTerms(ctx, monthly.ID)
	if err != nil {
		t.Fatalf("GetPriceTerms: %v", err)
	}
	mine.Recurring.IntervalCount = 7
	if again, err := e.c.GetPriceTerms(ctx, monthly.ID); err != nil || *again.Recurring != *monthly.Recurring {
		t.Errorf("GetPriceTerms after a caller changed its copy = %+v, %v; want the period %+v",
			again.Recurring, err, *monthly.Recurring)
	}
	if _, err := e.c.GetPriceTerms(ctx, "price_doesnotexist0000000000"); !client.IsNotFound(err) {
		t.Errorf("GetPriceTerms of an unknown price: %v, want not found", err)
	}
}
