package provider

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/config"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/querycheck"
	"github.com/hashicorp/terraform-plugin-testing/querycheck/queryfilter"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/paymentsdev/terraform-provider-payments/internal/client"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// testAccQueryCards makes a customer with cards of the given tokens at the
// service directly and returns the customer's id followed by the cards'
// ids, in the order they were stored (the first is the default).
func (a *testAccAccount) testAccQueryCards(t *testing.T, tokens ...string) []string {
	t.Helper()
	ctx := context.Background()
	cus, err := a.Client.CreateCustomer(ctx, &client.CustomerParams{Name: strPtr("Card Holder")})
	if err != nil {
		t.Fatalf("creating a customer: %v", err)
	}
	ids := []string{cus.ID}
	for _, tok := range tokens {
		src, err := a.Client.AddSource(ctx, cus.ID, tok)
		if err != nil {
			t.Fatalf("storing %s: %v", tok, err)
		}
		ids = append(ids, src.ID)
	}
	return ids
}

// bySourceID filters query results by a card's identity: ids[0] is the
// customer, ids[i] the card.
func bySourceID(ids *[]string, i int) queryfilter.QueryFilter {
	return queryfilter.ByResourceIdentity(map[string]knownvalue.Check{"customer": idAt(ids, 0), "id": idAt(ids, i)})
}

// lazyID is a configuration variable whose value is (*ids)[i], read when
// the step writes its variables: the ids are made in a PreConfig.
type lazyID struct {
	ids *[]string
	i   int
}

func (v lazyID) MarshalJSON() ([]byte, error) {
	if v.i >= len(*v.ids) {
		return nil, fmt.Errorf("no id number %d: only %d were made", v.i, len(*v.ids))
	}
	return json.Marshal((*v.ids)[v.i])
}

// testAccSourceListConfig is the configuration step before a query: the
// provider, and the variable that names the customer to query.
func testAccSourceListConfig(acct *testAccAccount) string {
	return acct.ProviderConfig() + `
variable "customer" {
  type    = string
  default = ""
}
`
}

func TestAccCustomerSourceListResource_DisplayNamesAndResources(t *testing.T) {
	acct := newTestAccAccount(t)
	var ids, empty []string
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		TerraformVersionChecks:   queryVersionChecks,
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				PreConfig: func() {
					ids = acct.testAccQueryCards(t, sandbox.TokenVisa, sandbox.TokenMastercard, sandbox.TokenAmex)
					empty = acct.testAccQueryCards(t)
				},
				Config: testAccSourceListConfig(acct),
			},
			{
				Query:           true,
				ConfigVariables: config.Variables{"customer": lazyID{&ids, 0}},
				Config:          testAccSourceListQuery,
				QueryResultChecks: []querycheck.QueryResultCheck{
					querycheck.ExpectLength("payments_customer_source.cards", 3),
					querycheck.ExpectIdentity("payments_customer_source.cards", map[string]knownvalue.Check{"customer": idAt(&ids, 0), "id": idAt(&ids, 1)}),
					querycheck.ExpectIdentity("payments_customer_source.cards", map[string]knownvalue.Check{"customer": idAt(&ids, 0), "id": idAt(&ids, 3)}),
					querycheck.ExpectResourceDisplayName("payments_customer_source.cards", bySourceID(&ids, 1), knownvalue.StringExact("visa •••• 4242 (default)")),
					querycheck.ExpectResourceDisplayName("payments_customer_source.cards", bySourceID(&ids, 2), knownvalue.StringExact("mastercard •••• 4444")),
					querycheck.ExpectResourceDisplayName("payments_customer_source.cards", bySourceID(&ids, 3), knownvalue.StringExact("amex •••• 8431")),
					// include_resource: each card as an import would read it,
					// the token the service never tells null.
					querycheck.ExpectLength("payments_customer_source.full", 3),
					querycheck.ExpectResourceKnownValues("payments_customer_source.full", bySourceID(&ids, 1), []querycheck.KnownValueCheck{
						{Path: tfjsonpath.New("id"), KnownValue: idAt(&ids, 1)},
						{Path: tfjsonpath.New("customer"), KnownValue: idAt(&ids, 0)},
						{Path: tfjsonpath.New("brand"), KnownValue: knownvalue.StringExact("visa")},
						{Path: tfjsonpath.New("last4"), KnownValue: knownvalue.StringExact("4242")},
						{Path: tfjsonpath.New("exp_month"), KnownValue: knownvalue.Int64Exact(12)},
						{Path: tfjsonpath.New("exp_year"), KnownValue: knownvalue.NotNull()},
						{Path: tfjsonpath.New("default"), KnownValue: knownvalue.Bool(true)},
						{Path: tfjsonpath.New("token"), KnownValue: knownvalue.Null()},
					}),
					querycheck.ExpectResourceKnownValues("payments_customer_source.full", bySourceID(&ids, 3), []querycheck.KnownValueCheck{
						{Path: tfjsonpath.New("brand"), KnownValue: knownvalue.StringExact("amex")},
						{Path: tfjsonpath.New("default"), KnownValue: knownvalue.Bool(false)},
					}),
					querycheck.ExpectLength("payments_customer_source.two", 2),
				},
			},
			{
				// A customer without cards lists nothing, without error.
				Query:           true,
				ConfigVariables: config.Variables{"customer": lazyID{&empty, 0}},
				Config:          testAccSourceListQuery,
				QueryResultChecks: []querycheck.QueryResultCheck{
					querycheck.ExpectLength("payments_customer_source.cards", 0),
				},
			},
		},
	})
}

func TestAccCustomerSourceListResource_BadCustomer(t *testing.T) {
	acct := newTestAccAccount(t)
	other := newTestAccAccount(t)
	var theirs []string
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		TerraformVersionChecks:   queryVersionChecks,
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				PreConfig: func() { theirs = other.testAccQueryCards(t, sandbox.TokenVisa) },
				Config:    testAccSourceListConfig(acct),
			},
			{
				// Malformed: refused when the configuration is validated.
				Query:           true,
				ConfigVariables: config.Variables{"customer": config.StringVariable("cus_123")},
				Config:          testAccSourceListQuery,
				ExpectError:     regexp.MustCompile(`must be a customer id: cus_ followed by 24 letters or digits`),
			},
			{
				Query:           true,
				ConfigVariables: config.Variables{"customer": config.StringVariable("src_" + strings.Repeat("A", wire.IDRandomLength))},
				Config:          testAccSourceListQuery,
				ExpectError:     regexp.MustCompile(`must be a customer id`),
			},
			{
				// Well formed, but no customer of this account: another
				// account's is as absent as one that never existed.
				Query:           true,
				ConfigVariables: config.Variables{"customer": lazyID{&theirs, 0}},
				Config:          testAccSourceListQuery,
				ExpectError:     regexp.MustCompile(`(?s)Customer Not Found.*No customer with id "cus_[A-Za-z0-9]{24}" exists for the account`),
			},
		},
	})
}

// testAccSourceListQuery is a query listing the cards of var.customer as
// "cards", with include_resource as "full", and limit 2 as "two".
const testAccSourceListQuery = `
list "payments_customer_source" "cards" {
  provider = payments
  config {
    customer = var.customer
  }
}

list "payments_customer_source" "full" {
  provider         = payments
  include_resource = true
  config {
    customer = var.customer
  }
}

list "payments_customer_source" "two" {
  provider = payments
  limit    = 2
  config {
    customer = var.customer
  }
}
`
