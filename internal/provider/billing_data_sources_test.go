package provider

import (
	"fmt"
	"regexp"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

func TestAccInvoicesDataSource_FiltersRenewals(t *testing.T) {
	acct := newTestAccAccount(t)
	b := acct.mustBilling(t, sandbox.TokenVisa)
	b.advance(t, acct, time.February, 1)
	b.advance(t, acct, time.March, 1)
	// Another customer's invoices, which no filter of b's may show.
	acct.mustBilling(t, sandbox.TokenVisa)
	const sub = "data.payments_subscription.test"
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: acct.ProviderConfig() + fmt.Sprintf(`
data "payments_invoices" "all" {
  customer = %[1]q
}

data "payments_invoices" "cycles" {
  subscription   = %[2]q
  status         = "paid"
  billing_reason = "subscription_cycle"
}

data "payments_invoices" "first" {
  customer       = %[1]q
  billing_reason = "subscription_create"
}

data "payments_invoices" "newest" {
  customer = %[1]q
  limit    = 1
}

data "payments_invoices" "open" {
  customer = %[1]q
  status   = "open"
}

data "payments_subscription" "test" {
  id = %[2]q
}
`, b.Customer.ID, b.Subscription.ID),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("data.payments_invoices.all", tfjsonpath.New("invoices"), knownvalue.ListSizeExact(3)),
					statecheck.ExpectKnownValue("data.payments_invoices.cycles", tfjsonpath.New("invoices"), knownvalue.ListExact([]knownvalue.Check{
						knownvalue.ObjectPartial(map[string]knownvalue.Check{
							"period_start":   knownvalue.StringExact("2026-03-01T00:00:00Z"),
							"amount_paid":    knownvalue.Int64Exact(1000),
							"customer":       knownvalue.StringExact(b.Customer.ID),
							"billing_reason": knownvalue.StringExact(wire.BillingReasonSubscriptionCycle),
						}),
						knownvalue.ObjectPartial(map[string]knownvalue.Check{
							"period_start": knownvalue.StringExact("2026-02-01T00:00:00Z"),
							"status":       knownvalue.StringExact(wire.InvoiceStatusPaid),
						}),
					})),
					statecheck.ExpectKnownValue("data.payments_invoices.first", tfjsonpath.New("invoices"), knownvalue.ListSizeExact(1)),
					statecheck.ExpectKnownValue("data.payments_invoices.newest", tfjsonpath.New("invoices"), knownvalue.ListSizeExact(1)),
					statecheck.ExpectKnownValue("data.payments_invoices.open", tfjsonpath.New("invoices"), knownvalue.ListSizeExact(0)),
					statecheck.ExpectKnownValue(sub, tfjsonpath.New("status"), knownvalue.StringExact(wire.SubscriptionStatusActive)),
					statecheck.ExpectKnownValue(sub, tfjsonpath.New("customer"), knownvalue.StringExact(b.Customer.ID)),
					statecheck.ExpectKnownValue(sub, tfjsonpath.New("current_period_start"), knownvalue.StringExact("2026-03-01T00:00:00Z")),
					statecheck.ExpectKnownValue(sub, tfjsonpath.New("items"), knownvalue.ListExact([]knownvalue.Check{
						knownvalue.ObjectExact(map[string]knownvalue.Check{
							"price":    knownvalue.StringExact(b.Price.ID),
							"quantity": knownvalue.Int64Exact(1),
						}),
					})),
					statecheck.ExpectKnownValue(sub, tfjsonpath.New("metadata"), knownvalue.Null()),
				},
			},
			{
				// Another account's ids, or none: errors that say so.
				Config: acct.ProviderConfig() + `
data "payments_subscription" "gone" {
  id = "` + wire.SubscriptionIDPrefix + zeros24 + `"
}
`,
				ExpectError: regexp.MustCompile(`Subscription Not Found`),
			},
			{
				Config: acct.ProviderConfig() + `
data "payments_invoices" "bad" {
  billing_reason = "manual"
}
`,
				ExpectError: regexp.MustCompile(`(?s)billing_reason.*"subscription_create"`),
			},
			// A valid configuration last, for the destroy.
			{Config: acct.ProviderConfig()},
		},
	})
}
