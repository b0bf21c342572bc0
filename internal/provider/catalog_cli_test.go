package provider

import (
	"strings"
	"testing"
)

// TestAccPrice_QueryGeneratedConfigImportsClean: what the list resources'
// pages say, with the real CLI: `terraform query -generate-config-out`
// over products and prices writes resources and import blocks whose plan
// imports every one with nothing to change, and the plan after the import
// is empty.
func TestAccPrice_QueryGeneratedConfigImportsClean(t *testing.T) {
	skipUnlessAcc(t)
	requireTerraformAtLeast(t, 14)
	t.Parallel()
	providerDir := sharedProviderBinary(t)
	acct := newTestAccAccount(t)
	product, archived, active := acct.testAccCatalog(t)
	other := testAccPlainProduct(t, acct, "Archived product", false)

	tf := newTFCLI(t, providerDir)
	tf.writeFiles(map[string]string{
		"provider.tf": cliRequiredProviders + acct.ProviderConfig(),
		"catalog.tfquery.hcl": `
list "payments_product" "all" {
  provider         = payments
  include_resource = true
}

list "payments_price" "all" {
  provider         = payments
  include_resource = true
}
`,
	})
	out := tf.mustRun("query", "-no-color")
	for _, want := range []string{
		"id=" + product.ID + "   Gold",
		"id=" + other + "   Archived product",
		"id=" + archived.ID + "   9.00 USD per month",
		"id=" + active.ID + "   Gold quarterly (9.99 USD every 3 months)",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("terraform query does not show %q:\n%s", want, out)
		}
	}

	tf.mustRun("query", "-no-color", "-generate-config-out=generated.tf")
	generated := readFileIfExists(t, tf.dir+"/generated.tf")
	if n := strings.Count(generated, "identity = {"); n != 4 {
		t.Errorf("generated.tf has %d import blocks by identity, want 4:\n%s", n, generated)
	}
	tf.removeFile("catalog.tfquery.hcl")
	if _, out := tf.planJSON(); !strings.Contains(out, "4 to import, 0 to add, 0 to change, 0 to destroy") {
		t.Errorf("the plan of the generated configuration imports with changes:\n%s\n%s", out, generated)
	}
	tf.mustRun("apply", "-auto-approve", "-no-color", "cli-test.tfplan")
	if out := tf.mustRun("plan", "-no-color"); !strings.Contains(out, "No changes.") {
		t.Errorf("the plan after the import is not empty:\n%s", out)
	}
}
