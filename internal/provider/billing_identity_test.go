package provider

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

// An import block by identity, or by id, of a subscription or a test
// clock plans no change: the import reads back every argument, the
// settings of creation included.
func TestAccSubscription_IdentityImport(t *testing.T) {
	acct := newTestAccAccount(t)
	config := acct.testAccSubscriptionConfig("tok_visa", `
  items             = [{ price = payments_price.monthly.id, quantity = 4 }]
  trial_period_days = 7
  metadata          = { team = "a" }
`)
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		TerraformVersionChecks:   identityVersionChecks,
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             acct.testAccCheckSubscriptionsCanceled,
		Steps: []resource.TestStep{
			{
				Config: config,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectIdentity(testAccSubAddr, map[string]knownvalue.Check{"id": knownvalue.StringRegexp(subscriptionIDRegexp)}),
					statecheck.ExpectIdentityValueMatchesState(testAccSubAddr, tfjsonpath.New("id")),
				},
			},
			{
				ResourceName:    testAccSubAddr,
				ImportState:     true,
				ImportStateKind: resource.ImportBlockWithResourceIdentity,
				ImportPlanChecks: resource.ImportPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectKnownValue(testAccSubAddr, tfjsonpath.New("trial_period_days"), knownvalue.Int64Exact(7)),
					plancheck.ExpectKnownValue(testAccSubAddr, tfjsonpath.New("items").AtSliceIndex(0).AtMapKey("quantity"), knownvalue.Int64Exact(4)),
				}},
			},
			{ResourceName: testAccSubAddr, ImportState: true, ImportStateKind: resource.ImportBlockWithID},
		},
	})
}

func TestAccTestClock_IdentityImport(t *testing.T) {
	acct := newTestAccAccount(t)
	config := acct.testAccClockConfig("ci", "2026-01-01T00:00:00Z")
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		TerraformVersionChecks:   identityVersionChecks,
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             acct.testAccCheckTestClocksDestroyed,
		Steps: []resource.TestStep{
			{
				Config: config,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectIdentity(testAccClockAddr, map[string]knownvalue.Check{"id": knownvalue.StringRegexp(testClockIDRegexp)}),
				},
			},
			{ResourceName: testAccClockAddr, ImportState: true, ImportStateKind: resource.ImportBlockWithResourceIdentity},
			{ResourceName: testAccClockAddr, ImportState: true, ImportStateKind: resource.ImportBlockWithID},
		},
	})
}
