package provider

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/paymentsdev/terraform-provider-payments/internal/client"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// TestAccModules_TerraformTest runs the tests of every example module
// (examples/modules/*/tests) with `terraform test` or `tofu test` on the
// acceptance tests' CLI, as the guide "Testing modules that use this
// provider" tells users to: the integration file against a fresh account
// of the in-process sandbox, and the mock_provider file again with no
// service at all, to prove it needs none.
func TestAccModules_TerraformTest(t *testing.T) {
	skipUnlessAcc(t)
	t.Parallel()
	providerDir := sharedProviderBinary(t)
	root := filepath.Join("..", "..", "examples", "modules")
	dirs, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range dirs {
		if !d.IsDir() {
			continue
		}
		t.Run(d.Name(), func(t *testing.T) {
			t.Parallel()
			acct := newTestAccAccount(t)
			tf := newTFCLI(t, providerDir)
			if err := os.CopyFS(tf.dir, os.DirFS(filepath.Join(root, d.Name()))); err != nil {
				t.Fatal(err)
			}
			// get installs the test files' helper modules; the provider
			// comes from dev_overrides (init would look it up in a registry).
			tf.mustRun("get", "-no-color")

			env := []string{EnvBaseURL + "=" + acct.URL, EnvSecretKey + "=" + acct.Key}
			out, code := tf.runEnv(env, "test", "-no-color")
			if code != 0 || !strings.Contains(out, "Success!") || strings.Contains(out, " 0 passed") {
				t.Fatalf("test exited %d:\n%s", code, out)
			}
			check, ok := moduleServiceChecks[d.Name()]
			if !ok {
				t.Fatalf("examples/modules/%s has no entry in moduleServiceChecks: say what its tests leave at the service", d.Name())
			}
			check(t, acct, out)

			// The unit tests: no key, and a base URL nothing listens on.
			unit, err := filepath.Glob(filepath.Join(tf.dir, "tests", "*unit*.tftest.hcl"))
			if err != nil || len(unit) == 0 {
				t.Fatalf("examples/modules/%s has no tests/*unit*.tftest.hcl (mock_provider tests): %v", d.Name(), err)
			}
			for _, f := range unit {
				rel, _ := filepath.Rel(tf.dir, f)
				out, code := tf.runEnv([]string{EnvBaseURL + "=http://127.0.0.1:1", EnvSecretKey + "="}, "test", "-no-color", "-filter="+rel)
				if code != 0 || !strings.Contains(out, "Success!") {
					t.Fatalf("%s without a service exited %d:\n%s", rel, code, out)
				}
			}
		})
	}
}

// moduleServiceChecks check, for each example module, what its integration
// tests leave in the sandbox account once their teardown has run: proof
// that the tests ran against the service, not only that they passed.
var moduleServiceChecks = map[string]func(t *testing.T, acct *testAccAccount, out string){
	// The integration runs charged the account, and their teardown
	// refunded what they charged.
	"test-customer": func(t *testing.T, acct *testAccAccount, out string) {
		list, err := acct.Client.ListPayments(context.Background(), &client.ListPaymentsParams{})
		if err != nil {
			t.Fatal(err)
		}
		if len(list.Data) == 0 {
			t.Fatalf("the module's tests made no payment in the sandbox account:\n%s", out)
		}
		for _, p := range list.Data {
			if p.Status != "refunded" {
				t.Errorf("payment %s is %s after the tests' teardown, want refunded", p.ID, p.Status)
			}
		}
	},
	// The renewals test paid three renewals on one subscription; the
	// dunning test left one renewal uncollectible. Teardown canceled
	// every subscription.
	"subscribed-customer": func(t *testing.T, acct *testAccAccount, out string) {
		ctx := context.Background()
		count := func(p *client.ListInvoicesParams) int {
			n := 0
			for _, err := range acct.Client.AllInvoices(ctx, p) {
				if err != nil {
					t.Fatal(err)
				}
				n++
			}
			return n
		}
		if n := count(&client.ListInvoicesParams{Status: wire.InvoiceStatusPaid}); n != 2+3 {
			t.Errorf("%d paid invoices in the account; want 5 (two first periods, three renewals):\n%s", n, out)
		}
		if n := count(&client.ListInvoicesParams{Status: wire.InvoiceStatusUncollectible}); n != 1 {
			t.Errorf("%d uncollectible invoices in the account; want 1 (the declined renewal):\n%s", n, out)
		}
		for s, err := range acct.Client.AllSubscriptions(ctx, &client.ListSubscriptionsParams{Status: wire.SubscriptionStatusAll}) {
			if err != nil {
				t.Fatal(err)
			}
			if s.Status != wire.SubscriptionStatusCanceled {
				t.Errorf("subscription %s is %s after the tests' teardown, want canceled", s.ID, s.Status)
			}
		}
	},
}
