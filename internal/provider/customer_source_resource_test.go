package provider

import (
	"context"
	"fmt"
	"maps"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/compare"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/paymentsdev/terraform-provider-payments/internal/client"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandboxclient"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

const (
	testAccSourceAddr  = "payments_customer_source.test"
	testAccSourceAAddr = "payments_customer_source.a"
	testAccSourceBAddr = "payments_customer_source.b"
)

// sourceIDCheck matches a source id of the contract's shape.
var sourceIDCheck = knownvalue.StringRegexp(sourceIDRegexp)

// testAccCheckSourcesDestroyed checks, against the sandbox, that every
// payments_customer_source in the state is detached, and every customer gone.
func (a *testAccAccount) testAccCheckSourcesDestroyed(s *terraform.State) error {
	for _, rs := range s.RootModule().Resources {
		if rs.Type != "payments_customer_source" {
			continue
		}
		customerID := rs.Primary.Attributes["customer"]
		_, err := a.Client.GetSource(context.Background(), customerID, rs.Primary.ID)
		if err == nil {
			return fmt.Errorf("source %s of customer %s is still attached", rs.Primary.ID, customerID)
		}
		if !client.IsNotFound(err) {
			return fmt.Errorf("checking source %s of customer %s: %w", rs.Primary.ID, customerID, err)
		}
	}
	return a.testAccCheckCustomersDestroyed(s)
}

// testAccSourceImportID is the import id of the source at addr.
func testAccSourceImportID(addr string) resource.ImportStateIdFunc {
	return func(s *terraform.State) (string, error) {
		rs, ok := s.RootModule().Resources[addr]
		if !ok {
			return "", fmt.Errorf("%s is not in the state", addr)
		}
		return rs.Primary.Attributes["customer"] + "/" + rs.Primary.ID, nil
	}
}

// testAccCheckDefaultSource checks the customer's default source at the
// service against the id of the resource at addr.
func (a *testAccAccount) testAccCheckDefaultSource(customerID *string, addr string) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		rs, ok := s.RootModule().Resources[addr]
		if !ok {
			return fmt.Errorf("%s is not in the state", addr)
		}
		cus, err := a.Client.GetCustomer(context.Background(), *customerID)
		if err != nil {
			return fmt.Errorf("reading customer %s: %w", *customerID, err)
		}
		if cus.DefaultSource != rs.Primary.ID {
			return fmt.Errorf("customer %s has default source %q, want %s (%s)", *customerID, cus.DefaultSource, rs.Primary.ID, addr)
		}
		return nil
	}
}

func testAccSourceConfig(acct *testAccAccount, token, extra string) string {
	return acct.ProviderConfig() + fmt.Sprintf(`
resource "payments_customer" "test" {
  name = "Source Test"
}

resource "payments_customer_source" "test" {
  customer = payments_customer.test.id
  token    = %q
  %s
}
`, token, extra)
}

func TestAccCustomerSource_CreateImportUpdateReplace(t *testing.T) {
	acct := newTestAccAccount(t)
	var customerID, firstSourceID string
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             acct.testAccCheckSourcesDestroyed,
		Steps: []resource.TestStep{
			{
				Config: testAccSourceConfig(acct, sandbox.TokenVisa, "default = true"),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(testAccSourceAddr, tfjsonpath.New("id"), sourceIDCheck),
					statecheck.ExpectKnownValue(testAccSourceAddr, tfjsonpath.New("customer"), customerIDCheck),
					statecheck.CompareValuePairs(testAccSourceAddr, tfjsonpath.New("customer"),
						testAccCustomerAddr, tfjsonpath.New("id"), compare.ValuesSame()),
					statecheck.ExpectKnownValue(testAccSourceAddr, tfjsonpath.New("token"), knownvalue.StringExact(sandbox.TokenVisa)),
					statecheck.ExpectKnownValue(testAccSourceAddr, tfjsonpath.New("default"), knownvalue.Bool(true)),
					statecheck.ExpectKnownValue(testAccSourceAddr, tfjsonpath.New("brand"), knownvalue.StringExact("visa")),
					statecheck.ExpectKnownValue(testAccSourceAddr, tfjsonpath.New("last4"), knownvalue.StringExact("4242")),
					statecheck.ExpectKnownValue(testAccSourceAddr, tfjsonpath.New("exp_month"), knownvalue.Int64Exact(12)),
					statecheck.ExpectKnownValue(testAccSourceAddr, tfjsonpath.New("exp_year"), knownvalue.NotNull()),
				},
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: resource.ComposeTestCheckFunc(
					testAccCaptureID(testAccCustomerAddr, &customerID),
					testAccCaptureID(testAccSourceAddr, &firstSourceID),
					acct.testAccCheckDefaultSource(&customerID, testAccSourceAddr),
				),
			},
			{
				ResourceName:            testAccSourceAddr,
				ImportState:             true,
				ImportStateIdFunc:       testAccSourceImportID(testAccSourceAddr),
				ImportStateVerify:       true,
				ImportStateVerifyIgnore: []string{"token"},
			},
			{
				// The customer data source lists the method, as the default.
				Config: testAccSourceConfig(acct, sandbox.TokenVisa, "default = true") + `
data "payments_customer" "test" {
  id = payments_customer_source.test.customer
}
`,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.CompareValuePairs("data.payments_customer.test", tfjsonpath.New("default_source"),
						testAccSourceAddr, tfjsonpath.New("id"), compare.ValuesSame()),
					statecheck.ExpectKnownValue("data.payments_customer.test", tfjsonpath.New("sources"), knownvalue.ListExact([]knownvalue.Check{
						knownvalue.ObjectExact(map[string]knownvalue.Check{
							"id":    sourceIDCheck,
							"brand": knownvalue.StringExact("visa"),
							"last4": knownvalue.StringExact("4242"),
						}),
					})),
				},
			},
			{
				// default off: in place, and the service's default is left alone.
				Config: testAccSourceConfig(acct, sandbox.TokenVisa, ""),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(testAccSourceAddr, plancheck.ResourceActionUpdate),
					},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(testAccSourceAddr, tfjsonpath.New("default"), knownvalue.Bool(false)),
				},
				Check: acct.testAccCheckDefaultSource(&customerID, testAccSourceAddr),
			},
			{
				// A new token is a new method.
				Config: testAccSourceConfig(acct, sandbox.TokenMastercard, ""),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(testAccSourceAddr, plancheck.ResourceActionReplace),
						plancheck.ExpectResourceAction(testAccCustomerAddr, plancheck.ResourceActionNoop),
					},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(testAccSourceAddr, tfjsonpath.New("brand"), knownvalue.StringExact("mastercard")),
					statecheck.ExpectKnownValue(testAccSourceAddr, tfjsonpath.New("last4"), knownvalue.StringExact("4444")),
				},
				Check: func(*terraform.State) error {
					if _, err := acct.Client.GetSource(context.Background(), customerID, firstSourceID); !client.IsNotFound(err) {
						return fmt.Errorf("the replaced source %s is still attached (err %v)", firstSourceID, err)
					}
					return nil
				},
			},
		},
	})
}

// TestAccCustomerSource_DefaultMoves moves the default between two methods
// in configuration, then behind Terraform's back, which the plan repairs.
func TestAccCustomerSource_DefaultMoves(t *testing.T) {
	acct := newTestAccAccount(t)
	var customerID, sourceAID string
	config := func(aDefault, bDefault bool) string {
		return acct.ProviderConfig() + fmt.Sprintf(`
resource "payments_customer" "test" {
  name = "Two Cards"
}

resource "payments_customer_source" "a" {
  customer = payments_customer.test.id
  token    = %q
  default  = %t
}

resource "payments_customer_source" "b" {
  customer = payments_customer.test.id
  token    = %q
  default  = %t
}
`, sandbox.TokenVisa, aDefault, sandbox.TokenMastercard, bDefault)
	}
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             acct.testAccCheckSourcesDestroyed,
		Steps: []resource.TestStep{
			{
				Config: config(true, false),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: resource.ComposeTestCheckFunc(
					testAccCaptureID(testAccCustomerAddr, &customerID),
					testAccCaptureID(testAccSourceAAddr, &sourceAID),
					acct.testAccCheckDefaultSource(&customerID, testAccSourceAAddr),
				),
			},
			{
				Config: config(false, true),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(testAccSourceAAddr, plancheck.ResourceActionUpdate),
						plancheck.ExpectResourceAction(testAccSourceBAddr, plancheck.ResourceActionUpdate),
					},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: acct.testAccCheckDefaultSource(&customerID, testAccSourceBAddr),
			},
			{
				// Someone makes a the default again; the plan shows b's default
				// as false -> true, and applying restores it.
				PreConfig: func() {
					if _, err := acct.Client.SetDefaultSource(context.Background(), customerID, sourceAID); err != nil {
						t.Fatalf("moving the default behind Terraform's back: %v", err)
					}
				},
				Config: config(false, true),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(testAccSourceAAddr, plancheck.ResourceActionNoop),
						plancheck.ExpectResourceAction(testAccSourceBAddr, plancheck.ResourceActionUpdate),
						plancheck.ExpectKnownValue(testAccSourceBAddr, tfjsonpath.New("default"), knownvalue.Bool(true)),
					},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: acct.testAccCheckDefaultSource(&customerID, testAccSourceBAddr),
			},
		},
	})
}

// TestAccCustomerSource_DeletedOutside detaches the method behind
// Terraform's back: the plan stores it again, without error.
func TestAccCustomerSource_DeletedOutside(t *testing.T) {
	acct := newTestAccAccount(t)
	var customerID, sourceID string
	config := testAccSourceConfig(acct, sandbox.TokenAmex, "")
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             acct.testAccCheckSourcesDestroyed,
		Steps: []resource.TestStep{
			{
				Config: config,
				Check: resource.ComposeTestCheckFunc(
					testAccCaptureID(testAccCustomerAddr, &customerID),
					testAccCaptureID(testAccSourceAddr, &sourceID),
				),
			},
			{
				PreConfig: func() {
					if _, err := acct.Client.DeleteSource(context.Background(), customerID, sourceID); err != nil {
						t.Fatalf("detaching source %s behind Terraform's back: %v", sourceID, err)
					}
				},
				Config: config,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(testAccSourceAddr, plancheck.ResourceActionCreate),
					},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(testAccSourceAddr, tfjsonpath.New("brand"), knownvalue.StringExact("amex")),
				},
			},
			{
				// The customer deleted behind Terraform's back takes the method
				// with it: both are planned for creation.
				PreConfig: func() {
					if _, err := acct.Client.DeleteCustomer(context.Background(), customerID); err != nil {
						t.Fatalf("deleting customer %s behind Terraform's back: %v", customerID, err)
					}
				},
				Config: config,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(testAccCustomerAddr, plancheck.ResourceActionCreate),
						plancheck.ExpectResourceAction(testAccSourceAddr, plancheck.ResourceActionCreate),
					},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
			},
		},
	})
}

// TestAccCustomerSource_ImportThenApply imports a method stored outside of
// Terraform; applying the configuration afterwards stores the token in
// place instead of replacing the method.
func TestAccCustomerSource_ImportThenApply(t *testing.T) {
	acct := newTestAccAccount(t)
	ctx := context.Background()
	cus, err := acct.Client.CreateCustomer(ctx, &client.CustomerParams{})
	if err != nil {
		t.Fatalf("creating a customer: %v", err)
	}
	src, err := acct.Client.AddSource(ctx, cus.ID, sandbox.TokenVisa)
	if err != nil {
		t.Fatalf("adding a source: %v", err)
	}
	config := acct.ProviderConfig() + fmt.Sprintf(`
resource "payments_customer_source" "test" {
  customer = %q
  token    = %q
  default  = true
}
`, cus.ID, sandbox.TokenVisa)
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             acct.testAccCheckSourcesDestroyed,
		Steps: []resource.TestStep{
			{
				Config:             config,
				ResourceName:       testAccSourceAddr,
				ImportState:        true,
				ImportStateId:      cus.ID + "/" + src.ID,
				ImportStatePersist: true,
				ImportStateCheck: func(states []*terraform.InstanceState) error {
					if len(states) != 1 {
						return fmt.Errorf("imported %d objects, want 1", len(states))
					}
					attrs := states[0].Attributes
					for k, want := range map[string]string{
						"id": src.ID, "customer": cus.ID, "brand": "visa", "last4": "4242", "default": "true",
					} {
						if attrs[k] != want {
							return fmt.Errorf("imported %s = %q, want %q", k, attrs[k], want)
						}
					}
					if tok, ok := attrs["token"]; ok && tok != "" {
						return fmt.Errorf("imported token = %q, want null: the service never returns it", tok)
					}
					return nil
				},
			},
			{
				Config: config,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(testAccSourceAddr, plancheck.ResourceActionUpdate),
					},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(testAccSourceAddr, tfjsonpath.New("id"), knownvalue.StringExact(src.ID)),
					statecheck.ExpectKnownValue(testAccSourceAddr, tfjsonpath.New("token"), knownvalue.StringExact(sandbox.TokenVisa)),
				},
			},
			{
				// The customer is not Terraform's here; remove it after the
				// method is destroyed so CheckDestroy finds nothing left.
				Config:  config,
				Destroy: true,
				Check: func(*terraform.State) error {
					_, err := acct.Client.DeleteCustomer(ctx, cus.ID)
					return err
				},
			},
		},
	})
}

func TestAccCustomerSource_Invalid(t *testing.T) {
	acct := newTestAccAccount(t)
	goodCus := "cus_" + strings.Repeat("a", wire.IDRandomLength)
	goodSrc := "src_" + strings.Repeat("b", wire.IDRandomLength)
	config := func(customer, token string) string {
		return acct.ProviderConfig() + fmt.Sprintf(`
resource "payments_customer_source" "test" {
  customer = %q
  token    = %q
}
`, customer, token)
	}
	importError := func(id string, want ...string) resource.TestStep {
		return resource.TestStep{
			Config:        config(goodCus, sandbox.TokenVisa),
			ResourceName:  testAccSourceAddr,
			ImportState:   true,
			ImportStateId: id,
			ExpectError:   expectErrorRe(want...),
		}
	}
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config:      config("customer-1", sandbox.TokenVisa),
				PlanOnly:    true,
				ExpectError: expectErrorRe("customer", "must be a customer id: cus_ followed by 24 letters or digits"),
			},
			{
				Config:      config(goodCus, ""),
				PlanOnly:    true,
				ExpectError: expectErrorRe("token", "at least 1"),
			},
			importError(goodSrc, "Invalid Customer Source Import ID", "<customer id>/<source id>"),
			importError(goodCus, "Invalid Customer Source Import ID", "for example cus_"),
			importError(goodSrc+"/"+goodCus, "Invalid Customer Source Import ID"),
			importError(goodCus+"/"+goodSrc+"/x", "Invalid Customer Source Import ID"),
			importError(goodCus+"/"+goodSrc, "Cannot import non-existent remote object"),
		},
	})
}

// TestAccCustomerSource_BadToken shows the service's refusal of a token
// the sandbox does not know, with the customer it was for.
func TestAccCustomerSource_BadToken(t *testing.T) {
	acct := newTestAccAccount(t)
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             acct.testAccCheckSourcesDestroyed,
		Steps: []resource.TestStep{{
			Config:      testAccSourceConfig(acct, "tok_nonsense", ""),
			ExpectError: expectErrorRe("Error Creating Customer Source", "customer cus_", "token_invalid"),
		}},
	})
}

// TestAccCustomerSource_RequestCounts pins the number of API requests: one
// per resource to create (plus one to make a method the default), one per
// resource to refresh (plus the customer's read for a method whose default
// is true), and no read after a write.
func TestAccCustomerSource_RequestCounts(t *testing.T) {
	acct := newTestAccAccount(t)
	config := func(name string) string {
		return acct.ProviderConfig() + fmt.Sprintf(`
resource "payments_customer" "test" {
  name = %q
}

resource "payments_customer_source" "a" {
  customer = payments_customer.test.id
  token    = %q
}

resource "payments_customer_source" "b" {
  customer = payments_customer.test.id
  token    = %q
  default  = true
}
`, name, sandbox.TokenVisa, sandbox.TokenMastercard)
	}
	var before map[string]int64
	snapshot := func() {
		st, err := sandboxclient.New(acct.Client).Stats(context.Background())
		if err != nil {
			t.Fatalf("reading the sandbox's stats: %v", err)
		}
		before = st.Requests.ByRoute
	}
	expectRequests := func(want map[string]int64) resource.TestCheckFunc {
		return func(*terraform.State) error {
			st, err := sandboxclient.New(acct.Client).Stats(context.Background())
			if err != nil {
				return err
			}
			got := map[string]int64{}
			for route, n := range st.Requests.ByRoute {
				if d := n - before[route]; d != 0 {
					got[route] = d
				}
			}
			if !maps.Equal(got, want) {
				return fmt.Errorf("requests by route = %v, want %v", got, want)
			}
			return nil
		}
	}
	const (
		postCustomers  = "POST /v1/customers"
		getCustomer    = "GET /v1/customers/:id"
		postCustomer   = "POST /v1/customers/:id"
		postSources    = "POST /v1/customers/:id/sources"
		getSource      = "GET /v1/customers/:id/sources/:src"
		deleteSource   = "DELETE /v1/customers/:id/sources/:src"
		deleteCustomer = "DELETE /v1/customers/:id"
	)
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             acct.testAccCheckSourcesDestroyed,
		Steps: []resource.TestStep{
			{
				PreConfig: snapshot,
				Config:    config("Counted"),
				Check:     expectRequests(map[string]int64{postCustomers: 1, postSources: 2, postCustomer: 1}),
			},
			{
				PreConfig:    snapshot,
				RefreshState: true,
				Check:        expectRequests(map[string]int64{getCustomer: 2, getSource: 2}),
			},
			{
				// A refresh, then one update.
				PreConfig: snapshot,
				Config:    config("Recounted"),
				Check:     expectRequests(map[string]int64{getCustomer: 2, getSource: 2, postCustomer: 1}),
			},
			{
				PreConfig: snapshot,
				Config:    config("Recounted"),
				Destroy:   true,
				// The harness refreshes several times around a destroy, so
				// only the writes are pinned here.
				Check: func(*terraform.State) error {
					st, err := sandboxclient.New(acct.Client).Stats(context.Background())
					if err != nil {
						return err
					}
					got := map[string]int64{}
					for route, n := range st.Requests.ByRoute {
						if d := n - before[route]; d != 0 && !strings.HasPrefix(route, "GET ") {
							got[route] = d
						}
					}
					if want := map[string]int64{deleteSource: 2, deleteCustomer: 1}; !maps.Equal(got, want) {
						return fmt.Errorf("writes by route = %v, want %v", got, want)
					}
					return nil
				},
			},
		},
	})
}

// TestAccCustomerSource_DeleteAlreadyGone destroys, without a refresh
// first, a method and customer already deleted behind Terraform's back:
// the 404s are success.
func TestAccCustomerSource_DeleteAlreadyGone(t *testing.T) {
	acct := newTestAccAccount(t)
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		// The harness's final destroy runs with -refresh=false, so it
		// sends both deletes for objects that no longer exist.
		CheckDestroy: acct.testAccCheckSourcesDestroyed,
		Steps: []resource.TestStep{{
			Config: testAccSourceConfig(acct, sandbox.TokenVisa, ""),
			Check: func(s *terraform.State) error {
				id := s.RootModule().Resources[testAccCustomerAddr].Primary.ID
				_, err := acct.Client.DeleteCustomer(context.Background(), id)
				return err
			},
			ExpectNonEmptyPlan: true,
		}},
	})
}

// TestAccCustomerSource_DefaultFailsAfterStore makes the second call of a
// create (making the method the default) fail: the stored method must be
// in the state, tainted, so that the next apply replaces it rather than
// leaving it orphaned at the service.
func TestAccCustomerSource_DefaultFailsAfterStore(t *testing.T) {
	acct := newTestAccAccount(t)
	target, err := url.Parse(acct.URL)
	if err != nil {
		t.Fatal(err)
	}
	// A proxy in front of the sandbox that refuses customer updates (the
	// default_source change) while failUpdates is set.
	var failUpdates atomic.Bool
	failUpdates.Store(true)
	updateRe := regexp.MustCompile(`^/v1/customers/[^/]+$`)
	rp := httputil.NewSingleHostReverseProxy(target)
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if failUpdates.Load() && r.Method == http.MethodPost && updateRe.MatchString(r.URL.Path) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusBadRequest)
			fmt.Fprint(w, `{"error": {"type": "invalid_request_error", "code": "parameter_invalid", "param": "default_source", "message": "Injected by the test."}}`)
			return
		}
		rp.ServeHTTP(w, r)
	}))
	t.Cleanup(proxy.Close)
	proxied := &testAccAccount{Key: acct.Key, URL: proxy.URL, Client: acct.Client}

	var customerID, firstSourceID string
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             acct.testAccCheckSourcesDestroyed,
		Steps: []resource.TestStep{
			{
				Config:      testAccSourceConfig(proxied, sandbox.TokenVisa, "default = true"),
				ExpectError: expectErrorRe("Error Making Customer Source the Default", "source src_", "Injected by the test"),
			},
			{
				// The state holds the stored method, tainted.
				PreConfig:          func() { failUpdates.Store(false) },
				RefreshState:       true,
				ExpectNonEmptyPlan: true,
				Check: func(s *terraform.State) error {
					rs, ok := s.RootModule().Resources[testAccSourceAddr]
					if !ok {
						return fmt.Errorf("the stored method is not in the state: it would be orphaned")
					}
					if !rs.Primary.Tainted {
						return fmt.Errorf("the stored method is in the state but not tainted")
					}
					customerID, firstSourceID = rs.Primary.Attributes["customer"], rs.Primary.ID
					_, err := acct.Client.GetSource(context.Background(), customerID, firstSourceID)
					return err
				},
			},
			{
				Config: testAccSourceConfig(proxied, sandbox.TokenVisa, "default = true"),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(testAccSourceAddr, plancheck.ResourceActionReplace),
					},
				},
				Check: resource.ComposeTestCheckFunc(
					acct.testAccCheckDefaultSource(&customerID, testAccSourceAddr),
					func(*terraform.State) error {
						if _, err := acct.Client.GetSource(context.Background(), customerID, firstSourceID); !client.IsNotFound(err) {
							return fmt.Errorf("the tainted method %s was not detached (err %v)", firstSourceID, err)
						}
						return nil
					},
				),
			},
		},
	})
}

// TestAccCustomerSource_ConflictingDefaults: two cards of one customer with
// default = true are reported, naming both cards and the customer: at the
// apply that makes both the default, and at each plan that takes the
// default back. Keeping default = true on one card ends it.
func TestAccCustomerSource_ConflictingDefaults(t *testing.T) {
	acct := newTestAccAccount(t)
	rec := &diagRecorder{}
	config := func(aDefault, bDefault bool) string {
		return acct.ProviderConfig() + fmt.Sprintf(`
resource "payments_customer" "test" {
  name = "Two Defaults"
}

resource "payments_customer_source" "a" {
  customer = payments_customer.test.id
  token    = "tok_visa"
  default  = %t
}

resource "payments_customer_source" "b" {
  customer = payments_customer.test.id
  token    = "tok_mastercard"
  default  = %t
}
`, aDefault, bDefault)
	}
	var customerID, aID, bID string
	capture := resource.ComposeTestCheckFunc(
		testAccCaptureID(testAccCustomerAddr, &customerID),
		testAccCaptureID("payments_customer_source.a", &aID),
		testAccCaptureID("payments_customer_source.b", &bID),
	)
	// expectWarning checks that a warning naming the customer and both
	// cards, with the given summary, was shown since the last check.
	expectWarning := func(summary string) func() error {
		return func() error {
			if got := rec.take(summary, customerID, aID, bID); len(got) == 0 {
				return fmt.Errorf("no warning %q naming customer %s and cards %s and %s", summary, customerID, aID, bID)
			}
			return nil
		}
	}
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: rec.factories(),
		CheckDestroy:             acct.testAccCheckCustomersDestroyed,
		Steps: []resource.TestStep{
			{
				// Both are made the default in one apply: the second is told.
				// The plan after it takes the default back for the first.
				Config:             config(true, true),
				ExpectNonEmptyPlan: true,
				Check: resource.ComposeTestCheckFunc(capture, func(*terraform.State) error {
					return expectWarning("Two Cards Claim the Default of One Customer")()
				}),
			},
			{
				// The plan that takes it back says so, naming both cards.
				PreConfig: func() { rec.take() },
				Config:    config(true, true),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						planCheckFunc(func(_ context.Context, _ plancheck.CheckPlanRequest, resp *plancheck.CheckPlanResponse) {
							resp.Error = expectWarning("Card Takes Back the Default of Its Customer")()
						}),
					},
				},
				ExpectNonEmptyPlan: true,
			},
			{
				// One default: after one apply, the plan is empty for good.
				Config: config(true, false),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: acct.testAccCheckDefaultSource(&customerID, "payments_customer_source.a"),
			},
		},
	})
}
