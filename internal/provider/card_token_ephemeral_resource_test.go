package provider

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/config"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"
)

// secretsPattern matches what must never be in a state or a plan: a
// minted token, and the test card numbers and CVCs the tests tokenize.
var secretsPattern = regexp.MustCompile(`tok_[A-Za-z0-9]{24}|5555555555554444|378282246310005|4242424242424242|"(?:321|4321)"`)

// cardTokenConfig tokenizes two cards ephemerally, their details from
// ephemeral variables as users are told to pass them, stores one on a
// customer (token_wo) and charges the other (source_wo), at version.
func cardTokenConfig(acct *testAccAccount, version int) string {
	year := time.Now().Year() + 2
	return acct.ProviderConfig() + fmt.Sprintf(`
variable "cards" {
  type      = map(object({ number = string, cvc = string }))
  sensitive = true
  ephemeral = true
}

ephemeral "payments_card_token" "stored" {
  number    = var.cards.stored.number
  exp_month = 3
  exp_year  = %[1]d
  cvc       = var.cards.stored.cvc
}

ephemeral "payments_card_token" "charged" {
  number    = var.cards.charged.number
  exp_month = 11
  exp_year  = %[1]d
  cvc       = var.cards.charged.cvc
}

resource "payments_customer" "test" {
  email = "wo@example.com"
}

resource "payments_customer_source" "test" {
  customer         = payments_customer.test.id
  token_wo         = ephemeral.payments_card_token.stored.id
  token_wo_version = %[2]d
  default          = true
}

resource "payments_payment" "test" {
  amount            = provider::payments::minor_units("19.99", "USD")
  currency          = "USD"
  source_wo         = ephemeral.payments_card_token.charged.id
  source_wo_version = %[2]d
  refund_on_destroy = true
}
`, year, version)
}

// cardTokenVariables are the cards cardTokenConfig tokenizes.
var cardTokenVariables = config.Variables{
	"cards": config.MapVariable(map[string]config.Variable{
		"stored":  config.ObjectVariable(map[string]config.Variable{"number": config.StringVariable("5555555555554444"), "cvc": config.StringVariable("321")}),
		"charged": config.ObjectVariable(map[string]config.Variable{"number": config.StringVariable("378282246310005"), "cvc": config.StringVariable("4321")}),
	}),
}

// noSecretsInPlan fails when the plan, as JSON, holds a token or a card.
type noSecretsInPlan struct{}

func (noSecretsInPlan) CheckPlan(_ context.Context, req plancheck.CheckPlanRequest, resp *plancheck.CheckPlanResponse) {
	b, err := json.Marshal(req.Plan)
	if err != nil {
		resp.Error = err
		return
	}
	if m := secretsPattern.Find(b); m != nil {
		resp.Error = fmt.Errorf("the plan JSON holds %q", m)
	}
}

// noSecretsInState fails when any attribute in state holds a token or a card.
func noSecretsInState(s *terraform.State) error {
	for addr, rs := range s.RootModule().Resources {
		for k, v := range rs.Primary.Attributes {
			if secretsPattern.MatchString(v) {
				return fmt.Errorf("%s.%s holds %q in state", addr, k, v)
			}
		}
	}
	return nil
}

func TestAccCardToken_WriteOnlyArguments(t *testing.T) {
	acct := newTestAccAccount(t)
	noSecrets := []plancheck.PlanCheck{noSecretsInPlan{}}
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_11_0)},
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy: resource.ComposeTestCheckFunc(
			acct.testAccCheckSourcesDestroyed, acct.testAccCheckPaymentsKept),
		Steps: []resource.TestStep{
			{
				Config:          cardTokenConfig(acct, 1),
				ConfigVariables: cardTokenVariables,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             noSecrets,
					PostApplyPostRefresh: append([]plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}, noSecrets...),
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(testAccSourceAddr, tfjsonpath.New("brand"), knownvalue.StringExact("mastercard")),
					statecheck.ExpectKnownValue(testAccSourceAddr, tfjsonpath.New("last4"), knownvalue.StringExact("4444")),
					statecheck.ExpectKnownValue(testAccSourceAddr, tfjsonpath.New("exp_month"), knownvalue.Int64Exact(3)),
					statecheck.ExpectKnownValue(testAccSourceAddr, tfjsonpath.New("token"), knownvalue.Null()),
					statecheck.ExpectKnownValue(testAccSourceAddr, tfjsonpath.New("token_wo"), knownvalue.Null()),
					statecheck.ExpectKnownValue(testAccSourceAddr, tfjsonpath.New("token_wo_version"), knownvalue.Int64Exact(1)),
					statecheck.ExpectKnownValue("payments_payment.test", tfjsonpath.New("amount"), knownvalue.Int64Exact(1999)),
					statecheck.ExpectKnownValue("payments_payment.test", tfjsonpath.New("brand"), knownvalue.StringExact("amex")),
					statecheck.ExpectKnownValue("payments_payment.test", tfjsonpath.New("last4"), knownvalue.StringExact("0005")),
					statecheck.ExpectKnownValue("payments_payment.test", tfjsonpath.New("source"), knownvalue.Null()),
					statecheck.ExpectKnownValue("payments_payment.test", tfjsonpath.New("source_wo"), knownvalue.Null()),
				},
				Check: noSecretsInState,
			},
			{
				ConfigVariables:         cardTokenVariables,
				ResourceName:            testAccSourceAddr,
				ImportState:             true,
				ImportStateIdFunc:       testAccSourceImportID(testAccSourceAddr),
				ImportStateVerify:       true,
				ImportStateVerifyIgnore: []string{"token_wo_version"},
			},
			{
				// A new version is a new card and a new charge: both replaced.
				Config:          cardTokenConfig(acct, 2),
				ConfigVariables: cardTokenVariables,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: append([]plancheck.PlanCheck{
						plancheck.ExpectResourceAction(testAccSourceAddr, plancheck.ResourceActionDestroyBeforeCreate),
						plancheck.ExpectResourceAction("payments_payment.test", plancheck.ResourceActionDestroyBeforeCreate),
						plancheck.ExpectResourceAction(testAccCustomerAddr, plancheck.ResourceActionNoop),
					}, noSecrets...),
				},
				Check: noSecretsInState,
			},
		},
	})
}

func TestAccCardToken_BadInput(t *testing.T) {
	acct := newTestAccAccount(t)
	year := time.Now().Year() + 2
	card := func(number, cvc string, month, year int) string {
		return acct.ProviderConfig() + fmt.Sprintf(`
ephemeral "payments_card_token" "test" {
  number    = %q
  exp_month = %d
  exp_year  = %d
  cvc       = %q
}

resource "payments_payment" "test" {
  amount            = 100
  currency          = "USD"
  source_wo         = ephemeral.payments_card_token.test.id
  source_wo_version = 1
}
`, number, month, year, cvc)
	}
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_11_0)},
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: card("4242424242424241", "123", 1, year), ExpectError: phrasesRegexp("Invalid Card Number", "Luhn check")},
			{Config: card("4242 4242 4242 4242", "123", 1, year), ExpectError: phrasesRegexp("Invalid Card Number")},
			{Config: card("4242424242424242", "12", 1, year), ExpectError: phrasesRegexp("cvc", "must be 3 or 4 digits")},
			{Config: card("4242424242424242", "123", 13, year), ExpectError: phrasesRegexp("exp_month", "between 1 and 12")},
			{Config: card("4242424242424242", "123", 1, 2020), ExpectError: phrasesRegexp("Card Expired", "01/2020")},
			// A test-card check only the service knows, at open time.
			{Config: card("4111111111111111", "123", 1, year), ExpectError: phrasesRegexp("Error Tokenizing Card", "not a sandbox test card")},
			{
				Config: acct.ProviderConfig() + `
resource "payments_customer" "test" {
  email = "both@example.com"
}
resource "payments_customer_source" "test" {
  customer         = payments_customer.test.id
  token            = "tok_visa"
  token_wo         = "tok_visa"
  token_wo_version = 1
}
`,
				ExpectError: phrasesRegexp("Conflicting Tokens", "Set token or token_wo, not both"),
			},
			{
				Config: acct.ProviderConfig() + `
resource "payments_customer" "test" {
  email = "noversion@example.com"
}
resource "payments_customer_source" "test" {
  customer = payments_customer.test.id
  token_wo = "tok_visa"
}
`,
				ExpectError: phrasesRegexp("Missing Write-Only Version", "token_wo_version"),
			},
			{
				Config: acct.ProviderConfig() + `
resource "payments_payment" "test" {
  amount            = 100
  currency          = "USD"
  source            = "tok_visa"
  source_wo         = "tok_visa"
  source_wo_version = 1
}
`,
				ExpectError: phrasesRegexp("Conflicting Payment Sources"),
			},
		},
	})
}
