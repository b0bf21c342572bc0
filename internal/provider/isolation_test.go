package provider

import (
	"context"
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/paymentsdev/terraform-provider-payments/internal/client"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandboxclient"
)

// The isolation tests use two accounts, "owner" and "other", and show
// that the other account's key can neither read, import, change nor delete
// the owner's objects: the provider reports them as not found, and the
// owner's objects stay as they were.

// isolationOwnerObjects are objects the owner made outside Terraform.
type isolationOwnerObjects struct {
	customer, source, payment string
}

// newIsolationOwner makes a customer with a card and a payment on it in a
// fresh account, and deletes them when the test ends.
func newIsolationOwner(t *testing.T) (*testAccAccount, isolationOwnerObjects) {
	t.Helper()
	ctx := context.Background()
	owner := newTestAccAccount(t)
	name := "Owner"
	cus, err := owner.Client.CreateCustomer(ctx, &client.CustomerParams{Name: &name})
	if err != nil {
		t.Fatalf("creating the owner's customer: %v", err)
	}
	src, err := owner.Client.AddSource(ctx, cus.ID, sandbox.TokenVisa)
	if err != nil {
		t.Fatalf("adding the owner's card: %v", err)
	}
	pay, err := owner.Client.CreatePayment(ctx, &client.PaymentParams{Amount: 500, Currency: "EUR", Customer: cus.ID})
	if err != nil {
		t.Fatalf("creating the owner's payment: %v", err)
	}
	return owner, isolationOwnerObjects{customer: cus.ID, source: src.ID, payment: pay.ID}
}

// checkOwnerIntact checks that the owner's customer still has its name and
// its one card, and that the owner still has its objects.
func checkOwnerIntact(owner *testAccAccount, objs isolationOwnerObjects, customers, sources int64) func(*terraform.State) error {
	return func(*terraform.State) error {
		ctx := context.Background()
		cus, err := owner.Client.GetCustomer(ctx, objs.customer)
		if err != nil {
			return fmt.Errorf("the owner's customer %s: %w", objs.customer, err)
		}
		if cus.Name != "Owner" || len(cus.Sources.Data) != 1 || cus.Sources.Data[0].ID != objs.source {
			return fmt.Errorf("the owner's customer %s changed: name %q, sources %v", objs.customer, cus.Name, cus.Sources.Data)
		}
		if _, err := owner.Client.GetPayment(ctx, objs.payment); err != nil {
			return fmt.Errorf("the owner's payment %s: %w", objs.payment, err)
		}
		st, err := sandboxclient.New(owner.Client).Stats(ctx)
		if err != nil {
			return err
		}
		if st.Customers != customers || st.Sources != sources || st.Payments != 1 {
			return fmt.Errorf("the owner holds %d customers, %d sources and %d payments, want %d, %d and 1",
				st.Customers, st.Sources, st.Payments, customers, sources)
		}
		return nil
	}
}

// TestAccProvider_Isolation_ReadImportAttach tries, with the other
// account's key, to read the owner's customer and payment with every data
// source, to import the owner's customer and card, and to attach a card to
// the owner's customer.
func TestAccProvider_Isolation_ReadImportAttach(t *testing.T) {
	owner, objs := newIsolationOwner(t)
	other := newTestAccAccount(t)
	cfg := other.ProviderConfig()
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy: resource.ComposeAggregateTestCheckFunc(
			checkOwnerIntact(owner, objs, 1, 1),
			other.faultCheckCounts(0, 0),
		),
		Steps: []resource.TestStep{
			{
				Config:      cfg + fmt.Sprintf(`data "payments_customer" "x" { id = %q }`, objs.customer),
				ExpectError: phrasesRegexp("Customer Not Found", objs.customer, "belongs to this account"),
			},
			{
				Config:      cfg + fmt.Sprintf(`data "payments_payment" "x" { id = %q }`, objs.payment),
				ExpectError: phrasesRegexp("Payment Not Found", objs.payment, "belongs to this account"),
			},
			{
				Config:      cfg + fmt.Sprintf(`data "payments_payments" "x" { customer = %q }`, objs.customer),
				ExpectError: phrasesRegexp("Customer Not Found", objs.customer),
			},
			{
				// Unfiltered, the other account's list is empty.
				Config: cfg + `
data "payments_payments" "all" {}

output "count" {
  value = length(data.payments_payments.all.payments)
}
`,
				Check: resource.TestCheckOutput("count", "0"),
			},
			{
				Config:        cfg + `resource "payments_customer" "x" {}`,
				ResourceName:  "payments_customer.x",
				ImportState:   true,
				ImportStateId: objs.customer,
				ExpectError:   phrasesRegexp("Cannot import non-existent remote object"),
			},
			{
				Config: cfg + fmt.Sprintf(`
resource "payments_customer_source" "x" {
  customer = %q
  token    = %q
}
`, objs.customer, sandbox.TokenVisa),
				ResourceName:  "payments_customer_source.x",
				ImportState:   true,
				ImportStateId: objs.customer + "/" + objs.source,
				ExpectError:   phrasesRegexp("Cannot import non-existent remote object"),
			},
			{
				// Attaching a card to the owner's customer is a change to it.
				Config: cfg + fmt.Sprintf(`
resource "payments_customer_source" "x" {
  customer = %q
  token    = %q
}
`, objs.customer, sandbox.TokenMastercard),
				ExpectError: phrasesRegexp("Error Creating Customer Source", "customer", objs.customer, "No customer with id"),
			},
			{
				Config: cfg + `data "payments_payments" "all" {}`,
				Check:  checkOwnerIntact(owner, objs, 1, 1),
			},
		},
	})
}

// isolationConfig is a customer with a card, under acct's key.
func isolationConfig(acct *testAccAccount, name string) string {
	return acct.ProviderConfig() + fmt.Sprintf(`
resource "payments_customer" "x" {
  name = %q
}

resource "payments_customer_source" "x" {
  customer = payments_customer.x.id
  token    = %q
}
`, name, sandbox.TokenVisa)
}

// TestAccProvider_Isolation_SwitchKey applies a customer with a card under the
// owner's key, then the same resources, renamed, under the other key: the
// other account does not find the owner's objects, so Terraform plans new
// ones instead of changing the owner's, and the final destroy (under the
// other key) removes only the other account's.
func TestAccProvider_Isolation_SwitchKey(t *testing.T) {
	owner, objs := newIsolationOwner(t)
	other := newTestAccAccount(t)
	var ownerCustomer string
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy: resource.ComposeAggregateTestCheckFunc(
			other.faultCheckCounts(0, 0),
			checkOwnerIntact(owner, objs, 2, 2),
			func(*terraform.State) error {
				cus, err := owner.Client.GetCustomer(context.Background(), ownerCustomer)
				if err != nil {
					return fmt.Errorf("the owner's Terraform-made customer %s after the other key's destroy: %w", ownerCustomer, err)
				}
				if cus.Name != "Owner" || len(cus.Sources.Data) != 1 {
					return fmt.Errorf("the owner's customer %s changed: name %q, sources %v", ownerCustomer, cus.Name, cus.Sources.Data)
				}
				return nil
			},
		),
		Steps: []resource.TestStep{
			{
				Config: isolationConfig(owner, "Owner"),
				Check: resource.ComposeAggregateTestCheckFunc(
					testAccCaptureID("payments_customer.x", &ownerCustomer),
					checkOwnerIntact(owner, objs, 2, 2),
				),
			},
			{
				// The other key's refresh finds nothing: create, not update.
				Config: isolationConfig(other, "Intruder"),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction("payments_customer.x", plancheck.ResourceActionCreate),
						plancheck.ExpectResourceAction("payments_customer_source.x", plancheck.ResourceActionCreate),
					},
				},
				Check: resource.ComposeAggregateTestCheckFunc(
					other.faultCheckCounts(1, 1),
					checkOwnerIntact(owner, objs, 2, 2),
					func(s *terraform.State) error {
						if id := s.RootModule().Resources["payments_customer.x"].Primary.ID; id == ownerCustomer {
							return fmt.Errorf("the other key's state holds the owner's customer %s", id)
						}
						return nil
					},
				),
			},
		},
	})
	// The owner's Terraform-made customer was left behind by design (the
	// other key cannot delete it); remove it.
	t.Cleanup(func() {
		if ownerCustomer != "" {
			_, _ = owner.Client.DeleteCustomer(context.Background(), ownerCustomer)
		}
	})
}

// TestAccProvider_Isolation_DestroyWithOtherKey destroys, under the other
// key, a state made under the owner's: nothing of the owner's is deleted.
func TestAccProvider_Isolation_DestroyWithOtherKey(t *testing.T) {
	owner, objs := newIsolationOwner(t)
	other := newTestAccAccount(t)
	var ownerCustomer string
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             checkOwnerIntact(owner, objs, 2, 2),
		Steps: []resource.TestStep{
			{
				Config: isolationConfig(owner, "Owner"),
				Check:  testAccCaptureID("payments_customer.x", &ownerCustomer),
			},
			{
				Config:  isolationConfig(other, "Owner"),
				Destroy: true,
				Check: resource.ComposeAggregateTestCheckFunc(
					checkOwnerIntact(owner, objs, 2, 2),
					other.faultCheckCounts(0, 0),
				),
			},
		},
	})
	t.Cleanup(func() {
		if ownerCustomer != "" {
			_, _ = owner.Client.DeleteCustomer(context.Background(), ownerCustomer)
		}
	})
}
