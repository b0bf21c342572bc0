package provider

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/compare"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/paymentsdev/terraform-provider-payments/internal/client"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

const testAccPriceAddr = "payments_price.test"

var priceIDCheck = knownvalue.StringRegexp(priceIDRegexp)

// testAccCheckPricesArchived checks, against the sandbox, that every
// payments_price in the state is archived: the service deletes no price.
func (a *testAccAccount) testAccCheckPricesArchived(s *terraform.State) error {
	for _, rs := range s.RootModule().Resources {
		if rs.Type != "payments_price" {
			continue
		}
		p, err := a.Client.GetPrice(context.Background(), rs.Primary.ID)
		if err != nil {
			return fmt.Errorf("checking price %s: %w", rs.Primary.ID, err)
		}
		if p.Active {
			return fmt.Errorf("price %s is still active after destroy", p.ID)
		}
	}
	return nil
}

// testAccCheckPriceAtService checks the price as the service has it.
func (a *testAccAccount) testAccCheckPriceAtService(id *string, check func(*client.Price) error) resource.TestCheckFunc {
	return func(*terraform.State) error {
		p, err := a.Client.GetPrice(context.Background(), *id)
		if err != nil {
			return fmt.Errorf("reading price %s: %w", *id, err)
		}
		return check(p)
	}
}

// testAccPriceProduct is a product for the prices of a test.
const testAccPriceProduct = `
resource "payments_product" "test" {
  name = "Plan"
}
`

func TestAccPrice_CreateImportUpdateReplace(t *testing.T) {
	acct := newTestAccAccount(t)
	var id string
	sameID := statecheck.CompareValue(compare.ValuesSame())
	config := func(body string) string {
		return acct.ProviderConfig() + testAccPriceProduct + `
resource "payments_price" "test" {
  product  = payments_product.test.id
  currency = "USD"
` + body + "\n}\n"
	}
	inPlace := func(attrs ...string) resource.ConfigPlanChecks {
		return resource.ConfigPlanChecks{
			PreApply: []plancheck.PlanCheck{
				plancheck.ExpectResourceAction(testAccPriceAddr, plancheck.ResourceActionUpdate),
				expectOnlyChanged(testAccPriceAddr, attrs...),
			},
			PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
		}
	}
	replaced := resource.ConfigPlanChecks{
		PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(testAccPriceAddr, plancheck.ResourceActionDestroyBeforeCreate)},
		PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
	}
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             acct.testAccCheckPricesArchived,
		Steps: []resource.TestStep{
			{
				Config: config(`
  unit_amount = 999
  interval    = "month"
  nickname    = "Monthly"
  lookup_key  = "plan_monthly"
  metadata    = { a = "1" }
`),
				ConfigStateChecks: []statecheck.StateCheck{
					sameID.AddStateValue(testAccPriceAddr, tfjsonpath.New("id")),
					statecheck.ExpectKnownValue(testAccPriceAddr, tfjsonpath.New("id"), priceIDCheck),
					statecheck.ExpectKnownValue(testAccPriceAddr, tfjsonpath.New("interval_count"), knownvalue.Int64Exact(1)),
					statecheck.ExpectKnownValue(testAccPriceAddr, tfjsonpath.New("type"), knownvalue.StringExact(wire.PriceTypeRecurring)),
					statecheck.ExpectKnownValue(testAccPriceAddr, tfjsonpath.New("active"), knownvalue.Bool(true)),
					statecheck.ExpectKnownValue(testAccPriceAddr, tfjsonpath.New("transfer_lookup_key"), knownvalue.Null()),
				},
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: testAccCaptureID(testAccPriceAddr, &id),
			},
			{
				ResourceName:      testAccPriceAddr,
				ImportState:       true,
				ImportStateVerify: true,
			},
			{
				// What a price may change changes in place; dropped fields are
				// cleared at the service.
				Config: config(`
  unit_amount = 999
  interval    = "month"
  nickname    = "Monthly (2026)"
  active      = false
  metadata    = { b = "2" }
`),
				ConfigPlanChecks: inPlace("nickname", "lookup_key", "active", "metadata"),
				ConfigStateChecks: []statecheck.StateCheck{
					sameID.AddStateValue(testAccPriceAddr, tfjsonpath.New("id")),
					statecheck.ExpectKnownValue(testAccPriceAddr, tfjsonpath.New("lookup_key"), knownvalue.Null()),
				},
				Check: acct.testAccCheckPriceAtService(&id, func(p *client.Price) error {
					if p.Nickname != "Monthly (2026)" || p.LookupKey != "" || p.Active || len(p.Metadata) != 1 || p.Metadata["b"] != "2" {
						return fmt.Errorf("the service has %+v; want the update", p)
					}
					return nil
				}),
			},
			// Each field a price is fixed by replaces it.
			{Config: config("unit_amount = 1099\ninterval = \"month\""), ConfigPlanChecks: replaced},
			{Config: config("unit_amount = 1099\ninterval = \"month\"\ninterval_count = 3"), ConfigPlanChecks: replaced,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(testAccPriceAddr, tfjsonpath.New("interval_count"), knownvalue.Int64Exact(3)),
				}},
			{
				// Removing interval_count takes it back to 1: another period.
				Config: config("unit_amount = 1099\ninterval = \"month\""), ConfigPlanChecks: replaced,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(testAccPriceAddr, tfjsonpath.New("interval_count"), knownvalue.Int64Exact(1)),
				},
			},
			{Config: config("unit_amount = 1099\ninterval = \"year\""), ConfigPlanChecks: replaced},
			{
				// A one-time price: no interval, no interval_count.
				Config:           config("unit_amount = 1099"),
				ConfigPlanChecks: replaced,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(testAccPriceAddr, tfjsonpath.New("interval_count"), knownvalue.Null()),
					statecheck.ExpectKnownValue(testAccPriceAddr, tfjsonpath.New("type"), knownvalue.StringExact(wire.PriceTypeOneTime)),
				},
			},
			{
				// A metadata change of a one-time price stays in place.
				Config:           config("unit_amount = 1099\nmetadata = { c = \"3\" }"),
				ConfigPlanChecks: inPlace("metadata"),
			},
			{
				// An update too large for the service is refused at plan time.
				Config:      config("unit_amount = 1099\nmetadata = {\n" + testAccBigMetadata() + "}"),
				ExpectError: expectErrorRe("Price Request Too Large", "update request would be"),
			},
		},
	})
}

// TestAccPrice_ReplaceKeepsLookupKey is the pattern the docs show: with
// create_before_destroy and transfer_lookup_key, a new amount makes a new
// price that takes the lookup key before the old one is archived, so the
// key never points nowhere.
func TestAccPrice_ReplaceKeepsLookupKey(t *testing.T) {
	acct := newTestAccAccount(t)
	var oldID, newID string
	config := func(amount int) string {
		return acct.ProviderConfig() + testAccPriceProduct + fmt.Sprintf(`
resource "payments_price" "test" {
  product             = payments_product.test.id
  currency            = "USD"
  unit_amount         = %d
  interval            = "month"
  lookup_key          = "gold_monthly"
  transfer_lookup_key = true

  lifecycle {
    create_before_destroy = true
  }
}

data "payments_price" "by_key" {
  lookup_key = "gold_monthly"
  depends_on = [payments_price.test]
}
`, amount)
	}
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             acct.testAccCheckPricesArchived,
		Steps: []resource.TestStep{
			{
				Config: config(999),
				Check:  testAccCaptureID(testAccPriceAddr, &oldID),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
			},
			{
				Config: config(1299),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(testAccPriceAddr, plancheck.ResourceActionCreateBeforeDestroy),
					},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(testAccPriceAddr, tfjsonpath.New("lookup_key"), knownvalue.StringExact("gold_monthly")),
					statecheck.CompareValuePairs(testAccPriceAddr, tfjsonpath.New("id"), "data.payments_price.by_key", tfjsonpath.New("id"), compare.ValuesSame()),
					statecheck.ExpectKnownValue("data.payments_price.by_key", tfjsonpath.New("unit_amount"), knownvalue.Int64Exact(1299)),
				},
				Check: resource.ComposeTestCheckFunc(
					testAccCaptureID(testAccPriceAddr, &newID),
					acct.testAccCheckPriceAtService(&oldID, func(p *client.Price) error {
						if p.ID == newID || p.Active || p.LookupKey != "" {
							return fmt.Errorf("the old price is %+v; want it archived and without its lookup key", p)
						}
						return nil
					}),
					acct.testAccCheckPriceAtService(&newID, func(p *client.Price) error {
						if !p.Active || p.LookupKey != "gold_monthly" || p.UnitAmount != 1299 {
							return fmt.Errorf("the new price is %+v; want it active with the lookup key", p)
						}
						return nil
					}),
				),
			},
		},
	})
}

// TestAccPrice_ArchivedOutside: a price archived behind Terraform's back
// is shown as an in-place change and made active again.
func TestAccPrice_ArchivedOutside(t *testing.T) {
	acct := newTestAccAccount(t)
	var id string
	config := acct.ProviderConfig() + testAccPriceProduct + `
resource "payments_price" "test" {
  product     = payments_product.test.id
  currency    = "JPY"
  unit_amount = 1200
  nickname    = "One-off"
}
`
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             acct.testAccCheckPricesArchived,
		Steps: []resource.TestStep{
			{Config: config, Check: testAccCaptureID(testAccPriceAddr, &id)},
			{
				PreConfig: func() {
					inactive, nickname := false, "Changed outside"
					if _, err := acct.Client.UpdatePrice(context.Background(), id, &client.PriceUpdateParams{Active: &inactive, Nickname: &nickname}); err != nil {
						t.Fatalf("archiving price %s behind Terraform's back: %v", id, err)
					}
				},
				Config: config,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(testAccPriceAddr, plancheck.ResourceActionUpdate),
						plancheck.ExpectKnownValue(testAccPriceAddr, tfjsonpath.New("active"), knownvalue.Bool(true)),
					},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: acct.testAccCheckPriceAtService(&id, func(p *client.Price) error {
					if !p.Active || p.Nickname != "One-off" {
						return fmt.Errorf("the service has %+v; want it active again, nickname back", p)
					}
					return nil
				}),
			},
		},
	})
}

// TestAccPrice_Invalid rejects at plan time what the service would refuse,
// naming the attribute and the fix.
func TestAccPrice_Invalid(t *testing.T) {
	acct := newTestAccAccount(t)
	product := "prod_" + strings.Repeat("a", wire.IDRandomLength)
	config := func(body string) string {
		return acct.ProviderConfig() + fmt.Sprintf(`
resource "payments_price" "test" {
  product = %q
%s
}
`, product, body)
	}
	planError := func(body string, want ...string) resource.TestStep {
		return resource.TestStep{Config: config(body), PlanOnly: true, ExpectError: expectErrorRe(want...)}
	}
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			planError("currency = \"USD\"\nunit_amount = 100\ninterval = \"fortnight\"",
				"Invalid Price Interval", "interval", `"fortnight" is not an interval`, "`day`, `week`, `month` or `year`"),
			planError("currency = \"USD\"\nunit_amount = 100\ninterval = \"month\"\ninterval_count = 37",
				"Invalid Price Period", "interval_count", "longer than the service's longest, 3 years", "from 1 to 36"),
			planError("currency = \"USD\"\nunit_amount = 100\ninterval = \"day\"\ninterval_count = 1096", "Invalid Price Period", "from 1 to 1095"),
			planError("currency = \"USD\"\nunit_amount = 100\ninterval = \"week\"\ninterval_count = 0", "interval_count", "at least 1"),
			planError("currency = \"USD\"\nunit_amount = 100\ninterval_count = 2", "Interval Count Without Interval", "interval_count needs interval"),
			planError("currency = \"usd\"\nunit_amount = 100", "Invalid Currency", `use "USD"`),
			planError("currency = \"XYZ\"\nunit_amount = 100", "Invalid Currency", "USD, EUR"),
			planError("currency = \"USD\"\nunit_amount = -1", "unit_amount", "between 0 and 99999999"),
			planError("currency = \"USD\"\nunit_amount = 1\ntransfer_lookup_key = true", "Transfer Without Lookup Key", "lookup_key is not set"),
			planError("currency = \"USD\"\nunit_amount = 1\nmetadata = {\n"+testAccBigMetadata()+"}",
				"Price Request Too Large", "metadata", "create request would be", "over the service's limit of 65536 bytes"),
			planError("currency = \"USD\"\nunit_amount = 1\nlookup_key = \""+strings.Repeat("k", wire.LookupKeyMaxLength+1)+"\"", "lookup_key", "between 1 and 200"),
			{
				Config:        config("currency = \"USD\"\nunit_amount = 1"),
				ResourceName:  testAccPriceAddr,
				ImportState:   true,
				ImportStateId: "price_123",
				ExpectError:   expectErrorRe("Invalid Price Import ID", `"price_123" is not a price id`, "price_ followed by 24 letters or digits"),
			},
		},
	})
}

// TestAccPrice_RefusedProductNamesAttribute: a product the account does
// not have is refused by the service, and the error points at product.
func TestAccPrice_RefusedProductNamesAttribute(t *testing.T) {
	acct := newTestAccAccount(t)
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: acct.ProviderConfig() + `
resource "payments_price" "test" {
  product     = "prod_` + strings.Repeat("Z", wire.IDRandomLength) + `"
  currency    = "USD"
  unit_amount = 100
}
`,
				ExpectError: expectErrorRe("Error Creating Price", `with payments_price.test`, "product", "The service refused product", "not a product of this account"),
			},
		},
	})
}

func TestAccPrice_IdentityImport(t *testing.T) {
	acct := newTestAccAccount(t)
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		TerraformVersionChecks:   identityVersionChecks,
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             acct.testAccCheckPricesArchived,
		Steps: []resource.TestStep{
			{
				Config: acct.ProviderConfig() + testAccPriceProduct + `
resource "payments_price" "test" {
  product     = payments_product.test.id
  currency    = "GBP"
  unit_amount = 700
  interval    = "week"
  interval_count = 2
}
`,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectIdentity(testAccPriceAddr, map[string]knownvalue.Check{"id": priceIDCheck}),
					statecheck.ExpectIdentityValueMatchesState(testAccPriceAddr, tfjsonpath.New("id")),
				},
			},
			{ResourceName: testAccPriceAddr, ImportState: true, ImportStateKind: resource.ImportBlockWithResourceIdentity},
			{ResourceName: testAccPriceAddr, ImportState: true, ImportStateKind: resource.ImportBlockWithID},
		},
	})
}

// testAccBigMetadata is metadata within every per-key limit whose request
// is over the service's body limit: 15 values of 500 euro signs, 9 bytes
// each once encoded.
func testAccBigMetadata() string {
	var b strings.Builder
	for i := range 15 {
		fmt.Fprintf(&b, "  k%02d = %q\n", i, strings.Repeat("€", wire.MetadataValueMaxLength))
	}
	return b.String()
}
