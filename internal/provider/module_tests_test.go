package provider

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/paymentsdev/terraform-provider-payments/internal/client"
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
			// The integration runs charged the sandbox account, and their
			// teardown refunded what they charged.
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
