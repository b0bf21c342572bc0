package provider

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/querycheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

func TestAccPriceListResource_ByProductAndResources(t *testing.T) {
	acct := newTestAccAccount(t)
	product, archived, active := acct.testAccCatalog(t)
	otherProduct := testAccPlainProduct(t, acct, "Other", true)
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		TerraformVersionChecks:   queryVersionChecks,
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: acct.ProviderConfig()},
			{
				Query: true,
				Config: `
list "payments_price" "gold" {
  provider         = payments
  include_resource = true
  config {
    product = "` + product.ID + `"
  }
}

list "payments_price" "active" {
  provider = payments
  config {
    active = true
  }
}

list "payments_price" "other" {
  provider = payments
  config {
    product = "` + otherProduct + `"
  }
}
`,
				QueryResultChecks: []querycheck.QueryResultCheck{
					querycheck.ExpectLength("payments_price.gold", 2),
					querycheck.ExpectResourceDisplayName("payments_price.gold", byID(knownvalue.StringExact(archived.ID)), knownvalue.StringExact("9.00 USD per month")),
					querycheck.ExpectResourceDisplayName("payments_price.gold", byID(knownvalue.StringExact(active.ID)), knownvalue.StringExact("Gold quarterly (9.99 USD every 3 months)")),
					querycheck.ExpectResourceKnownValues("payments_price.gold", byID(knownvalue.StringExact(active.ID)), []querycheck.KnownValueCheck{
						{Path: tfjsonpath.New("product"), KnownValue: knownvalue.StringExact(product.ID)},
						{Path: tfjsonpath.New("unit_amount"), KnownValue: knownvalue.Int64Exact(999)},
						{Path: tfjsonpath.New("interval_count"), KnownValue: knownvalue.Int64Exact(3)},
						{Path: tfjsonpath.New("lookup_key"), KnownValue: knownvalue.StringExact("gold_monthly")},
						{Path: tfjsonpath.New("transfer_lookup_key"), KnownValue: knownvalue.Null()},
					}),
					querycheck.ExpectLength("payments_price.active", 1),
					querycheck.ExpectLength("payments_price.other", 0),
				},
			},
		},
	})
}
