package provider

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"reflect"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-timetypes/timetypes"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/paymentsdev/terraform-provider-payments/internal/client"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// testAccPaymentConfig is a provider block and one payments_payment data
// source per entry of ids (name → payment id).
func testAccPaymentConfig(a *testAccAccount, ids map[string]string) string {
	var b strings.Builder
	b.WriteString(a.ProviderConfig())
	for name, id := range ids {
		fmt.Fprintf(&b, "\ndata \"payments_payment\" %q {\n  id = %q\n}\n", name, id)
	}
	return b.String()
}

// testAccExpectPayment checks every attribute of data.payments_payment.<name>
// against the API's payment.
func testAccExpectPayment(name string, p *client.Payment) []statecheck.StateCheck {
	var checks []statecheck.StateCheck
	for attr, check := range testAccPaymentValues(p) {
		checks = append(checks, statecheck.ExpectKnownValue("data.payments_payment."+name, tfjsonpath.New(attr), check))
	}
	return checks
}

func TestAccPaymentDataSource_Read(t *testing.T) {
	testAccPreCheck(t)
	a := newTestAccAccount(t)
	cus := testAccCreateCustomer(t, a.Client, client.CustomerParams{Source: new(sandbox.TokenVisa)})
	pay := testAccCreatePayment(t, a.Client, client.PaymentParams{
		Amount: 2500, Currency: "USD", Customer: cus.ID, Description: "Order #1001",
		Metadata: map[string]string{"order": "1001", "channel": "web"},
	})
	config := testAccPaymentConfig(a, map[string]string{"test": pay.ID})
	addr := "data.payments_payment.test"
	attr := func(name string, check knownvalue.Check) statecheck.StateCheck {
		return statecheck.ExpectKnownValue(addr, tfjsonpath.New(name), check)
	}

	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: config,
				// Every attribute, spelled out rather than derived from the API.
				ConfigStateChecks: []statecheck.StateCheck{
					attr("id", knownvalue.StringExact(pay.ID)),
					attr("amount", knownvalue.Int64Exact(2500)),
					attr("amount_refunded", knownvalue.Int64Exact(0)),
					attr("currency", knownvalue.StringExact("USD")),
					attr("status", knownvalue.StringExact(wire.PaymentStatusApproved)),
					attr("captured", knownvalue.Bool(true)),
					attr("authorization_code", knownvalue.StringRegexp(regexp.MustCompile(`^[0-9]+$`))),
					attr("customer", knownvalue.StringExact(cus.ID)),
					attr("description", knownvalue.StringExact("Order #1001")),
					attr("metadata", knownvalue.MapExact(map[string]knownvalue.Check{
						"order": knownvalue.StringExact("1001"), "channel": knownvalue.StringExact("web"),
					})),
					attr("source", knownvalue.ObjectExact(map[string]knownvalue.Check{
						"id":        knownvalue.StringExact(cus.DefaultSource),
						"brand":     knownvalue.StringExact("visa"),
						"last4":     knownvalue.StringExact("4242"),
						"exp_month": knownvalue.Int64Exact(12),
						"exp_year":  knownvalue.Int64Exact(int64(time.Now().UTC().Year() + 3)),
					})),
					attr("created_at", knownvalue.StringExact(pay.CreatedAt)),
					attr("created_at", knownvalue.StringRegexp(regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$`))),
					attr("livemode", knownvalue.Bool(false)),
					attr("timeouts", knownvalue.Null()),
				},
			},
			emptyPlanStep(config),
			{
				// A refund made outside Terraform shows on the next read.
				PreConfig: func() {
					if _, err := a.Client.RefundPayment(t.Context(), pay.ID, new(int64(1000))); err != nil {
						t.Fatalf("refunding %s: %v", pay.ID, err)
					}
				},
				Config: config,
				ConfigStateChecks: []statecheck.StateCheck{
					attr("status", knownvalue.StringExact(wire.PaymentStatusPartiallyRefunded)),
					attr("amount_refunded", knownvalue.Int64Exact(1000)),
					attr("amount", knownvalue.Int64Exact(2500)),
				},
			},
		},
	})
}

// A payment made the quick-start way (a token, nothing else) has no
// customer, description or metadata: they are null, not "" or {}.
func TestAccPaymentDataSource_AbsentFieldsNull(t *testing.T) {
	testAccPreCheck(t)
	a := newTestAccAccount(t)
	pay := testAccCreatePayment(t, a.Client, client.PaymentParams{Amount: 500, Currency: "BRL", Source: sandbox.TokenVisa})
	pay = testAccRefetchPayments(t, a.Client, []*client.Payment{pay})[0]
	config := testAccPaymentConfig(a, map[string]string{"test": pay.ID})
	addr := "data.payments_payment.test"

	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: config,
				ConfigStateChecks: append(testAccExpectPayment("test", pay),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("customer"), knownvalue.Null()),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("description"), knownvalue.Null()),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("metadata"), knownvalue.Null()),
				),
			},
			emptyPlanStep(config),
		},
	})
}

func TestAccPaymentDataSource_EveryStatus(t *testing.T) {
	testAccPreCheck(t)
	a := newTestAccAccount(t)
	pays := testAccPaymentsOfEveryStatus(t, a.Client, client.PaymentParams{Amount: 8000, Currency: "GBP"})
	ids := map[string]string{}
	var checks []statecheck.StateCheck
	for _, p := range pays {
		ids[p.Status] = p.ID
		checks = append(checks, testAccExpectPayment(p.Status, p)...)
		checks = append(checks, statecheck.ExpectKnownValue("data.payments_payment."+p.Status, tfjsonpath.New("status"), knownvalue.StringExact(p.Status)))
		// No authorization code while pending, nor when declined (api/openapi.yaml).
		if p.Status == wire.PaymentStatusPending || p.Status == wire.PaymentStatusDeclined {
			checks = append(checks, statecheck.ExpectKnownValue("data.payments_payment."+p.Status, tfjsonpath.New("authorization_code"), knownvalue.Null()))
		}
	}
	checks = append(checks,
		statecheck.ExpectKnownValue("data.payments_payment.authorized", tfjsonpath.New("captured"), knownvalue.Bool(false)),
		statecheck.ExpectKnownValue("data.payments_payment.refunded", tfjsonpath.New("amount_refunded"), knownvalue.Int64Exact(8000)),
		statecheck.ExpectKnownValue("data.payments_payment.partially_refunded", tfjsonpath.New("amount_refunded"), knownvalue.Int64Exact(2000)),
	)
	config := testAccPaymentConfig(a, ids)

	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: config, ConfigStateChecks: checks},
			emptyPlanStep(config),
		},
	})
}

func TestAccPaymentDataSource_InvalidID(t *testing.T) {
	testAccPreCheck(t)
	a := newTestAccAccount(t)
	testAccRefuseIDs(t, []string{
		"",
		"pay_",
		"pay_123",
		"cus_" + strings.Repeat("a", wire.IDRandomLength),
		"PAY_" + strings.Repeat("a", wire.IDRandomLength),
		"pay_" + strings.Repeat("a", wire.IDRandomLength+1),
		"pay_" + strings.Repeat("a", wire.IDRandomLength-1) + "-",
		"pay_" + strings.Repeat("a", wire.IDRandomLength-4) + "/../",
	}, func(id string) string { return testAccPaymentConfig(a, map[string]string{"test": id}) }, "must be a payment id: "+paymentIDShape)
}

// A data source reads an object that must exist: a missing payment is an
// error that names the id, whether it never existed or is another account's.
func TestAccPaymentDataSource_NotFound(t *testing.T) {
	testAccPreCheck(t)
	a := newTestAccAccount(t)
	other := newTestAccAccount(t)
	theirs := testAccCreatePayment(t, other.Client, client.PaymentParams{Amount: 100, Currency: "USD", Source: sandbox.TokenVisa})
	step := func(id string) resource.TestStep {
		return resource.TestStep{
			Config:      testAccPaymentConfig(a, map[string]string{"test": id}),
			ExpectError: regexp.MustCompile(`(?s)Payment Not Found.*` + regexp.QuoteMeta(id)),
		}
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			step("pay_" + strings.Repeat("0", wire.IDRandomLength)),
			step(theirs.ID),
		},
	})
}

// testUnitClient is a client on a fake server, without retries or waits.
func testUnitClient(t *testing.T, url string) *client.Client {
	t.Helper()
	c, err := client.New(client.Config{BaseURL: url, SecretKey: wire.SecretKeySandboxPrefix + "unittest0", MaxRetries: -1})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// testUnitReadDataSource configures ds with c and runs its Read with the
// given configuration (attributes not given are null).
func testUnitReadDataSource(t *testing.T, ds datasource.DataSource, c *client.Client, config map[string]tftypes.Value) (tfsdk.State, diag.Diagnostics) {
	t.Helper()
	ctx := t.Context()
	var sresp datasource.SchemaResponse
	ds.Schema(ctx, datasource.SchemaRequest{}, &sresp)
	if sresp.Diagnostics.HasError() {
		t.Fatalf("schema: %v", sresp.Diagnostics)
	}
	typ, ok := sresp.Schema.Type().TerraformType(ctx).(tftypes.Object)
	if !ok {
		t.Fatalf("schema type is %T, not an object", sresp.Schema.Type().TerraformType(ctx))
	}
	vals := map[string]tftypes.Value{}
	for name, at := range typ.AttributeTypes {
		vals[name] = tftypes.NewValue(at, nil)
		if v, ok := config[name]; ok {
			vals[name] = v
		}
	}
	if dc, ok := ds.(datasource.DataSourceWithConfigure); ok {
		var cresp datasource.ConfigureResponse
		dc.Configure(ctx, datasource.ConfigureRequest{ProviderData: &providerData{client: c}}, &cresp)
		if cresp.Diagnostics.HasError() {
			t.Fatalf("configure: %v", cresp.Diagnostics)
		}
	}
	resp := datasource.ReadResponse{State: tfsdk.State{Schema: sresp.Schema, Raw: tftypes.NewValue(typ, nil)}}
	ds.Read(ctx, datasource.ReadRequest{Config: tfsdk.Config{Schema: sresp.Schema, Raw: tftypes.NewValue(typ, vals)}}, &resp)
	return resp.State, resp.Diagnostics
}

// TestPaymentDataSource_Read_Minimal reads a payment in the shape the
// service's quick start shows, with only the fields it promises: Read makes
// exactly one request, and every field left out is null.
func TestPaymentDataSource_Read_Minimal(t *testing.T) {
	id := "pay_" + strings.Repeat("Q", wire.IDRandomLength)
	var requests atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
		if r.Method != http.MethodGet || r.URL.Path != "/v1/payments/"+id {
			http.Error(w, `{"error":{"type":"invalid_request_error","message":"unexpected"}}`, http.StatusBadRequest)
			return
		}
		fmt.Fprintf(w, `{"id":%q,"object":"payment","amount":500,"currency":"USD","status":"approved",`+
			`"authorization_code":"123456","created_at":"2025-01-31T10:00:00Z","livemode":false}`, id)
	}))
	defer srv.Close()

	state, diags := testUnitReadDataSource(t, NewPaymentDataSource(), testUnitClient(t, srv.URL),
		map[string]tftypes.Value{"id": tftypes.NewValue(tftypes.String, id)})
	if diags.HasError() {
		t.Fatalf("Read: %v", diags)
	}
	if n := requests.Load(); n != 1 {
		t.Errorf("Read made %d requests, want exactly 1", n)
	}
	var got paymentDataSourceModel
	if diags := state.Get(t.Context(), &got); diags.HasError() {
		t.Fatalf("state: %v", diags)
	}
	want := paymentModel{
		paymentFields: paymentFields{
			ID:                types.StringValue(id),
			Amount:            types.Int64Value(500),
			AmountRefunded:    types.Int64Null(),
			Currency:          types.StringValue("USD"),
			Status:            types.StringValue("approved"),
			Captured:          types.BoolNull(),
			AuthorizationCode: types.StringValue("123456"),
			Customer:          types.StringNull(),
			Description:       types.StringNull(),
			Metadata:          types.MapNull(types.StringType),
			CreatedAt:         timetypes.NewRFC3339ValueMust("2025-01-31T10:00:00Z"),
			Livemode:          types.BoolValue(false),
		},
		Source: nil,
	}
	if !reflect.DeepEqual(got.paymentModel, want) {
		t.Errorf("model:\n got %+v\nwant %+v", got.paymentModel, want)
	}
}

// TestPaymentDataSource_Read_NotFound: a 404 is an error naming the id,
// not an empty result.
func TestPaymentDataSource_Read_NotFound(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.WriteHeader(http.StatusNotFound)
		fmt.Fprint(w, `{"error":{"type":"invalid_request_error","code":"resource_missing","message":"No such payment"}}`)
	}))
	defer srv.Close()
	id := "pay_" + strings.Repeat("N", wire.IDRandomLength)
	_, diags := testUnitReadDataSource(t, NewPaymentDataSource(), testUnitClient(t, srv.URL),
		map[string]tftypes.Value{"id": tftypes.NewValue(tftypes.String, id)})
	if !diags.HasError() || diags[0].Summary() != "Payment Not Found" || !strings.Contains(diags[0].Detail(), id) {
		t.Fatalf("diagnostics = %v, want one Payment Not Found naming %s", diags, id)
	}
}

func TestNewPaymentModel_Full(t *testing.T) {
	p := &client.Payment{
		ID: "pay_1", Amount: 900, AmountRefunded: new(int64(300)), Currency: "EUR", Status: "partially_refunded",
		Captured: new(true), AuthorizationCode: "42", Customer: "cus_1", Description: "d",
		Metadata:  map[string]string{"k": "v"},
		Source:    &client.PaymentSource{ID: "src_1", Brand: "visa", Last4: "4242", ExpMonth: 12, ExpYear: 2030},
		CreatedAt: "2025-01-31T10:00:00Z", Livemode: true,
	}
	m, diags := newPaymentModel(p)
	if diags.HasError() {
		t.Fatal(diags)
	}
	md, _ := types.MapValueFrom(t.Context(), types.StringType, map[string]string{"k": "v"})
	want := paymentModel{
		paymentFields: paymentFields{
			ID:                types.StringValue("pay_1"),
			Amount:            types.Int64Value(900),
			AmountRefunded:    types.Int64Value(300),
			Currency:          types.StringValue("EUR"),
			Status:            types.StringValue("partially_refunded"),
			Captured:          types.BoolValue(true),
			AuthorizationCode: types.StringValue("42"),
			Customer:          types.StringValue("cus_1"),
			Description:       types.StringValue("d"),
			Metadata:          md,
			CreatedAt:         timetypes.NewRFC3339ValueMust("2025-01-31T10:00:00Z"),
			Livemode:          types.BoolValue(true),
		},
		Source: &paymentSourceModel{
			ID: types.StringValue("src_1"), Brand: types.StringValue("visa"), Last4: types.StringValue("4242"),
			ExpMonth: types.Int64Value(12), ExpYear: types.Int64Value(2030),
		},
	}
	if !reflect.DeepEqual(m, want) {
		t.Errorf("model:\n got %+v\nwant %+v", m, want)
	}
}
