package provider

import (
	"context"
	"fmt"
	"maps"
	"regexp"
	"strings"
	"testing"

	fwresource "github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/hashicorp/terraform-plugin-testing/compare"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/paymentsdev/terraform-provider-payments/internal/client"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandboxclient"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

const testAccCustomerAddr = "payments_customer.test"

// customerIDCheck matches a customer id of the contract's shape.
var customerIDCheck = knownvalue.StringRegexp(customerIDRegexp)

// testAccCheckCustomersDestroyed checks, against the sandbox, that every
// payments_customer in the state is gone.
func (a *testAccAccount) testAccCheckCustomersDestroyed(s *terraform.State) error {
	return testAccCheckGone(s, "payments_customer", "customer", func(id string) error {
		_, err := a.Client.GetCustomer(context.Background(), id)
		return err
	})
}

// testAccCaptureID stores the id of the resource at addr in *id.
func testAccCaptureID(addr string, id *string) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		rs, ok := s.RootModule().Resources[addr]
		if !ok {
			return fmt.Errorf("%s is not in the state", addr)
		}
		*id = rs.Primary.ID
		return nil
	}
}

// testAccCheckCustomerAtService checks the customer as the service has it.
func (a *testAccAccount) testAccCheckCustomerAtService(id *string, check func(*client.Customer) error) resource.TestCheckFunc {
	return func(*terraform.State) error {
		cus, err := a.Client.GetCustomer(context.Background(), *id)
		if err != nil {
			return fmt.Errorf("reading customer %s: %w", *id, err)
		}
		return check(cus)
	}
}

func TestAccCustomer_CreateImportUpdate(t *testing.T) {
	acct := newTestAccAccount(t)
	var id string
	// The id stays the same across every step: updates are in place.
	sameID := statecheck.CompareValue(compare.ValuesSame())
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             acct.testAccCheckCustomersDestroyed,
		Steps: []resource.TestStep{
			{
				Config: acct.ProviderConfig() + `
resource "payments_customer" "test" {
  email = "ada@example.com"
  name  = "Ada Lovelace"
  phone = "+14155550123"
  metadata = {
    plan = "gold"
    team = "engines"
  }
}
`,
				ConfigStateChecks: []statecheck.StateCheck{
					sameID.AddStateValue(testAccCustomerAddr, tfjsonpath.New("id")),
					statecheck.ExpectKnownValue(testAccCustomerAddr, tfjsonpath.New("id"), customerIDCheck),
					statecheck.ExpectKnownValue(testAccCustomerAddr, tfjsonpath.New("email"), knownvalue.StringExact("ada@example.com")),
					statecheck.ExpectKnownValue(testAccCustomerAddr, tfjsonpath.New("name"), knownvalue.StringExact("Ada Lovelace")),
					statecheck.ExpectKnownValue(testAccCustomerAddr, tfjsonpath.New("phone"), knownvalue.StringExact("+14155550123")),
					statecheck.ExpectKnownValue(testAccCustomerAddr, tfjsonpath.New("metadata"), knownvalue.MapExact(map[string]knownvalue.Check{
						"plan": knownvalue.StringExact("gold"),
						"team": knownvalue.StringExact("engines"),
					})),
					statecheck.ExpectKnownValue(testAccCustomerAddr, tfjsonpath.New("created_at"),
						knownvalue.StringRegexp(regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$`))),
					statecheck.ExpectKnownValue(testAccCustomerAddr, tfjsonpath.New("livemode"), knownvalue.Bool(false)),
				},
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: testAccCaptureID(testAccCustomerAddr, &id),
			},
			{
				ResourceName:      testAccCustomerAddr,
				ImportState:       true,
				ImportStateVerify: true,
			},
			{
				// Change one field, drop another and a metadata key: all in place,
				// and what was dropped is cleared at the service.
				Config: acct.ProviderConfig() + `
resource "payments_customer" "test" {
  email = "countess@example.com"
  phone = "+14155550123"
  metadata = {
    plan = "platinum"
  }
}
`,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(testAccCustomerAddr, plancheck.ResourceActionUpdate),
					},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					sameID.AddStateValue(testAccCustomerAddr, tfjsonpath.New("id")),
					statecheck.ExpectKnownValue(testAccCustomerAddr, tfjsonpath.New("email"), knownvalue.StringExact("countess@example.com")),
					statecheck.ExpectKnownValue(testAccCustomerAddr, tfjsonpath.New("name"), knownvalue.Null()),
					statecheck.ExpectKnownValue(testAccCustomerAddr, tfjsonpath.New("metadata"), knownvalue.MapExact(map[string]knownvalue.Check{
						"plan": knownvalue.StringExact("platinum"),
					})),
				},
				Check: acct.testAccCheckCustomerAtService(&id, func(c *client.Customer) error {
					if c.Name != "" {
						return fmt.Errorf("name is %q at the service, want it cleared", c.Name)
					}
					if !maps.Equal(c.Metadata, map[string]string{"plan": "platinum"}) {
						return fmt.Errorf("metadata is %v at the service, want only plan=platinum", c.Metadata)
					}
					return nil
				}),
			},
			{
				// Dropping everything clears everything.
				Config: acct.ProviderConfig() + `
resource "payments_customer" "test" {}
`,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(testAccCustomerAddr, plancheck.ResourceActionUpdate),
					},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					sameID.AddStateValue(testAccCustomerAddr, tfjsonpath.New("id")),
					statecheck.ExpectKnownValue(testAccCustomerAddr, tfjsonpath.New("email"), knownvalue.Null()),
					statecheck.ExpectKnownValue(testAccCustomerAddr, tfjsonpath.New("phone"), knownvalue.Null()),
					statecheck.ExpectKnownValue(testAccCustomerAddr, tfjsonpath.New("metadata"), knownvalue.Null()),
				},
				Check: acct.testAccCheckCustomerAtService(&id, func(c *client.Customer) error {
					if c.Email != "" || c.Phone != "" || len(c.Metadata) != 0 {
						return fmt.Errorf("the service still has email %q, phone %q, metadata %v; want all cleared", c.Email, c.Phone, c.Metadata)
					}
					return nil
				}),
			},
		},
	})
}

// TestAccCustomer_MetadataEmptyVersusNull proves that metadata = {} and an
// absent metadata both mean "no keys" without a perpetual diff either way.
func TestAccCustomer_MetadataEmptyVersusNull(t *testing.T) {
	acct := newTestAccAccount(t)
	config := func(metadata string) string {
		return acct.ProviderConfig() + fmt.Sprintf(`
resource "payments_customer" "test" {
  name = "Metadata"
  %s
}
`, metadata)
	}
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             acct.testAccCheckCustomersDestroyed,
		Steps: []resource.TestStep{
			{
				Config: config("metadata = {}"),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(testAccCustomerAddr, tfjsonpath.New("metadata"), knownvalue.MapSizeExact(0)),
				},
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
			},
			{
				Config: config(`metadata = { a = "1" }`),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(testAccCustomerAddr, plancheck.ResourceActionUpdate)},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
			},
			{
				Config: config("metadata = {}"),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(testAccCustomerAddr, tfjsonpath.New("metadata"), knownvalue.MapSizeExact(0)),
				},
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
			},
			{
				Config: config(""),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(testAccCustomerAddr, tfjsonpath.New("metadata"), knownvalue.Null()),
				},
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
			},
		},
	})
}

// TestAccCustomer_DriftRepaired changes the customer behind Terraform's
// back; the plan shows it and applying puts it back.
func TestAccCustomer_DriftRepaired(t *testing.T) {
	acct := newTestAccAccount(t)
	var id string
	config := acct.ProviderConfig() + `
resource "payments_customer" "test" {
  email    = "drift@example.com"
  name     = "Drift"
  metadata = { plan = "gold" }
}
`
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             acct.testAccCheckCustomersDestroyed,
		Steps: []resource.TestStep{
			{
				Config: config,
				Check:  testAccCaptureID(testAccCustomerAddr, &id),
			},
			{
				PreConfig: func() {
					email, phone := "changed@example.com", "+4915112345678"
					if _, err := acct.Client.UpdateCustomer(context.Background(), id, &client.CustomerParams{
						Email:    &email,
						Phone:    &phone,
						Metadata: map[string]string{"plan": "free", "extra": "added outside"},
					}); err != nil {
						t.Fatalf("changing customer %s behind Terraform's back: %v", id, err)
					}
				},
				Config: config,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(testAccCustomerAddr, plancheck.ResourceActionUpdate),
						plancheck.ExpectKnownValue(testAccCustomerAddr, tfjsonpath.New("email"), knownvalue.StringExact("drift@example.com")),
						plancheck.ExpectKnownValue(testAccCustomerAddr, tfjsonpath.New("phone"), knownvalue.Null()),
					},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: acct.testAccCheckCustomerAtService(&id, func(c *client.Customer) error {
					if c.Email != "drift@example.com" || c.Phone != "" || !maps.Equal(c.Metadata, map[string]string{"plan": "gold"}) {
						return fmt.Errorf("the service has email %q, phone %q, metadata %v; want the configuration back", c.Email, c.Phone, c.Metadata)
					}
					return nil
				}),
			},
		},
	})
}

// TestAccCustomer_DeletedOutside deletes the customer behind Terraform's
// back: the refresh drops it and the plan creates it again, without error.
func TestAccCustomer_DeletedOutside(t *testing.T) {
	acct := newTestAccAccount(t)
	var id string
	config := acct.ProviderConfig() + `
resource "payments_customer" "test" {
  name = "Ephemeral"
}
`
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             acct.testAccCheckCustomersDestroyed,
		Steps: []resource.TestStep{
			{
				Config: config,
				Check:  testAccCaptureID(testAccCustomerAddr, &id),
			},
			{
				PreConfig: func() {
					if _, err := acct.Client.DeleteCustomer(context.Background(), id); err != nil {
						t.Fatalf("deleting customer %s behind Terraform's back: %v", id, err)
					}
				},
				Config: config,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(testAccCustomerAddr, plancheck.ResourceActionCreate),
					},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(testAccCustomerAddr, tfjsonpath.New("id"), knownvalue.StringFunc(func(v string) error {
						if v == id {
							return fmt.Errorf("id is still %s, want a new customer", v)
						}
						return nil
					})),
				},
			},
		},
	})
}

// TestAccCustomer_Invalid rejects bad arguments at plan time, and bad
// import ids, each with a message that says what is expected.
func TestAccCustomer_Invalid(t *testing.T) {
	acct := newTestAccAccount(t)
	config := func(body string) string {
		return acct.ProviderConfig() + "resource \"payments_customer\" \"test\" {\n" + body + "\n}\n"
	}
	manyKeys := make([]string, 0, wire.MetadataMaxKeys+1)
	for i := range wire.MetadataMaxKeys + 1 {
		manyKeys = append(manyKeys, fmt.Sprintf("k%d = \"v\"", i))
	}
	planError := func(body string, want ...string) resource.TestStep {
		return resource.TestStep{Config: config(body), PlanOnly: true, ExpectError: expectErrorRe(want...)}
	}
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			planError(`email = "not-an-address"`, "Invalid Attribute Value Match", "e-mail address of the form local@domain"),
			planError(`email = "a b@example.com"`, "e-mail address of the form"),
			planError(`email = "`+strings.Repeat("a", wire.EmailMaxLength)+`@example.com"`, "email", "at most 512"),
			planError(`phone = "555-0123"`, "E.164 format"),
			planError(`phone = "+1 415 555 0123"`, "E.164 format"),
			planError(`name = ""`, "name", "between 1 and 256"),
			planError(`metadata = { plan = "" }`, "Empty Metadata Value", "deletes a key whose value is \"\""),
			planError(`metadata = { `+strings.Repeat("k", wire.MetadataKeyMaxLength+1)+` = "v" }`, "between 1 and 40"),
			planError(`metadata = { k = "`+strings.Repeat("v", wire.MetadataValueMaxLength+1)+`" }`, "at most 500"),
			planError("metadata = {\n"+strings.Join(manyKeys, "\n")+"\n}", "metadata", "at most 50 elements"),
			planError(`metadata = { "a[b]" = "v" }`, "must not contain square brackets"),
			{
				Config:        config(""),
				ResourceName:  testAccCustomerAddr,
				ImportState:   true,
				ImportStateId: "cus_123",
				ExpectError:   expectErrorRe("Invalid Customer Import ID", "cus_ followed by 24 letters or digits"),
			},
			{
				Config:        config(""),
				ResourceName:  testAccCustomerAddr,
				ImportState:   true,
				ImportStateId: "src_" + strings.Repeat("a", wire.IDRandomLength),
				ExpectError:   expectErrorRe("Invalid Customer Import ID"),
			},
			{
				// A well-formed id of no customer of this account.
				Config:        config(""),
				ResourceName:  testAccCustomerAddr,
				ImportState:   true,
				ImportStateId: "cus_" + strings.Repeat("a", wire.IDRandomLength),
				ExpectError:   expectErrorRe("Cannot import non-existent remote object"),
			},
		},
	})
}

// TestAccCustomer_Timeout proves the timeouts block bounds an operation:
// with the service slowed down, a short read limit fails clearly. (A
// create is not a good probe: the client finishes a POST that was already
// sent, so that no customer is orphaned.)
func TestAccCustomer_Timeout(t *testing.T) {
	acct := newTestAccAccount(t)
	setLatency := func(ms int64) {
		if _, err := sandboxclient.New(acct.Client).SetFaults(context.Background(), sandboxclient.FaultsParams{LatencyMS: &ms}); err != nil {
			t.Fatalf("setting the sandbox's latency: %v", err)
		}
	}
	config := acct.ProviderConfig() + `
resource "payments_customer" "test" {
  name = "Slow"
  timeouts {
    read = "300ms"
  }
}
`
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             acct.testAccCheckCustomersDestroyed,
		Steps: []resource.TestStep{
			{Config: config},
			{
				PreConfig:   func() { setLatency(1500) },
				Config:      config,
				ExpectError: expectErrorRe("Error Reading Customer", "context deadline exceeded", "did not finish within its timeout"),
			},
			{
				PreConfig: func() { setLatency(0) },
				Config:    config,
			},
		},
	})
}

// TestAccCustomer_RenamePlansOneChange: renaming a customer that has a card
// plans exactly that one attribute, nothing unknown, and no change to the
// card, to outputs, or to anything depending on the customer's id.
func TestAccCustomer_RenamePlansOneChange(t *testing.T) {
	acct := newTestAccAccount(t)
	sameID := statecheck.CompareValue(compare.ValuesSame())
	config := func(name string) string {
		return acct.ProviderConfig() + fmt.Sprintf(`
resource "payments_customer" "test" {
  name     = %q
  email    = "rename@example.com"
  metadata = { plan = "gold" }
}

resource "payments_customer_source" "test" {
  customer = payments_customer.test.id
  token    = "tok_visa"
  default  = true
}

resource "terraform_data" "follows_customer" {
  triggers_replace = [payments_customer.test.id, payments_customer.test.created_at]
}

output "customer_id" {
  value = payments_customer.test.id
}

output "customer_email" {
  value = payments_customer.test.email
}
`, name)
	}
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             acct.testAccCheckCustomersDestroyed,
		Steps: []resource.TestStep{
			{
				Config:            config("Before"),
				ConfigStateChecks: []statecheck.StateCheck{sameID.AddStateValue(testAccCustomerAddr, tfjsonpath.New("id"))},
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan(), expectNoDrift()},
				},
			},
			{
				Config: config("After"),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(testAccCustomerAddr, plancheck.ResourceActionUpdate),
						expectOnlyChanged(testAccCustomerAddr, "name"),
						plancheck.ExpectKnownValue(testAccCustomerAddr, tfjsonpath.New("name"), knownvalue.StringExact("After")),
						plancheck.ExpectResourceAction("payments_customer_source.test", plancheck.ResourceActionNoop),
						plancheck.ExpectResourceAction("terraform_data.follows_customer", plancheck.ResourceActionNoop),
						expectOutputUnchanged("customer_id", "customer_email"),
						expectNoDrift(),
					},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan(), expectNoDrift()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					sameID.AddStateValue(testAccCustomerAddr, tfjsonpath.New("id")),
				},
			},
		},
	})
}

// TestAccCustomer_CardChangesLeaveEmptyPlan: storing a card, moving the
// default and removing a card through Terraform leave the next plan empty,
// with nothing "changed outside of Terraform", even though an output
// holds the whole customer.
func TestAccCustomer_CardChangesLeaveEmptyPlan(t *testing.T) {
	acct := newTestAccAccount(t)
	sameID := statecheck.CompareValue(compare.ValuesSame())
	config := func(cards string) string {
		return acct.ProviderConfig() + `
resource "payments_customer" "test" {
  name = "Cards Come And Go"
}

output "customer" {
  value = payments_customer.test
}
` + cards
	}
	card := func(name, token string, isDefault bool) string {
		return fmt.Sprintf(`
resource "payments_customer_source" %q {
  customer = payments_customer.test.id
  token    = %q
  default  = %t
}
`, name, token, isDefault)
	}
	quiet := resource.ConfigPlanChecks{
		PreApply: []plancheck.PlanCheck{
			plancheck.ExpectResourceAction(testAccCustomerAddr, plancheck.ResourceActionNoop),
			expectOutputUnchanged("customer"),
		},
		PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan(), expectNoDrift()},
	}
	// Each step adds its own value to the comparison: the id never changes.
	idCheck := func() []statecheck.StateCheck {
		return []statecheck.StateCheck{sameID.AddStateValue(testAccCustomerAddr, tfjsonpath.New("id"))}
	}
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             acct.testAccCheckCustomersDestroyed,
		Steps: []resource.TestStep{
			{
				Config:            config(""),
				ConfigStateChecks: idCheck(),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan(), expectNoDrift()},
				},
			},
			// The first card becomes the default by itself.
			{Config: config(card("a", "tok_visa", false)), ConfigPlanChecks: quiet, ConfigStateChecks: idCheck()},
			// A second card, made the default.
			{Config: config(card("a", "tok_visa", false) + card("b", "tok_mastercard", true)), ConfigPlanChecks: quiet, ConfigStateChecks: idCheck()},
			// The default moves back to the first card.
			{Config: config(card("a", "tok_visa", true) + card("b", "tok_mastercard", false)), ConfigPlanChecks: quiet, ConfigStateChecks: idCheck()},
			// The default card is removed; the service picks another.
			{Config: config(card("b", "tok_mastercard", false)), ConfigPlanChecks: quiet, ConfigStateChecks: idCheck()},
			// The last card goes.
			{Config: config(""), ConfigPlanChecks: quiet, ConfigStateChecks: idCheck()},
		},
	})
}

// TestCustomerResource_UpgradeStateDropsSourcesAttributes: state written by
// a version whose payments_customer had sources and default_source is
// read by this one without error, those attributes dropped.
func TestCustomerResource_UpgradeStateDropsSourcesAttributes(t *testing.T) {
	t.Parallel()
	server, err := testAccProtoV6ProviderFactories["payments"]()
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if _, err := server.GetProviderSchema(ctx, &tfprotov6.GetProviderSchemaRequest{}); err != nil {
		t.Fatal(err)
	}
	old := `{"id":"cus_AAAAAAAAAAAAAAAAAAAAAAAA","email":"old@example.com","name":null,"phone":null,` +
		`"metadata":{"plan":"gold"},"default_source":"src_BBBBBBBBBBBBBBBBBBBBBBBB",` +
		`"sources":[{"id":"src_BBBBBBBBBBBBBBBBBBBBBBBB","brand":"visa","last4":"4242"}],` +
		`"created_at":"2026-01-02T03:04:05Z","livemode":false,"timeouts":null}`
	resp, err := server.UpgradeResourceState(ctx, &tfprotov6.UpgradeResourceStateRequest{
		TypeName: "payments_customer",
		Version:  0,
		RawState: &tfprotov6.RawState{JSON: []byte(old)},
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range resp.Diagnostics {
		t.Errorf("diagnostic: %s: %s", d.Summary, d.Detail)
	}
	if resp.UpgradedState == nil {
		t.Fatal("no upgraded state")
	}
	var schemaResp fwresource.SchemaResponse
	NewCustomerResource().Schema(ctx, fwresource.SchemaRequest{}, &schemaResp)
	v, err := resp.UpgradedState.Unmarshal(schemaResp.Schema.Type().TerraformType(ctx))
	if err != nil {
		t.Fatal(err)
	}
	var attrs map[string]tftypes.Value
	if err := v.As(&attrs); err != nil {
		t.Fatal(err)
	}
	if _, ok := attrs["sources"]; ok {
		t.Error("the upgraded state still has sources")
	}
	var email string
	if err := attrs["email"].As(&email); err != nil || email != "old@example.com" {
		t.Errorf("email = %q (%v), want it kept", email, err)
	}
}

// TestAccCustomer_OversizedRequestFailsAtPlan: metadata within every
// per-key limit whose request would still exceed the service's 64 KiB body
// limit is refused at plan time, naming metadata and the size, on create
// and on update, and no request reaches the service.
func TestAccCustomer_OversizedRequestFailsAtPlan(t *testing.T) {
	acct := newTestAccAccount(t)
	// 50 keys of 500 euro signs: 9 bytes each once encoded, about 220 KiB.
	var big strings.Builder
	for i := range wire.MetadataMaxKeys {
		fmt.Fprintf(&big, "    k%02d = %q\n", i, strings.Repeat("€", wire.MetadataValueMaxLength))
	}
	// 15 keys of 500 euro signs is 65 KiB and some: just over.
	var justOver strings.Builder
	for i := range 15 {
		fmt.Fprintf(&justOver, "    k%02d = %q\n", i, strings.Repeat("€", wire.MetadataValueMaxLength))
	}
	config := func(metadata string) string {
		return acct.ProviderConfig() + fmt.Sprintf(`
resource "payments_customer" "test" {
  name = "Big"
  metadata = {
%s  }
}
`, metadata)
	}
	var id string
	requests := func(route string) int64 {
		st, err := sandboxclient.New(acct.Client).Stats(context.Background())
		if err != nil {
			t.Fatalf("reading stats: %v", err)
		}
		return st.Requests.ByRoute[route]
	}
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             acct.testAccCheckCustomersDestroyed,
		Steps: []resource.TestStep{
			{
				Config:      config(big.String()),
				PlanOnly:    true,
				ExpectError: phrasesRegexp("Customer Request Too Large", "metadata", "create request would be", "bytes", "over the service's limit of 65536 bytes"),
			},
			{
				Config:      config(justOver.String()),
				PlanOnly:    true,
				ExpectError: phrasesRegexp("Customer Request Too Large", "metadata"),
			},
			{
				PreConfig: func() {
					if n := requests("POST /v1/customers"); n != 0 {
						t.Errorf("%d create requests reached the service, want none", n)
					}
				},
				Config: config(`    plan = "gold"` + "\n"),
				Check:  testAccCaptureID(testAccCustomerAddr, &id),
			},
			{
				Config:      config(big.String()),
				ExpectError: phrasesRegexp("Customer Request Too Large", "metadata", "update request would be"),
			},
			{
				PreConfig: func() {
					if n := requests("POST /v1/customers/:id"); n != 0 {
						t.Errorf("%d update requests reached the service, want none", n)
					}
				},
				Config:   config(`    plan = "gold"` + "\n"),
				PlanOnly: true,
			},
		},
	})
}
