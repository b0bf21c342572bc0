package provider

import (
	"context"
	"fmt"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandboxclient"
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

const testAccPaymentAddr = "payments_payment.test"

var paymentIDCheck = knownvalue.StringRegexp(paymentIDRegexp)

// testAccCheckPaymentsKept is the CheckDestroy of payments_payment:
// payments cannot be deleted, so every payment the state named must still
// exist at the service, refunded exactly when refund_on_destroy asked for
// it and something was refundable.
func (a *testAccAccount) testAccCheckPaymentsKept(s *terraform.State) error {
	for _, rs := range s.RootModule().Resources {
		if rs.Type != "payments_payment" {
			continue
		}
		id := rs.Primary.ID
		pay, err := a.Client.GetPayment(context.Background(), id)
		if err != nil {
			return fmt.Errorf("payment %s should remain at the service after destroy: %w", id, err)
		}
		refundable := rs.Primary.Attributes["status"] == wire.PaymentStatusApproved ||
			rs.Primary.Attributes["status"] == wire.PaymentStatusPartiallyRefunded
		want := rs.Primary.Attributes["status"] // destroy leaves it as it was...
		if rs.Primary.Attributes["refund_on_destroy"] == "true" && refundable {
			want = wire.PaymentStatusRefunded // ...unless it refunds it
		}
		if pay.Status != want {
			return fmt.Errorf("payment %s is %s after destroy with refund_on_destroy = %s (state status %s), want %s",
				id, pay.Status, rs.Primary.Attributes["refund_on_destroy"], rs.Primary.Attributes["status"], want)
		}
	}
	return nil
}

// testAccCheckPaymentCount checks how many payments the account holds and
// how many creates the service answered: no new charge hides anywhere.
func (a *testAccAccount) testAccCheckPaymentCount(payments int64) resource.TestCheckFunc {
	return func(*terraform.State) error {
		st, err := sandboxclient.New(a.Client).Stats(context.Background())
		if err != nil {
			return fmt.Errorf("reading the sandbox's stats: %w", err)
		}
		if st.Payments != payments {
			return fmt.Errorf("the service holds %d payments, want %d", st.Payments, payments)
		}
		return nil
	}
}

// testAccCheckPaymentAtService checks the payment in state as the service has it.
func (a *testAccAccount) testAccCheckPaymentAtService(addr string, check func(*client.Payment) error) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		rs, ok := s.RootModule().Resources[addr]
		if !ok {
			return fmt.Errorf("%s is not in the state", addr)
		}
		pay, err := a.Client.GetPayment(context.Background(), rs.Primary.ID)
		if err != nil {
			return fmt.Errorf("reading payment %s: %w", rs.Primary.ID, err)
		}
		return check(pay)
	}
}

func testAccPaymentResourceConfig(a *testAccAccount, body string) string {
	return a.ProviderConfig() + `
resource "payments_payment" "test" {
` + body + `
}
`
}

func TestAccPayment_ByToken(t *testing.T) {
	acct := newTestAccAccount(t)
	var id string
	config := func(desc, meta string) string {
		return testAccPaymentResourceConfig(acct, fmt.Sprintf(`
  amount      = 2500
  currency    = "EUR"
  source      = %q
  description = %q
  metadata = {
    order = %q
  }
`, sandbox.TokenVisa, desc, meta))
	}
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             acct.testAccCheckPaymentsKept,
		Steps: []resource.TestStep{
			{
				Config: config("first order", "1"),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(testAccPaymentAddr, tfjsonpath.New("id"), paymentIDCheck),
					statecheck.ExpectKnownValue(testAccPaymentAddr, tfjsonpath.New("amount"), knownvalue.Int64Exact(2500)),
					statecheck.ExpectKnownValue(testAccPaymentAddr, tfjsonpath.New("currency"), knownvalue.StringExact("EUR")),
					statecheck.ExpectKnownValue(testAccPaymentAddr, tfjsonpath.New("customer"), knownvalue.Null()),
					statecheck.ExpectKnownValue(testAccPaymentAddr, tfjsonpath.New("source"), knownvalue.StringExact(sandbox.TokenVisa)),
					statecheck.ExpectKnownValue(testAccPaymentAddr, tfjsonpath.New("status"), knownvalue.StringExact(wire.PaymentStatusApproved)),
					statecheck.ExpectKnownValue(testAccPaymentAddr, tfjsonpath.New("captured"), knownvalue.Bool(true)),
					statecheck.ExpectKnownValue(testAccPaymentAddr, tfjsonpath.New("capture"), knownvalue.Bool(true)),
					statecheck.ExpectKnownValue(testAccPaymentAddr, tfjsonpath.New("amount_refunded"), knownvalue.Int64Exact(0)),
					statecheck.ExpectKnownValue(testAccPaymentAddr, tfjsonpath.New("refund_on_destroy"), knownvalue.Bool(false)),
					statecheck.ExpectKnownValue(testAccPaymentAddr, tfjsonpath.New("authorization_code"), knownvalue.StringRegexp(regexp.MustCompile(`^\d+$`))),
					statecheck.ExpectKnownValue(testAccPaymentAddr, tfjsonpath.New("brand"), knownvalue.StringExact("visa")),
					statecheck.ExpectKnownValue(testAccPaymentAddr, tfjsonpath.New("last4"), knownvalue.StringExact("4242")),
					statecheck.ExpectKnownValue(testAccPaymentAddr, tfjsonpath.New("livemode"), knownvalue.Bool(false)),
					statecheck.ExpectKnownValue(testAccPaymentAddr, tfjsonpath.New("created_at"),
						knownvalue.StringRegexp(regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$`))),
				},
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: resource.ComposeAggregateTestCheckFunc(
					testAccCaptureID(testAccPaymentAddr, &id),
					acct.testAccCheckPaymentCount(1),
				),
			},
			{
				ResourceName:      testAccPaymentAddr,
				ImportState:       true,
				ImportStateVerify: true,
				// The service answers with the one-off src_ id it made of
				// the token, never the token itself.
				ImportStateVerifyIgnore: []string{"source"},
			},
			{
				// description and metadata change in place: no new charge.
				Config: config("second order", "2"),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(testAccPaymentAddr, plancheck.ResourceActionUpdate),
						plancheck.ExpectKnownValue(testAccPaymentAddr, tfjsonpath.New("status"), knownvalue.StringExact(wire.PaymentStatusApproved)),
					},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(testAccPaymentAddr, tfjsonpath.New("description"), knownvalue.StringExact("second order")),
				},
				Check: resource.ComposeAggregateTestCheckFunc(
					acct.testAccCheckPaymentCount(1),
					acct.testAccCheckCreates(1),
					acct.testAccCheckPaymentAtService(testAccPaymentAddr, func(p *client.Payment) error {
						if p.ID != id || p.Description != "second order" || p.Metadata["order"] != "2" || len(p.Metadata) != 1 {
							return fmt.Errorf("payment at the service = %+v, want %s with the new description and metadata", p, id)
						}
						return nil
					}),
				),
			},
			{
				// Removing description and metadata clears them in place.
				Config: testAccPaymentResourceConfig(acct, fmt.Sprintf(`
  amount   = 2500
  currency = "EUR"
  source   = %q
`, sandbox.TokenVisa)),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(testAccPaymentAddr, plancheck.ResourceActionUpdate)},
				},
				Check: resource.ComposeAggregateTestCheckFunc(
					acct.testAccCheckPaymentCount(1),
					acct.testAccCheckPaymentAtService(testAccPaymentAddr, func(p *client.Payment) error {
						if p.Description != "" || len(p.Metadata) != 0 {
							return fmt.Errorf("description %q metadata %v not cleared", p.Description, p.Metadata)
						}
						return nil
					}),
				),
			},
			{
				// Changed behind Terraform's back: the plan puts it back, in place.
				PreConfig: func() {
					if _, err := acct.Client.UpdatePayment(context.Background(), id, &client.PaymentUpdateParams{
						Description: ptrTo("changed elsewhere"), Metadata: map[string]string{"extra": "x"},
					}); err != nil {
						t.Fatalf("changing the payment out of band: %v", err)
					}
				},
				Config: testAccPaymentResourceConfig(acct, fmt.Sprintf(`
  amount   = 2500
  currency = "EUR"
  source   = %q
`, sandbox.TokenVisa)),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(testAccPaymentAddr, plancheck.ResourceActionUpdate)},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: acct.testAccCheckPaymentAtService(testAccPaymentAddr, func(p *client.Payment) error {
					if p.Description != "" || len(p.Metadata) != 0 {
						return fmt.Errorf("the out-of-band change was not undone: %q %v", p.Description, p.Metadata)
					}
					return nil
				}),
			},
		},
	})
}

// testAccCheckCreates checks how many payment creates the service served:
// an update that charged again would show here.
func (a *testAccAccount) testAccCheckCreates(n int64) resource.TestCheckFunc {
	return func(*terraform.State) error {
		st, err := sandboxclient.New(a.Client).Stats(context.Background())
		if err != nil {
			return err
		}
		if got := st.Requests.ByRoute["POST /v1/payments"]; got != n {
			return fmt.Errorf("the service served %d payment creates, want %d", got, n)
		}
		return nil
	}
}

func ptrTo[T any](v T) *T { return &v }

func TestAccPayment_ByCustomer(t *testing.T) {
	acct := newTestAccAccount(t)
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             acct.testAccCheckPaymentsKept,
		Steps: []resource.TestStep{{
			Config: acct.ProviderConfig() + fmt.Sprintf(`
resource "payments_customer" "test" {
  name = "Payer"
}

resource "payments_customer_source" "default" {
  customer = payments_customer.test.id
  token    = %q
}

# Attached second, so that the Mastercard stays the default.
resource "payments_customer_source" "amex" {
  customer   = payments_customer.test.id
  token      = %q
  depends_on = [payments_customer_source.default]
}

# The customer's default method.
resource "payments_payment" "test" {
  amount   = 1000
  currency = "USD"
  customer = payments_customer.test.id
  depends_on = [payments_customer_source.default]
}

# One of the customer's stored methods.
resource "payments_payment" "stored" {
  amount   = 1200
  currency = "USD"
  customer = payments_customer.test.id
  source   = payments_customer_source.amex.id
}

# A token, charged for the customer.
resource "payments_payment" "token" {
  amount   = 1300
  currency = "USD"
  customer = payments_customer.test.id
  source   = %q
}
`, sandbox.TokenMastercard, sandbox.TokenAmex, sandbox.TokenVisa),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.CompareValuePairs(testAccPaymentAddr, tfjsonpath.New("customer"), "payments_customer.test", tfjsonpath.New("id"), compare.ValuesSame()),
				statecheck.ExpectKnownValue(testAccPaymentAddr, tfjsonpath.New("brand"), knownvalue.StringExact("mastercard")),
				statecheck.ExpectKnownValue(testAccPaymentAddr, tfjsonpath.New("source"), knownvalue.Null()),
				statecheck.ExpectKnownValue("payments_payment.stored", tfjsonpath.New("brand"), knownvalue.StringExact("amex")),
				statecheck.ExpectKnownValue("payments_payment.stored", tfjsonpath.New("last4"), knownvalue.StringExact("8431")),
				statecheck.ExpectKnownValue("payments_payment.token", tfjsonpath.New("brand"), knownvalue.StringExact("visa")),
				statecheck.ExpectKnownValue("payments_payment.token", tfjsonpath.New("status"), knownvalue.StringExact(wire.PaymentStatusApproved)),
			},
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
			},
			Check: acct.testAccCheckPaymentCount(3),
		}},
	})
}

func TestAccPayment_CaptureLater(t *testing.T) {
	acct := newTestAccAccount(t)
	config := func(capture bool) string {
		return testAccPaymentResourceConfig(acct, fmt.Sprintf(`
  amount   = 4000
  currency = "GBP"
  source   = %q
  capture  = %t
`, sandbox.TokenVisa, capture))
	}
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             acct.testAccCheckPaymentsKept,
		Steps: []resource.TestStep{
			{
				Config: config(false),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(testAccPaymentAddr, tfjsonpath.New("status"), knownvalue.StringExact(wire.PaymentStatusAuthorized)),
					statecheck.ExpectKnownValue(testAccPaymentAddr, tfjsonpath.New("captured"), knownvalue.Bool(false)),
					statecheck.ExpectKnownValue(testAccPaymentAddr, tfjsonpath.New("capture"), knownvalue.Bool(false)),
				},
			},
			{
				ResourceName:            testAccPaymentAddr,
				ImportState:             true,
				ImportStateVerify:       true,
				ImportStateVerifyIgnore: []string{"source"},
			},
			{
				Config: config(true),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(testAccPaymentAddr, plancheck.ResourceActionUpdate),
						plancheck.ExpectUnknownValue(testAccPaymentAddr, tfjsonpath.New("status")),
					},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(testAccPaymentAddr, tfjsonpath.New("status"), knownvalue.StringExact(wire.PaymentStatusApproved)),
					statecheck.ExpectKnownValue(testAccPaymentAddr, tfjsonpath.New("captured"), knownvalue.Bool(true)),
				},
				Check: resource.ComposeAggregateTestCheckFunc(acct.testAccCheckPaymentCount(1), acct.testAccCheckCreates(1)),
			},
			{
				Config:      config(false),
				PlanOnly:    true,
				ExpectError: phrasesRegexp("Cannot Uncapture Payment", "a capture cannot be undone", "Set capture = true"),
			},
		},
	})
}

func TestAccPayment_Refunds(t *testing.T) {
	acct := newTestAccAccount(t)
	config := func(refunded string) string {
		return testAccPaymentResourceConfig(acct, fmt.Sprintf(`
  amount   = 1000
  currency = "USD"
  source   = %q
  %s
`, sandbox.TokenVisa, refunded))
	}
	var id string
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             acct.testAccCheckPaymentsKept,
		Steps: []resource.TestStep{
			{
				// Refunded at create: charged, then refunded in part.
				Config: config("amount_refunded = 300"),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(testAccPaymentAddr, tfjsonpath.New("amount_refunded"), knownvalue.Int64Exact(300)),
					statecheck.ExpectKnownValue(testAccPaymentAddr, tfjsonpath.New("status"), knownvalue.StringExact(wire.PaymentStatusPartiallyRefunded)),
				},
				ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
				Check:            testAccCaptureID(testAccPaymentAddr, &id),
			},
			{
				// Raised: the difference is refunded, in place.
				Config: config("amount_refunded = 700"),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(testAccPaymentAddr, plancheck.ResourceActionUpdate)},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(testAccPaymentAddr, tfjsonpath.New("amount_refunded"), knownvalue.Int64Exact(700)),
				},
				Check: resource.ComposeAggregateTestCheckFunc(
					acct.testAccCheckPaymentCount(1),
					acct.testAccCheckPaymentAtService(testAccPaymentAddr, func(p *client.Payment) error {
						if p.AmountRefunded == nil || *p.AmountRefunded != 700 || p.Status != wire.PaymentStatusPartiallyRefunded {
							return fmt.Errorf("payment at the service: %s with %v refunded, want 700", p.Status, p.AmountRefunded)
						}
						return nil
					}),
				),
			},
			{
				Config:      config("amount_refunded = 500"),
				PlanOnly:    true,
				ExpectError: phrasesRegexp("Cannot Lower Amount Refunded", "has 7.00 USD refunded", "cannot go down to 500 (5.00 USD)"),
			},
			{
				Config:      config("amount_refunded = 1001"),
				PlanOnly:    true,
				ExpectError: phrasesRegexp("Refund Above The Amount", "amount_refunded is 1001", "amount is 1000"),
			},
			{
				// Unset, it follows the service: a refund made elsewhere
				// shows, and the plan stays empty.
				PreConfig: func() {
					if _, err := acct.Client.RefundPayment(context.Background(), id, ptrTo[int64](100)); err != nil {
						t.Fatalf("refunding out of band: %v", err)
					}
				},
				Config: config(""),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(testAccPaymentAddr, tfjsonpath.New("amount_refunded"), knownvalue.Int64Exact(800)),
				},
			},
			{
				// All of it.
				Config: config("amount_refunded = 1000"),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(testAccPaymentAddr, tfjsonpath.New("status"), knownvalue.StringExact(wire.PaymentStatusRefunded)),
				},
				Check: acct.testAccCheckCreates(1),
			},
		},
	})
}

func TestAccPayment_ReplacementWarning(t *testing.T) {
	acct := newTestAccAccount(t)
	config := func(amount int, refundOnDestroy bool) string {
		return testAccPaymentResourceConfig(acct, fmt.Sprintf(`
  amount            = %d
  currency          = "USD"
  source            = %q
  refund_on_destroy = %t
`, amount, sandbox.TokenVisa, refundOnDestroy))
	}
	var first string
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             acct.testAccCheckPaymentsKept,
		Steps: []resource.TestStep{
			{Config: config(1000, true), Check: testAccCaptureID(testAccPaymentAddr, &first)},
			{
				// A new amount is a new charge: replaced, and the old one
				// refunded because refund_on_destroy = true.
				Config: config(1500, true),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(testAccPaymentAddr, plancheck.ResourceActionDestroyBeforeCreate),
					},
				},
				Check: resource.ComposeAggregateTestCheckFunc(
					acct.testAccCheckPaymentCount(2),
					func(s *terraform.State) error {
						old, err := acct.Client.GetPayment(context.Background(), first)
						if err != nil {
							return err
						}
						if old.Status != wire.PaymentStatusRefunded {
							return fmt.Errorf("the replaced payment %s is %s, want refunded (refund_on_destroy = true)", first, old.Status)
						}
						if s.RootModule().Resources[testAccPaymentAddr].Primary.ID == first {
							return fmt.Errorf("the payment was not replaced")
						}
						return nil
					},
				),
			},
		},
	})
	// The warning itself is shown by Terraform and not visible to the
	// testing framework; TestPaymentResource_ModifyPlan checks its text.
}

func TestAccPayment_Declined(t *testing.T) {
	acct := newTestAccAccount(t)
	config := func(token string) string {
		return testAccPaymentResourceConfig(acct, fmt.Sprintf(`
  amount   = 999
  currency = "USD"
  source   = %q
`, token))
	}
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             acct.testAccCheckPaymentsKept,
		Steps: []resource.TestStep{
			{
				Config:      config(sandbox.TokenDeclined),
				ExpectError: phrasesRegexp("Payment Declined", "The card was declined", "kept in state", "tainted"),
			},
			{
				// The declined payment is in state, tainted: the plan
				// replaces it, and the service still holds it.
				Config: config(sandbox.TokenVisa),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(testAccPaymentAddr, plancheck.ResourceActionDestroyBeforeCreate),
						expectPriorPayment(testAccPaymentAddr, wire.PaymentStatusDeclined, true),
					},
				},
				Check: resource.ComposeAggregateTestCheckFunc(
					acct.testAccCheckPaymentCount(2),
					resource.TestCheckResourceAttr(testAccPaymentAddr, "status", wire.PaymentStatusApproved),
				),
			},
		},
	})
}

// expectPriorPayment checks that the plan's prior state holds the payment
// at addr with the given status and taint.
func expectPriorPayment(addr, status string, tainted bool) plancheck.PlanCheck {
	return priorPaymentCheck{addr: addr, status: status, tainted: tainted}
}

type priorPaymentCheck struct {
	addr, status string
	tainted      bool
}

func (c priorPaymentCheck) CheckPlan(_ context.Context, req plancheck.CheckPlanRequest, resp *plancheck.CheckPlanResponse) {
	if req.Plan.PriorState == nil || req.Plan.PriorState.Values == nil {
		resp.Error = fmt.Errorf("the plan has no prior state")
		return
	}
	for _, r := range req.Plan.PriorState.Values.RootModule.Resources {
		if r.Address != c.addr {
			continue
		}
		if got := r.AttributeValues["status"]; got != c.status || r.Tainted != c.tainted {
			resp.Error = fmt.Errorf("%s in the prior state: status %v tainted %v, want %s tainted %v", c.addr, got, r.Tainted, c.status, c.tainted)
			return
		}
		if id, _ := r.AttributeValues["id"].(string); !paymentIDRegexp.MatchString(id) {
			resp.Error = fmt.Errorf("%s in the prior state has id %v", c.addr, r.AttributeValues["id"])
		}
		return
	}
	resp.Error = fmt.Errorf("%s is not in the prior state", c.addr)
}

func TestAccPayment_Pending(t *testing.T) {
	acct := newTestAccAccount(t)
	config := testAccPaymentResourceConfig(acct, fmt.Sprintf(`
  amount   = 5000
  currency = "EUR"
  source   = %q
`, sandbox.Token3DS))
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             acct.testAccCheckPaymentsKept,
		Steps: []resource.TestStep{
			{
				Config: config,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(testAccPaymentAddr, tfjsonpath.New("status"), knownvalue.StringExact(wire.PaymentStatusPending)),
					statecheck.ExpectKnownValue(testAccPaymentAddr, tfjsonpath.New("captured"), knownvalue.Bool(false)),
					statecheck.ExpectKnownValue(testAccPaymentAddr, tfjsonpath.New("authorization_code"), knownvalue.Null()),
					statecheck.ExpectKnownValue(testAccPaymentAddr, tfjsonpath.New("capture"), knownvalue.Bool(true)),
				},
				ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			},
			{
				// The bank finishes it (a sandbox control): the refresh
				// shows approved, with nothing to change.
				PreConfig: func() {
					st, err := acct.Client.ListPayments(context.Background(), nil)
					if err != nil || len(st.Data) != 1 {
						t.Fatalf("listing payments: %v", err)
					}
					if _, err := sandboxclient.New(acct.Client).CompletePayment(context.Background(), st.Data[0].ID, wire.OutcomeApproved); err != nil {
						t.Fatalf("completing the payment: %v", err)
					}
				},
				Config:           config,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(testAccPaymentAddr, tfjsonpath.New("status"), knownvalue.StringExact(wire.PaymentStatusApproved)),
					statecheck.ExpectKnownValue(testAccPaymentAddr, tfjsonpath.New("captured"), knownvalue.Bool(true)),
				},
			},
		},
	})
}

func TestAccPayment_Destroy(t *testing.T) {
	acct := newTestAccAccount(t)
	ids := map[string]*string{"keep": new(string), "refund": new(string), "partial": new(string), "authorized": new(string)}
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy: resource.ComposeAggregateTestCheckFunc(
			acct.testAccCheckPaymentsKept,
			acct.testAccCheckPaymentCount(4),
			func(*terraform.State) error {
				want := map[string]struct {
					status   string
					refunded int64
				}{
					"keep":       {wire.PaymentStatusApproved, 0},
					"refund":     {wire.PaymentStatusRefunded, 1000},
					"partial":    {wire.PaymentStatusRefunded, 1000},
					"authorized": {wire.PaymentStatusAuthorized, 0},
				}
				for name, id := range ids {
					p, err := acct.Client.GetPayment(context.Background(), *id)
					if err != nil {
						return fmt.Errorf("payment %s (%s) after destroy: %w", name, *id, err)
					}
					if p.Status != want[name].status || *p.AmountRefunded != want[name].refunded {
						return fmt.Errorf("payment %s after destroy: %s with %d refunded, want %s with %d",
							name, p.Status, *p.AmountRefunded, want[name].status, want[name].refunded)
					}
				}
				return nil
			},
		),
		Steps: []resource.TestStep{{
			Config: acct.ProviderConfig() + fmt.Sprintf(`
resource "payments_payment" "keep" {
  amount   = 1000
  currency = "USD"
  source   = %[1]q
}

resource "payments_payment" "refund" {
  amount            = 1000
  currency          = "USD"
  source            = %[1]q
  refund_on_destroy = true
}

resource "payments_payment" "partial" {
  amount            = 1000
  currency          = "USD"
  source            = %[1]q
  amount_refunded   = 400
  refund_on_destroy = true
}

# Nothing refundable: kept, with a warning.
resource "payments_payment" "authorized" {
  amount            = 1000
  currency          = "USD"
  source            = %[1]q
  capture           = false
  refund_on_destroy = true
}
`, sandbox.TokenVisa),
			Check: resource.ComposeAggregateTestCheckFunc(
				testAccCaptureID("payments_payment.keep", ids["keep"]),
				testAccCaptureID("payments_payment.refund", ids["refund"]),
				testAccCaptureID("payments_payment.partial", ids["partial"]),
				testAccCaptureID("payments_payment.authorized", ids["authorized"]),
			),
		}},
	})
}

func TestAccPayment_Import(t *testing.T) {
	acct := newTestAccAccount(t)
	ctx := context.Background()
	cus, err := acct.Client.CreateCustomer(ctx, &client.CustomerParams{Name: ptrTo("Imported"), Source: ptrTo(sandbox.TokenMastercard)})
	if err != nil {
		t.Fatal(err)
	}
	byToken, err := acct.Client.CreatePayment(ctx, &client.PaymentParams{Amount: 1500, Currency: "CAD", Source: sandbox.TokenVisa,
		Description: "made elsewhere", Metadata: map[string]string{"batch": "7"}})
	if err != nil {
		t.Fatal(err)
	}
	byCustomer, err := acct.Client.CreatePayment(ctx, &client.PaymentParams{Amount: 900, Currency: "CAD", Customer: cus.ID})
	if err != nil {
		t.Fatal(err)
	}
	config := acct.ProviderConfig() + fmt.Sprintf(`
resource "payments_payment" "test" {
  amount      = 1500
  currency    = "CAD"
  source      = %q
  description = "made elsewhere"
  metadata = {
    batch = "7"
  }
}

resource "payments_payment" "customer" {
  amount   = 900
  currency = "CAD"
  customer = %q
}
`, sandbox.TokenVisa, cus.ID)
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             acct.testAccCheckPaymentsKept,
		Steps: []resource.TestStep{
			{
				Config:        config,
				ResourceName:  testAccPaymentAddr,
				ImportState:   true,
				ImportStateId: "pay_123",
				ExpectError:   phrasesRegexp("Invalid Payment Import ID", "pay_123", "not a payment id"),
			},
			{
				Config:             config,
				ResourceName:       testAccPaymentAddr,
				ImportState:        true,
				ImportStateId:      byToken.ID,
				ImportStatePersist: true,
			},
			{
				Config:             config,
				ResourceName:       "payments_payment.customer",
				ImportState:        true,
				ImportStateId:      byCustomer.ID,
				ImportStatePersist: true,
			},
			{
				// The token is filled in place; nothing is replaced or charged.
				Config: config,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(testAccPaymentAddr, plancheck.ResourceActionUpdate),
						plancheck.ExpectResourceAction("payments_payment.customer", plancheck.ResourceActionNoop),
					},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(testAccPaymentAddr, tfjsonpath.New("id"), knownvalue.StringExact(byToken.ID)),
					statecheck.ExpectKnownValue(testAccPaymentAddr, tfjsonpath.New("source"), knownvalue.StringExact(sandbox.TokenVisa)),
					statecheck.ExpectKnownValue("payments_payment.customer", tfjsonpath.New("id"), knownvalue.StringExact(byCustomer.ID)),
				},
				Check: resource.ComposeAggregateTestCheckFunc(acct.testAccCheckPaymentCount(2), acct.testAccCheckCreates(2)),
			},
		},
	})
}

// TestAccPayment_ImportThenChange: right after an import, a configuration
// that also changes description and capture plans one in-place update;
// only a real change of the charge would replace.
func TestAccPayment_ImportThenChange(t *testing.T) {
	acct := newTestAccAccount(t)
	ctx := context.Background()
	pay, err := acct.Client.CreatePayment(ctx, &client.PaymentParams{Amount: 700, Currency: "JPY", Source: sandbox.TokenAmex, Capture: ptrTo(false)})
	if err != nil {
		t.Fatal(err)
	}
	config := func(amount int) string {
		return testAccPaymentResourceConfig(acct, fmt.Sprintf(`
  amount      = %d
  currency    = "JPY"
  source      = %q
  description = "now managed"
  capture     = true
`, amount, sandbox.TokenAmex))
	}
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             acct.testAccCheckPaymentsKept,
		Steps: []resource.TestStep{
			{
				Config: config(700), ResourceName: testAccPaymentAddr, ImportState: true, ImportStateId: pay.ID, ImportStatePersist: true,
			},
			{
				Config: config(700),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(testAccPaymentAddr, plancheck.ResourceActionUpdate)},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(testAccPaymentAddr, tfjsonpath.New("status"), knownvalue.StringExact(wire.PaymentStatusApproved)),
				},
				Check: acct.testAccCheckPaymentCount(1),
			},
			{
				// Now a different amount is a real change of the charge.
				Config: config(800),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(testAccPaymentAddr, plancheck.ResourceActionDestroyBeforeCreate)},
				},
				Check: acct.testAccCheckPaymentCount(2),
			},
		},
	})
}

func TestAccPayment_OutOfBandDeletion(t *testing.T) {
	acct := newTestAccAccount(t)
	config := testAccPaymentResourceConfig(acct, fmt.Sprintf(`
  amount   = 100
  currency = "MXN"
  source   = %q
`, sandbox.TokenVisa))
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             acct.testAccCheckPaymentsKept,
		Steps: []resource.TestStep{
			{Config: config},
			{
				// Payments cannot be deleted through the API; a sandbox reset
				// is the only way one disappears. Read treats it as gone.
				PreConfig: func() {
					if err := sandboxclient.New(acct.Client).Reset(context.Background()); err != nil {
						t.Fatal(err)
					}
				},
				Config: config,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(testAccPaymentAddr, plancheck.ResourceActionCreate)},
				},
				Check: acct.testAccCheckPaymentCount(1),
			},
		},
	})
}

// TestAccPayment_LiveGuard: a live key needs allow_live_payments on top of
// allow_livemode to charge, and the plan says so before anything is sent.
func TestAccPayment_LiveGuard(t *testing.T) {
	acct := newTestAccAccount(t)
	liveKey := wire.SecretKeyLivePrefix + "abcdefgh1234"
	config := func(extra string) string {
		return fmt.Sprintf(`
provider "payments" {
  base_url       = %q
  secret_key     = %q
  allow_livemode = true
  %s
}

resource "payments_payment" "test" {
  amount   = 100
  currency = "USD"
  source   = %q
}
`, acct.URL, liveKey, extra, sandbox.TokenVisa)
	}
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config:      config(""),
				PlanOnly:    true,
				ExpectError: phrasesRegexp("Live Payments Not Allowed", "Creating a payment", "allow_livemode = true", "allow_live_payments = true"),
			},
			{
				Config:      config("allow_live_payments = false"),
				PlanOnly:    true,
				ExpectError: phrasesRegexp("Live Payments Not Allowed", "allow_live_payments = true"),
			},
			{
				// Allowed: the plan passes, and the sandbox (which takes no
				// live keys) refuses the request itself.
				Config:      config("allow_live_payments = true"),
				ExpectError: phrasesRegexp("Error Creating Payment", "HTTP 403", "livemode_mismatch"),
			},
			{
				// A setting that guards money must be known at plan time.
				Config: fmt.Sprintf(`
resource "terraform_data" "allow" {
  input = true
}

provider "payments" {
  base_url            = %q
  secret_key          = %q
  allow_live_payments = terraform_data.allow.output
}

resource "payments_payment" "test" {
  amount   = 100
  currency = "USD"
  source   = %q
}
`, acct.URL, acct.Key, sandbox.TokenVisa),
				PlanOnly:    true,
				ExpectError: phrasesRegexp("Unknown Payments Allow Live Payments", "Set it to a static value"),
			},
		},
	})
}

// TestAccPayment_Faults: a create retried under injected faults (server
// errors and dropped answers) makes exactly one payment per resource, and
// an update under faults charges nothing more.
func TestAccPayment_Faults(t *testing.T) {
	acct := newTestAccAccount(t)
	const n = 5
	faults := sandboxclient.FaultsParams{ErrorRate: new(0.25), DropRate: new(0.25), Seed: new(testSeed(t))}
	config := func(desc string) string {
		return fmt.Sprintf(`
provider "payments" {
  base_url    = %q
  secret_key  = %q
  max_retries = %d
}

resource "payments_payment" "fault" {
  count           = %d
  amount          = 1000 + count.index
  currency        = "USD"
  source          = %q
  description     = %q
  amount_refunded = 10
}
`, acct.URL, acct.Key, faultTestMaxRetries, n, sandbox.TokenVisa, desc)
	}
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy: resource.ComposeAggregateTestCheckFunc(
			acct.testAccCheckPaymentsKept,
			acct.faultCheckInjected(faults),
		),
		Steps: []resource.TestStep{
			{
				PreConfig: func() {
					if _, err := sandboxclient.New(acct.Client).SetFaults(context.Background(), faults); err != nil {
						t.Fatal(err)
					}
				},
				Config: config("first"),
				Check: resource.ComposeAggregateTestCheckFunc(
					acct.testAccCheckPaymentCount(n),
					acct.testAccCheckPaymentsRefunded(n, 10),
				),
			},
			{
				Config: config("second"),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction("payments_payment.fault[0]", plancheck.ResourceActionUpdate)},
				},
				Check: resource.ComposeAggregateTestCheckFunc(
					acct.testAccCheckPaymentCount(n),
					acct.testAccCheckPaymentsRefunded(n, 10),
				),
			},
			{
				Config:           config("second"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			},
		},
	})
}

// testAccCheckPaymentsRefunded checks that each of the n payments in state
// exists once at the service with exactly refunded refunded (a refund
// made twice would show double).
func (a *testAccAccount) testAccCheckPaymentsRefunded(n int, refunded int64) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		seen := 0
		for _, rs := range s.RootModule().Resources {
			if rs.Type != "payments_payment" {
				continue
			}
			seen++
			p, err := a.Client.GetPayment(context.Background(), rs.Primary.ID)
			if err != nil {
				return err
			}
			if p.AmountRefunded == nil || *p.AmountRefunded != refunded {
				return fmt.Errorf("payment %s has %v refunded, want %d", p.ID, p.AmountRefunded, refunded)
			}
		}
		if seen != n {
			return fmt.Errorf("state holds %d payments, want %d", seen, n)
		}
		return nil
	}
}

// TestAccPayment_BadInput: every input the service would refuse, or that
// could never converge, is refused at plan time naming the attribute and
// what is accepted, and nothing reaches the service.
func TestAccPayment_BadInput(t *testing.T) {
	acct := newTestAccAccount(t)
	cus := "cus_" + strings.Repeat("a", wire.IDRandomLength)
	for _, tc := range []struct {
		name, body string
		want       []string
	}{
		{"amount 0", `amount = 0`, []string{"amount", "between 1 and 99999999", "got: 0"}},
		{"negative amount", `amount = -5`, []string{"amount", "between 1 and 99999999"}},
		{"amount over the maximum", `amount = 100000000`, []string{"amount", "between 1 and 99999999"}},
		{"lower-case currency", `currency = "usd"`, []string{"Invalid Currency", `use "USD", not "usd"`}},
		{"unknown currency", `currency = "XYZ"`, []string{"Invalid Currency", "USD, EUR, GBP"}},
		{"neither customer nor source", `source = null`, []string{"Missing Payment Source", "Set customer", "source", "or both"}},
		{"refund with capture false", `capture = false
  amount_refunded = 10`, []string{"Refund Of An Uncaptured Payment", "capture = false"}},
		{"refund above the amount", `amount_refunded = 1001`, []string{"Refund Above The Amount", "is 1001 (10.01 USD)", "is 1000 (10.00 USD)", "from 0 to 1000"}},
		{"negative refund", `amount_refunded = -1`, []string{"amount_refunded", "between 0 and"}},
		{"src without customer", `source = "src_` + strings.Repeat("b", wire.IDRandomLength) + `"`, []string{"Stored Source Without Customer", "Set customer"}},
		{"malformed src", `customer = "` + cus + `"
  source = "src_x"`, []string{"Invalid Payment Source", "src_ followed by 24"}},
		{"malformed customer", `customer = "cus_1"`, []string{"customer", "must be a customer id"}},
		{"empty description", `description = ""`, []string{"description", fmt.Sprintf("between 1 and %d", wire.PaymentDescriptionMaxLength)}},
		{"empty metadata value", `metadata = { a = "" }`, []string{"Empty Metadata Value"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			body := mergePaymentBody(tc.body)
			resource.ParallelTest(t, resource.TestCase{
				PreCheck:                 func() { testAccPreCheck(t) },
				ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
				Steps: []resource.TestStep{{
					Config:      testAccPaymentResourceConfig(acct, body),
					PlanOnly:    true,
					ExpectError: phrasesRegexp(tc.want...),
				}},
			})
		})
	}
	// After the parallel subtests: not one request reached the service.
	t.Cleanup(func() {
		if st, err := sandboxclient.New(acct.Client).Stats(context.Background()); err != nil || st.Requests.Total != 0 {
			t.Errorf("bad input reached the service: %v %+v", err, st)
		}
	})
}

// mergePaymentBody is a valid payment body (amount 1000 USD, tok_visa) with
// the arguments of override in place of the defaults.
func mergePaymentBody(override string) string {
	defaults := map[string]string{"amount": "1000", "currency": `"USD"`, "source": `"` + sandbox.TokenVisa + `"`}
	var out []string
	for _, line := range strings.Split(override, "\n") {
		name, _, _ := strings.Cut(strings.TrimSpace(line), " ")
		delete(defaults, name)
		out = append(out, "  "+strings.TrimSpace(line))
	}
	for _, name := range []string{"amount", "currency", "source"} {
		if v, ok := defaults[name]; ok {
			out = append(out, fmt.Sprintf("  %s = %s", name, v))
		}
	}
	return strings.Join(out, "\n")
}
