package provider

import (
	"context"
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandboxclient"
)

// The fault tests apply, change, re-plan and destroy a few customers with a
// card each while the sandbox injects faults into the account's requests,
// and count what the service holds after each step: an apply under faults
// must converge with exactly one object per resource (no duplicate from a
// retried create, none orphaned by a dropped answer), a re-plan under the
// same faults must be empty, and destroy under faults must leave nothing.

// faultTestCustomers is N: small, so that `make test` stays fast.
const faultTestCustomers = 6

// faultTestMaxRetries is the provider's max_retries in these tests: high
// enough that a request fails every attempt with negligible probability
// (0.3^16 at the highest combined rate below).
const faultTestMaxRetries = 15

func TestAccProvider_Faults_ServerErrors(t *testing.T) {
	testAccFaults(t, sandboxclient.FaultsParams{ErrorRate: new(0.3)})
}

func TestAccProvider_Faults_DroppedAnswers(t *testing.T) {
	testAccFaults(t, sandboxclient.FaultsParams{DropRate: new(0.2)})
}

func TestAccProvider_Faults_RateLimit(t *testing.T) {
	testAccFaults(t, sandboxclient.FaultsParams{RateLimit: new(int64(8))})
}

func TestAccProvider_Faults_Combined(t *testing.T) {
	testAccFaults(t, sandboxclient.FaultsParams{
		ErrorRate: new(0.15), DropRate: new(0.1), RateLimit: new(int64(10)), LatencyMS: new(int64(5)),
	})
}

func testAccFaults(t *testing.T, faults sandboxclient.FaultsParams) {
	acct := newTestAccAccount(t)
	faults.Seed = new(testSeed(t))
	ctx := context.Background()
	setFaults := func() {
		if _, err := sandboxclient.New(acct.Client).SetFaults(ctx, faults); err != nil {
			t.Fatalf("setting the sandbox's faults: %v", err)
		}
	}
	n := faultTestCustomers
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		// Destroy ran under the faults too: nothing may be left.
		CheckDestroy: resource.ComposeAggregateTestCheckFunc(
			acct.faultCheckCounts(0, 0),
			acct.faultCheckInjected(faults),
		),
		Steps: []resource.TestStep{
			{
				// Create under faults.
				PreConfig: setFaults,
				Config:    acct.faultConfig(n, "first"),
				Check: resource.ComposeAggregateTestCheckFunc(
					acct.faultCheckCounts(n, n),
					acct.faultCheckStateMatchesService(n),
				),
			},
			{
				// Update in place under faults: still one object per resource.
				Config: acct.faultConfig(n, "second"),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction("payments_customer.fault[0]", plancheck.ResourceActionUpdate),
						plancheck.ExpectResourceAction("payments_customer_source.fault[0]", plancheck.ResourceActionNoop),
					},
				},
				Check: resource.ComposeAggregateTestCheckFunc(
					acct.faultCheckCounts(n, n),
					acct.faultCheckStateMatchesService(n),
					resource.TestCheckResourceAttr("payments_customer.fault.0", "metadata.generation", "second"),
				),
			},
			{
				// A re-plan under the same faults is empty.
				Config: acct.faultConfig(n, "second"),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: acct.faultCheckCounts(n, n),
			},
		},
	})
}

// faultConfig is N customers with a card each; every other card is made
// the default explicitly, which takes a second write after the card is
// stored.
func (a *testAccAccount) faultConfig(n int, generation string) string {
	return fmt.Sprintf(`
provider "payments" {
  base_url    = %[1]q
  secret_key  = %[2]q
  max_retries = %[3]d
}

resource "payments_customer" "fault" {
  count = %[4]d
  email = "fault-${count.index}@example.com"
  name  = "Fault ${count.index}"
  metadata = {
    index      = tostring(count.index)
    generation = %[5]q
  }
}

resource "payments_customer_source" "fault" {
  count    = %[4]d
  customer = payments_customer.fault[count.index].id
  token    = %[6]q
  default  = count.index %% 2 == 0
}
`, a.URL, a.Key, faultTestMaxRetries, n, generation, sandbox.TokenVisa)
}

// faultCheckCounts checks the number of customers and sources the
// account holds at the service. Stats are outside /v1, so faults do not
// touch them.
func (a *testAccAccount) faultCheckCounts(customers, sources int) func(*terraform.State) error {
	return func(*terraform.State) error {
		st, err := sandboxclient.New(a.Client).Stats(context.Background())
		if err != nil {
			return fmt.Errorf("reading the sandbox's stats: %w", err)
		}
		if st.Customers != int64(customers) || st.Sources != int64(sources) {
			return fmt.Errorf("the service holds %d customers and %d sources, want %d and %d "+
				"(more is a duplicate or an orphan, fewer a lost object)", st.Customers, st.Sources, customers, sources)
		}
		return nil
	}
}

// faultCheckInjected checks that the sandbox injected faults of every kind
// the test set, so that a passing test did face them.
func (a *testAccAccount) faultCheckInjected(faults sandboxclient.FaultsParams) func(*terraform.State) error {
	return func(*terraform.State) error {
		st, err := sandboxclient.New(a.Client).Stats(context.Background())
		if err != nil {
			return fmt.Errorf("reading the sandbox's stats: %w", err)
		}
		f := st.Faults
		switch {
		case faults.ErrorRate != nil && *faults.ErrorRate > 0 && f.Errors == 0,
			faults.DropRate != nil && *faults.DropRate > 0 && f.Drops == 0,
			faults.RateLimit != nil && *faults.RateLimit > 0 && f.RateLimited == 0:
			return fmt.Errorf("the sandbox injected %+v over %d requests, not every kind the test set", f, st.Requests.Total)
		}
		return nil
	}
}

// faultCheckStateMatchesService checks that state names n customers and n
// sources, each of which exists at the service, each customer holding
// exactly the one source state gives it.
func (a *testAccAccount) faultCheckStateMatchesService(n int) func(*terraform.State) error {
	return func(s *terraform.State) error {
		ctx := context.Background()
		customers := map[string]bool{}
		sourcesOf := map[string][]string{}
		for _, rs := range s.RootModule().Resources {
			switch rs.Type {
			case "payments_customer":
				customers[rs.Primary.ID] = true
			case "payments_customer_source":
				cus := rs.Primary.Attributes["customer"]
				sourcesOf[cus] = append(sourcesOf[cus], rs.Primary.ID)
			}
		}
		if len(customers) != n || len(sourcesOf) != n {
			return fmt.Errorf("state holds %d customers and sources on %d customers, want %d of each", len(customers), len(sourcesOf), n)
		}
		// Faults still apply to these reads; the test client retries them.
		for id := range customers {
			cus, err := a.Client.GetCustomer(ctx, id)
			if err != nil {
				return fmt.Errorf("customer %s of the state, at the service: %w", id, err)
			}
			want := sourcesOf[id]
			if len(want) != 1 || len(cus.Sources.Data) != 1 || cus.Sources.Data[0].ID != want[0] {
				return fmt.Errorf("customer %s holds sources %v at the service, state gives it %v", id, cus.Sources.Data, want)
			}
		}
		return nil
	}
}
