package provider

import (
	"context"
	"fmt"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandboxclient"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"

	"github.com/paymentsdev/terraform-provider-payments/internal/client"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// The action tests need Terraform 1.14 or later (actions and
// action_trigger); `make test` runs them on the cached Terraform 1.16.4
// through TF_ACC_TERRAFORM_PATH, and they skip themselves on older CLIs
// and on OpenTofu, which has no actions.
var actionVersionChecks = []tfversion.TerraformVersionCheck{
	tfversion.SkipBelow(tfversion.Version1_14_0),
	skipOpenTofu("OpenTofu has no actions"),
}

// testAccActionConfig invokes one action named kind ("capture" or
// "refund") on payment after terraform_data.<name> is created.
func testAccActionConfig(name, kind, payment, amount string) string {
	if amount != "" {
		amount = "amount  = " + amount
	}
	return fmt.Sprintf(`
resource "terraform_data" "%[1]s" {
  input = %[3]q
  lifecycle {
    action_trigger {
      events  = [after_create]
      actions = [action.payments_payment_%[2]s.%[1]s]
    }
  }
}

action "payments_payment_%[2]s" "%[1]s" {
  config {
    payment = %[3]q
    %[4]s
  }
}
`, name, kind, payment, amount)
}

// testAccCheckPaymentIs checks a payment at the service.
func (a *testAccAccount) testAccCheckPaymentIs(id string, check func(*client.Payment) error) resource.TestCheckFunc {
	return func(*terraform.State) error {
		p, err := a.Client.GetPayment(context.Background(), id)
		if err != nil {
			return fmt.Errorf("reading payment %s: %w", id, err)
		}
		return check(p)
	}
}

func (a *testAccAccount) mustPayment(t *testing.T, p *client.PaymentParams) *client.Payment {
	t.Helper()
	pay, err := a.Client.CreatePayment(context.Background(), p)
	if err != nil {
		t.Fatalf("creating a payment for the test: %v", err)
	}
	return pay
}

func TestAccPaymentCaptureAction_CapturesThenRefusesTwice(t *testing.T) {
	acct := newTestAccAccount(t)
	whole := acct.mustPayment(t, &client.PaymentParams{Amount: 1000, Currency: "USD", Source: sandbox.TokenVisa, Capture: ptrTo(false)})
	part := acct.mustPayment(t, &client.PaymentParams{Amount: 1000, Currency: "USD", Source: sandbox.TokenVisa, Capture: ptrTo(false)})
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		TerraformVersionChecks:   actionVersionChecks,
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		// The payments are not Terraform's: destroying the trigger leaves them.
		CheckDestroy: resource.ComposeAggregateTestCheckFunc(
			acct.testAccCheckPaymentCount(2),
			acct.testAccCheckPaymentIs(part.ID, func(p *client.Payment) error {
				if p.Status != wire.PaymentStatusApproved || p.Amount != 600 {
					return fmt.Errorf("after destroy: %s %d", p.Status, p.Amount)
				}
				return nil
			}),
		),
		Steps: []resource.TestStep{
			{
				Config: acct.ProviderConfig() + testAccActionConfig("whole", "capture", whole.ID, "") +
					testAccActionConfig("part", "capture", part.ID, "600"),
				Check: resource.ComposeAggregateTestCheckFunc(
					acct.testAccCheckPaymentIs(whole.ID, func(p *client.Payment) error {
						if p.Status != wire.PaymentStatusApproved || p.Amount != 1000 || p.Captured == nil || !*p.Captured {
							return fmt.Errorf("whole capture: %s amount %d", p.Status, p.Amount)
						}
						return nil
					}),
					acct.testAccCheckPaymentIs(part.ID, func(p *client.Payment) error {
						if p.Status != wire.PaymentStatusApproved || p.Amount != 600 {
							return fmt.Errorf("partial capture: %s amount %d, want approved 600", p.Status, p.Amount)
						}
						return nil
					}),
					acct.testAccCheckPaymentCount(2),
				),
			},
			{
				// Capturing a captured payment is refused, naming why;
				// nothing changes.
				Config: acct.ProviderConfig() + testAccActionConfig("again", "capture", whole.ID, ""),
				ExpectError: phrasesRegexp("Error Capturing Payment", "is approved",
					"only a payment that is authorized can be captured"),
			},
		},
	})
}

func TestAccPaymentRefundAction_PartialThenFull(t *testing.T) {
	acct := newTestAccAccount(t)
	pay := acct.mustPayment(t, &client.PaymentParams{Amount: 1000, Currency: "EUR", Source: sandbox.TokenVisa})
	authorized := acct.mustPayment(t, &client.PaymentParams{Amount: 1000, Currency: "EUR", Source: sandbox.TokenVisa, Capture: ptrTo(false)})
	refunded := func(status string, n int64) resource.TestCheckFunc {
		return acct.testAccCheckPaymentIs(pay.ID, func(p *client.Payment) error {
			if p.Status != status || p.AmountRefunded == nil || *p.AmountRefunded != n {
				return fmt.Errorf("payment %s: %s with %v refunded, want %s with %d", pay.ID, p.Status, p.AmountRefunded, status, n)
			}
			return nil
		})
	}
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		TerraformVersionChecks:   actionVersionChecks,
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             refunded(wire.PaymentStatusRefunded, 1000),
		Steps: []resource.TestStep{
			// (A step whose configuration is invalid cannot be the last: the
			// test's destroy runs with the last configuration.)
			{
				Config:      acct.ProviderConfig() + testAccActionConfig("bad", "refund", "pay_123", ""),
				PlanOnly:    true,
				ExpectError: phrasesRegexp("payment", "must be a payment id"),
			},
			{
				Config: acct.ProviderConfig() + testAccActionConfig("part", "refund", pay.ID, "300"),
				Check:  resource.ComposeAggregateTestCheckFunc(refunded(wire.PaymentStatusPartiallyRefunded, 300), acct.testAccCheckPaymentCount(2)),
			},
			{
				// A second trigger refunds the rest; the first does not run again.
				Config: acct.ProviderConfig() + testAccActionConfig("part", "refund", pay.ID, "300") +
					testAccActionConfig("rest", "refund", pay.ID, ""),
				Check: refunded(wire.PaymentStatusRefunded, 1000),
			},
			{
				Config:      acct.ProviderConfig() + testAccActionConfig("uncaptured", "refund", authorized.ID, ""),
				ExpectError: phrasesRegexp("Error Refunding Payment", "is authorized", "approved or partially_refunded", "Nothing was changed"),
			},
		},
	})
}

// TestAccPaymentRefundAction_LiveGuard: an action with a live key needs
// allow_live_payments on top of allow_livemode; the plan fails naming both.
func TestAccPaymentRefundAction_LiveGuard(t *testing.T) {
	acct := newTestAccAccount(t)
	live := fmt.Sprintf(`
provider "payments" {
  base_url       = %q
  secret_key     = %q
  allow_livemode = true
}
`, acct.URL, wire.SecretKeyLivePrefix+"abcdefgh1234")
	id := "pay_" + strings.Repeat("a", wire.IDRandomLength)
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		TerraformVersionChecks:   actionVersionChecks,
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config:      live + testAccActionConfig("refund", "refund", id, ""),
				ExpectError: phrasesRegexp("Live Payments Not Allowed", "Refunding payment "+id, "allow_livemode = true", "allow_live_payments = true"),
			},
			{
				Config:      live + testAccActionConfig("capture", "capture", id, ""),
				ExpectError: phrasesRegexp("Live Payments Not Allowed", "Capturing payment "+id, "allow_live_payments = true"),
			},
		},
	})
	st, err := sandboxclient.New(acct.Client).Stats(context.Background())
	if err != nil || st.Requests.Total != 0 {
		t.Errorf("the refused actions reached the service: %v %+v", err, st)
	}
}
