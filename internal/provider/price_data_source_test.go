package provider

import (
	"context"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/paymentsdev/terraform-provider-payments/internal/client"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// testAccCatalog makes, at the service, a product with an archived
// monthly price and an active one holding the lookup key "gold_monthly".
func (a *testAccAccount) testAccCatalog(t *testing.T) (product *client.Product, archived, active *client.Price) {
	t.Helper()
	ctx := context.Background()
	name, desc := "Gold", "The gold plan"
	product, err := a.Client.CreateProduct(ctx, &client.ProductParams{Name: &name, Description: &desc,
		Metadata: map[string]string{"tier": "3"}})
	if err != nil {
		t.Fatalf("creating a product: %v", err)
	}
	inactive := false
	archived, err = a.Client.CreatePrice(ctx, &client.PriceParams{Product: product.ID, Currency: "USD", UnitAmount: 900,
		Recurring: &client.Recurring{Interval: wire.IntervalMonth}, Active: &inactive})
	if err != nil {
		t.Fatalf("creating a price: %v", err)
	}
	active, err = a.Client.CreatePrice(ctx, &client.PriceParams{Product: product.ID, Currency: "USD", UnitAmount: 999,
		Recurring: &client.Recurring{Interval: wire.IntervalMonth, IntervalCount: 3}, Nickname: "Gold quarterly",
		LookupKey: "gold_monthly"})
	if err != nil {
		t.Fatalf("creating a price: %v", err)
	}
	return product, archived, active
}

func TestAccPriceDataSource_ByIDAndLookupKey(t *testing.T) {
	acct := newTestAccAccount(t)
	product, archived, active := acct.testAccCatalog(t)
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: acct.ProviderConfig() + `
data "payments_price" "by_id" {
  id = "` + archived.ID + `"
}

data "payments_price" "by_key" {
  lookup_key = "gold_monthly"
}

data "payments_product" "test" {
  id = "` + product.ID + `"
}
`,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("data.payments_price.by_id", tfjsonpath.New("active"), knownvalue.Bool(false)),
					statecheck.ExpectKnownValue("data.payments_price.by_id", tfjsonpath.New("lookup_key"), knownvalue.Null()),
					statecheck.ExpectKnownValue("data.payments_price.by_id", tfjsonpath.New("interval_count"), knownvalue.Int64Exact(1)),
					statecheck.ExpectKnownValue("data.payments_price.by_key", tfjsonpath.New("id"), knownvalue.StringExact(active.ID)),
					statecheck.ExpectKnownValue("data.payments_price.by_key", tfjsonpath.New("product"), knownvalue.StringExact(product.ID)),
					statecheck.ExpectKnownValue("data.payments_price.by_key", tfjsonpath.New("currency"), knownvalue.StringExact("USD")),
					statecheck.ExpectKnownValue("data.payments_price.by_key", tfjsonpath.New("unit_amount"), knownvalue.Int64Exact(999)),
					statecheck.ExpectKnownValue("data.payments_price.by_key", tfjsonpath.New("interval"), knownvalue.StringExact("month")),
					statecheck.ExpectKnownValue("data.payments_price.by_key", tfjsonpath.New("interval_count"), knownvalue.Int64Exact(3)),
					statecheck.ExpectKnownValue("data.payments_price.by_key", tfjsonpath.New("nickname"), knownvalue.StringExact("Gold quarterly")),
					statecheck.ExpectKnownValue("data.payments_price.by_key", tfjsonpath.New("type"), knownvalue.StringExact(wire.PriceTypeRecurring)),
					statecheck.ExpectKnownValue("data.payments_product.test", tfjsonpath.New("name"), knownvalue.StringExact("Gold")),
					statecheck.ExpectKnownValue("data.payments_product.test", tfjsonpath.New("description"), knownvalue.StringExact("The gold plan")),
					statecheck.ExpectKnownValue("data.payments_product.test", tfjsonpath.New("active"), knownvalue.Bool(true)),
					statecheck.ExpectKnownValue("data.payments_product.test", tfjsonpath.New("metadata"),
						knownvalue.MapExact(map[string]knownvalue.Check{"tier": knownvalue.StringExact("3")})),
				},
			},
		},
	})
}

func TestAccPriceDataSource_Invalid(t *testing.T) {
	acct := newTestAccAccount(t)
	missing := "price_" + strings.Repeat("9", wire.IDRandomLength)
	step := func(body string, want ...string) resource.TestStep {
		return resource.TestStep{Config: acct.ProviderConfig() + "data \"payments_price\" \"test\" {\n" + body + "\n}\n",
			ExpectError: expectErrorRe(want...)}
	}
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			step(``, "Invalid Attribute Combination", "lookup_key"),
			step(`
id         = "`+missing+`"
lookup_key = "k"`, "Invalid Attribute Combination"),
			step(`id = "prod_`+strings.Repeat("a", wire.IDRandomLength)+`"`, "must be a price id"),
			step(`id = "`+missing+`"`, "Price Not Found", missing),
			step(`lookup_key = "nobody_holds_this"`, "Price Not Found", `"nobody_holds_this"`, "No active price holds the lookup key"),
		},
	})
}
