package provider

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/querycheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox"
)

func TestAccSubscriptionListResource_ByCustomerAndStatus(t *testing.T) {
	acct := newTestAccAccount(t)
	b := acct.mustBilling(t, sandbox.TokenVisa)
	ended := acct.mustBilling(t, sandbox.TokenVisa)
	if _, err := acct.Client.CancelSubscription(context.Background(), ended.Subscription.ID); err != nil {
		t.Fatalf("canceling: %v", err)
	}
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		TerraformVersionChecks:   queryVersionChecks,
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: acct.ProviderConfig()},
			{
				Query: true,
				Config: `
list "payments_subscription" "mine" {
  provider         = payments
  include_resource = true
  config {
    customer = "` + b.Customer.ID + `"
  }
}

list "payments_subscription" "live" {
  provider = payments
}

list "payments_subscription" "all" {
  provider = payments
  config {
    status = "all"
  }
}

list "payments_subscription" "canceled" {
  provider = payments
  config {
    status = "canceled"
    price  = "` + ended.Price.ID + `"
  }
}
`,
				QueryResultChecks: []querycheck.QueryResultCheck{
					querycheck.ExpectLength("payments_subscription.mine", 1),
					querycheck.ExpectResourceDisplayName("payments_subscription.mine", byID(knownvalue.StringExact(b.Subscription.ID)),
						knownvalue.StringExact(b.Customer.ID+" on 1 price (active)")),
					querycheck.ExpectResourceKnownValues("payments_subscription.mine", byID(knownvalue.StringExact(b.Subscription.ID)), []querycheck.KnownValueCheck{
						{Path: tfjsonpath.New("customer"), KnownValue: knownvalue.StringExact(b.Customer.ID)},
						{Path: tfjsonpath.New("items").AtSliceIndex(0).AtMapKey("price"), KnownValue: knownvalue.StringExact(b.Price.ID)},
						{Path: tfjsonpath.New("cancel_on_destroy"), KnownValue: knownvalue.StringExact(cancelImmediately)},
					}),
					querycheck.ExpectLength("payments_subscription.live", 1),
					querycheck.ExpectLength("payments_subscription.all", 2),
					querycheck.ExpectLength("payments_subscription.canceled", 1),
				},
			},
		},
	})
}
