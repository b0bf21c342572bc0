package provider

import (
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

func TestAccProductDataSource_NotFound(t *testing.T) {
	acct := newTestAccAccount(t)
	missing := "prod_" + strings.Repeat("9", wire.IDRandomLength)
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config:      acct.ProviderConfig() + `data "payments_product" "test" { id = "` + missing + `" }`,
				ExpectError: expectErrorRe("Product Not Found", missing),
			},
			{
				Config:      acct.ProviderConfig() + `data "payments_product" "test" { id = "prod_1" }`,
				ExpectError: expectErrorRe("must be a product id", productIDShape),
			},
		},
	})
}
