package provider

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/paymentsdev/terraform-provider-payments/internal/client"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/sandboxtest"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandboxclient"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// keyHygieneMode is how the key reaches the provider in one run.
type keyHygieneMode string

const (
	// keyFromEnv: PAYMENTS_SECRET_KEY, no secret_key in HCL.
	keyFromEnv keyHygieneMode = "env"
	// keyFromEphemeralVariable: secret_key = var.x, an ephemeral sensitive
	// variable set through TF_VAR_x, as SECURITY.md recommends.
	keyFromEphemeralVariable keyHygieneMode = "ephemeral_variable"
	// keyFromLiteral: secret_key = "sk_…" written in the .tf file. Terraform
	// itself copies configuration into saved plans and quotes the offending
	// line of the file in a diagnostic, so those two are not checked in
	// this mode (SECURITY.md says to avoid literals for that reason); every
	// log, state file and command output still is.
	keyFromLiteral keyHygieneMode = "literal"
)

// TestAccProvider_KeyHygiene runs a full scenario through the Terraform CLI
// with TF_LOG=TRACE (create, read with every data source, plan, saved plan,
// a card tokenized by payments_card_token and stored through token_wo,
// failing imports, API errors, a mistyped key, destroy) and checks that the
// secret key, its random part and its HTTP Basic form appear in none of:
// Terraform's and the provider's logs, the output of any command (errors
// included), state files, the saved plans' JSON, and the sandbox's logs;
// nor, in the same places, the card's number, its CVC or the minted token.
func TestAccProvider_KeyHygiene(t *testing.T) {
	if os.Getenv("TF_ACC") == "" {
		t.Skip("acceptance test: set TF_ACC=1")
	}
	testAccPreCheck(t)
	t.Parallel()
	providerDir := providerBinary(t)
	for _, mode := range []keyHygieneMode{keyFromEnv, keyFromEphemeralVariable, keyFromLiteral} {
		t.Run(string(mode), func(t *testing.T) {
			t.Parallel()
			testKeyHygiene(t, providerDir, mode)
		})
	}
}

func testKeyHygiene(t *testing.T, providerDir string, mode keyHygieneMode) {
	ctx := context.Background()
	url, sandboxLogs := startLoggingSandbox(t)
	key := sandboxtest.NewKey(t)
	api, err := client.New(client.Config{BaseURL: url, SecretKey: key, UserAgent: "terraform-provider-payments-tests"})
	if err != nil {
		t.Fatalf("creating the test client: %v", err)
	}
	pay, err := api.CreatePayment(ctx, &client.PaymentParams{Amount: 1234, Currency: "USD", Source: sandbox.TokenVisa, Description: "key hygiene"})
	if err != nil {
		t.Fatalf("creating a payment to read: %v", err)
	}

	logPath := filepath.Join(t.TempDir(), "terraform.log")
	env := []string{"TF_LOG=TRACE", "TF_LOG_PATH=" + logPath}
	// keyEnv sets the key the way this mode passes it; a mode that writes
	// the key in HCL needs nothing in the environment.
	keyEnv := func(k string) []string {
		switch mode {
		case keyFromEnv:
			return []string{EnvSecretKey + "=" + k}
		case keyFromEphemeralVariable:
			return []string{"TF_VAR_payments_secret_key=" + k}
		}
		return nil
	}
	providerBlock := func(k string) string {
		head := `terraform {
  required_providers {
    payments = {
      source = "paymentsdev/payments"
    }
  }
}
`
		switch mode {
		case keyFromEphemeralVariable:
			return head + fmt.Sprintf(`
variable "payments_secret_key" {
  type      = string
  sensitive = true
  ephemeral = true
}

provider "payments" {
  base_url    = %q
  secret_key  = var.payments_secret_key
  max_retries = 3
}
`, url)
		case keyFromLiteral:
			return head + fmt.Sprintf(`
provider "payments" {
  base_url    = %q
  secret_key  = %q
  max_retries = 3
}
`, url, k)
		}
		return head + fmt.Sprintf(`
provider "payments" {
  base_url    = %q
  max_retries = 3
}
`, url)
	}

	tf := newTFCLI(t, providerDir, append(env, keyEnv(key)...)...)
	tf.writeConfig(providerBlock(key) + fmt.Sprintf(`
resource "payments_customer" "c" {
  email = "hygiene@example.com"
  name  = "Key Hygiene"
  phone = "+15555550100"
  metadata = {
    plan = "gold"
  }
}

resource "payments_customer_source" "s" {
  customer = payments_customer.c.id
  token    = %[1]q
  default  = true
}

data "payments_customer" "c" {
  id = payments_customer_source.s.customer
}

data "payments_payment" "p" {
  id = %[2]q
}

data "payments_payments" "all" {
  limit = 5
}

output "card" {
  value = "${data.payments_customer.c.sources[0].brand} ${data.payments_customer.c.sources[0].last4}"
}

output "payment" {
  value = "${data.payments_payment.p.status} ${length(data.payments_payments.all.payments)}"
}
`, sandbox.TokenVisa, pay.ID))

	// The happy path: create, read, plan, saved plan.
	tf.mustRun("apply", "-auto-approve", "-no-color")
	if out, code := tf.run("plan", "-detailed-exitcode", "-no-color"); code != 0 {
		t.Fatalf("plan after apply: exit %d, want 0 (no changes):\n%s", code, out)
	}
	planJSON := ""
	if mode != keyFromLiteral {
		tf.mustRun("plan", "-out=tfplan", "-no-color")
		planJSON = tf.mustRun("show", "-json", "tfplan")
		if !strings.Contains(planJSON, `"format_version"`) {
			t.Fatalf("terraform show -json tfplan did not print a plan:\n%s", planJSON)
		}
	}

	// A card tokenized by payments_card_token, stored through token_wo: its
	// number and CVC must reach the service and go nowhere else. An
	// American Express number, whose 4-digit CVC is checked in the logs as
	// a number of its own. The card is in a local, as the guides write it:
	// OpenTofu (1.12) copies a literal written in the ephemeral block into
	// the configuration of a saved plan's JSON, as both CLIs do with a
	// literal secret_key (see keyFromLiteral).
	card := tf.subdir("card")
	const cardNumber, cardCVC = "378282246310005", "8391"
	card.writeConfig(providerBlock(key) + fmt.Sprintf(`
locals {
  amex = { number = %[1]q, cvc = %[2]q }
}

ephemeral "payments_card_token" "amex" {
  number    = local.amex.number
  cvc       = local.amex.cvc
  exp_month = 12
  exp_year  = 2030
}

resource "payments_customer" "c" {
  email = "card-hygiene@example.com"
}

resource "payments_customer_source" "amex" {
  customer         = payments_customer.c.id
  token_wo         = ephemeral.payments_card_token.amex.id
  token_wo_version = 1
}

output "card" {
  value = "${payments_customer_source.amex.brand} ${payments_customer_source.amex.last4}"
}
`, cardNumber, cardCVC))
	card.mustRun("apply", "-auto-approve", "-no-color")
	if got := card.outputs()["card"]; got != "amex 0005" {
		t.Fatalf("output card = %v, want the tokenized card (amex 0005)", got)
	}
	card.mustRun("plan", "-out=tfplan", "-no-color")
	// Read with json, whose output is not recorded: with the key written
	// as a literal, the plan's configuration holds it (see keyFromLiteral).
	var cardPlan, cardStateJSON json.RawMessage
	card.json(&cardPlan, "show", "-json", "tfplan")
	card.json(&cardStateJSON, "show", "-json")
	cardPlanJSON, cardState := string(cardPlan), string(cardStateJSON)
	if !strings.Contains(cardPlanJSON, `"format_version"`) || !strings.Contains(cardState, "payments_customer_source.amex") {
		t.Fatalf("terraform show -json did not print the card's plan and state:\n%s\n%s", cardPlanJSON, cardState)
	}
	card.mustRun("destroy", "-auto-approve", "-no-color")

	// Errors: imports of malformed and missing objects, a missing object
	// read by a data source, a token the service refuses.
	bad := tf.subdir("errors")
	zeros := strings.Repeat("0", wire.IDRandomLength)
	bad.writeConfig(providerBlock(key) + fmt.Sprintf(`
resource "payments_customer" "imp" {}

resource "payments_customer_source" "imp" {
  customer = "%[1]s%[2]s"
  token    = %[3]q
}
`, wire.CustomerIDPrefix, zeros, sandbox.TokenVisa))
	for _, importArgs := range [][]string{
		{"payments_customer.imp", wire.CustomerIDPrefix + zeros},
		{"payments_customer.imp", wire.CustomerIDPrefix + "123"},
		{"payments_customer_source.imp", wire.CustomerIDPrefix + zeros + "/" + wire.SourceIDPrefix + zeros},
		{"payments_customer_source.imp", "not-an-import-id"},
	} {
		if out, code := bad.run(append([]string{"import", "-no-color"}, importArgs...)...); code == 0 {
			t.Fatalf("terraform import %s succeeded, want an error:\n%s", strings.Join(importArgs, " "), out)
		}
	}
	bad2 := tf.subdir("api-errors")
	bad2.writeConfig(providerBlock(key) + fmt.Sprintf(`
data "payments_customer" "missing" {
  id = "%[1]s%[2]s"
}
`, wire.CustomerIDPrefix, zeros))
	if out, code := bad2.run("plan", "-no-color"); code == 0 {
		t.Fatalf("plan reading a missing customer succeeded, want an error:\n%s", out)
	}
	bad2.writeConfig(providerBlock(key) + `
resource "payments_customer" "c" {
  email = "refused-token@example.com"
}

resource "payments_customer_source" "s" {
  customer = payments_customer.c.id
  token    = "tok_no_such_token"
}
`)
	if out, code := bad2.run("apply", "-auto-approve", "-no-color"); code == 0 {
		t.Fatalf("apply with a refused token succeeded, want an error:\n%s", out)
	}
	bad2.mustRun("destroy", "-auto-approve", "-no-color")

	// A mistyped key: the provider must refuse it without repeating it
	// (the key is a prefix of the mistyped value). A literal is quoted by
	// Terraform's own diagnostic, so that mode is not run here.
	if mode != keyFromLiteral {
		typo := tf.subdir("typo")
		typo.writeConfig(providerBlock(key) + `
data "payments_payments" "all" {}
`)
		out, code := typo.runEnv(keyEnv(key+"-x"), "plan", "-no-color")
		if code == 0 || !strings.Contains(out, "Malformed Payments Secret Key") {
			t.Fatalf("plan with a mistyped key: exit %d, want an error saying the key is malformed:\n%s", code, out)
		}
	}

	tf.mustRun("destroy", "-auto-approve", "-no-color")

	// Sanity: the logs are the provider's, at debug level, so the checks
	// below look at what the provider logged, not at an empty file.
	tfLog := readFileIfExists(t, logPath)
	for _, want := range []string{"payments API request", "payments API response", "Configured the payments API client", wire.PathTokens} {
		if !strings.Contains(tfLog, want) {
			t.Errorf("the TF_LOG file does not hold the provider's %q entries; the leak check would prove nothing", want)
		}
	}
	if sandboxLogs() == "" {
		t.Errorf("the sandbox logged nothing; the leak check of its logs would prove nothing")
	}

	st, err := sandboxclient.New(api).Stats(ctx)
	if err != nil {
		t.Fatalf("reading stats: %v", err)
	}
	if st.Customers != 0 || st.Sources != 0 {
		t.Errorf("after destroy the sandbox holds %d customers and %d sources, want 0", st.Customers, st.Sources)
	}

	places := map[string]string{
		"TF_LOG file (Terraform and provider logs)": tfLog,
		"command output and errors":                 tf.output.String() + card.output.String() + bad.output.String() + bad2.output.String(),
		"sandbox logs":                              sandboxLogs(),
		"saved plan (terraform show -json)":         planJSON,
		"card's state (terraform show -json)":       cardState,
	}
	for _, dir := range []*tfCLI{tf, card, bad, bad2} {
		for _, f := range []string{"terraform.tfstate", "terraform.tfstate.backup"} {
			places[filepath.Join(filepath.Base(dir.dir), f)] = readFileIfExists(t, filepath.Join(dir.dir, f))
		}
	}
	cardPlaces := maps.Clone(places)
	cardPlaces["card's saved plan (terraform show -json)"] = cardPlanJSON
	if mode != keyFromLiteral {
		places["card's saved plan (terraform show -json)"] = cardPlanJSON
	}
	assertNoKey(t, key, places)
	assertNoCardData(t, cardPlaces, []string{cardNumber}, []string{cardCVC})
}

// assertNoKey fails the test for each place that holds the key, its random
// part, or its HTTP Basic authorization form. It never prints the key.
func assertNoKey(t *testing.T, key string, places map[string]string) {
	t.Helper()
	forms := map[string]string{
		"the key":                              key,
		"the key's random part":                strings.TrimPrefix(key, wire.SecretKeySandboxPrefix),
		"the Basic authorization credentials":  base64.StdEncoding.EncodeToString([]byte(key + ":")),
		"the key in base64":                    base64.StdEncoding.EncodeToString([]byte(key)),
		"the Basic credentials in URL base64":  base64.URLEncoding.EncodeToString([]byte(key + ":")),
		"the Basic credentials in raw base64":  base64.RawStdEncoding.EncodeToString([]byte(key + ":")),
		"the key's random part in lower case":  strings.ToLower(strings.TrimPrefix(key, wire.SecretKeySandboxPrefix)),
		"the key with its prefix in URL query": strings.ReplaceAll(key, "_", "%5F"),
	}
	for place, content := range places {
		for formName, form := range forms {
			if n := strings.Count(content, form); n > 0 {
				i := strings.Index(content, form)
				snippet := content[max(0, i-200):min(len(content), i+len(form)+100)]
				for _, f := range forms {
					snippet = strings.ReplaceAll(snippet, f, "<KEY>")
				}
				t.Errorf("%s holds %s %d time(s); first occurrence, key replaced by <KEY>:\n%s", place, formName, n, snippet)
			}
		}
	}
}

// mintedTokenRegexp matches a token minted by POST /v1/tokens; the
// sandbox's reusable test tokens (tok_visa) are shorter.
var mintedTokenRegexp = regexp.MustCompile(regexp.QuoteMeta(wire.TokenIDPrefix) + "[A-Za-z0-9]{" + strconv.Itoa(wire.IDRandomLength) + "}")

// assertNoCardData fails the test for each place that holds one of the
// card numbers, one of the CVCs (as a value of its own, not inside a
// longer run of digits, a word or a dashed id) or a minted token id. It never prints a number.
func assertNoCardData(t *testing.T, places map[string]string, numbers, cvcs []string) {
	t.Helper()
	var cvcRes []*regexp.Regexp
	for _, cvc := range cvcs {
		// Not inside a word or a dashed id either: a request id's UUID
		// (7c0846a7-8391-…) holds any four digits now and then.
		cvcRes = append(cvcRes, regexp.MustCompile(`(^|[^0-9A-Za-z-])`+regexp.QuoteMeta(cvc)+`([^0-9A-Za-z-]|$)`))
	}
	for place, content := range places {
		for _, n := range numbers {
			if strings.Contains(content, n) {
				t.Errorf("%s holds the card number ending %s", place, last4Of(n))
			}
		}
		for i, re := range cvcRes {
			if loc := re.FindStringIndex(content); loc != nil {
				t.Errorf("%s holds CVC number %d of the test; around it: %q", place, i+1,
					strings.ReplaceAll(content[max(0, loc[0]-80):min(len(content), loc[1]+40)], cvcs[i], "<CVC>"))
			}
		}
		if m := mintedTokenRegexp.FindString(content); m != "" {
			t.Errorf("%s holds the minted token %s", place, m)
		}
	}
}
