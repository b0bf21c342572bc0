package provider

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandboxclient"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// badInputCase is one invalid input. Each is planned (or applied, or
// imported) on a fresh account, must fail with an error whose text holds
// every phrase of expect in order (the attribute it is about and what is
// accepted), and must leave the account without any object. A panic in the
// provider would crash the test binary, so passing also means no panic.
type badInputCase struct {
	name string
	// provider replaces the account's provider block; "%[1]s" is the
	// sandbox's URL and "%[2]s" the account's key.
	provider string
	// config follows the provider block.
	config string
	// importTo and importID make the case an import of importID into the
	// resource at address importTo (declared in config).
	importTo, importID string
	// apply: the error comes from the service when applying, not from
	// validation at plan time.
	apply bool
	// expect are phrases the error must hold, in order; spaces match any
	// white space, since Terraform wraps long lines.
	expect []string
}

var (
	zeros24      = strings.Repeat("0", wire.IDRandomLength)
	cusZeros     = wire.CustomerIDPrefix + zeros24
	srcZeros     = wire.SourceIDPrefix + zeros24
	payZeros     = wire.PaymentIDPrefix + zeros24
	customerIDIs = []string{"cus_ followed by 24 letters or digits"}
)

func badInputCases() []badInputCase {
	aCustomer := func(body string) string {
		return "resource \"payments_customer\" \"bad\" {\n" + body + "\n}\n"
	}
	aSource := func(customer, token string) string {
		return fmt.Sprintf("resource \"payments_customer_source\" \"bad\" {\n  customer = %q\n  token    = %q\n}\n", customer, token)
	}
	metadata := func(n, keyLen, valueLen int) string {
		var b strings.Builder
		b.WriteString("  metadata = {\n")
		for i := range n {
			key := fmt.Sprintf("k%d", i)
			key += strings.Repeat("k", max(0, keyLen-len(key)))
			fmt.Fprintf(&b, "    %s = %q\n", key, strings.Repeat("v", valueLen))
		}
		b.WriteString("  }")
		return b.String()
	}
	readPayments := "data \"payments_payments\" \"all\" {}\n"
	provider := func(attrs string) string {
		return "provider \"payments\" {\n" + attrs + "\n}\n"
	}
	expectID := func(attr string) []string { return append([]string{attr}, customerIDIs...) }

	return []badInputCase{
		// The provider block.
		{name: "provider/secret_key malformed", provider: provider(`  base_url = "%[1]s"
  secret_key = "not-a-key"`), config: readPayments,
			expect: []string{"Malformed Payments Secret Key", "secret_key", "Expected sk_sandbox_… (sandbox) or sk_live_… (live)"}},
		{name: "provider/secret_key empty", provider: provider(`  base_url = "%[1]s"
  secret_key = ""`), config: readPayments,
			expect: []string{"secret_key", "sk_sandbox_…"}},
		{name: "provider/secret_key too short", provider: provider(`  base_url = "%[1]s"
  secret_key = "sk_sandbox_abc"`), config: readPayments,
			expect: []string{"Malformed Payments Secret Key", "secret_key", "at least 8 letters, digits or underscores"}},
		{name: "provider/secret_key public key", provider: provider(`  base_url = "%[1]s"
  secret_key = "pk_sandbox_abcdefgh1234"`), config: readPayments,
			expect: []string{"Secret Key Required", "secret_key", "needs a secret key (sk_sandbox_… or sk_live_…)"}},
		{name: "provider/secret_key live without allow_livemode", provider: provider(`  base_url = "%[1]s"
  secret_key = "sk_live_abcdefgh1234"`), config: readPayments,
			expect: []string{"Live Key Not Allowed", "secret_key", "allow_livemode = true"}},
		{name: "provider/secret_key missing", provider: provider(`  base_url = "%[1]s"`), config: readPayments,
			expect: []string{"Missing Payments Secret Key", "secret_key", "PAYMENTS_SECRET_KEY"}},
		{name: "provider/base_url missing", provider: provider(`  secret_key = "%[2]s"`), config: readPayments,
			expect: []string{"Missing Payments Base URL", "base_url", "PAYMENTS_BASE_URL"}},
		{name: "provider/base_url empty", provider: provider(`  base_url = ""
  secret_key = "%[2]s"`), config: readPayments,
			expect: []string{"Payments Base URL", "base_url", "Set base_url"}},
		{name: "provider/base_url wrong scheme", provider: provider(`  base_url = "ftp://127.0.0.1:1"
  secret_key = "%[2]s"`), config: readPayments,
			expect: []string{"Invalid Payments Base URL", "base_url", "not http or https"}},
		{name: "provider/base_url without scheme", provider: provider(`  base_url = "127.0.0.1:12111"
  secret_key = "%[2]s"`), config: readPayments,
			expect: []string{"Invalid Payments Base URL", "base_url", "absolute http or https URL"}},
		{name: "provider/base_url with credentials", provider: provider(`  base_url = "https://user:pass@example.com"
  secret_key = "%[2]s"`), config: readPayments,
			expect: []string{"Invalid Payments Base URL", "base_url", "must not contain credentials"}},
		{name: "provider/base_url with query", provider: provider(`  base_url = "https://example.com/?key=1"
  secret_key = "%[2]s"`), config: readPayments,
			expect: []string{"Invalid Payments Base URL", "base_url", "must not have a query or fragment"}},
		{name: "provider/base_url ending in /v1", provider: provider(`  base_url = "%[1]s/v1"
  secret_key = "%[2]s"`), config: readPayments,
			expect: []string{"Invalid Payments Base URL", "base_url", "ends in /v1", "Remove /v1: the provider adds it"}},
		{name: "provider/base_url ending in /v1/", provider: provider(`  base_url = "%[1]s/v1/"
  secret_key = "%[2]s"`), config: readPayments,
			expect: []string{"Invalid Payments Base URL", "base_url", "Remove /v1: the provider adds it. Use http://127.0.0.1:"}},
		{name: "provider/max_retries negative", provider: provider(`  base_url = "%[1]s"
  secret_key = "%[2]s"
  max_retries = -1`), config: readPayments,
			expect: []string{"max_retries", "at least 0"}},

		// payments_customer.
		{name: "customer/email malformed", config: aCustomer(`  email = "not-an-email"`),
			expect: []string{"email", "must be an e-mail address of the form local@domain"}},
		{name: "customer/email too long", config: aCustomer(fmt.Sprintf(`  email = "%s@example.com"`, strings.Repeat("a", wire.EmailMaxLength))),
			expect: []string{"email", fmt.Sprint(wire.EmailMaxLength)}},
		{name: "customer/name empty", config: aCustomer(`  name = ""`),
			expect: []string{"name", fmt.Sprintf("between 1 and %d", wire.NameMaxLength)}},
		{name: "customer/name too long", config: aCustomer(fmt.Sprintf(`  name = %q`, strings.Repeat("n", wire.NameMaxLength+1))),
			expect: []string{"name", fmt.Sprintf("between 1 and %d", wire.NameMaxLength)}},
		{name: "customer/phone with dashes", config: aCustomer(`  phone = "555-0100"`),
			expect: []string{"phone", "E.164", "plus sign followed by 8 to 15 digits"}},
		{name: "customer/phone too short", config: aCustomer(`  phone = "+1234567"`),
			expect: []string{"phone", "E.164", "8 to 15 digits"}},
		{name: "customer/metadata too many keys", config: aCustomer(metadata(wire.MetadataMaxKeys+1, 3, 1)),
			expect: []string{"metadata", fmt.Sprintf("at most %d", wire.MetadataMaxKeys)}},
		{name: "customer/metadata key too long", config: aCustomer(metadata(1, wire.MetadataKeyMaxLength+1, 1)),
			expect: []string{"metadata", fmt.Sprintf("between 1 and %d", wire.MetadataKeyMaxLength)}},
		{name: "customer/metadata value too long", config: aCustomer(metadata(1, 3, wire.MetadataValueMaxLength+1)),
			expect: []string{"metadata", fmt.Sprintf("at most %d", wire.MetadataValueMaxLength)}},
		{name: "customer/metadata value empty", config: aCustomer(metadata(1, 3, 0)),
			expect: []string{"Empty Metadata Value", "metadata", "Remove the key"}},
		{name: "customer/metadata key with brackets", config: aCustomer(`  metadata = { "a[b]" = "x" }`),
			expect: []string{"metadata", "must not contain square brackets"}},
		{name: "customer/metadata key empty", config: aCustomer(`  metadata = { "" = "x" }`),
			expect: []string{"metadata", fmt.Sprintf("between 1 and %d", wire.MetadataKeyMaxLength)}},
		{name: "customer/name with a control character", config: aCustomer(`  name = "Jo\u0001"`),
			expect: []string{"name", "must not contain control characters other than tab and newline"}},
		{name: "customer/metadata key with a control character", config: aCustomer(`  metadata = { "a\u007fb" = "x" }`),
			expect: []string{"metadata", "must not contain control characters other than tab and newline"}},
		{name: "customer/name with a right-to-left override", config: aCustomer(`  name = "Jo\u202Efdp.exe"`),
			expect: []string{"name", "nor bidirectional controls"}},
		{name: "customer/metadata value with a bidirectional isolate", config: aCustomer(`  metadata = { "a" = "x\u2066" }`),
			expect: []string{"metadata", "must not contain bidirectional controls"}},
		{name: "payment/description too long", config: fmt.Sprintf(`resource "payments_payment" "bad" {
  amount      = 100
  currency    = "USD"
  source      = %q
  description = %q
}`, sandbox.TokenVisa, strings.Repeat("d", wire.PaymentDescriptionMaxLength+1)),
			expect: []string{"description", fmt.Sprintf("between 1 and %d", wire.PaymentDescriptionMaxLength)}},

		// payments_customer_source.
		{name: "source/customer malformed", config: aSource("cus_123", sandbox.TokenVisa),
			expect: expectID("customer")},
		{name: "source/customer wrong kind of id", config: aSource(srcZeros, sandbox.TokenVisa),
			expect: expectID("customer")},
		{name: "source/customer empty", config: aSource("", sandbox.TokenVisa),
			expect: expectID("customer")},
		{name: "source/customer unknown", config: aSource(cusZeros, sandbox.TokenVisa), apply: true,
			expect: []string{"Error Creating Customer Source", "customer", cusZeros, "Set customer to the id of an existing customer"}},
		{name: "source/token empty", config: aSource(cusZeros, ""),
			expect: []string{"token", "at least 1"}},
		{name: "source/token unknown", config: aCustomer("") + `
resource "payments_customer_source" "bad" {
  customer = payments_customer.bad.id
  token    = "tok_no_such_token"
}
`, apply: true,
			expect: []string{"Error Creating Customer Source", "token", "tok_no_such_token", "Set token", "tok_visa"}},

		// The data sources.
		{name: "data customer/id empty", config: `data "payments_customer" "bad" { id = "" }`,
			expect: expectID("id")},
		{name: "data customer/id wrong prefix", config: fmt.Sprintf(`data "payments_customer" "bad" { id = %q }`, payZeros),
			expect: expectID("id")},
		{name: "data customer/id too long", config: fmt.Sprintf(`data "payments_customer" "bad" { id = %q }`, cusZeros+"0"),
			expect: expectID("id")},
		{name: "data customer/id unknown", config: fmt.Sprintf(`data "payments_customer" "bad" { id = %q }`, cusZeros),
			expect: []string{"Customer Not Found", "id", cusZeros}},
		{name: "data payment/id wrong kind", config: fmt.Sprintf(`data "payments_payment" "bad" { id = %q }`, cusZeros),
			expect: []string{"id", "pay_ followed by 24 letters or digits"}},
		{name: "data payment/id malformed", config: `data "payments_payment" "bad" { id = "pay_!" }`,
			expect: []string{"id", "pay_ followed by 24 letters or digits"}},
		{name: "data payment/id unknown", config: fmt.Sprintf(`data "payments_payment" "bad" { id = %q }`, payZeros),
			expect: []string{"Payment Not Found", "id", payZeros}},
		{name: "data payments/customer malformed", config: `data "payments_payments" "bad" { customer = "cus_" }`,
			expect: expectID("customer")},
		{name: "data payments/customer unknown", config: fmt.Sprintf(`data "payments_payments" "bad" { customer = %q }`, cusZeros),
			expect: []string{"Customer Not Found", "customer", cusZeros}},
		{name: "data payments/status unknown", config: `data "payments_payments" "bad" { status = "done" }`,
			expect: []string{"status", "approved"}},
		{name: "data payments/status upper case", config: `data "payments_payments" "bad" { status = "APPROVED" }`,
			expect: []string{"status", "approved"}},
		{name: "data payments/created_after not a date", config: `data "payments_payments" "bad" { created_after = "yesterday" }`,
			expect: []string{"created_after", "RFC 3339"}},
		{name: "data payments/created_before impossible date", config: `data "payments_payments" "bad" { created_before = "2025-13-01T00:00:00Z" }`,
			expect: []string{"created_before", "RFC 3339"}},
		{name: "data payments/created range reversed", config: `data "payments_payments" "bad" {
  created_after  = "2025-02-01T00:00:00Z"
  created_before = "2025-01-01T00:00:00Z"
}`,
			expect: []string{"created_after", "created_before"}},
		{name: "data payments/limit zero", config: `data "payments_payments" "bad" { limit = 0 }`,
			expect: []string{"limit", fmt.Sprintf("between 1 and %d", paymentsLimitMax)}},
		{name: "data payments/limit too high", config: `data "payments_payments" "bad" { limit = 1000000 }`,
			expect: []string{"limit", fmt.Sprintf("between 1 and %d", paymentsLimitMax)}},

		// Import ids.
		{name: "import customer/malformed", config: aCustomer(""), importTo: "payments_customer.bad", importID: "cus_123",
			expect: []string{"Invalid Customer Import ID", "cus_123", "expected cus_ followed by 24 letters or digits"}},
		{name: "import customer/wrong kind of id", config: aCustomer(""), importTo: "payments_customer.bad", importID: srcZeros,
			expect: []string{"Invalid Customer Import ID", "expected cus_ followed by 24 letters or digits"}},
		{name: "import customer/too long", config: aCustomer(""), importTo: "payments_customer.bad", importID: "cus_" + strings.Repeat("x", 500),
			expect: []string{"Invalid Customer Import ID", "expected cus_ followed by 24 letters or digits"}},
		{name: "import customer/unknown", config: aCustomer(""), importTo: "payments_customer.bad", importID: cusZeros,
			expect: []string{"Cannot import non-existent remote object"}},
		{name: "import source/no separator", config: aSource(cusZeros, sandbox.TokenVisa), importTo: "payments_customer_source.bad", importID: cusZeros,
			expect: []string{"Invalid Customer Source Import ID", "<customer id>/<source id>", "for example"}},
		{name: "import source/reversed", config: aSource(cusZeros, sandbox.TokenVisa), importTo: "payments_customer_source.bad", importID: srcZeros + "/" + cusZeros,
			expect: []string{"Invalid Customer Source Import ID", "<customer id>/<source id>"}},
		{name: "import source/unknown", config: aSource(cusZeros, sandbox.TokenVisa), importTo: "payments_customer_source.bad", importID: cusZeros + "/" + srcZeros,
			expect: []string{"Cannot import non-existent remote object"}},
		{name: "import source/a key pasted as the id", config: aSource(cusZeros, sandbox.TokenVisa), importTo: "payments_customer_source.bad",
			importID: "sk_sandbox_notarealkey1234/" + srcZeros,
			expect:   []string{"Invalid Customer Source Import ID", wire.RedactedKey}},
	}
}

// TestAccProvider_BadInput runs every invalid input of badInputCases.
func TestAccProvider_BadInput(t *testing.T) {
	cases := badInputCases()
	if len(cases) < 30 {
		t.Fatalf("only %d bad inputs; the table must hold at least 30", len(cases))
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			acct := newTestAccAccount(t)
			providerBlock := acct.ProviderConfig()
			if tc.provider != "" {
				providerBlock = fmt.Sprintf(tc.provider, acct.URL, acct.Key)
			}
			step := resource.TestStep{
				Config:      providerBlock + tc.config,
				ExpectError: phrasesRegexp(tc.expect...),
			}
			switch {
			case tc.importTo != "":
				step.ResourceName = tc.importTo
				step.ImportState = true
				step.ImportStateId = tc.importID
			case !tc.apply:
				step.PlanOnly = true
			}
			resource.ParallelTest(t, resource.TestCase{
				PreCheck:                 func() { testAccPreCheck(t) },
				ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
				Steps:                    []resource.TestStep{step},
			})

			st, err := sandboxclient.New(acct.Client).Stats(context.Background())
			if err != nil {
				t.Fatalf("reading stats: %v", err)
			}
			if st.Customers != 0 || st.Sources != 0 || st.Payments != 0 {
				t.Errorf("a bad input left %d customers, %d sources and %d payments at the service, want none",
					st.Customers, st.Sources, st.Payments)
			}
		})
	}
}

// phrasesRegexp matches text holding each phrase in order, where a space in
// a phrase matches any run of white space (Terraform wraps long lines)
// and Terraform's box-drawing margin.
func phrasesRegexp(phrases ...string) *regexp.Regexp {
	parts := make([]string, len(phrases))
	for i, p := range phrases {
		words := strings.Fields(p)
		for j, w := range words {
			words[j] = regexp.QuoteMeta(w)
		}
		parts[i] = strings.Join(words, `[\s│]+`)
	}
	return regexp.MustCompile(`(?s)` + strings.Join(parts, `.*`))
}
