package provider

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/paymentsdev/terraform-provider-payments/internal/client"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// deadAddress returns a loopback address where nothing listens.
func deadAddress(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return addr
}

// testAccManyCustomersConfig is a provider block for baseURL and n customers.
func testAccManyCustomersConfig(baseURL, key string, n int) string {
	return fmt.Sprintf(`
provider "payments" {
  base_url   = %q
  secret_key = %q
}

resource "payments_customer" "many" {
  count = %d
  name  = "Customer ${count.index}"
}
`, baseURL, key, n)
}

// TestAccProvider_Unreachable: a plan of 20 customers against an address
// where nothing listens fails within seconds, not minutes of retries, with
// an error that names the address and what to check. The attempts are
// counted in the client's own test (TestUnreachable_FailFast).
func TestAccProvider_Unreachable(t *testing.T) {
	a := newTestAccAccount(t)
	dead := "http://" + deadAddress(t)
	var started time.Time
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: testAccManyCustomersConfig(a.URL, a.Key, 20),
			},
			{
				// The refresh of the plan reads all 20 from a dead address.
				PreConfig: func() { started = time.Now() },
				Config:    testAccManyCustomersConfig(dead, a.Key, 20),
				ExpectError: expectErrorRe("Error Reading Customer", "cannot connect to the payments API at "+dead,
					"connection refused", "Check that the payments service is running", "base_url"),
			},
			{
				PreConfig: func() {
					// A guard against minutes of retries, not a benchmark:
					// the bound is 15 s; it takes about 3 under load.
					if d := time.Since(started); d > 15*time.Second {
						t.Errorf("the plan against a dead address took %v, want under 15s", d)
					}
				},
				// Back to the service, so that destroy works.
				Config: testAccManyCustomersConfig(a.URL, a.Key, 20),
			},
		},
	})
}

// TestAccPaymentDataSource_HungServer: a service that accepts connections
// and never answers: with request_timeout = "2s" and max_retries = 2, the
// data source fails after three attempts, in seconds rather than its
// five-minute read timeout, saying that the data source timed out.
func TestAccPaymentDataSource_HungServer(t *testing.T) {
	var attempts atomic.Int32
	done := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) {
		attempts.Add(1)
		select {
		case <-r.Context().Done():
		case <-done:
		}
	}))
	t.Cleanup(srv.Close)
	t.Cleanup(func() { close(done) }) // runs first: frees the handlers Close waits for
	var started time.Time
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				PreConfig: func() { started = time.Now() },
				Config: fmt.Sprintf(`
provider "payments" {
  base_url        = %q
  secret_key      = "sk_sandbox_hunghunghung"
  request_timeout = "2s"
  max_retries     = 2
}

data "payments_payment" "test" {
  id = "pay_AAAAAAAAAAAAAAAAAAAAAAAA"
}
`, srv.URL),
				ExpectError: expectErrorRe("Error Reading Payment", "failed after 3 attempt(s)", "timed out",
					"The data source timed out", `request_timeout = "2s"`, "data source's timeouts block"),
			},
			{
				PreConfig: func() {
					if n := attempts.Load(); n != 3 {
						t.Errorf("%d attempts reached the server, want 3 (max_retries = 2)", n)
					}
					if d := time.Since(started); d > 20*time.Second {
						t.Errorf("the read took %v, want under 20s", d)
					}
				},
				Config: `
provider "payments" {
  base_url   = "http://127.0.0.1:1"
  secret_key = "sk_sandbox_hunghunghung"
}
`,
			},
		},
	})
}

// TestAccProvider_RequestLimitsValidation: bad values of the two arguments
// are refused at plan time, naming the attribute and the fix.
func TestAccProvider_RequestLimitsValidation(t *testing.T) {
	a := newTestAccAccount(t)
	config := func(setting string) string {
		return fmt.Sprintf(`
provider "payments" {
  base_url   = %q
  secret_key = %q
  %s
}
`, a.URL, a.Key, setting) + testAccCustomerOnlyConfig
	}
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config:      config("max_requests_per_second = 0"),
				PlanOnly:    true,
				ExpectError: expectErrorRe("Invalid Number", "max_requests_per_second must be a positive number"),
			},
			{
				Config:      config("max_requests_per_second = -2.5"),
				PlanOnly:    true,
				ExpectError: expectErrorRe("Invalid Number", "max_requests_per_second must be a positive number", "got -2.5"),
			},
			{
				Config:      config(`request_timeout = "soon"`),
				PlanOnly:    true,
				ExpectError: expectErrorRe("Invalid Duration", `request_timeout: "soon" is not a Go duration`),
			},
			{
				Config:      config(`request_timeout = "0s"`),
				PlanOnly:    true,
				ExpectError: expectErrorRe("Invalid Duration", "request_timeout must be positive"),
			},
		},
	})
}

// TestAccProvider_RequestLimitsEnvironment: the environment variables are
// read when the arguments are unset, and a bad value is an error that
// names the variable. Not parallel: it sets the process environment.
func TestAccProvider_RequestLimitsEnvironment(t *testing.T) {
	a := newTestAccAccount(t)
	config := a.ProviderConfig() + testAccCustomerOnlyConfig
	for _, tc := range []struct {
		env, value, want string
	}{
		{EnvMaxRequestsPerSecond, "fast", "PAYMENTS_MAX_REQUESTS_PER_SECOND environment variable is \"fast\", which is not a positive number"},
		{EnvMaxRequestsPerSecond, "0", "not a positive number"},
		{EnvRequestTimeout, "10", "PAYMENTS_REQUEST_TIMEOUT environment variable is \"10\", which is not a positive Go duration"},
	} {
		t.Run(tc.env+"="+tc.value, func(t *testing.T) {
			t.Setenv(tc.env, tc.value)
			resource.Test(t, resource.TestCase{
				PreCheck:                 func() { testAccPreCheck(t) },
				ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
				Steps: []resource.TestStep{{
					Config:      config,
					ExpectError: expectErrorRe(tc.want),
				}},
			})
		})
	}
	t.Run("valid", func(t *testing.T) {
		t.Setenv(EnvMaxRequestsPerSecond, "50")
		t.Setenv(EnvRequestTimeout, "30s")
		resource.Test(t, resource.TestCase{
			PreCheck:                 func() { testAccPreCheck(t) },
			ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
			Steps:                    []resource.TestStep{{Config: config}},
		})
	})
}

// TestAccProvider_MaxRequestsPerSecond: with max_requests_per_second at
// the account's limit, an apply of 15 customers with ten in parallel is
// (almost) never refused, and makes each customer once.
func TestAccProvider_MaxRequestsPerSecond(t *testing.T) {
	a := newTestAccAccount(t)
	const n, limit = 15, 10
	rawSandbox(t, a, http.MethodPost, "/_sandbox/faults", url.Values{"rate_limit": {fmt.Sprint(limit)}})
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: strings.Replace(testAccManyCustomersConfig(a.URL, a.Key, n),
				"secret_key = ", fmt.Sprintf("max_requests_per_second = %d\n  secret_key = ", limit), 1),
			Check: func(*terraform.State) error {
				var stats struct {
					Customers int `json:"customers"`
					Requests  struct {
						Total int `json:"total"`
					} `json:"requests"`
					Faults struct {
						RateLimited int `json:"rate_limited"`
					} `json:"faults"`
				}
				if err := json.Unmarshal(rawSandbox(t, a, http.MethodGet, "/_sandbox/stats", nil), &stats); err != nil {
					return err
				}
				if stats.Customers != n || stats.Faults.RateLimited > 1 {
					return fmt.Errorf("%d customers (want %d), %d of %d requests refused (want at most 1)",
						stats.Customers, n, stats.Faults.RateLimited, stats.Requests.Total)
				}
				return nil
			},
		}},
	})
}

// rawSandbox sends one sandbox-control request outside the client and
// returns the body of its 200 answer.
func rawSandbox(t *testing.T, a *testAccAccount, method, path string, form url.Values) []byte {
	t.Helper()
	req, err := http.NewRequest(method, a.URL+path, strings.NewReader(form.Encode()))
	if err != nil {
		t.Fatal(err)
	}
	req.SetBasicAuth(a.Key, "")
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("%s %s: reading the answer: %v", method, path, err)
	}
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("%s %s: HTTP %d: %s", method, path, resp.StatusCode, raw)
	}
	return raw
}

// TestErrorDiagnostic_Names: the hints about timeouts name what failed, a
// data source or a resource, and its own timeouts block.
func TestErrorDiagnostic_Names(t *testing.T) {
	t.Parallel()
	attempt := fmt.Errorf("GET /v1/payments/pay_x failed after 3 attempt(s): %w", &client.AttemptTimeoutError{Timeout: 2 * time.Second})
	deadline := fmt.Errorf("GET /v1/payments/pay_x: %w", context.DeadlineExceeded)
	unreachable := fmt.Errorf("GET /v1/customers/cus_x: %w", &client.UnreachableError{BaseURL: "http://127.0.0.1:9", Err: errors.New("dial tcp 127.0.0.1:9: connect: connection refused")})
	for _, tc := range []struct {
		name string
		diag diag.Diagnostic
		want []string
		not  string
	}{
		{"data source attempt", dataSourceErrorDiagnostic("Error Reading Payment", "payment pay_x", attempt),
			[]string{"The data source timed out", `request_timeout = "2s"`, "the data source's timeouts block"}, "resource"},
		{"resource attempt", apiErrorDiagnostic("Error Reading Customer", "customer cus_x", attempt),
			[]string{"The resource timed out", "the resource's timeouts block"}, "data source"},
		{"data source deadline", dataSourceErrorDiagnostic("Error Reading Payment", "payment pay_x", deadline),
			[]string{"The data source timed out", "did not finish within its timeout", "data source's timeouts block"}, "resource"},
		{"resource deadline", apiErrorDiagnostic("Error Reading Customer", "customer cus_x", deadline),
			[]string{"The resource timed out", "resource's timeouts block"}, "data source"},
		{"sandbox full", apiErrorDiagnostic("Error Creating Customer", "customer", &client.Error{HTTPStatus: 403,
			Type: wire.ErrorTypeInvalidRequest, Code: wire.ErrorCodeAccountLimitExceeded, Message: "This account keeps 64 MiB (-max-account-bytes 64 MiB)"}),
			[]string{"-max-account-bytes", "/_sandbox/reset", "retrying alone does not help"}, "The key is not allowed"},
		{"key reused", apiErrorDiagnostic("Error Creating Customer", "customer", &client.Error{HTTPStatus: 400,
			Type: wire.ErrorTypeIdempotency, Code: wire.ErrorCodeIdempotencyKeyReused, Message: "This Idempotency-Key was already used"}),
			[]string{"HTTP 400", "changed nothing", "did not retry it", "run the operation again"}, ""},
		{"unreachable", apiErrorDiagnostic("Error Reading Customer", "customer cus_x", unreachable),
			[]string{"cannot connect to the payments API at http://127.0.0.1:9", "Nothing answered at http://127.0.0.1:9",
				"is running", "base_url", EnvBaseURL}, ""},
	} {
		detail := tc.diag.Detail()
		for _, w := range tc.want {
			if !strings.Contains(detail, w) {
				t.Errorf("%s: detail does not say %q:\n%s", tc.name, w, detail)
			}
		}
		if tc.not != "" && strings.Contains(detail, tc.not) {
			t.Errorf("%s: detail says %q:\n%s", tc.name, tc.not, detail)
		}
	}
}
