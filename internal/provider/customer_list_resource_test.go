package provider

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/querycheck"
	"github.com/hashicorp/terraform-plugin-testing/querycheck/queryfilter"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"

	"github.com/paymentsdev/terraform-provider-payments/internal/client"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// queryVersionChecks: list resources and `terraform query` need Terraform
// 1.14; OpenTofu has neither, whatever its version number says.
var queryVersionChecks = []tfversion.TerraformVersionCheck{
	tfversion.SkipBelow(tfversion.Version1_14_0),
	skipOpenTofu("list resources"),
}

// testAccQueryCustomers makes customers at the service directly, as a team
// adopting existing customers would have them, and returns their ids,
// oldest first.
func (a *testAccAccount) testAccQueryCustomers(t *testing.T, params ...*client.CustomerParams) []string {
	t.Helper()
	ids := make([]string, 0, len(params))
	for _, p := range params {
		cus, err := a.Client.CreateCustomer(context.Background(), p)
		if err != nil {
			t.Fatalf("creating a customer: %v", err)
		}
		ids = append(ids, cus.ID)
	}
	return ids
}

func strPtr(s string) *string { return &s }

func byID(id knownvalue.Check) queryfilter.QueryFilter {
	return queryfilter.ByResourceIdentity(map[string]knownvalue.Check{"id": id})
}

// idAt checks that a value is (*ids)[i], read when the check runs: the ids
// are made in a PreConfig, after the test case is built.
func idAt(ids *[]string, i int) knownvalue.Check { return idAtCheck{ids, i} }

type idAtCheck struct {
	ids *[]string
	i   int
}

func (c idAtCheck) CheckValue(v any) error {
	if c.i < 0 || c.i >= len(*c.ids) {
		return fmt.Errorf("no id number %d: only %d were made", c.i, len(*c.ids))
	}
	return knownvalue.StringExact((*c.ids)[c.i]).CheckValue(v)
}

func (c idAtCheck) String() string {
	if c.i < 0 || c.i >= len(*c.ids) {
		return fmt.Sprintf("id number %d", c.i)
	}
	return (*c.ids)[c.i]
}

func TestAccCustomerListResource_DisplayNamesAndResources(t *testing.T) {
	acct := newTestAccAccount(t)
	var ids []string
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		TerraformVersionChecks:   queryVersionChecks,
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				PreConfig: func() {
					ids = acct.testAccQueryCustomers(t,
						&client.CustomerParams{Name: strPtr("Ada Lovelace"), Email: strPtr("ada@example.com"),
							Phone: strPtr("+14155550123"), Metadata: map[string]string{"plan": "gold"}},
						&client.CustomerParams{Name: strPtr("Grace Hopper")},
						&client.CustomerParams{Email: strPtr("Alan@Example.com")},
						&client.CustomerParams{},
					)
				},
				Config: acct.ProviderConfig(),
			},
			{
				Query: true,
				Config: `
list "payments_customer" "all" {
  provider = payments
}

list "payments_customer" "full" {
  provider         = payments
  include_resource = true
}
`,
				QueryResultChecks: []querycheck.QueryResultCheck{
					querycheck.ExpectLength("payments_customer.all", 4),
					querycheck.ExpectIdentity("payments_customer.all", map[string]knownvalue.Check{"id": idAt(&ids, 0)}),
					querycheck.ExpectIdentity("payments_customer.all", map[string]knownvalue.Check{"id": idAt(&ids, 3)}),
					querycheck.ExpectResourceDisplayName("payments_customer.all", byID(idAt(&ids, 0)), knownvalue.StringExact("Ada Lovelace <ada@example.com>")),
					querycheck.ExpectResourceDisplayName("payments_customer.all", byID(idAt(&ids, 1)), knownvalue.StringExact("Grace Hopper")),
					querycheck.ExpectResourceDisplayName("payments_customer.all", byID(idAt(&ids, 2)), knownvalue.StringExact("Alan@Example.com")),
					querycheck.ExpectResourceDisplayName("payments_customer.all", byID(idAt(&ids, 3)), idAt(&ids, 3)),
					// include_resource: the customer as payments_customer's
					// state would hold it after an import.
					querycheck.ExpectLength("payments_customer.full", 4),
					querycheck.ExpectResourceKnownValues("payments_customer.full", byID(idAt(&ids, 0)), []querycheck.KnownValueCheck{
						{Path: tfjsonpath.New("id"), KnownValue: idAt(&ids, 0)},
						{Path: tfjsonpath.New("name"), KnownValue: knownvalue.StringExact("Ada Lovelace")},
						{Path: tfjsonpath.New("email"), KnownValue: knownvalue.StringExact("ada@example.com")},
						{Path: tfjsonpath.New("phone"), KnownValue: knownvalue.StringExact("+14155550123")},
						{Path: tfjsonpath.New("metadata"), KnownValue: knownvalue.MapExact(map[string]knownvalue.Check{"plan": knownvalue.StringExact("gold")})},
						{Path: tfjsonpath.New("livemode"), KnownValue: knownvalue.Bool(false)},
						{Path: tfjsonpath.New("created_at"), KnownValue: knownvalue.NotNull()},
					}),
					querycheck.ExpectResourceKnownValues("payments_customer.full", byID(idAt(&ids, 3)), []querycheck.KnownValueCheck{
						{Path: tfjsonpath.New("name"), KnownValue: knownvalue.Null()},
						{Path: tfjsonpath.New("email"), KnownValue: knownvalue.Null()},
						{Path: tfjsonpath.New("metadata"), KnownValue: knownvalue.Null()},
					}),
				},
			},
		},
	})
}

func TestAccCustomerListResource_EmailFilter(t *testing.T) {
	acct := newTestAccAccount(t)
	var ids []string
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		TerraformVersionChecks:   queryVersionChecks,
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				PreConfig: func() {
					ids = acct.testAccQueryCustomers(t,
						&client.CustomerParams{Name: strPtr("Ada"), Email: strPtr("ada@example.com")},
						&client.CustomerParams{Name: strPtr("Grace"), Email: strPtr("grace@example.com")},
						&client.CustomerParams{Name: strPtr("Ada again"), Email: strPtr("ADA@example.COM")},
					)
				},
				Config: acct.ProviderConfig(),
			},
			{
				Query: true,
				Config: `
list "payments_customer" "ada" {
  provider = payments
  config {
    email = "Ada@Example.com"
  }
}

list "payments_customer" "nobody" {
  provider = payments
  config {
    email = "nobody@example.com"
  }
}
`,
				QueryResultChecks: []querycheck.QueryResultCheck{
					querycheck.ExpectLength("payments_customer.ada", 2),
					querycheck.ExpectIdentity("payments_customer.ada", map[string]knownvalue.Check{"id": idAt(&ids, 0)}),
					querycheck.ExpectIdentity("payments_customer.ada", map[string]knownvalue.Check{"id": idAt(&ids, 2)}),
					querycheck.ExpectLength("payments_customer.nobody", 0),
				},
			},
			{
				Query: true,
				Config: `
list "payments_customer" "bad" {
  provider = payments
  config {
    email = "Ada Lovelace"
  }
}
`,
				ExpectError: regexp.MustCompile(`must be an e-mail address of the form local@domain`),
			},
		},
	})
}

// TestAccCustomerListResource_PagesPast100 lists more customers than one
// page of the service and than Terraform's default limit of 100 results,
// and checks that a smaller limit is respected.
func TestAccCustomerListResource_PagesPast100(t *testing.T) {
	acct := newTestAccAccount(t)
	const total = wire.ListLimitMax + 25
	var ids []string
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		TerraformVersionChecks:   queryVersionChecks,
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				PreConfig: func() {
					params := make([]*client.CustomerParams, total)
					for i := range params {
						params[i] = &client.CustomerParams{Name: strPtr(fmt.Sprintf("Customer %03d", i))}
					}
					ids = acct.testAccQueryCustomers(t, params...)
				},
				Config: acct.ProviderConfig(),
			},
			{
				Query: true,
				Config: fmt.Sprintf(`
list "payments_customer" "all" {
  provider = payments
  limit    = %d
}

list "payments_customer" "three" {
  provider = payments
  limit    = 3
}
`, total+100),
				QueryResultChecks: []querycheck.QueryResultCheck{
					querycheck.ExpectLength("payments_customer.all", total),
					// The oldest, on the last page, and the newest.
					querycheck.ExpectIdentity("payments_customer.all", map[string]knownvalue.Check{"id": idAt(&ids, 0)}),
					querycheck.ExpectResourceDisplayName("payments_customer.all", byID(idAt(&ids, 0)), knownvalue.StringExact("Customer 000")),
					querycheck.ExpectIdentity("payments_customer.all", map[string]knownvalue.Check{"id": idAt(&ids, total-1)}),
					querycheck.ExpectLength("payments_customer.three", 3),
					querycheck.ExpectIdentity("payments_customer.three", map[string]knownvalue.Check{"id": idAt(&ids, total-1)}),
					querycheck.ExpectIdentity("payments_customer.three", map[string]knownvalue.Check{"id": idAt(&ids, total-3)}),
				},
			},
		},
	})
}

// TestAccCustomerListResource_Unsupported points the provider at a service
// that has every endpoint but the customer list, as a service following
// only the published interface would: the query fails saying so.
func TestAccCustomerListResource_Unsupported(t *testing.T) {
	acct := newTestAccAccount(t)
	target, err := url.Parse(acct.URL)
	if err != nil {
		t.Fatal(err)
	}
	proxy := httputil.NewSingleHostReverseProxy(target)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet && r.URL.Path == "/v1/customers" {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusNotFound)
			fmt.Fprint(w, `{"error":{"type":"invalid_request_error","code":"unrecognized_url","message":"Unrecognized request URL (GET /v1/customers)."}}`)
			return
		}
		proxy.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	noList := &testAccAccount{Key: acct.Key, URL: srv.URL, Client: acct.Client}
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		TerraformVersionChecks:   queryVersionChecks,
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: noList.ProviderConfig()},
			{
				Query: true,
				Config: `
list "payments_customer" "all" {
  provider = payments
}
`,
				ExpectError: regexp.MustCompile(`(?s)Customer List Not Supported.*cannot list customers`),
			},
		},
	})
}
