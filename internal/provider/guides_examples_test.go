package provider

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	tfjson "github.com/hashicorp/terraform-json"

	"github.com/paymentsdev/terraform-provider-payments/internal/client"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox"
)

// TestAccProvider_Guides_Examples applies every example of the guides
// (examples/guides/*) with the real CLI against the in-process sandbox, with
// the sandbox's ids put in place of the documented ones, and checks the
// outcome each guide promises.
func TestAccProvider_Guides_Examples(t *testing.T) {
	skipUnlessAcc(t)
	t.Parallel()
	providerDir := sharedProviderBinary(t)

	// Every guide example folder has a case here, so that a new one cannot
	// go untested.
	cases := map[string]func(t *testing.T, acct *testAccAccount, tf *tfCLI){
		"api-assumptions":           testGuideAPIAssumptions,
		"default-sources":           testGuideDefaultSources,
		"importing-customers":       testGuideImportingCustomers,
		"keys-and-livemode":         testGuideKeysAndLivemode,
		"rate-limits":               testGuideRateLimits,
		"sandbox-dashboard":         testGuideSandboxDashboard,
		"seeding-test-environments": testGuideSeeding,
		"testing-webhooks":          testGuideTestingWebhooks,
	}
	dirs, err := os.ReadDir(filepath.Join("..", "..", "examples", "guides"))
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range dirs {
		if _, ok := cases[d.Name()]; d.IsDir() && !ok {
			t.Errorf("examples/guides/%s has no case in TestAccProvider_Guides_Examples", d.Name())
		}
	}
	for name, run := range cases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			acct := newTestAccAccount(t)
			run(t, acct, newTFCLI(t, providerDir))
		})
	}
}

// guideExample reads one file of examples/guides/<dir>, with each
// replacement (old, new, ...) made; it fails when a documented value to
// replace is no longer in the file.
func guideExample(t *testing.T, dir, file string, replacements ...string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "examples", "guides", dir, file))
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	for i := 0; i+1 < len(replacements); i += 2 {
		if !strings.Contains(s, replacements[i]) {
			t.Fatalf("examples/guides/%s/%s no longer holds %q", dir, file, replacements[i])
		}
		s = strings.ReplaceAll(s, replacements[i], replacements[i+1])
	}
	return s
}

// resourceChange returns the plan's change of addr.
func resourceChange(t *testing.T, plan *tfjson.Plan, addr string) *tfjson.ResourceChange {
	t.Helper()
	for _, rc := range plan.ResourceChanges {
		if rc.Address == addr {
			return rc
		}
	}
	t.Fatalf("%s is not in the plan", addr)
	return nil
}

// changedAttributes lists the top-level attributes a change alters.
func changedAttributes(rc *tfjson.ResourceChange) []string {
	before, _ := rc.Change.Before.(map[string]any)
	after, _ := rc.Change.After.(map[string]any)
	var out []string
	for k := range mergeKeys(before, after) {
		if !reflect.DeepEqual(before[k], after[k]) {
			out = append(out, k)
		}
	}
	return out
}

func testGuideImportingCustomers(t *testing.T, acct *testAccAccount, tf *tfCLI) {
	ctx := t.Context()
	str := func(s string) *string { return &s }
	ada := testAccCreateCustomer(t, acct.Client, client.CustomerParams{
		Email: str("ada@example.com"), Name: str("Ada Lovelace"), Phone: str("+442071234567"),
		Metadata: map[string]string{"plan": "pro"},
	})
	visa, err := acct.Client.AddSource(ctx, ada.ID, sandbox.TokenVisa)
	if err != nil {
		t.Fatal(err)
	}
	ids := []string{"cus_4fE9kQ2mZxR7bT1nLw8yHs3V", ada.ID, "src_9KpL2wQx7RmN4tYb6VcZ1aHd", visa.ID}
	tf.writeFiles(map[string]string{
		"provider.tf": cliRequiredProviders + acct.ProviderConfig(),
		"imports.tf":  guideExample(t, "importing-customers", "imports.tf", ids...),
	})

	// Step 2: Terraform writes the configuration; the plan stops at the
	// sources' missing token, as the guide says.
	out, code := tf.run("plan", "-no-color", "-generate-config-out=generated.tf")
	if code == 0 || !strings.Contains(oneLine(out), "Missing Token") {
		t.Errorf("the plan writing the configuration did not stop at the missing token (exit %d):\n%s", code, out)
	}
	generated := oneLine(readFileIfExists(t, filepath.Join(tf.dir, "generated.tf")))
	for _, want := range []string{`email = "ada@example.com"`, `name = "Ada Lovelace"`, `resource "payments_customer_source" "ada_visa"`} {
		if !strings.Contains(generated, want) {
			t.Errorf("generated.tf lacks %s:\n%s", want, generated)
		}
	}

	// Steps 3 and 4: the reviewed configuration imports both; the customer
	// changes nothing, the source only stores its token.
	tf.removeFile("generated.tf")
	tf.writeFiles(map[string]string{"customers.tf": guideExample(t, "importing-customers", "customers.tf")})
	plan, out := tf.planJSON()
	if !strings.Contains(out, "2 to import, 0 to add, 1 to change, 0 to destroy") {
		t.Errorf("the import plan is not the documented one:\n%s", out)
	}
	if rc := resourceChange(t, plan, "payments_customer.ada"); rc.Change.Importing == nil || !rc.Change.Actions.NoOp() {
		t.Errorf("payments_customer.ada: actions %v, importing %v; want a no-op import", rc.Change.Actions, rc.Change.Importing)
	}
	rc := resourceChange(t, plan, "payments_customer_source.ada_visa")
	if got := changedAttributes(rc); rc.Change.Importing == nil || !rc.Change.Actions.Update() || !reflect.DeepEqual(got, []string{"token"}) {
		t.Errorf("payments_customer_source.ada_visa: actions %v, changed %v; want an import updating only token", rc.Change.Actions, got)
	}
	tf.mustRun("apply", "-auto-approve", "-no-color", "cli-test.tfplan")
	if out := tf.mustRun("plan", "-no-color"); !strings.Contains(out, "No changes.") {
		t.Errorf("the plan after the import is not empty:\n%s", out)
	}
	tf.mustRun("destroy", "-auto-approve", "-no-color")

	// Many customers at once: the for_each import changes no field.
	fe := newTFCLI(t, tf.dirProvider())
	grace := testAccCreateCustomer(t, acct.Client, client.CustomerParams{
		Email: str("grace@example.com"), Name: str("Grace Hopper"), Metadata: map[string]string{"team": "compilers"},
	})
	alan := testAccCreateCustomer(t, acct.Client, client.CustomerParams{Email: str("alan@example.com"), Name: str("Alan Turing")})
	fe.writeFiles(map[string]string{
		"provider.tf": cliRequiredProviders + acct.ProviderConfig(),
		"for-each.tf": guideExample(t, "importing-customers", "for-each.tf",
			"cus_8sD3fG5hJ7kL9zX1cV2bN4mQ", grace.ID, "cus_2wE4rT6yU8iO0pA1sD3fG5hJ", alan.ID),
	})
	plan, out = fe.planJSON()
	if !strings.Contains(out, "2 to import, 0 to add, 0 to change, 0 to destroy") {
		t.Errorf("the for_each import plan changes something:\n%s", out)
	}
	for _, addr := range []string{`payments_customer.existing["grace"]`, `payments_customer.existing["alan"]`} {
		if rc := resourceChange(t, plan, addr); rc.Change.Importing == nil || !rc.Change.Actions.NoOp() {
			t.Errorf("%s: actions %v, changed %v; want a no-op import", addr, rc.Change.Actions, changedAttributes(rc))
		}
	}
	fe.mustRun("apply", "-auto-approve", "-no-color", "cli-test.tfplan")
	for _, before := range []*client.Customer{grace, alan} {
		after, err := acct.Client.GetCustomer(ctx, before.ID)
		if err != nil {
			t.Fatal(err)
		}
		if after.Email != before.Email || after.Name != before.Name || after.Phone != before.Phone || !maps.Equal(after.Metadata, before.Metadata) {
			t.Errorf("customer %s changed at the import: %+v, was %+v", before.ID, after, before)
		}
	}
	if out := fe.mustRun("plan", "-no-color"); !strings.Contains(out, "No changes.") {
		t.Errorf("the plan after the for_each import is not empty:\n%s", out)
	}
}

func testGuideDefaultSources(t *testing.T, acct *testAccAccount, tf *tfCLI) {
	tf.writeFiles(map[string]string{
		"provider.tf": cliRequiredProviders + acct.ProviderConfig(),
		"main.tf":     guideExample(t, "default-sources", "main.tf"),
	})
	tf.mustRun("apply", "-auto-approve", "-no-color")
	var amex string
	for _, r := range tf.state() {
		if r.Address == "payments_customer_source.amex" {
			amex, _ = r.Values["id"].(string)
		}
	}
	// The amex card is the default, as the guide says.
	if got := tf.outputs()["default_source"]; amex == "" || got != amex {
		t.Errorf("output default_source = %v, want the amex card %q", got, amex)
	}
	if out := tf.mustRun("plan", "-no-color"); !strings.Contains(out, "No changes.") {
		t.Errorf("the second plan is not empty:\n%s", out)
	}
	tf.mustRun("destroy", "-auto-approve", "-no-color")
}

func testGuideAPIAssumptions(t *testing.T, acct *testAccAccount, tf *tfCLI) {
	for _, p := range []client.PaymentParams{
		{Amount: 1000, Currency: "USD", Source: sandbox.TokenVisa},
		{Amount: 2550, Currency: "USD", Source: sandbox.TokenMastercard},
		{Amount: 500, Currency: "JPY", Source: sandbox.TokenVisa},
		{Amount: 9900, Currency: "USD", Source: sandbox.TokenDeclined}, // not approved: left out
	} {
		testAccCreatePayment(t, acct.Client, p)
	}
	now := time.Now().UTC()
	tf.writeFiles(map[string]string{
		"provider.tf": cliRequiredProviders + acct.ProviderConfig(),
		"main.tf": guideExample(t, "api-assumptions", "main.tf",
			"2025-03-01T00:00:00Z", now.Add(-time.Hour).Format(time.RFC3339),
			"2025-03-31T23:59:59Z", now.Add(time.Hour).Format(time.RFC3339)),
	})
	tf.mustRun("apply", "-auto-approve", "-no-color")
	// Minor units summed per currency, in major units: cents for USD, none for JPY.
	want := map[string]any{"USD": 35.5, "JPY": 500.0}
	if got := tf.outputs()["march_revenue"]; !reflect.DeepEqual(got, want) {
		t.Errorf("output march_revenue = %v, want %v", got, want)
	}
}

func testGuideKeysAndLivemode(t *testing.T, acct *testAccAccount, tf *tfCLI) {
	tf.writeFiles(map[string]string{
		"versions.tf": cliRequiredProviders,
		"main.tf":     guideExample(t, "keys-and-livemode", "main.tf", "http://127.0.0.1:12111", acct.URL),
	})
	// The sandbox by default: the key comes in the ephemeral variable, and
	// the postcondition holds.
	tf.mustRun("apply", "-auto-approve", "-no-color", "-var", "payments_secret_key="+acct.Key)
	st := tf.state()
	if len(st) != 1 || st[0].Values["livemode"] != false {
		t.Errorf("state after apply: %+v, want one customer with livemode false", st)
	}
	if raw := readFileIfExists(t, filepath.Join(tf.dir, "terraform.tfstate")); strings.Contains(raw, acct.Key) {
		t.Error("the state holds the secret key passed in the ephemeral variable")
	}
	tf.mustRun("destroy", "-auto-approve", "-no-color", "-var", "payments_secret_key="+acct.Key)
}

// testGuideSandboxDashboard applies the dashboard guide's example with the
// key and address from the environment, as the guide says: the yen payment
// is approved and the 3-D Secure one waits, pending.
func testGuideSandboxDashboard(t *testing.T, acct *testAccAccount, tf *tfCLI) {
	tf.writeFiles(map[string]string{
		"versions.tf": cliRequiredProviders,
		"main.tf":     guideExample(t, "sandbox-dashboard", "main.tf"),
	})
	env := []string{EnvSecretKey + "=" + acct.Key, EnvBaseURL + "=" + acct.URL}
	tf.mustRunEnv(env, "apply", "-auto-approve", "-no-color")
	want := map[string]string{"payments_payment.tea_set": "approved 1200 JPY", "payments_payment.gift": "pending 1999 USD"}
	got := map[string]string{}
	for _, r := range tf.state() {
		if _, ok := want[r.Address]; ok {
			got[r.Address] = fmt.Sprintf("%s %v %s", r.Attr("status"), r.Values["amount"], r.Attr("currency"))
		}
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("payments after apply: %v, want %v", got, want)
	}
	tf.mustRunEnv(env, "destroy", "-auto-approve", "-no-color")
}
