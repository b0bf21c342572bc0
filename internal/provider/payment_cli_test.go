package provider

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandboxclient"

	"github.com/paymentsdev/terraform-provider-payments/internal/client"
)

// TestAccPayment_WarningsInCLI runs the Terraform CLI, which shows what the
// testing framework cannot: the plan's warning that a replacement is a new
// charge, and destroy's warnings that payments stay at the service.
func TestAccPayment_WarningsInCLI(t *testing.T) {
	if os.Getenv("TF_ACC") == "" {
		t.Skip("acceptance test: set TF_ACC=1")
	}
	testAccPreCheck(t)
	t.Parallel()
	acct := newTestAccAccount(t)
	tf := newTFCLI(t, providerBinary(t))
	config := func(amount int) string {
		return cliRequiredProviders + fmt.Sprintf(`

provider "payments" {
  base_url   = %q
  secret_key = %q
}

resource "payments_payment" "kept" {
  amount   = %d
  currency = "USD"
  source   = %q
}

resource "payments_payment" "refunded" {
  amount            = 700
  currency          = "USD"
  source            = %q
  refund_on_destroy = true
}
`, acct.URL, acct.Key, amount, sandbox.TokenVisa, sandbox.TokenVisa)
	}
	tf.writeConfig(config(1000))
	tf.mustRun("apply", "-auto-approve", "-no-color")
	kept := ""
	for _, r := range tf.state() {
		if r.Address == "payments_payment.kept" {
			kept, _ = r.Values["id"].(string)
		}
	}
	if kept == "" {
		t.Fatalf("payments_payment.kept is not in state: %+v", tf.state())
	}

	tf.writeConfig(config(1500))
	out, code := tf.run("plan", "-no-color", "-detailed-exitcode")
	if code != 2 {
		t.Fatalf("plan exited %d, want 2 (changes):\n%s", code, out)
	}
	for _, want := range []string{
		"payments_payment.kept must be replaced",
		"Warning: Replacing Payment Makes A New Charge",
		"amount 1000 -> 1500 replaces payment " + kept,
		"charges 15.00 USD again as a new payment",
		"not refunded",
	} {
		if !strings.Contains(strings.Join(strings.Fields(out), " "), want) {
			t.Errorf("the plan does not say %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "payments_payment.refunded must be replaced") {
		t.Errorf("the plan replaces a payment whose configuration did not change:\n%s", out)
	}

	tf.writeConfig(config(1000))
	out = tf.mustRun("destroy", "-auto-approve", "-no-color")
	flat := strings.Join(strings.Fields(out), " ")
	for _, want := range []string{
		"Warning: Payment Kept At The Service",
		"Payment " + kept + " was removed from Terraform's state only: payments cannot be deleted",
		"Warning: Payment Refunded And Kept At The Service",
		"was refunded (7.00 USD, what was left) because refund_on_destroy = true",
	} {
		if !strings.Contains(flat, want) {
			t.Errorf("destroy does not say %q:\n%s", want, out)
		}
	}
	st, err := sandboxclient.New(acct.Client).Stats(t.Context())
	if err != nil || st.Payments != 2 {
		t.Errorf("after destroy the service holds %d payments (%v), want both kept", st.Payments, err)
	}
}

// TestAccPaymentRefundAction_ProgressInCLI invokes the refund action on
// demand (terraform apply -invoke) and checks the progress messages the
// CLI shows while it runs. Terraform 1.14 or later.
func TestAccPaymentRefundAction_ProgressInCLI(t *testing.T) {
	if os.Getenv("TF_ACC") == "" {
		t.Skip("acceptance test: set TF_ACC=1")
	}
	testAccPreCheck(t)
	cli := testCLI(t)
	if cli.OpenTofu {
		t.Skip("OpenTofu has no actions")
	}
	var major, minor int
	if _, err := fmt.Sscanf(cli.Version, "%d.%d", &major, &minor); err != nil || major == 1 && minor < 14 || major < 1 {
		t.Skipf("actions need Terraform 1.14 or later; the CLI is %s %s", cli.Name, cli.Version)
	}
	t.Parallel()
	acct := newTestAccAccount(t)
	pay := acct.mustPayment(t, &client.PaymentParams{Amount: 1000, Currency: "GBP", Source: sandbox.TokenVisa})
	tf := newTFCLI(t, providerBinary(t))
	tf.writeConfig(cliRequiredProviders + fmt.Sprintf(`

provider "payments" {
  base_url   = %q
  secret_key = %q
}

action "payments_payment_refund" "reset" {
  config {
    payment = %q
    amount  = 250
  }
}
`, acct.URL, acct.Key, pay.ID))
	got := strings.Join(strings.Fields(tf.mustRun("apply", "-auto-approve", "-no-color", "-invoke=action.payments_payment_refund.reset")), " ")
	for _, want := range []string{
		"Reading payment " + pay.ID,
		"Refunding 2.50 GBP of payment " + pay.ID + " (status approved)",
		"Payment " + pay.ID + " is now partially_refunded: amount 10.00 GBP, 2.50 GBP refunded",
		"Actions: 1 invoked",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the CLI output does not show %q:\n%s", want, got)
		}
	}
	p, err := acct.Client.GetPayment(t.Context(), pay.ID)
	if err != nil || *p.AmountRefunded != 250 {
		t.Errorf("payment after the action: %+v %v", p, err)
	}
}
