package provider

import (
	"context"
	"fmt"
	"regexp"
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

const testAccSubAddr = "payments_subscription.test"

// testAccCheckSubscriptionsCanceled checks that every payments_subscription
// in the state has been canceled at the service.
func (a *testAccAccount) testAccCheckSubscriptionsCanceled(s *terraform.State) error {
	for _, rs := range s.RootModule().Resources {
		if rs.Type != "payments_subscription" {
			continue
		}
		sub, err := a.Client.GetSubscription(context.Background(), rs.Primary.ID)
		if err != nil {
			return fmt.Errorf("checking subscription %s: %w", rs.Primary.ID, err)
		}
		if sub.Status != wire.SubscriptionStatusCanceled {
			return fmt.Errorf("subscription %s is %s after destroy; want canceled", sub.ID, sub.Status)
		}
	}
	return nil
}

// testAccCheckSubscriptionAtService checks the subscription at addr as the
// service has it.
func (a *testAccAccount) testAccCheckSubscriptionAtService(addr string, check func(*client.Subscription) error) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		rs, ok := s.RootModule().Resources[addr]
		if !ok {
			return fmt.Errorf("%s is not in the state", addr)
		}
		sub, err := a.Client.GetSubscription(context.Background(), rs.Primary.ID)
		if err != nil {
			return err
		}
		return check(sub)
	}
}

// testAccSubscriptionCatalog is a product with two monthly USD prices, a
// yearly one and a monthly EUR one, and a customer with a card of token.
func testAccSubscriptionCatalog(token string) string {
	return fmt.Sprintf(`
resource "payments_product" "plan" {
  name = "Plan"
}

resource "payments_price" "monthly" {
  product     = payments_product.plan.id
  currency    = "USD"
  unit_amount = 1000
  interval    = "month"
}

resource "payments_price" "seats" {
  product     = payments_product.plan.id
  currency    = "USD"
  unit_amount = 300
  interval    = "month"
}

resource "payments_price" "yearly" {
  product     = payments_product.plan.id
  currency    = "USD"
  unit_amount = 10000
  interval    = "year"
}

resource "payments_price" "euro" {
  product     = payments_product.plan.id
  currency    = "EUR"
  unit_amount = 900
  interval    = "month"
}

resource "payments_customer" "test" {
  name = "Subscriber"
}

resource "payments_customer_source" "card" {
  customer = payments_customer.test.id
  token    = %q
}
`, token)
}

// testAccSubscriptionConfig is the catalog and a subscription of body,
// after the card is stored.
func (a *testAccAccount) testAccSubscriptionConfig(token, body string) string {
	return a.ProviderConfig() + testAccSubscriptionCatalog(token) + `
resource "payments_subscription" "test" {
  customer   = payments_customer.test.id
  depends_on = [payments_customer_source.card]
` + body + "\n}\n"
}

func TestAccSubscription_CreateImportUpdateReplace(t *testing.T) {
	acct := newTestAccAccount(t)
	var firstID string
	sameID := statecheck.CompareValue(compare.ValuesSame())
	inPlace := func(attrs ...string) resource.ConfigPlanChecks {
		return resource.ConfigPlanChecks{
			PreApply: []plancheck.PlanCheck{
				plancheck.ExpectResourceAction(testAccSubAddr, plancheck.ResourceActionUpdate),
				expectOnlyChanged(testAccSubAddr, attrs...),
			},
			PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
		}
	}
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             acct.testAccCheckSubscriptionsCanceled,
		Steps: []resource.TestStep{
			{
				Config: acct.testAccSubscriptionConfig("tok_visa", `
  items    = [{ price = payments_price.monthly.id }]
  metadata = { team = "a" }
`),
				ConfigStateChecks: []statecheck.StateCheck{
					sameID.AddStateValue(testAccSubAddr, tfjsonpath.New("id")),
					statecheck.ExpectKnownValue(testAccSubAddr, tfjsonpath.New("id"), knownvalue.StringRegexp(subscriptionIDRegexp)),
					statecheck.ExpectKnownValue(testAccSubAddr, tfjsonpath.New("status"), knownvalue.StringExact(wire.SubscriptionStatusActive)),
					statecheck.ExpectKnownValue(testAccSubAddr, tfjsonpath.New("items").AtSliceIndex(0).AtMapKey("quantity"), knownvalue.Int64Exact(1)),
					statecheck.ExpectKnownValue(testAccSubAddr, tfjsonpath.New("latest_invoice"), knownvalue.StringRegexp(regexp.MustCompile("^in_"))),
					statecheck.ExpectKnownValue(testAccSubAddr, tfjsonpath.New("canceled_at"), knownvalue.Null()),
					statecheck.ExpectKnownValue(testAccSubAddr, tfjsonpath.New("cancel_on_destroy"), knownvalue.StringExact(cancelImmediately)),
				},
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: testAccCaptureID(testAccSubAddr, &firstID),
			},
			{ResourceName: testAccSubAddr, ImportState: true, ImportStateVerify: true},
			{
				// Items, metadata and cancel_at_period_end change in place.
				Config: acct.testAccSubscriptionConfig("tok_visa", `
  items = [
    { price = payments_price.monthly.id, quantity = 2 },
    { price = payments_price.seats.id, quantity = 5 },
  ]
  metadata             = { team = "b" }
  cancel_at_period_end = true
  default_source       = payments_customer_source.card.id
`),
				ConfigPlanChecks:  inPlace("items", "metadata", "cancel_at_period_end", "default_source"),
				ConfigStateChecks: []statecheck.StateCheck{sameID.AddStateValue(testAccSubAddr, tfjsonpath.New("id"))},
				Check: acct.testAccCheckSubscriptionAtService(testAccSubAddr, func(s *client.Subscription) error {
					if len(s.Items.Data) != 2 || s.Items.Data[0].Quantity != 2 || s.Items.Data[1].Quantity != 5 || !s.CancelAtPeriodEnd ||
						s.Metadata["team"] != "b" || s.DefaultSource == "" {
						return fmt.Errorf("the service has %+v; want the update", s)
					}
					return nil
				}),
			},
			{
				// Settings of creation change nothing at the service.
				Config: acct.testAccSubscriptionConfig("tok_visa", `
  items = [
    { price = payments_price.monthly.id, quantity = 2 },
    { price = payments_price.seats.id, quantity = 5 },
  ]
  metadata             = { team = "b" }
  cancel_at_period_end = true
  default_source       = payments_customer_source.card.id
  payment_behavior     = "error_if_incomplete"
`),
				ConfigPlanChecks:  inPlace("payment_behavior"),
				ConfigStateChecks: []statecheck.StateCheck{sameID.AddStateValue(testAccSubAddr, tfjsonpath.New("id"))},
			},
			{
				// Another customer replaces it.
				Config: strings.Replace(acct.testAccSubscriptionConfig("tok_visa", `
  items          = [{ price = payments_price.monthly.id }]
  default_source = payments_customer_source.other.id
`), "customer   = payments_customer.test.id", "customer   = payments_customer.other.id", 1) + `
resource "payments_customer" "other" {
  name = "Other"
}

resource "payments_customer_source" "other" {
  customer = payments_customer.other.id
  token    = "tok_visa"
}
`,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(testAccSubAddr, plancheck.ResourceActionDestroyBeforeCreate)},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				// The replaced subscription was canceled, though its
				// customer remains.
				Check: func(*terraform.State) error {
					sub, err := acct.Client.GetSubscription(context.Background(), firstID)
					if err != nil {
						return err
					}
					if sub.Status != wire.SubscriptionStatusCanceled {
						return fmt.Errorf("replaced subscription %s is %s; want canceled", firstID, sub.Status)
					}
					return nil
				},
			},
		},
	})
}

func TestAccSubscription_ChangedOutsideTerraform(t *testing.T) {
	acct := newTestAccAccount(t)
	config := acct.testAccSubscriptionConfig("tok_visa", `
  items = [{ price = payments_price.monthly.id, quantity = 3 }]
`)
	var id string
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             acct.testAccCheckSubscriptionsCanceled,
		Steps: []resource.TestStep{
			{Config: config, Check: testAccCaptureID(testAccSubAddr, &id)},
			{
				// A quantity changed outside of Terraform is set back, in place.
				PreConfig: func() {
					if _, err := acct.Client.UpdateSubscription(context.Background(), id, &client.SubscriptionUpdateParams{Quantity: 7}); err != nil {
						t.Fatalf("changing the quantity behind Terraform's back: %v", err)
					}
				},
				Config: config,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(testAccSubAddr, plancheck.ResourceActionUpdate),
						expectOnlyChanged(testAccSubAddr, "items"),
					},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: acct.testAccCheckSubscriptionAtService(testAccSubAddr, func(s *client.Subscription) error {
					if s.Items.Data[0].Quantity != 3 {
						return fmt.Errorf("quantity %d at the service; want 3 again", s.Items.Data[0].Quantity)
					}
					return nil
				}),
			},
			{
				// One canceled outside of Terraform leaves the state and is
				// created again.
				PreConfig: func() {
					if _, err := acct.Client.CancelSubscription(context.Background(), id); err != nil {
						t.Fatalf("canceling behind Terraform's back: %v", err)
					}
				},
				Config: config,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(testAccSubAddr, plancheck.ResourceActionCreate)},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(testAccSubAddr, tfjsonpath.New("status"), knownvalue.StringExact(wire.SubscriptionStatusActive)),
				},
			},
		},
	})
}

func TestAccSubscription_DeclinedFirstCharge(t *testing.T) {
	acct := newTestAccAccount(t)
	rec := &diagRecorder{}
	var id string
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: rec.factories(),
		CheckDestroy:             acct.testAccCheckSubscriptionsCanceled,
		Steps: []resource.TestStep{
			{
				// error_if_incomplete: nothing is created, and the error
				// names the card error.
				Config: acct.testAccSubscriptionConfig("tok_declined", `
  items            = [{ price = payments_price.monthly.id }]
  payment_behavior = "error_if_incomplete"
`),
				ExpectError: regexp.MustCompile(`(?s)Subscription First Charge Declined.*card_declined`),
			},
			{
				// allow_incomplete: created incomplete, with a warning.
				Config: acct.testAccSubscriptionConfig("tok_declined", `
  items = [{ price = payments_price.monthly.id }]
`),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(testAccSubAddr, tfjsonpath.New("status"), knownvalue.StringExact(wire.SubscriptionStatusIncomplete)),
				},
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: resource.ComposeTestCheckFunc(testAccCaptureID(testAccSubAddr, &id), func(*terraform.State) error {
					phrases := []string{"Subscription Created Incomplete", "Subscription " + id + " was created",
						"so it is " + wire.SubscriptionStatusIncomplete, `payment_behavior = "error_if_incomplete"`}
					if got := rec.take(phrases...); len(got) != 1 {
						return fmt.Errorf("warnings holding %q: %q, want one", phrases, got)
					}
					return nil
				}),
			},
		},
	})
}

func TestAccSubscription_TrialImportsWithoutDiff(t *testing.T) {
	acct := newTestAccAccount(t)
	rec := &diagRecorder{}
	var id string
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: rec.factories(),
		CheckDestroy:             acct.testAccCheckCustomersDestroyed,
		Steps: []resource.TestStep{
			{
				Config: acct.testAccSubscriptionConfig("tok_visa", `
  items             = [{ price = payments_price.monthly.id }]
  trial_period_days = 14
  cancel_on_destroy = "at_period_end"
`),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(testAccSubAddr, tfjsonpath.New("status"), knownvalue.StringExact(wire.SubscriptionStatusTrialing)),
					statecheck.ExpectKnownValue(testAccSubAddr, tfjsonpath.New("trial_end"), knownvalue.NotNull()),
					statecheck.ExpectKnownValue(testAccSubAddr, tfjsonpath.New("trial_period_days"), knownvalue.Int64Exact(14)),
				},
				Check: testAccCaptureID(testAccSubAddr, &id),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
			},
			{
				// trial_period_days comes back from the trial: an import
				// plans nothing. cancel_on_destroy is Terraform's own.
				ResourceName:            testAccSubAddr,
				ImportState:             true,
				ImportStateVerify:       true,
				ImportStateVerifyIgnore: []string{"cancel_on_destroy"},
			},
			{
				// Destroyed with cancel_on_destroy = "at_period_end", it runs
				// to the end of its trial and stops, and a warning says so.
				PreConfig: func() { rec.take() },
				Config:    acct.ProviderConfig() + testAccSubscriptionCatalog("tok_visa"),
				Check: func(*terraform.State) error {
					sub, err := acct.Client.GetSubscription(context.Background(), id)
					if err != nil {
						return err
					}
					if sub.Status != wire.SubscriptionStatusTrialing || !sub.CancelAtPeriodEnd {
						return fmt.Errorf("subscription %s is %s, cancel_at_period_end %t; want trialing, ending at the period's end",
							sub.ID, sub.Status, sub.CancelAtPeriodEnd)
					}
					phrases := []string{"Subscription Ends at Period End", "Subscription " + id,
						"(" + sub.CurrentPeriodEnd + ")", "stays " + wire.SubscriptionStatusTrialing, "not renewed"}
					if got := rec.take(phrases...); len(got) != 1 {
						return fmt.Errorf("warnings holding %q: %q, want one", phrases, got)
					}
					return nil
				},
			},
		},
	})
}

// clockSubscriptionConfig is a customer on a test clock at frozen,
// subscribed with a card to a monthly price, quantity times.
func clockSubscriptionConfig(acct *testAccAccount, frozen string, quantity int) string {
	return acct.ProviderConfig() + fmt.Sprintf(`
resource "payments_test_clock" "test" {
  frozen_time = %q
}

resource "payments_product" "plan" {
  name = "Plan"
}

resource "payments_price" "monthly" {
  product     = payments_product.plan.id
  currency    = "USD"
  unit_amount = 1000
  interval    = "month"
}

resource "payments_customer" "test" {
  test_clock = payments_test_clock.test.id
}

resource "payments_customer_source" "card" {
  customer = payments_customer.test.id
  token    = "tok_visa"
}

resource "payments_subscription" "test" {
  customer       = payments_customer.test.id
  default_source = payments_customer_source.card.id
  items          = [{ price = payments_price.monthly.id, quantity = %d }]
}
`, frozen, quantity)
}

func TestAccSubscription_RenewalsMakeNoDiff(t *testing.T) {
	acct := newTestAccAccount(t)
	config := func(frozen string, quantity int) string { return clockSubscriptionConfig(acct, frozen, quantity) }
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             acct.testAccCheckTestClocksDestroyed,
		Steps: []resource.TestStep{
			{
				Config: config("2026-01-01T00:00:00Z", 1),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(testAccSubAddr, tfjsonpath.New("current_period_end"), knownvalue.StringExact("2026-02-01T00:00:00Z")),
				},
			},
			{
				// A renewal changes the period and the latest invoice: no
				// diff, only the clock advances.
				Config: config("2026-02-01T12:00:00Z", 1),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction("payments_test_clock.test", plancheck.ResourceActionUpdate),
						plancheck.ExpectResourceAction(testAccSubAddr, plancheck.ResourceActionNoop),
					},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
			},
			{
				Config: config("2026-02-01T12:00:00Z", 1),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(testAccSubAddr, tfjsonpath.New("current_period_start"), knownvalue.StringExact("2026-02-01T00:00:00Z")),
					statecheck.ExpectKnownValue(testAccSubAddr, tfjsonpath.New("current_period_end"), knownvalue.StringExact("2026-03-01T00:00:00Z")),
				},
			},
			{
				// The clock advanced and the quantity changed in one apply:
				// the renewal in between is no inconsistent result.
				Config: config("2026-03-01T12:00:00Z", 2),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(testAccSubAddr, plancheck.ResourceActionUpdate),
						expectOnlyChanged(testAccSubAddr, "items"),
					},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
			},
			{
				Config: config("2026-03-01T12:00:00Z", 2),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(testAccSubAddr, tfjsonpath.New("current_period_end"), knownvalue.StringExact("2026-04-01T00:00:00Z")),
				},
			},
		},
	})
}

// TestAccSubscription_NearMaxTime: a subscription on a clock near the
// last second the service writes, 9999-12-31T23:59:59Z, reads back its
// times; an advance that would renew it into a period ending after that
// second is refused, naming frozen_time, and leaves the state as it was.
func TestAccSubscription_NearMaxTime(t *testing.T) {
	acct := newTestAccAccount(t)
	config := func(frozen string) string { return clockSubscriptionConfig(acct, frozen, 1) }
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             acct.testAccCheckTestClocksDestroyed,
		Steps: []resource.TestStep{
			{
				Config: config("9999-11-30T00:00:00Z"),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(testAccSubAddr, tfjsonpath.New("current_period_end"), knownvalue.StringExact("9999-12-30T00:00:00Z")),
				},
			},
			{
				// The renewal at 9999-12-30 would end its period in 10000.
				Config:      config("9999-12-31T23:59:59Z"),
				ExpectError: regexp.MustCompile(`(?s)frozen_time.*would\s+renew\s+subscription\s+sub_.*advance\s+to\s+9999-12-29T23:59:59Z`),
			},
			{
				Config: config("9999-11-30T00:00:00Z"),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("payments_test_clock.test", tfjsonpath.New("frozen_time"), knownvalue.StringExact("9999-11-30T00:00:00Z")),
				},
			},
		},
	})
}

func TestAccSubscription_BadInput(t *testing.T) {
	acct := newTestAccAccount(t)
	items := func(prices ...string) string {
		var b strings.Builder
		b.WriteString("  items = [\n")
		for _, p := range prices {
			fmt.Fprintf(&b, "    { price = %s },\n", p)
		}
		b.WriteString("  ]\n")
		return b.String()
	}
	many := make([]string, wire.SubscriptionItemsMax+1)
	for i := range many {
		many[i] = fmt.Sprintf("%q", fmt.Sprintf("%s%024d", wire.PriceIDPrefix, i))
	}
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			// The catalog first, so that the prices are known at plan time.
			{Config: acct.ProviderConfig() + testAccSubscriptionCatalog("tok_visa")},
			{
				Config:      acct.testAccSubscriptionConfig("tok_visa", items("payments_price.monthly.id", "payments_price.euro.id")),
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`(?s)Subscription Items of Two Currencies.*items\[1\]\.price.*charges in EUR.*items\[0\]\.price.*charges in\s+USD`),
			},
			{
				Config:      acct.testAccSubscriptionConfig("tok_visa", items("payments_price.monthly.id", "payments_price.yearly.id")),
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`(?s)Subscription Items of Two Periods.*every 1 year`),
			},
			{
				Config:      acct.testAccSubscriptionConfig("tok_visa", items("payments_price.monthly.id", "payments_price.monthly.id")),
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`(?s)Duplicate Subscription Price.*items\[0\] and items\[1\]`),
			},
			{
				Config:      acct.testAccSubscriptionConfig("tok_visa", items(many...)),
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`(?s)items.*list must contain at least 1 elements and at most 20`),
			},
			{
				Config:      acct.testAccSubscriptionConfig("tok_visa", "  items = [{ price = payments_price.monthly.id, quantity = 0 }]\n"),
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`(?s)quantity.*between 1 and 10000`),
			},
			{
				Config:      acct.testAccSubscriptionConfig("tok_visa", "  items = [{ price = payments_price.monthly.id }]\n  cancel_on_destroy = \"never\"\n"),
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`(?s)cancel_on_destroy.*"immediately".*"at_period_end"`),
			},
			// A valid configuration last, for the destroy.
			{Config: acct.ProviderConfig() + testAccSubscriptionCatalog("tok_visa")},
		},
	})
}
