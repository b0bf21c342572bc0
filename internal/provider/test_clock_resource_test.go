package provider

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

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

const (
	testAccClockAddr         = "payments_test_clock.test"
	testAccClockCustomerAddr = "payments_customer.on_clock"
)

// testAccCheckTestClocksDestroyed checks that every payments_test_clock
// and payments_customer in the state is gone.
func (a *testAccAccount) testAccCheckTestClocksDestroyed(s *terraform.State) error {
	if err := testAccCheckGone(s, "payments_test_clock", "test clock", func(id string) error {
		_, err := a.Client.GetTestClock(context.Background(), id)
		return err
	}); err != nil {
		return err
	}
	return a.testAccCheckCustomersDestroyed(s)
}

// testAccClockConfig is a clock at frozen (named name) and a customer on it.
func (a *testAccAccount) testAccClockConfig(name, frozen string) string {
	return a.ProviderConfig() + fmt.Sprintf(`
resource "payments_test_clock" "test" {
  name        = %q
  frozen_time = %q
}

resource "payments_customer" "on_clock" {
  name       = "On the clock"
  test_clock = payments_test_clock.test.id
}
`, name, frozen)
}

// testAccSubscribeOnClock puts the customer at *customer on a monthly
// plan of 10.00 USD with a card, behind Terraform's back, so that an
// advance has renewals to run.
func (a *testAccAccount) testAccSubscribeOnClock(customer *string) resource.TestCheckFunc {
	return func(*terraform.State) error {
		ctx := context.Background()
		if _, err := a.Client.AddSource(ctx, *customer, "tok_visa"); err != nil {
			return fmt.Errorf("storing a card: %w", err)
		}
		prod, err := a.Client.CreateProduct(ctx, &client.ProductParams{Name: new("Plan")})
		if err != nil {
			return err
		}
		price, err := a.Client.CreatePrice(ctx, &client.PriceParams{Product: prod.ID, Currency: "USD", UnitAmount: 1000,
			Recurring: &client.Recurring{Interval: wire.IntervalMonth, IntervalCount: 1}})
		if err != nil {
			return err
		}
		_, err = a.Client.CreateSubscription(ctx, &client.SubscriptionParams{Customer: *customer,
			Items: []client.SubscriptionItemParams{{Price: price.ID, Quantity: 1}}})
		return err
	}
}

// testAccCheckPaidInvoices checks that the customer has n paid invoices.
func (a *testAccAccount) testAccCheckPaidInvoices(customer *string, n int) resource.TestCheckFunc {
	return func(*terraform.State) error {
		got := 0
		for _, err := range a.Client.AllInvoices(context.Background(), &client.ListInvoicesParams{Customer: *customer, Status: wire.InvoiceStatusPaid}) {
			if err != nil {
				return err
			}
			got++
		}
		if got != n {
			return fmt.Errorf("customer %s has %d paid invoices; want %d", *customer, got, n)
		}
		return nil
	}
}

func TestAccTestClock_CreateAdvanceImportReplace(t *testing.T) {
	acct := newTestAccAccount(t)
	var clockID, customerID string
	sameClock := statecheck.CompareValue(compare.ValuesSame())
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             acct.testAccCheckTestClocksDestroyed,
		Steps: []resource.TestStep{
			{
				Config: acct.testAccClockConfig("ci", "2026-01-01T00:00:00Z"),
				ConfigStateChecks: []statecheck.StateCheck{
					sameClock.AddStateValue(testAccClockAddr, tfjsonpath.New("id")),
					statecheck.ExpectKnownValue(testAccClockAddr, tfjsonpath.New("id"), knownvalue.StringRegexp(testClockIDRegexp)),
					statecheck.ExpectKnownValue(testAccClockAddr, tfjsonpath.New("status"), knownvalue.StringExact(wire.TestClockStatusReady)),
					statecheck.ExpectKnownValue(testAccClockAddr, tfjsonpath.New("livemode"), knownvalue.Bool(false)),
					statecheck.CompareValuePairs(testAccClockCustomerAddr, tfjsonpath.New("test_clock"),
						testAccClockAddr, tfjsonpath.New("id"), compare.ValuesSame()),
				},
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: resource.ComposeTestCheckFunc(
					testAccCaptureID(testAccClockAddr, &clockID),
					testAccCaptureID(testAccClockCustomerAddr, &customerID),
					acct.testAccCheckCustomerAtService(&customerID, func(c *client.Customer) error {
						if c.TestClock != clockID {
							return fmt.Errorf("the customer is on clock %q; want %s", c.TestClock, clockID)
						}
						return nil
					}),
					acct.testAccSubscribeOnClock(&customerID),
					acct.testAccCheckPaidInvoices(&customerID, 1),
				),
			},
			{ResourceName: testAccClockAddr, ImportState: true, ImportStateVerify: true},
			{ResourceName: testAccClockCustomerAddr, ImportState: true, ImportStateVerify: true},
			{
				// Forward, spelled in another offset: an advance in place
				// that runs the renewal due on 1 February.
				Config: acct.testAccClockConfig("ci", "2026-02-01T01:00:00+01:00"),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(testAccClockAddr, plancheck.ResourceActionUpdate),
						expectOnlyChanged(testAccClockAddr, "frozen_time"),
						plancheck.ExpectResourceAction(testAccClockCustomerAddr, plancheck.ResourceActionNoop),
					},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					sameClock.AddStateValue(testAccClockAddr, tfjsonpath.New("id")),
					statecheck.ExpectKnownValue(testAccClockAddr, tfjsonpath.New("status"), knownvalue.StringExact(wire.TestClockStatusReady)),
				},
				Check: resource.ComposeTestCheckFunc(
					acct.testAccCheckPaidInvoices(&customerID, 2),
					func(*terraform.State) error {
						k, err := acct.Client.GetTestClock(context.Background(), clockID)
						if err != nil {
							return err
						}
						if k.FrozenTime != "2026-02-01T00:00:00Z" {
							return fmt.Errorf("the clock is at %s; want 2026-02-01T00:00:00Z", k.FrozenTime)
						}
						return nil
					},
				),
			},
			{
				// Backwards: refused at plan time, naming both times.
				Config:      acct.testAccClockConfig("ci", "2026-01-15T00:00:00Z"),
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`(?s)frozen_time 2026-01-15T00:00:00Z is before the clock's time,\s+2026-02-01T00:00:00Z`),
			},
			{
				// A new name replaces the clock, and the customer on it.
				Config: acct.testAccClockConfig("ci again", "2026-01-15T00:00:00Z"),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(testAccClockAddr, plancheck.ResourceActionDestroyBeforeCreate),
						plancheck.ExpectResourceAction(testAccClockCustomerAddr, plancheck.ResourceActionDestroyBeforeCreate),
					},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(testAccClockAddr, tfjsonpath.New("frozen_time"), knownvalue.StringExact("2026-01-15T00:00:00Z")),
				},
			},
		},
	})
}

func TestAccTestClock_DeletedOutsideTerraform(t *testing.T) {
	acct := newTestAccAccount(t)
	var clockID string
	config := acct.testAccClockConfig("ci", "2026-01-01T00:00:00Z")
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             acct.testAccCheckTestClocksDestroyed,
		Steps: []resource.TestStep{
			{Config: config, Check: testAccCaptureID(testAccClockAddr, &clockID)},
			{
				// Deleting the clock deletes the customer on it: the plan
				// creates both again.
				PreConfig: func() {
					if _, err := acct.Client.DeleteTestClock(context.Background(), clockID); err != nil {
						t.Fatalf("deleting the clock behind Terraform's back: %v", err)
					}
				},
				Config: config,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(testAccClockAddr, plancheck.ResourceActionCreate),
						plancheck.ExpectResourceAction(testAccClockCustomerAddr, plancheck.ResourceActionCreate),
					},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
			},
		},
	})
}

func TestAccTestClock_BadInput(t *testing.T) {
	acct := newTestAccAccount(t)
	steps := []resource.TestStep{}
	for _, c := range []struct{ frozen, want string }{
		{"2026-01-01T00:00:00.5Z", `has a fraction of a second`},
		{"1970-06-01T00:00:00Z", `outside the years a test clock accepts,\s+1971\s+to\s+9999`},
		{"9999-12-31T23:00:00-02:00", `outside the years a test clock accepts,\s+1971\s+to\s+9999\s+in\s+UTC`},
		{"January 1st", `Invalid RFC3339 String Value`},
	} {
		steps = append(steps, resource.TestStep{
			Config:      acct.testAccClockConfig("ci", c.frozen),
			PlanOnly:    true,
			ExpectError: regexp.MustCompile(c.want),
		})
	}
	steps = append(steps, resource.TestStep{
		Config: acct.ProviderConfig() + `
resource "payments_customer" "bad" {
  test_clock = "cus_000000000000000000000000"
}
`,
		PlanOnly:    true,
		ExpectError: regexp.MustCompile(`test_clock[\s\S]*must be a test clock id: clock_ followed by 24 letters`),
	})
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps:                    steps,
	})
}

// TestWaitTestClockReady_PollsUntilReadyOrTimeout: waitTestClockReady polls an advancing clock until it is ready, and
// gives up, saying why, when the timeout ends first.
func TestWaitTestClockReady_PollsUntilReadyOrTimeout(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name      string
		readyAt   int // the read that finds it ready; 0: never
		wantErr   bool
		wantReads int
	}{
		{name: "ready on the first read", readyAt: 1, wantReads: 1},
		{name: "ready on the fourth read", readyAt: 4, wantReads: 4},
		{name: "never ready", readyAt: 0, wantErr: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			tick := &manualTicker{}
			reads := 0
			get := func(context.Context) (*client.TestClock, error) {
				reads++
				status := wire.TestClockStatusAdvancing
				if reads == tc.readyAt {
					status = wire.TestClockStatusReady
				}
				if tc.readyAt == 0 && reads == 10 {
					cancel() // the timeout runs out
				}
				return &client.TestClock{ID: "clock_x", Status: status}, nil
			}
			k, err := waitTestClockReady(ctx, tick, get)
			if tc.wantErr {
				if err == nil || !regexp.MustCompile(`timeouts\.update`).MatchString(err.Error()) {
					t.Fatalf("err = %v; want one naming timeouts.update", err)
				}
				return
			}
			if err != nil || k.Status != wire.TestClockStatusReady || reads != tc.wantReads {
				t.Fatalf("got %+v, %v after %d reads; want ready after %d", k, err, reads, tc.wantReads)
			}
			// The waits double from the first, up to the longest.
			for i, d := range tick.waits {
				want := min(testClockPollMin<<i, testClockPollMax)
				if d != want {
					t.Fatalf("wait %d = %s; want %s", i, d, want)
				}
			}
		})
	}
}

// manualTicker fires at once and records each wait asked for.
type manualTicker struct{ waits []time.Duration }

func (m *manualTicker) After(d time.Duration) <-chan time.Time {
	m.waits = append(m.waits, d)
	c := make(chan time.Time, 1)
	c <- time.Time{}
	return c
}

// TestStoppedShortDiagnostic_NamesWhereAndWhy: an advance that stopped short of its
// target is an error on frozen_time naming the clock, where it stopped,
// its target and the service's reason; one that got there is none.
func TestStoppedShortDiagnostic_NamesWhereAndWhy(t *testing.T) {
	t.Parallel()
	k := &client.TestClock{ID: "clock_1", FrozenTime: "2026-02-28T12:00:00Z"}
	if d := stoppedShortDiagnostic(k.ID, k); d != nil {
		t.Errorf("a clock at its target: %v", d)
	}
	k.StatusDetails.Stopped = &wire.TestClockStopped{TargetFrozenTime: "2026-03-15T00:00:00Z", Code: wire.ErrorCodeAccountLimitExceeded, Message: "-max-account-bytes"}
	d := stoppedShortDiagnostic(k.ID, k)
	if d == nil {
		t.Fatal("no diagnostic for a clock stopped short")
	}
	for _, want := range []string{k.ID, k.FrozenTime, "2026-03-15T00:00:00Z", wire.ErrorCodeAccountLimitExceeded, "-max-account-bytes"} {
		if !strings.Contains(d.Detail(), want) {
			t.Errorf("the detail %q does not name %q", d.Detail(), want)
		}
	}
}
