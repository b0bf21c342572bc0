package provider

import (
	"context"
	"fmt"
	"maps"
	"net/http"
	"net/http/httptest"
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
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/sandboxtest"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

const testAccProductAddr = "payments_product.test"

// testAccCheckProductsDestroyed checks, against the sandbox, that every
// payments_product in the state is deleted, or archived when it has prices.
func (a *testAccAccount) testAccCheckProductsDestroyed(s *terraform.State) error {
	for _, rs := range s.RootModule().Resources {
		if rs.Type != "payments_product" {
			continue
		}
		p, err := a.Client.GetProduct(context.Background(), rs.Primary.ID)
		if client.IsNotFound(err) {
			continue
		}
		if err != nil {
			return fmt.Errorf("checking product %s: %w", rs.Primary.ID, err)
		}
		if p.Active {
			return fmt.Errorf("product %s is still active, neither deleted nor archived", p.ID)
		}
		active := true
		prices, err := a.Client.ListPrices(context.Background(), &client.ListPricesParams{Product: p.ID, Active: &active})
		if err != nil {
			return fmt.Errorf("listing the prices of product %s: %w", p.ID, err)
		}
		all, err := a.Client.ListPrices(context.Background(), &client.ListPricesParams{Product: p.ID})
		if err != nil {
			return fmt.Errorf("listing the prices of product %s: %w", p.ID, err)
		}
		if len(all.Data) == 0 {
			return fmt.Errorf("product %s has no prices, so it should have been deleted, not archived", p.ID)
		}
		if len(prices.Data) != 0 {
			return fmt.Errorf("product %s still has %d active prices", p.ID, len(prices.Data))
		}
	}
	return nil
}

// testAccCheckProductAtService checks the product as the service has it.
func (a *testAccAccount) testAccCheckProductAtService(id *string, check func(*client.Product) error) resource.TestCheckFunc {
	return func(*terraform.State) error {
		p, err := a.Client.GetProduct(context.Background(), *id)
		if err != nil {
			return fmt.Errorf("reading product %s: %w", *id, err)
		}
		return check(p)
	}
}

var productIDCheck = knownvalue.StringRegexp(productIDRegexp)

func TestAccProduct_CreateImportUpdate(t *testing.T) {
	acct := newTestAccAccount(t)
	var id string
	sameID := statecheck.CompareValue(compare.ValuesSame())
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             acct.testAccCheckProductsDestroyed,
		Steps: []resource.TestStep{
			{
				Config: acct.ProviderConfig() + `
resource "payments_product" "test" {
  name        = "Gold"
  description = "The gold plan"
  metadata    = { tier = "3" }
}
`,
				ConfigStateChecks: []statecheck.StateCheck{
					sameID.AddStateValue(testAccProductAddr, tfjsonpath.New("id")),
					statecheck.ExpectKnownValue(testAccProductAddr, tfjsonpath.New("id"), productIDCheck),
					statecheck.ExpectKnownValue(testAccProductAddr, tfjsonpath.New("name"), knownvalue.StringExact("Gold")),
					statecheck.ExpectKnownValue(testAccProductAddr, tfjsonpath.New("description"), knownvalue.StringExact("The gold plan")),
					statecheck.ExpectKnownValue(testAccProductAddr, tfjsonpath.New("active"), knownvalue.Bool(true)),
					statecheck.ExpectKnownValue(testAccProductAddr, tfjsonpath.New("metadata"),
						knownvalue.MapExact(map[string]knownvalue.Check{"tier": knownvalue.StringExact("3")})),
					statecheck.ExpectKnownValue(testAccProductAddr, tfjsonpath.New("livemode"), knownvalue.Bool(false)),
					statecheck.ExpectKnownValue(testAccProductAddr, tfjsonpath.New("created_at"), knownvalue.NotNull()),
				},
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: testAccCaptureID(testAccProductAddr, &id),
			},
			{
				ResourceName:      testAccProductAddr,
				ImportState:       true,
				ImportStateVerify: true,
			},
			{
				// Rename, drop the description and a key, archive: all in place.
				Config: acct.ProviderConfig() + `
resource "payments_product" "test" {
  name   = "Gold (old)"
  active = false
}
`,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(testAccProductAddr, plancheck.ResourceActionUpdate),
					},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					sameID.AddStateValue(testAccProductAddr, tfjsonpath.New("id")),
					statecheck.ExpectKnownValue(testAccProductAddr, tfjsonpath.New("description"), knownvalue.Null()),
					statecheck.ExpectKnownValue(testAccProductAddr, tfjsonpath.New("metadata"), knownvalue.Null()),
				},
				Check: acct.testAccCheckProductAtService(&id, func(p *client.Product) error {
					if p.Name != "Gold (old)" || p.Description != "" || p.Active || len(p.Metadata) != 0 {
						return fmt.Errorf("the service has %+v; want renamed, archived, no description, no metadata", p)
					}
					return nil
				}),
			},
		},
	})
}

// TestAccProduct_DriftRepaired renames and archives the product behind
// Terraform's back; the plan shows it as an in-place change and applying
// puts it back.
func TestAccProduct_DriftRepaired(t *testing.T) {
	acct := newTestAccAccount(t)
	var id string
	config := acct.ProviderConfig() + `
resource "payments_product" "test" {
  name     = "Silver"
  metadata = { tier = "2" }
}
`
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             acct.testAccCheckProductsDestroyed,
		Steps: []resource.TestStep{
			{Config: config, Check: testAccCaptureID(testAccProductAddr, &id)},
			{
				PreConfig: func() {
					name, inactive := "Renamed outside", false
					if _, err := acct.Client.UpdateProduct(context.Background(), id, &client.ProductParams{
						Name: &name, Active: &inactive, Metadata: map[string]string{"extra": "x"},
					}); err != nil {
						t.Fatalf("changing product %s behind Terraform's back: %v", id, err)
					}
				},
				Config: config,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(testAccProductAddr, plancheck.ResourceActionUpdate),
						plancheck.ExpectKnownValue(testAccProductAddr, tfjsonpath.New("name"), knownvalue.StringExact("Silver")),
						plancheck.ExpectKnownValue(testAccProductAddr, tfjsonpath.New("active"), knownvalue.Bool(true)),
					},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: acct.testAccCheckProductAtService(&id, func(p *client.Product) error {
					if p.Name != "Silver" || !p.Active || !maps.Equal(p.Metadata, map[string]string{"tier": "2"}) {
						return fmt.Errorf("the service has %+v; want the configuration back", p)
					}
					return nil
				}),
			},
		},
	})
}

// TestAccProduct_DeletedOutside: a product deleted behind Terraform's back
// leaves the state on refresh and is planned for creation, without error.
func TestAccProduct_DeletedOutside(t *testing.T) {
	acct := newTestAccAccount(t)
	var id string
	config := acct.ProviderConfig() + `
resource "payments_product" "test" {
  name = "Fleeting"
}
`
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             acct.testAccCheckProductsDestroyed,
		Steps: []resource.TestStep{
			{Config: config, Check: testAccCaptureID(testAccProductAddr, &id)},
			{
				PreConfig: func() {
					if _, err := acct.Client.DeleteProduct(context.Background(), id); err != nil {
						t.Fatalf("deleting product %s behind Terraform's back: %v", id, err)
					}
				},
				Config: config,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(testAccProductAddr, plancheck.ResourceActionCreate)},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
			},
		},
	})
}

// TestAccProduct_DestroyWithPricesArchives: destroying a product with a
// price archives both (the price first), since neither can be deleted,
// each with a warning that says so; CheckDestroy finds them archived.
func TestAccProduct_DestroyWithPricesArchives(t *testing.T) {
	acct := newTestAccAccount(t)
	rec := &diagRecorder{}
	var productID, priceID string
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: rec.factories(),
		CheckDestroy: func(s *terraform.State) error {
			if err := acct.testAccCheckProductsDestroyed(s); err != nil {
				return err
			}
			p, err := acct.Client.GetProduct(context.Background(), productID)
			if err != nil || p.Active {
				return fmt.Errorf("product %s: %+v, %v; want it archived", productID, p, err)
			}
			if err := acct.testAccCheckPricesArchived(s); err != nil {
				return err
			}
			warnings := strings.Join(rec.take(), "\n")
			for _, want := range []string{
				"Price Archived, Not Deleted: The payments service cannot delete a price, so Terraform archived price " + priceID + " (5.00 EUR every month)",
				"Product Archived, Not Deleted: Product " + productID + " has prices",
			} {
				if !strings.Contains(warnings, want) {
					return fmt.Errorf("no warning %q among the destroy's warnings:\n%s", want, warnings)
				}
			}
			return nil
		},
		Steps: []resource.TestStep{
			{
				Config: acct.ProviderConfig() + `
resource "payments_product" "test" {
  name = "Bronze"
}

resource "payments_price" "test" {
  product     = payments_product.test.id
  currency    = "EUR"
  unit_amount = 500
  interval    = "month"
}
`,
				Check: resource.ComposeTestCheckFunc(
					testAccCaptureID(testAccProductAddr, &productID),
					testAccCaptureID(testAccPriceAddr, &priceID),
					func(*terraform.State) error {
						if w := rec.take(); len(w) != 0 {
							return fmt.Errorf("warnings before the destroy: %v", w)
						}
						return nil
					},
				),
			},
		},
	})
}

// TestAccProduct_Invalid rejects bad arguments at plan time, and bad
// import ids, each with a message that says what is expected.
func TestAccProduct_Invalid(t *testing.T) {
	acct := newTestAccAccount(t)
	config := func(body string) string {
		return acct.ProviderConfig() + "resource \"payments_product\" \"test\" {\n" + body + "\n}\n"
	}
	planError := func(body string, want ...string) resource.TestStep {
		return resource.TestStep{Config: config(body), PlanOnly: true, ExpectError: expectErrorRe(want...)}
	}
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			planError(`name = ""`, "name", "between 1 and 256"),
			planError(`name = "`+strings.Repeat("n", wire.NameMaxLength+1)+`"`, "name", "between 1 and 256"),
			planError("name = \"a\\u0007b\"", "name", "control characters"),
			planError(`
name        = "ok"
description = "`+strings.Repeat("d", wire.ProductDescriptionMaxLength+1)+`"`, "description", "between 1 and 5000"),
			planError(`
name     = "ok"
metadata = { k = "" }`, "Empty Metadata Value"),
			planError("name = \"ok\"\nmetadata = {\n"+testAccBigMetadata()+"}",
				"Product Request Too Large", "metadata", "create request would be", "over the service's limit of 65536 bytes"),
			{
				Config:        config(`name = "x"`),
				ResourceName:  testAccProductAddr,
				ImportState:   true,
				ImportStateId: "cus_" + strings.Repeat("a", wire.IDRandomLength),
				ExpectError:   expectErrorRe("Invalid Product Import ID", "is not a product id", "prod_ followed by 24 letters or digits"),
			},
			{
				Config:        config(`name = "x"`),
				ResourceName:  testAccProductAddr,
				ImportState:   true,
				ImportStateId: "prod_" + strings.Repeat("a", wire.IDRandomLength),
				ExpectError:   expectErrorRe("Cannot import non-existent remote object"),
			},
		},
	})
}

func TestAccProduct_IdentityImport(t *testing.T) {
	acct := newTestAccAccount(t)
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		TerraformVersionChecks:   identityVersionChecks,
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             acct.testAccCheckProductsDestroyed,
		Steps: []resource.TestStep{
			{
				Config: acct.ProviderConfig() + `
resource "payments_product" "test" {
  name = "Identity"
}
`,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectIdentity(testAccProductAddr, map[string]knownvalue.Check{"id": productIDCheck}),
					statecheck.ExpectIdentityValueMatchesState(testAccProductAddr, tfjsonpath.New("id")),
				},
			},
			{ResourceName: testAccProductAddr, ImportState: true, ImportStateKind: resource.ImportBlockWithResourceIdentity},
			{ResourceName: testAccProductAddr, ImportState: true, ImportStateKind: resource.ImportBlockWithID},
		},
	})
}

// TestAccProduct_RefusedParameterNamesAttribute: a parameter the service
// refuses on create or update (a fake service here, since the plan-time
// checks keep the sandbox from ever refusing one) is reported on the
// attribute it comes from.
func TestAccProduct_RefusedParameterNamesAttribute(t *testing.T) {
	id := wire.ProductIDPrefix + strings.Repeat("F", wire.IDRandomLength)
	refuse := func(w http.ResponseWriter, param string) {
		w.WriteHeader(http.StatusBadRequest)
		fmt.Fprintf(w, `{"error": {"type": %q, "code": %q, "param": %q, "message": "Invalid %s: the fake refuses it."}}`,
			wire.ErrorTypeInvalidRequest, wire.ErrorCodeParameterInvalid, param, param)
	}
	fake := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if err := r.ParseForm(); err != nil {
			t.Errorf("parsing the form: %v", err)
		}
		switch {
		case r.Method == http.MethodPost && r.URL.Path == wire.PathProducts && r.PostForm.Get(wire.ParamDescription) == "refused":
			refuse(w, wire.ParamDescription)
		case r.Method == http.MethodPost && r.URL.Path == wire.PathProducts+"/"+id:
			refuse(w, wire.ParamName)
		case r.Method == http.MethodDelete:
			fmt.Fprintf(w, `{"id": %q, "object": "product", "deleted": true}`, id)
		default: // create, or read
			fmt.Fprintf(w, `{"id": %q, "object": "product", "name": "Fake", "active": true, "metadata": {}, "created_at": "2026-01-02T03:04:05Z", "livemode": false}`, id)
		}
	}))
	t.Cleanup(fake.Close)
	provider := fmt.Sprintf("provider \"payments\" {\n  base_url   = %q\n  secret_key = %q\n  max_retries = 0\n}\n", fake.URL, sandboxtest.NewKey(t))
	product := func(name, description string) string {
		if description != "" {
			description = fmt.Sprintf("  description = %q\n", description)
		}
		return provider + fmt.Sprintf("resource \"payments_product\" \"test\" {\n  name = %q\n%s}\n", name, description)
	}
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config:      product("Fake", "refused"),
				ExpectError: expectErrorRe("Error Creating Product", "with payments_product.test", "description", "The service refused description", "the fake refuses it"),
			},
			{
				Config: product("Fake", ""),
			},
			{
				Config:      product("Renamed", ""),
				ExpectError: expectErrorRe("Error Updating Product", "with payments_product.test", "name", "The service refused name", "the fake refuses it"),
			},
		},
	})
}
