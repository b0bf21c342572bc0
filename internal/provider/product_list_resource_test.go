package provider

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/querycheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/paymentsdev/terraform-provider-payments/internal/client"
)

func TestAccProductListResource_ActiveFilterAndResources(t *testing.T) {
	acct := newTestAccAccount(t)
	product, _, _ := acct.testAccCatalog(t)
	other := testAccPlainProduct(t, acct, "Archived", false)
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		TerraformVersionChecks:   queryVersionChecks,
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: acct.ProviderConfig()},
			{
				Query: true,
				Config: `
list "payments_product" "all" {
  provider = payments
}

list "payments_product" "active" {
  provider         = payments
  include_resource = true
  config {
    active = true
  }
}
`,
				QueryResultChecks: []querycheck.QueryResultCheck{
					querycheck.ExpectLength("payments_product.all", 2),
					querycheck.ExpectResourceDisplayName("payments_product.all", byID(knownvalue.StringExact(other)), knownvalue.StringExact("Archived")),
					querycheck.ExpectLength("payments_product.active", 1),
					querycheck.ExpectResourceKnownValues("payments_product.active", byID(knownvalue.StringExact(product.ID)), []querycheck.KnownValueCheck{
						{Path: tfjsonpath.New("name"), KnownValue: knownvalue.StringExact("Gold")},
						{Path: tfjsonpath.New("description"), KnownValue: knownvalue.StringExact("The gold plan")},
						{Path: tfjsonpath.New("active"), KnownValue: knownvalue.Bool(true)},
						{Path: tfjsonpath.New("metadata"), KnownValue: knownvalue.MapExact(map[string]knownvalue.Check{"tier": knownvalue.StringExact("3")})},
					}),
				},
			},
		},
	})
}

// testAccPlainProduct makes a product at the service and returns its id.
func testAccPlainProduct(t *testing.T, a *testAccAccount, name string, active bool) string {
	t.Helper()
	p, err := a.Client.CreateProduct(t.Context(), &client.ProductParams{Name: &name, Active: &active})
	if err != nil {
		t.Fatalf("creating product %q: %v", name, err)
	}
	return p.ID
}
