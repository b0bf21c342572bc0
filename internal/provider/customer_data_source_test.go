package provider

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/paymentsdev/terraform-provider-payments/internal/client"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

func testAccCustomerDataSourceConfig(a *testAccAccount, id string) string {
	return a.ProviderConfig() + fmt.Sprintf(`
data "payments_customer" "test" {
  id = %q
}
`, id)
}

// testAccExpectCustomer checks one attribute of data.payments_customer.test.
func testAccExpectCustomer(name string, check knownvalue.Check) statecheck.StateCheck {
	return statecheck.ExpectKnownValue("data.payments_customer.test", tfjsonpath.New(name), check)
}

var testAccTimestampRegexp = regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$`)

func TestAccCustomerDataSource_Read(t *testing.T) {
	testAccPreCheck(t)
	a := newTestAccAccount(t)
	c := a.Client
	cus := testAccCreateCustomer(t, c, client.CustomerParams{
		Email: new("ada@example.com"), Name: new("Ada Lovelace"), Phone: new("+442071234567"),
		Metadata: map[string]string{"tier": "gold"}, Source: new(sandbox.TokenVisa),
	})
	visa := cus.DefaultSource
	mc, err := c.AddSource(t.Context(), cus.ID, sandbox.TokenMastercard)
	if err != nil {
		t.Fatalf("adding a source to %s: %v", cus.ID, err)
	}
	cus, err = c.GetCustomer(t.Context(), cus.ID)
	if err != nil {
		t.Fatalf("reading %s: %v", cus.ID, err)
	}
	// The cards as the API lists them, each spelled out.
	cards := map[string]knownvalue.Check{
		visa: knownvalue.ObjectExact(map[string]knownvalue.Check{
			"id": knownvalue.StringExact(visa), "brand": knownvalue.StringExact("visa"), "last4": knownvalue.StringExact("4242"),
		}),
		mc.ID: knownvalue.ObjectExact(map[string]knownvalue.Check{
			"id": knownvalue.StringExact(mc.ID), "brand": knownvalue.StringExact("mastercard"), "last4": knownvalue.StringExact("4444"),
		}),
	}
	var sources []knownvalue.Check
	for _, s := range cus.Sources.Data {
		sources = append(sources, cards[s.ID])
	}
	if len(sources) != 2 || sources[0] == nil || sources[1] == nil {
		t.Fatalf("fixture: customer %s lists sources %+v, want %s and %s", cus.ID, cus.Sources.Data, visa, mc.ID)
	}
	config := testAccCustomerDataSourceConfig(a, cus.ID)

	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: config,
				ConfigStateChecks: []statecheck.StateCheck{
					testAccExpectCustomer("id", knownvalue.StringExact(cus.ID)),
					testAccExpectCustomer("email", knownvalue.StringExact("ada@example.com")),
					testAccExpectCustomer("name", knownvalue.StringExact("Ada Lovelace")),
					testAccExpectCustomer("phone", knownvalue.StringExact("+442071234567")),
					testAccExpectCustomer("metadata", knownvalue.MapExact(map[string]knownvalue.Check{"tier": knownvalue.StringExact("gold")})),
					// The first method attached stays the default.
					testAccExpectCustomer("default_source", knownvalue.StringExact(visa)),
					testAccExpectCustomer("sources", knownvalue.ListExact(sources)),
					testAccExpectCustomer("created_at", knownvalue.StringExact(cus.CreatedAt)),
					testAccExpectCustomer("created_at", knownvalue.StringRegexp(testAccTimestampRegexp)),
					testAccExpectCustomer("livemode", knownvalue.Bool(false)),
					testAccExpectCustomer("timeouts", knownvalue.Null()),
				},
			},
			emptyPlanStep(config),
			{
				// Changes made outside Terraform show on the next read.
				PreConfig: func() {
					ctx := t.Context()
					if _, err := c.UpdateCustomer(ctx, cus.ID, &client.CustomerParams{
						Name: new("Ada King"), Phone: new(""), Metadata: map[string]string{"tier": ""},
					}); err != nil {
						t.Fatalf("updating %s: %v", cus.ID, err)
					}
					if _, err := c.DeleteSource(ctx, cus.ID, visa); err != nil {
						t.Fatalf("deleting source %s: %v", visa, err)
					}
				},
				Config: config,
				ConfigStateChecks: []statecheck.StateCheck{
					testAccExpectCustomer("email", knownvalue.StringExact("ada@example.com")),
					testAccExpectCustomer("name", knownvalue.StringExact("Ada King")),
					testAccExpectCustomer("phone", knownvalue.Null()),
					testAccExpectCustomer("metadata", knownvalue.Null()),
					testAccExpectCustomer("default_source", knownvalue.StringExact(mc.ID)),
					testAccExpectCustomer("sources", knownvalue.ListExact([]knownvalue.Check{cards[mc.ID]})),
				},
			},
		},
	})
}

// A customer with nothing set has null attributes and an empty list of
// payment methods.
func TestAccCustomerDataSource_Empty(t *testing.T) {
	testAccPreCheck(t)
	a := newTestAccAccount(t)
	cus := testAccCreateCustomer(t, a.Client, client.CustomerParams{})
	config := testAccCustomerDataSourceConfig(a, cus.ID)

	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: config,
				ConfigStateChecks: []statecheck.StateCheck{
					testAccExpectCustomer("id", knownvalue.StringExact(cus.ID)),
					testAccExpectCustomer("email", knownvalue.Null()),
					testAccExpectCustomer("name", knownvalue.Null()),
					testAccExpectCustomer("phone", knownvalue.Null()),
					testAccExpectCustomer("metadata", knownvalue.Null()),
					testAccExpectCustomer("default_source", knownvalue.Null()),
					testAccExpectCustomer("sources", knownvalue.ListExact([]knownvalue.Check{})),
					testAccExpectCustomer("created_at", knownvalue.StringExact(cus.CreatedAt)),
					testAccExpectCustomer("livemode", knownvalue.Bool(false)),
				},
			},
			emptyPlanStep(config),
		},
	})
}

func TestAccCustomerDataSource_InvalidID(t *testing.T) {
	testAccPreCheck(t)
	a := newTestAccAccount(t)
	testAccRefuseIDs(t, []string{
		"",
		"cus_",
		"cus_abc",
		"pay_" + strings.Repeat("a", wire.IDRandomLength),
		"src_" + strings.Repeat("a", wire.IDRandomLength),
		" cus_" + strings.Repeat("a", wire.IDRandomLength),
		"cus_" + strings.Repeat("a", wire.IDRandomLength+1),
		"cus_" + strings.Repeat("a", wire.IDRandomLength-1) + "_",
	}, func(id string) string { return testAccCustomerDataSourceConfig(a, id) }, "must be a customer id: "+customerIDShape)
}

// A data source reads an object that must exist: a missing customer is an
// error that names the id, whether it never existed, was deleted, or is
// another account's.
func TestAccCustomerDataSource_NotFound(t *testing.T) {
	testAccPreCheck(t)
	a := newTestAccAccount(t)
	other := newTestAccAccount(t)
	theirs := testAccCreateCustomer(t, other.Client, client.CustomerParams{Email: new("bob@example.com")})
	gone := testAccCreateCustomer(t, a.Client, client.CustomerParams{})
	if _, err := a.Client.DeleteCustomer(t.Context(), gone.ID); err != nil {
		t.Fatalf("deleting %s: %v", gone.ID, err)
	}
	step := func(id string) resource.TestStep {
		return resource.TestStep{
			Config:      testAccCustomerDataSourceConfig(a, id),
			ExpectError: regexp.MustCompile(`(?s)Customer Not Found.*` + regexp.QuoteMeta(id)),
		}
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			step("cus_" + strings.Repeat("9", wire.IDRandomLength)),
			step(gone.ID),
			step(theirs.ID),
		},
	})
}

// TestCustomerDataSource_Read_OneRequest: Read makes exactly one request,
// and a customer without payment methods has an empty list, not null.
func TestCustomerDataSource_Read_OneRequest(t *testing.T) {
	id := "cus_" + strings.Repeat("R", wire.IDRandomLength)
	var requests atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
		fmt.Fprintf(w, `{"id":%q,"object":"customer","email":null,"sources":{"object":"list","data":[]},"metadata":{},"created_at":"2025-01-31T10:00:00Z","livemode":false}`, id)
	}))
	defer srv.Close()

	state, diags := testUnitReadDataSource(t, NewCustomerDataSource(), testUnitClient(t, srv.URL),
		map[string]tftypes.Value{"id": tftypes.NewValue(tftypes.String, id)})
	if diags.HasError() {
		t.Fatalf("Read: %v", diags)
	}
	if n := requests.Load(); n != 1 {
		t.Errorf("Read made %d requests, want exactly 1", n)
	}
	var got customerDataSourceModel
	if diags := state.Get(t.Context(), &got); diags.HasError() {
		t.Fatalf("state: %v", diags)
	}
	if got.Sources == nil || len(got.Sources) != 0 {
		t.Errorf("sources = %#v, want an empty list", got.Sources)
	}
	if !got.Email.IsNull() || !got.Metadata.IsNull() || !got.DefaultSource.IsNull() {
		t.Errorf("email, metadata, default_source = %v, %v, %v; want null", got.Email, got.Metadata, got.DefaultSource)
	}
}
