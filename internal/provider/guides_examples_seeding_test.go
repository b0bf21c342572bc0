package provider

import (
	"encoding/json"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/paymentsdev/terraform-provider-payments/internal/client"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandboxclient"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// testGuideSeeding applies the seeding guide's history: each row is one
// payment in the status and amount its row asks for, a second plan charges
// nothing, and destroy refunds what is left. Its cards are tokenized by
// payments_card_token and handed to write-only arguments, so neither the
// state nor the plan may hold a token or a card number. The guide's actions
// file needs Terraform 1.14 and is covered by the action tests.
func testGuideSeeding(t *testing.T, acct *testAccAccount, tf *tfCLI) {
	tf.writeFiles(map[string]string{
		"provider.tf": cliRequiredProviders + acct.ProviderConfig(),
		"main.tf":     guideExample(t, "seeding-test-environments", "main.tf"),
	})
	tf.mustRun("apply", "-auto-approve", "-no-color")
	ids, _ := tf.outputs()["payment_ids"].(map[string]any)
	want := map[string]string{
		"ada-2026-01": "25.00 USD approved", "ada-2026-02": "25.00 USD refunded", "ada-2026-03": "3000 JPY approved",
		"grace-deposit": "200.00 EUR authorized", "grace-3ds": "15.00 EUR pending",
	}
	if len(ids) != len(want) {
		t.Fatalf("output payment_ids = %v, want %d payments", ids, len(want))
	}
	for k, status := range want {
		if v, _ := ids[k].(string); !strings.HasSuffix(v, " "+status) {
			t.Errorf("payment %s = %q, want amount and status %q", k, v, status)
		}
	}
	stats := func() *wire.Stats {
		s, err := sandboxclient.New(acct.Client).Stats(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	if out := tf.mustRun("plan", "-no-color"); !strings.Contains(out, "No changes.") {
		t.Errorf("the second plan is not empty:\n%s", out)
	}
	// The rows charged the stored cards (Visa for Ada, Mastercard for
	// Grace), and the 3-D Secure row its own card.
	wantLast4 := map[string]string{"January": "4242", "February": "4242", "March, in yen": "4242", "Deposit": "4444", "Add-on": "3220"}
	for p, err := range acct.Client.AllPayments(t.Context(), nil) {
		if err != nil {
			t.Fatal(err)
		}
		if p.Source == nil || p.Source.Last4 != wantLast4[p.Description] {
			t.Errorf("payment %s (%s) charged %+v, want the card ending %s", p.ID, p.Description, p.Source, wantLast4[p.Description])
		}
	}
	tf.mustRun("plan", "-out=tfplan", "-no-color")
	var state, plan json.RawMessage
	tf.json(&state, "show", "-json")
	tf.json(&plan, "show", "-json", "tfplan")
	if len(tf.state()) == 0 {
		t.Fatal("terraform show -json holds no resources; the check for card data would prove nothing")
	}
	places := map[string]string{
		"state (terraform show -json)":      string(state),
		"saved plan (terraform show -json)": string(plan),
		"terraform.tfstate":                 readFileIfExists(t, filepath.Join(tf.dir, "terraform.tfstate")),
	}
	assertNoCardData(t, places, slices.Collect(maps.Keys(sandbox.TestCardNumbers)), nil)
	for place, content := range places {
		if strings.Contains(content, wire.TokenIDPrefix) {
			t.Errorf("%s holds a token id (%s…)", place, wire.TokenIDPrefix)
		}
	}
	tf.mustRun("destroy", "-auto-approve", "-no-color")
	if s := stats(); s.Payments != int64(len(want)) {
		t.Errorf("the sandbox holds %d payments after destroy, want the %d seeded (payments are kept)", s.Payments, len(want))
	}
	for p, err := range acct.Client.AllPayments(t.Context(), nil) {
		if err != nil {
			t.Fatal(err)
		}
		if p.Status == wire.PaymentStatusApproved {
			t.Errorf("payment %s (%s) is still approved after destroy with refund_on_destroy", p.ID, p.Description)
		}
	}
}

// testGuideRateLimits applies the rate-limit guide's 80 customers against
// a sandbox limited to the rate the example names: nothing is missing or
// duplicated, and almost nothing is refused.
func testGuideRateLimits(t *testing.T, acct *testAccAccount, tf *tfCLI) {
	limit := int64(25)
	if _, err := sandboxclient.New(acct.Client).SetFaults(t.Context(), sandboxclient.FaultsParams{RateLimit: &limit}); err != nil {
		t.Fatal(err)
	}
	tf.writeFiles(map[string]string{
		"versions.tf": cliRequiredProviders,
		"main.tf":     guideExample(t, "rate-limits", "main.tf", `base_url                = "https://api.payments.example"`, `base_url = "`+acct.URL+`"`),
	})
	tf.mustRunEnv([]string{EnvSecretKey + "=" + acct.Key}, "apply", "-auto-approve", "-no-color")
	s, err := sandboxclient.New(acct.Client).Stats(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if s.Customers != 80 {
		t.Errorf("the sandbox holds %d customers, want the example's 80", s.Customers)
	}
	// max_requests_per_second at the account's limit: at most 1% refused
	// is the target; a loaded test machine gets some slack.
	if s.Faults.RateLimited > s.Requests.Total/20 {
		t.Errorf("%d of %d requests were refused with 429, want at most 5%%", s.Faults.RateLimited, s.Requests.Total)
	}
	tf.mustRunEnv([]string{EnvSecretKey + "=" + acct.Key}, "destroy", "-auto-approve", "-no-color")
}

// testGuideTestingWebhooks follows the webhook guide: Terraform creates the
// endpoint for a receiver on this machine, the secret comes out of
// `terraform output`, and a payment made through the API reaches the
// receiver signed with it.
func testGuideTestingWebhooks(t *testing.T, acct *testAccAccount, tf *tfCLI) {
	got := make(chan error, 16)
	var secret atomic.Pointer[string]
	secret.Store(new(""))
	recv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var ev struct {
			Type string `json:"type"`
		}
		err := wire.VerifySignature(r.Header.Get(wire.HeaderSignature), *secret.Load(), body, wire.SignatureTolerance, time.Now())
		if err == nil && json.Unmarshal(body, &ev) == nil && ev.Type == wire.EventPaymentApproved {
			got <- nil
		} else if err != nil {
			got <- err
		}
		w.WriteHeader(http.StatusOK)
	}))
	t.Cleanup(recv.Close)
	tf.writeFiles(map[string]string{
		"versions.tf": cliRequiredProviders,
		"main.tf":     guideExample(t, "testing-webhooks", "main.tf", "http://127.0.0.1:4242/webhooks", recv.URL+"/webhooks"),
	})
	env := []string{EnvSecretKey + "=" + acct.Key, EnvBaseURL + "=" + acct.URL}
	tf.mustRunEnv(env, "apply", "-auto-approve", "-no-color")
	out, _ := tf.outputs()["webhook_secret"].(string)
	if !strings.HasPrefix(out, wire.WebhookSecretPrefix) {
		t.Fatalf("output webhook_secret is not a signing secret (%d characters)", len(out))
	}
	secret.Store(&out)
	testAccCreatePayment(t, acct.Client, client.PaymentParams{Amount: 1000, Currency: "USD", Source: sandbox.TokenVisa})
	select {
	case err := <-got:
		if err != nil {
			t.Errorf("the receiver could not verify the delivery with the secret from terraform output: %v", err)
		}
	case <-time.After(30 * time.Second):
		t.Error("no payment.approved delivery reached the receiver within 30 s")
	}
	tf.mustRunEnv(env, "destroy", "-auto-approve", "-no-color")
}

// mustRunEnv runs the CLI with extra environment variables and fails the
// test when it exits non-zero.
func (c *tfCLI) mustRunEnv(env []string, args ...string) string {
	c.t.Helper()
	out, code := c.runEnv(env, args...)
	if code != 0 {
		c.t.Fatalf("terraform %s: exit %d\n%s", strings.Join(args, " "), code, out)
	}
	return out
}
