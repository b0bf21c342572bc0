package provider

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"testing"
	"unicode"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandboxclient"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	fwresource "github.com/hashicorp/terraform-plugin-framework/resource"
	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-log/tflogtest"
	"github.com/hashicorp/terraform-plugin-testing/compare"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/paymentsdev/terraform-provider-payments/internal/client"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/sandboxtest"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// testAccProtoV6ProviderFactories serve the provider in-process to the
// Terraform CLI that the acceptance tests run.
var testAccProtoV6ProviderFactories = map[string]func() (tfprotov6.ProviderServer, error){
	"payments": providerserver.NewProtocol6WithError(New("test")()),
}

// TestMain clears the provider's environment variables, so that settings
// of the developer's shell can never leak into a test (every test configures
// the provider in HCL, with its own account), and closes the shared sandbox.
func TestMain(m *testing.M) {
	os.Unsetenv(EnvSecretKey)
	os.Unsetenv(EnvBaseURL)
	os.Unsetenv(EnvMaxRequestsPerSecond)
	os.Unsetenv(EnvRequestTimeout)
	os.Setenv("CHECKPOINT_DISABLE", "1")
	code := m.Run()
	removeSharedProviderBinary()
	_ = sandboxtest.CloseShared()
	os.Exit(code)
}

// sharedSandboxURL is the address of one in-process sandbox for the whole
// test binary; each test gets its own account on it (sandboxtest.NewKey),
// so tests are isolated and may run in parallel.
func sharedSandboxURL(t *testing.T) string {
	t.Helper()
	return sandboxtest.Shared(t).URL
}

// testAccPreCheck fails loudly when acceptance tests are asked for
// (TF_ACC set) but cannot run here, instead of letting the testing
// framework try to download Terraform.
func testAccPreCheck(t *testing.T) {
	t.Helper()
	if os.Getenv("TF_ACC") == "" {
		return
	}
	if p := os.Getenv("TF_ACC_TERRAFORM_PATH"); p != "" {
		if _, err := os.Stat(p); err != nil {
			t.Fatalf("TF_ACC_TERRAFORM_PATH=%s: %v", p, err)
		}
		return
	}
	if _, err := exec.LookPath("terraform"); err != nil {
		t.Fatalf("acceptance tests need the Terraform CLI on PATH (expected /usr/local/bin/terraform): %v", err)
	}
}

// testAccAccount is one fresh sandbox account: its key, the sandbox's URL,
// and a client on that account for checks and for changes made behind
// Terraform's back.
type testAccAccount struct {
	Key, URL string
	Client   *client.Client
}

// newTestAccAccount returns a fresh account on the shared sandbox.
func newTestAccAccount(t *testing.T) *testAccAccount {
	t.Helper()
	url := sharedSandboxURL(t)
	key := sandboxtest.NewKey(t)
	c, err := client.New(client.Config{BaseURL: url, SecretKey: key, UserAgent: "terraform-provider-payments-tests"})
	if err != nil {
		t.Fatalf("creating the test client: %v", err)
	}
	return &testAccAccount{Key: key, URL: url, Client: c}
}

// ProviderConfig is the provider block for this account.
func (a *testAccAccount) ProviderConfig() string {
	return fmt.Sprintf(`
provider "payments" {
  base_url   = %q
  secret_key = %q
}
`, a.URL, a.Key)
}

// testAccCustomerOnlyConfig is a configuration that makes Terraform
// configure the provider, for provider-level tests.
const testAccCustomerOnlyConfig = `
resource "payments_customer" "test" {
  name = "Provider Test"
}
`

func TestProvider_SchemaIsValid(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	var resp provider.SchemaResponse
	New("test")().Schema(ctx, provider.SchemaRequest{}, &resp)
	if resp.Diagnostics.HasError() {
		t.Fatalf("schema: %v", resp.Diagnostics)
	}
	if diags := resp.Schema.ValidateImplementation(ctx); diags.HasError() {
		t.Fatalf("schema implementation: %v", diags)
	}
}

func TestProvider_UserAgent(t *testing.T) {
	t.Parallel()
	p := &paymentsProvider{version: "1.2.3"}
	want := "terraform-provider-payments/1.2.3 (+https://registry.terraform.io/providers/paymentsdev/payments) Terraform/1.11.4"
	if got := p.userAgent("1.11.4"); got != want {
		t.Errorf("userAgent = %q, want %q", got, want)
	}
}

func TestProvider_CheckSecretKeyNeverEchoesKey(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		key       string
		allowLive bool
		want      string // "" when the key is usable
	}{
		{key: wire.SecretKeySandboxPrefix + "abcdefgh12", want: ""},
		{key: wire.SecretKeyLivePrefix + "abcdefgh12", allowLive: true, want: ""},
		{key: wire.SecretKeyLivePrefix + "abcdefgh12", want: "allow_livemode = true"},
		{key: wire.PublicKeySandboxPrefix + "abcdefgh12", want: "needs a secret key"},
		{key: wire.PublicKeyLivePrefix + "abcdefgh12", allowLive: true, want: "needs a secret key"},
		{key: "sk_test_abcdefgh12", want: wire.SecretKeySandboxPrefix},
		{key: wire.SecretKeySandboxPrefix + "short", want: "at least 8"},
		{key: wire.SecretKeySandboxPrefix + "abcdefgh-12", want: wire.SecretKeyLivePrefix},
	} {
		summary, detail := checkSecretKey(tc.key, tc.allowLive)
		if tc.want == "" {
			if summary != "" {
				t.Errorf("checkSecretKey(%d chars, %v) = %q, want usable", len(tc.key), tc.allowLive, summary)
			}
			continue
		}
		if !strings.Contains(detail, tc.want) {
			t.Errorf("checkSecretKey detail %q does not contain %q", detail, tc.want)
		}
		if strings.Contains(summary+detail, tc.key) {
			t.Errorf("checkSecretKey echoes the key: %s %s", summary, detail)
		}
	}
}

// TestProvider_APILoggerMasksKey proves the client's log hook never writes
// the key, even when a message or field carries it.
func TestProvider_APILoggerMasksKey(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	ctx := tflogtest.RootLogger(context.Background(), &buf)
	key := wire.SecretKeySandboxPrefix + "SuperSecret123"
	other := wire.SecretKeyLivePrefix + "OtherKey456"
	apiLogger(key)(ctx, "request with "+key, map[string]any{"auth": key, "other": "x " + other, "path": "/v1/customers"})
	out := buf.String()
	if !strings.Contains(out, "/v1/customers") {
		t.Fatalf("the entry was not logged: %s", out)
	}
	if strings.Contains(out, key) || strings.Contains(out, other) {
		t.Fatalf("a key reached the log: %s", out)
	}
	if !strings.Contains(out, logSubsystem) {
		t.Errorf("the entry is not in the %s subsystem: %s", logSubsystem, out)
	}
}

func TestAccProvider_InvalidKeys(t *testing.T) {
	acct := newTestAccAccount(t)
	cfg := func(key, extra string) string {
		return fmt.Sprintf(`
provider "payments" {
  base_url   = %q
  secret_key = %q
  %s
}
`, acct.URL, key, extra) + testAccCustomerOnlyConfig
	}
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config:      cfg(wire.PublicKeySandboxPrefix+"abcdefgh1234", ""),
				PlanOnly:    true,
				ExpectError: expectErrorRe("Secret Key Required", "needs a secret key"),
			},
			{
				Config:      cfg("sk_test_abcdefgh1234", ""),
				PlanOnly:    true,
				ExpectError: expectErrorRe("Malformed Payments Secret Key", "sk_sandbox_", "sk_live_"),
			},
			{
				Config:      cfg(wire.SecretKeyLivePrefix+"abcdefgh1234", ""),
				PlanOnly:    true,
				ExpectError: expectErrorRe("Live Key Not Allowed", "allow_livemode = true"),
			},
			{
				Config:      cfg(wire.SecretKeyLivePrefix+"abcdefgh1234", "allow_livemode = false"),
				PlanOnly:    true,
				ExpectError: expectErrorRe("Live Key Not Allowed", "allow_livemode = true"),
			},
			{
				Config:      cfg(acct.Key, "max_retries = -1"),
				PlanOnly:    true,
				ExpectError: expectErrorRe("max_retries", "at least 0"),
			},
			{
				Config: fmt.Sprintf(`
provider "payments" {
  base_url   = "ftp://example.com"
  secret_key = %q
}
`, acct.Key) + testAccCustomerOnlyConfig,
				PlanOnly:    true,
				ExpectError: expectErrorRe("Invalid Payments Base URL", "not http or https"),
			},
		},
	})
}

// TestAccProvider_LiveKeyAllowed shows that allow_livemode = true lets a
// live key through configuration; the sandbox then refuses it, and the
// error says why.
func TestAccProvider_LiveKeyAllowed(t *testing.T) {
	acct := newTestAccAccount(t)
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: fmt.Sprintf(`
provider "payments" {
  base_url       = %q
  secret_key     = %q
  allow_livemode = true
}
`, acct.URL, wire.SecretKeyLivePrefix+"abcdefgh1234") + testAccCustomerOnlyConfig,
			ExpectError: expectErrorRe("Error Creating Customer", "HTTP 403", "livemode_mismatch", "different modes"),
		}},
	})
}

// TestAccProvider_LiveKeyOverPlainHTTP: a live key with an http base_url
// that is not loopback is refused at plan time, naming base_url and the
// fix, before anything is sent.
func TestAccProvider_LiveKeyOverPlainHTTP(t *testing.T) {
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: fmt.Sprintf(`
provider "payments" {
  base_url       = "http://api.example.com"
  secret_key     = %q
  allow_livemode = true
}
`, wire.SecretKeyLivePrefix+"abcdefgh1234") + testAccCustomerOnlyConfig,
			PlanOnly: true,
			ExpectError: expectErrorRe("Invalid Payments Base URL", "base_url", "plain http", "live key",
				"Use an https base URL, or a loopback host"),
		}},
	})
}

func TestAccProvider_MissingSettings(t *testing.T) {
	acct := newTestAccAccount(t)
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: fmt.Sprintf(`
provider "payments" {
  base_url = %q
}
`, acct.URL) + testAccCustomerOnlyConfig,
				PlanOnly:    true,
				ExpectError: expectErrorRe("Missing Payments Secret Key", "secret_key", "PAYMENTS_SECRET_KEY"),
			},
			{
				Config: fmt.Sprintf(`
provider "payments" {
  secret_key = %q
}
`, acct.Key) + testAccCustomerOnlyConfig,
				PlanOnly:    true,
				ExpectError: expectErrorRe("Missing Payments Base URL", "base_url", "PAYMENTS_BASE_URL"),
			},
			{
				Config: fmt.Sprintf(`
provider "payments" {
  base_url   = %q
  secret_key = ""
}
`, acct.URL) + testAccCustomerOnlyConfig,
				PlanOnly:    true,
				ExpectError: expectErrorRe("Missing Payments Secret Key", "secret_key", "PAYMENTS_SECRET_KEY", "not empty"),
			},
		},
	})
}

// TestAccProvider_UnknownSettings configures the provider from values only
// known after apply, which Configure must refuse naming the variable.
func TestAccProvider_UnknownSettings(t *testing.T) {
	acct := newTestAccAccount(t)
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: fmt.Sprintf(`
resource "terraform_data" "key" {
  input = %q
}

provider "payments" {
  base_url   = %q
  secret_key = terraform_data.key.output
}
`, acct.Key, acct.URL) + testAccCustomerOnlyConfig,
				PlanOnly:    true,
				ExpectError: expectErrorRe("Unknown Payments Secret Key", "PAYMENTS_SECRET_KEY"),
			},
			{
				Config: fmt.Sprintf(`
resource "terraform_data" "url" {
  input = %q
}

provider "payments" {
  base_url   = terraform_data.url.output
  secret_key = %q
}
`, acct.URL, acct.Key) + testAccCustomerOnlyConfig,
				PlanOnly:    true,
				ExpectError: expectErrorRe("Unknown Payments Base URL", "PAYMENTS_BASE_URL"),
			},
		},
	})
}

// TestAccProvider_Environment configures the provider from the environment
// alone. It does not run in parallel, because it sets process-wide
// environment variables (parallel tests are paused while it runs).
func TestAccProvider_Environment(t *testing.T) {
	acct := newTestAccAccount(t)
	t.Setenv(EnvBaseURL, acct.URL)
	t.Setenv(EnvSecretKey, wire.PublicKeySandboxPrefix+"abcdefgh1234")
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config:      testAccCustomerOnlyConfig,
				PlanOnly:    true,
				ExpectError: expectErrorRe("Secret Key Required", "PAYMENTS_SECRET_KEY"),
			},
			{
				PreConfig: func() { t.Setenv(EnvSecretKey, acct.Key) },
				Config:    testAccCustomerOnlyConfig,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("payments_customer.test", tfjsonpath.New("name"), knownvalue.StringExact("Provider Test")),
					statecheck.ExpectKnownValue("payments_customer.test", tfjsonpath.New("livemode"), knownvalue.Bool(false)),
				},
			},
		},
	})
}

// expectErrorRe matches an error holding each phrase in order. Terraform
// wraps long lines, so any run of spaces in a phrase matches any white space.
func expectErrorRe(phrases ...string) *regexp.Regexp {
	parts := make([]string, len(phrases))
	for i, p := range phrases {
		parts[i] = strings.Join(strings.Fields(regexp.QuoteMeta(p)), `\s+`)
	}
	return regexp.MustCompile(`(?s)` + strings.Join(parts, ".*"))
}

// TestAccProvider_LivemodeMismatch points a sandbox key at a fake service
// that answers with live objects: the provider refuses the answer and says
// why. The fake also records the User-Agent the provider sends.
func TestAccProvider_LivemodeMismatch(t *testing.T) {
	var mu sync.Mutex
	var userAgents []string
	fake := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		userAgents = append(userAgents, r.UserAgent())
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set(wire.HeaderRequestID, "req_fake")
		fmt.Fprintf(w, `{"id": "cus_%s", "object": "customer", "name": "Provider Test", "metadata": {}, "sources": {"object": "list", "data": []}, "created_at": "2026-01-02T03:04:05Z", "livemode": true}`,
			strings.Repeat("L", wire.IDRandomLength))
	}))
	t.Cleanup(fake.Close)
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: fmt.Sprintf(`
provider "payments" {
  base_url   = %q
  secret_key = %q
}
`, fake.URL, sandboxtest.NewKey(t)) + testAccCustomerOnlyConfig,
			ExpectError: expectErrorRe("Error Creating Customer", "refusing the answer", "livemode disagrees with the key", "Check base_url"),
		}},
	})
	mu.Lock()
	defer mu.Unlock()
	uaRe := regexp.MustCompile(`^terraform-provider-payments/test \(\+https://registry\.terraform\.io/providers/paymentsdev/payments\) Terraform/\d+\.\d+\.\d+`)
	if len(userAgents) == 0 {
		t.Fatal("the provider sent no request")
	}
	for _, ua := range userAgents {
		if !uaRe.MatchString(ua) {
			t.Errorf("User-Agent %q does not match %s", ua, uaRe)
		}
	}
}

// testAccWrongBaseURL applies a customer and a card with the right
// base_url, then plans and applies with a wrong one, which must fail with
// expectError and leave state and service untouched: with the right
// base_url again the plan is empty, the ids the same, and the service holds
// exactly the one customer and card, created once.
func testAccWrongBaseURL(t *testing.T, wrongURL string, expectError *regexp.Regexp) {
	acct := newTestAccAccount(t)
	resources := `
resource "payments_customer" "test" {
  name = "Wrong Base URL"
}

resource "payments_customer_source" "test" {
  customer = payments_customer.test.id
  token    = "tok_visa"
  default  = true
}
`
	wrong := fmt.Sprintf(`
provider "payments" {
  base_url   = %q
  secret_key = %q
}
`, wrongURL, acct.Key) + resources
	sameCustomer := statecheck.CompareValue(compare.ValuesSame())
	sameSource := statecheck.CompareValue(compare.ValuesSame())
	checkService := func() {
		st, err := sandboxclient.New(acct.Client).Stats(context.Background())
		if err != nil {
			t.Fatalf("reading stats: %v", err)
		}
		if st.Customers != 1 || st.Sources != 1 {
			t.Errorf("the service holds %d customers and %d sources, want 1 and 1", st.Customers, st.Sources)
		}
		for route, want := range map[string]int64{"POST /v1/customers": 1, "POST /v1/customers/:id/sources": 1, "DELETE /v1/customers/:id": 0} {
			if got := st.Requests.ByRoute[route]; got != want {
				t.Errorf("%s was requested %d times, want %d", route, got, want)
			}
		}
	}
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             acct.testAccCheckCustomersDestroyed,
		Steps: []resource.TestStep{
			{
				Config: acct.ProviderConfig() + resources,
				ConfigStateChecks: []statecheck.StateCheck{
					sameCustomer.AddStateValue(testAccCustomerAddr, tfjsonpath.New("id")),
					sameSource.AddStateValue("payments_customer_source.test", tfjsonpath.New("id")),
				},
			},
			{Config: wrong, PlanOnly: true, ExpectError: expectError},
			{Config: wrong, ExpectError: expectError},
			{
				PreConfig: checkService,
				Config:    acct.ProviderConfig() + resources,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					sameCustomer.AddStateValue(testAccCustomerAddr, tfjsonpath.New("id")),
					sameSource.AddStateValue("payments_customer_source.test", tfjsonpath.New("id")),
				},
				Check: func(*terraform.State) error { checkService(); return nil },
			},
		},
	})
}

// TestAccProvider_BaseURLWithV1LeavesStateAlone: a base_url ending in /v1 is
// refused at plan time with the fix; nothing is read as deleted.
func TestAccProvider_BaseURLWithV1LeavesStateAlone(t *testing.T) {
	testAccWrongBaseURL(t, sharedSandboxURL(t)+"/v1/",
		phrasesRegexp("Invalid Payments Base URL", "base_url", "ends in /v1", "Remove /v1: the provider adds it"))
}

// TestAccProvider_BaseURLOfHTMLServerLeavesStateAlone: a base_url pointing
// at a web server that answers every request with an HTML 404 page fails
// with an error naming the 404 and base_url; the objects are not read as
// deleted, so neither dropped from state nor created again.
func TestAccProvider_BaseURLOfHTMLServerLeavesStateAlone(t *testing.T) {
	html := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.WriteHeader(http.StatusNotFound)
		fmt.Fprint(w, "<!DOCTYPE html><html><head><title>404 Not Found</title></head><body><h1>Not Found</h1></body></html>")
	}))
	t.Cleanup(html.Close)
	testAccWrongBaseURL(t, html.URL, regexp.MustCompile(`(?s)HTTP 404.*base_url`))
}

// TestResourceSchemas_Descriptions: the provider, every resource, attribute
// and block has a full-sentence description, which the docs are built from.
func TestResourceSchemas_Descriptions(t *testing.T) {
	t.Parallel()
	isSentence := func(what, s string) {
		t.Helper()
		if s == "" || !unicode.IsUpper([]rune(s)[0]) || !strings.HasSuffix(s, ".") {
			t.Errorf("%s: description %q is not a full sentence", what, s)
		}
	}
	var presp provider.SchemaResponse
	New("test")().Schema(t.Context(), provider.SchemaRequest{}, &presp)
	isSentence("provider", presp.Schema.MarkdownDescription)
	for name, a := range presp.Schema.Attributes {
		isSentence("provider."+name, a.GetMarkdownDescription())
	}

	for _, newResource := range []func() fwresource.Resource{NewCustomerResource, NewCustomerSourceResource} {
		r := newResource()
		var mresp fwresource.MetadataResponse
		r.Metadata(t.Context(), fwresource.MetadataRequest{ProviderTypeName: "payments"}, &mresp)
		var resp fwresource.SchemaResponse
		r.Schema(t.Context(), fwresource.SchemaRequest{}, &resp)
		if diags := resp.Schema.ValidateImplementation(t.Context()); diags.HasError() {
			t.Errorf("%s: %v", mresp.TypeName, diags)
		}
		isSentence(mresp.TypeName, resp.Schema.MarkdownDescription)
		var walk func(prefix string, attrs map[string]rschema.Attribute)
		walk = func(prefix string, attrs map[string]rschema.Attribute) {
			for name, a := range attrs {
				isSentence(prefix+name, cmp.Or(a.GetMarkdownDescription(), a.GetDescription()))
				if n, ok := a.(rschema.ListNestedAttribute); ok {
					walk(prefix+name+".", n.NestedObject.Attributes)
				}
			}
		}
		walk(mresp.TypeName+".", resp.Schema.Attributes)
		for name, b := range resp.Schema.Blocks {
			isSentence(mresp.TypeName+"."+name, b.GetMarkdownDescription())
			if nb, ok := b.(rschema.SingleNestedBlock); ok {
				walk(mresp.TypeName+"."+name+".", nb.Attributes)
			}
		}
	}
}

// TestDataSourceSchemas_Descriptions: every data source, attribute and
// block has a full-sentence description, which the docs are built from.
func TestDataSourceSchemas_Descriptions(t *testing.T) {
	for _, newDS := range []func() datasource.DataSource{NewCustomerDataSource, NewPaymentDataSource, NewPaymentsDataSource} {
		var resp datasource.SchemaResponse
		newDS().Schema(t.Context(), datasource.SchemaRequest{}, &resp)
		checkSentence(t, "schema", resp.Schema.MarkdownDescription)
		var walk func(prefix string, attrs map[string]schema.Attribute)
		walk = func(prefix string, attrs map[string]schema.Attribute) {
			for name, a := range attrs {
				checkSentence(t, prefix+name, cmp.Or(a.GetMarkdownDescription(), a.GetDescription()))
				switch n := a.(type) {
				case schema.SingleNestedAttribute:
					walk(prefix+name+".", n.Attributes)
				case schema.ListNestedAttribute:
					walk(prefix+name+".", n.NestedObject.Attributes)
				}
			}
		}
		walk("", resp.Schema.Attributes)
		for name, b := range resp.Schema.Blocks {
			checkSentence(t, name, b.GetMarkdownDescription())
			if nb, ok := b.(schema.SingleNestedBlock); ok {
				walk(name+".", nb.Attributes)
			}
		}
	}
}

// testAccCheckGone is the CheckDestroy of a resource that is deleted at the
// service: every resource of type typ in the state must be gone, get
// answering not found for its id.
func testAccCheckGone(s *terraform.State, typ, what string, get func(id string) error) error {
	for _, rs := range s.RootModule().Resources {
		if rs.Type != typ {
			continue
		}
		err := get(rs.Primary.ID)
		if err == nil {
			return fmt.Errorf("%s %s still exists", what, rs.Primary.ID)
		}
		if !client.IsNotFound(err) {
			return fmt.Errorf("checking %s %s: %w", what, rs.Primary.ID, err)
		}
	}
	return nil
}

// testAccRefuseIDs checks that the configuration config(id) of a data
// source is refused at plan time, with an error saying want, for each id.
func testAccRefuseIDs(t *testing.T, ids []string, config func(id string) string, want string) {
	t.Helper()
	steps := make([]resource.TestStep, 0, len(ids))
	for _, id := range ids {
		steps = append(steps, resource.TestStep{Config: config(id), ExpectError: testAccErrorRegexp(want)})
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps:                    steps,
	})
}
