package provider

import (
	"fmt"
	"net/http/httptest"
	"os"
	"os/exec"
	"sync"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"

	"github.com/paymentsdev/terraform-provider-payments/internal/client"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/sandboxtest"
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
	os.Setenv("CHECKPOINT_DISABLE", "1")
	code := m.Run()
	if testSandbox.http != nil {
		testSandbox.http.Close()
		_ = testSandbox.server.Close()
	}
	os.Exit(code)
}

// testSandbox is one in-process sandbox for the whole test binary; each
// test gets its own account on it (sandboxtest.NewKey), so tests are
// isolated and may run in parallel. sandboxtest.Start is not used because
// it closes the server when the first test that started it ends.
var testSandbox struct {
	once   sync.Once
	url    string
	server *sandbox.Server
	http   *httptest.Server
	err    error
}

func sharedSandboxURL(t *testing.T) string {
	t.Helper()
	testSandbox.once.Do(func() {
		srv, err := sandbox.New(sandbox.Options{})
		if err != nil {
			testSandbox.err = err
			return
		}
		hs := httptest.NewUnstartedServer(srv)
		hs.Config.ConnState = srv.ConnState
		hs.Start()
		testSandbox.url, testSandbox.server, testSandbox.http = hs.URL, srv, hs
	})
	if testSandbox.err != nil {
		t.Fatalf("starting the shared sandbox: %v", testSandbox.err)
	}
	return testSandbox.url
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
