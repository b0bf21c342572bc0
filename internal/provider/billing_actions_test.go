package provider

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/paymentsdev/terraform-provider-payments/internal/client"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// testAccBillingActionConfig invokes action kind (subscription_cancel or
// invoice_pay) with body after terraform_data.<name> is created.
func testAccBillingActionConfig(name, kind, body string) string {
	return fmt.Sprintf(`
resource "terraform_data" "%[1]s" {
  input = %[1]q
  lifecycle {
    action_trigger {
      events  = [after_create]
      actions = [action.payments_%[2]s.%[1]s]
    }
  }
}

action "payments_%[2]s" "%[1]s" {
  config {
%[3]s
  }
}
`, name, kind, body)
}

// testAccCheckSubscriptionIs checks a subscription at the service.
func (a *testAccAccount) testAccCheckSubscriptionIs(id string, check func(*client.Subscription) error) resource.TestCheckFunc {
	return func(*terraform.State) error {
		s, err := a.Client.GetSubscription(context.Background(), id)
		if err != nil {
			return err
		}
		return check(s)
	}
}

func TestAccSubscriptionCancelAction_NowAndAtPeriodEnd(t *testing.T) {
	acct := newTestAccAccount(t)
	now := acct.mustBilling(t, sandbox.TokenVisa)
	later := acct.mustBilling(t, sandbox.TokenVisa)
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		TerraformVersionChecks:   actionVersionChecks,
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: acct.ProviderConfig() +
					testAccBillingActionConfig("now", "subscription_cancel", fmt.Sprintf("subscription = %q", now.Subscription.ID)) +
					testAccBillingActionConfig("later", "subscription_cancel", fmt.Sprintf("subscription = %q\nat = \"at_period_end\"", later.Subscription.ID)),
				Check: resource.ComposeAggregateTestCheckFunc(
					acct.testAccCheckSubscriptionIs(now.Subscription.ID, func(s *client.Subscription) error {
						if s.Status != wire.SubscriptionStatusCanceled {
							return fmt.Errorf("canceled now: %s", s.Status)
						}
						return nil
					}),
					acct.testAccCheckSubscriptionIs(later.Subscription.ID, func(s *client.Subscription) error {
						if s.Status != wire.SubscriptionStatusActive || !s.CancelAtPeriodEnd {
							return fmt.Errorf("canceled at period end: %s, cancel_at_period_end %t", s.Status, s.CancelAtPeriodEnd)
						}
						return nil
					}),
				),
			},
			{
				// Canceled already: an error that says so.
				Config: acct.ProviderConfig() +
					testAccBillingActionConfig("again", "subscription_cancel", fmt.Sprintf("subscription = %q", now.Subscription.ID)),
				ExpectError: regexp.MustCompile(`(?s)has ended already`),
			},
		},
	})
}

// TestAccInvoicePayAction_PaysAfterANewCard: declined, the action fails
// naming the payment; after a new card, it pays and the subscription is
// active again; paid, it refuses to pay again.
func TestAccInvoicePayAction_PaysAfterANewCard(t *testing.T) {
	acct := newTestAccAccount(t)
	b := acct.mustBilling(t, sandbox.TokenDeclinedLater)
	b.advance(t, acct, 2, 1) // the renewal is declined: past_due
	s, err := acct.Client.GetSubscription(context.Background(), b.Subscription.ID)
	if err != nil || s.Status != wire.SubscriptionStatusPastDue {
		t.Fatalf("after the declined renewal: %+v, %v; want past_due", s, err)
	}
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		TerraformVersionChecks:   actionVersionChecks,
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				// Still the declining card: an error naming the invoice
				// and the declined payment.
				Config: acct.ProviderConfig() +
					testAccBillingActionConfig("declined", "invoice_pay", fmt.Sprintf("invoice = %q", s.LatestInvoice)),
				ExpectError: regexp.MustCompile(`(?s)card\s+was\s+declined:\s+invoice\s+` + s.LatestInvoice + `.*payment\s+pay_`),
			},
			{
				PreConfig: func() {
					src, err := acct.Client.AddSource(context.Background(), b.Customer.ID, sandbox.TokenVisa)
					if err == nil {
						_, err = acct.Client.SetDefaultSource(context.Background(), b.Customer.ID, src.ID)
					}
					if err != nil {
						t.Fatalf("storing a good card: %v", err)
					}
				},
				Config: acct.ProviderConfig() +
					testAccBillingActionConfig("pay", "invoice_pay", fmt.Sprintf("invoice = %q", s.LatestInvoice)),
				Check: acct.testAccCheckSubscriptionIs(b.Subscription.ID, func(s *client.Subscription) error {
					if s.Status != wire.SubscriptionStatusActive {
						return fmt.Errorf("after paying: %s, want active", s.Status)
					}
					return nil
				}),
			},
			{
				// Paid already: an error that says so.
				Config: acct.ProviderConfig() +
					testAccBillingActionConfig("again", "invoice_pay", fmt.Sprintf("invoice = %q", s.LatestInvoice)),
				ExpectError: regexp.MustCompile(`(?s)is not open or\s+uncollectible`),
			},
		},
	})
}

// TestInvoicePayAction_DeclinedIsAnError: a declined attempt is an error
// on the invoice that names it and the declined payment, and the attempt
// is kept at the service.
func TestInvoicePayAction_DeclinedIsAnError(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	acct := newTestAccAccount(t)
	b := acct.mustBilling(t, sandbox.TokenDeclinedLater)
	b.advance(t, acct, 2, 1) // the renewal is declined: past_due
	s, err := acct.Client.GetSubscription(ctx, b.Subscription.ID)
	if err != nil {
		t.Fatal(err)
	}
	before, err := acct.Client.GetInvoice(ctx, s.LatestInvoice)
	if err != nil {
		t.Fatal(err)
	}

	a := NewInvoicePayAction()
	var schemaResp action.SchemaResponse
	a.Schema(ctx, action.SchemaRequest{}, &schemaResp)
	var cresp action.ConfigureResponse
	a.(action.ActionWithConfigure).Configure(ctx, action.ConfigureRequest{ProviderData: &providerData{client: acct.Client}}, &cresp)
	raw := tftypes.NewValue(schemaResp.Schema.Type().TerraformType(ctx), map[string]tftypes.Value{
		"invoice": tftypes.NewValue(tftypes.String, s.LatestInvoice),
	})
	var resp action.InvokeResponse
	a.Invoke(ctx, action.InvokeRequest{Config: tfsdk.Config{Schema: schemaResp.Schema, Raw: raw}}, &resp)

	after, err := acct.Client.GetInvoice(ctx, s.LatestInvoice)
	if err != nil {
		t.Fatal(err)
	}
	if after.Status != before.Status || after.AttemptCount != before.AttemptCount+1 || after.Payment == before.Payment {
		t.Fatalf("invoice after the declined attempt: %+v, before %+v", after, before)
	}
	if resp.Diagnostics.ErrorsCount() != 1 {
		t.Fatalf("diagnostics %v, want one error", resp.Diagnostics)
	}
	d := resp.Diagnostics.Errors()[0]
	for _, want := range []string{s.LatestInvoice, "payment " + after.Payment, "declined", "attempt_count"} {
		if !strings.Contains(d.Detail(), want) {
			t.Errorf("the error does not say %q: %s: %s", want, d.Summary(), d.Detail())
		}
	}
	if d.Summary() != "Error Paying Invoice" {
		t.Errorf("summary %q", d.Summary())
	}
}
