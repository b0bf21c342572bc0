package provider

import (
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/paymentsdev/terraform-provider-payments/internal/client"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox"
)

// requireTerraformAtLeast skips t unless the acceptance CLI is Terraform
// (not OpenTofu, whose version numbers are not Terraform's) 1.minor or later.
func requireTerraformAtLeast(t *testing.T, minor int) {
	t.Helper()
	id := testCLI(t)
	if id.OpenTofu {
		t.Skipf("OpenTofu v%s has neither list resources nor resource identity", id.Version)
	}
	parts := strings.SplitN(id.Version, ".", 3)
	major, err := strconv.Atoi(parts[0])
	got := -1
	if len(parts) > 1 {
		got, _ = strconv.Atoi(parts[1])
	}
	if err != nil || major < 1 || (major == 1 && got < minor) {
		t.Skipf("needs Terraform 1.%d or later, the CLI is %s", minor, id.Version)
	}
}

// TestAccProvider_Guides_ImportingCustomersQuery runs the importing guide's
// terraform query and identity examples (examples/guides/importing-
// customers/{query,by-identity}) with the real CLI against the sandbox, and
// checks what the guide says: the query finds the customers and cards with
// recognisable names, the configuration it writes imports customers with
// nothing to change and cards once their token is set, and an import block
// by identity imports.
func TestAccProvider_Guides_ImportingCustomersQuery(t *testing.T) {
	skipUnlessAcc(t)
	requireTerraformAtLeast(t, 14)
	t.Parallel()
	ctx := t.Context()
	providerDir := sharedProviderBinary(t)
	acct := newTestAccAccount(t)
	ada := testAccCreateCustomer(t, acct.Client, client.CustomerParams{Email: new("ada@example.com"), Name: new("Ada Lovelace")})
	grace := testAccCreateCustomer(t, acct.Client, client.CustomerParams{Email: new("grace@example.com"), Name: new("Grace Hopper"),
		Metadata: map[string]string{"team": "navy"}})
	visa, err := acct.Client.AddSource(ctx, ada.ID, sandbox.TokenVisa)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := acct.Client.AddSource(ctx, ada.ID, sandbox.TokenMastercard); err != nil {
		t.Fatal(err)
	}

	// The guide's main.tf configures the provider from the environment.
	env := []string{EnvSecretKey + "=" + acct.Key, EnvBaseURL + "=" + acct.URL}
	tf := newTFCLI(t, providerDir, env...)
	tf.writeFiles(map[string]string{
		"main.tf":               guideExample(t, "importing-customers/query", "main.tf"),
		"customers.tfquery.hcl": guideExample(t, "importing-customers/query", "customers.tfquery.hcl", "cus_4fE9kQ2mZxR7bT1nLw8yHs3V", ada.ID),
	})
	out := tf.mustRun("query", "-no-color")
	for _, want := range []string{
		"id=" + ada.ID + "   Ada Lovelace <ada@example.com>",
		"id=" + grace.ID + "   Grace Hopper <grace@example.com>",
		"customer=" + ada.ID + ",id=" + visa.ID + "   visa •••• 4242 (default)",
		"mastercard •••• 4444",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("terraform query does not show %q:\n%s", want, out)
		}
	}

	// The generated configuration: cards stop the plan until their token
	// is set, as the guide says; then everything imports, customers with
	// no change and cards only storing the token.
	tf.mustRun("query", "-no-color", "-generate-config-out=generated.tf")
	generated := readFileIfExists(t, tf.dir+"/generated.tf")
	if n := strings.Count(generated, "identity = {"); n != 4 {
		t.Errorf("generated.tf has %d import blocks by identity, want 4:\n%s", n, generated)
	}
	if out, code := tf.run("plan", "-no-color"); code == 0 || !strings.Contains(oneLine(out), "Missing Token") {
		t.Errorf("the plan did not stop at the cards' missing token (exit %d):\n%s", code, out)
	}
	tokens := []string{sandbox.TokenVisa, sandbox.TokenMastercard}
	filled := regexp.MustCompile(`token\s*=\s*null`).ReplaceAllStringFunc(generated, func(string) string {
		tok := tokens[0]
		tokens = tokens[1:]
		return `token = "` + tok + `"`
	})
	tf.writeFiles(map[string]string{"generated.tf": filled})
	tf.removeFile("customers.tfquery.hcl")
	if _, out := tf.planJSON(); !strings.Contains(out, "4 to import, 0 to add, 2 to change, 0 to destroy") {
		t.Errorf("the plan of the generated configuration is not the documented one:\n%s", out)
	}
	tf.mustRun("apply", "-auto-approve", "-no-color", "cli-test.tfplan")
	if out := tf.mustRun("plan", "-no-color"); !strings.Contains(out, "No changes.") {
		t.Errorf("the plan after the import is not empty:\n%s", out)
	}

	// Import blocks by identity, in a configuration of their own.
	byIdentity := newTFCLI(t, providerDir)
	byIdentity.writeFiles(map[string]string{
		"provider.tf": cliRequiredProviders + acct.ProviderConfig(),
		"main.tf": guideExample(t, "importing-customers/by-identity", "main.tf",
			"cus_4fE9kQ2mZxR7bT1nLw8yHs3V", ada.ID, "src_9KpL2wQx7RmN4tYb6VcZ1aHd", visa.ID),
	})
	if _, out := byIdentity.planJSON(); !strings.Contains(out, "2 to import, 0 to add, 1 to change, 0 to destroy") {
		t.Errorf("the plan of the identity import blocks is not the documented one:\n%s", out)
	}
}
