package provider

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// TestAccCustomer_CLICardChangesNoOutsideNote runs the real CLI as a user
// does, with outputs holding the whole customer: storing a card, moving the
// default and removing cards through Terraform leave the next plan at "No
// changes", with no "changed outside of Terraform" note; a rename plans one
// change.
func TestAccCustomer_CLICardChangesNoOutsideNote(t *testing.T) {
	skipUnlessAcc(t)
	t.Parallel()
	acct := newTestAccAccount(t)
	tf := newTFCLI(t, sharedProviderBinary(t))
	config := func(name, cards string) string {
		return cliRequiredProviders + acct.ProviderConfig() + fmt.Sprintf(`
resource "payments_customer" "test" {
  name = %q
}

output "customer" {
  value = payments_customer.test
}

output "customer_id" {
  value = payments_customer.test.id
}
`, name) + cards
	}
	card := func(name, token string, isDefault bool) string {
		return fmt.Sprintf(`
resource "payments_customer_source" %q {
  customer = payments_customer.test.id
  token    = %q
  default  = %t
}
`, name, token, isDefault)
	}
	steps := []struct{ what, config string }{
		{"a customer", config("Cli", "")},
		{"a first card", config("Cli", card("a", "tok_visa", false))},
		{"a second card, made the default", config("Cli", card("a", "tok_visa", false)+card("b", "tok_mastercard", true))},
		{"the default moved back", config("Cli", card("a", "tok_visa", true)+card("b", "tok_mastercard", false))},
		{"the default card removed", config("Cli", card("b", "tok_mastercard", false))},
		{"every card removed", config("Cli", "")},
	}
	for _, s := range steps {
		tf.writeConfig(s.config)
		tf.mustRun("apply", "-auto-approve", "-no-color")
		out := tf.mustRun("plan", "-no-color")
		if !strings.Contains(out, "No changes.") {
			t.Errorf("after applying %s, the plan is not empty:\n%s", s.what, out)
		}
		if strings.Contains(out, "changed outside of Terraform") {
			t.Errorf("after applying %s, the plan says something changed outside of Terraform:\n%s", s.what, out)
		}
	}

	// A rename: one attribute, nothing unknown, no other output changes.
	tf.writeConfig(config("Cli Renamed", ""))
	plan, out := tf.planJSON()
	if !strings.Contains(out, "1 to change") || strings.Contains(out, "known after apply") {
		t.Errorf("the rename's plan is not one change with nothing unknown:\n%s", out)
	}
	for name, oc := range plan.OutputChanges {
		if name != "customer" && !oc.Actions.NoOp() {
			t.Errorf("output %s changes with the rename: %v", name, oc.Actions)
		}
	}
	tf.mustRun("destroy", "-auto-approve", "-no-color")
}

// TestAccCustomer_CLIApplyWithoutRefreshAfterDelete: with the customer
// deleted behind Terraform's back, `apply -refresh=false` fails saying
// what happened, naming the ids, and what to do; doing it (apply
// -refresh-only) recovers.
func TestAccCustomer_CLIApplyWithoutRefreshAfterDelete(t *testing.T) {
	skipUnlessAcc(t)
	t.Parallel()
	acct := newTestAccAccount(t)
	tf := newTFCLI(t, sharedProviderBinary(t))
	config := func(name string, isDefault bool) string {
		return cliRequiredProviders + acct.ProviderConfig() + fmt.Sprintf(`
resource "payments_customer" "test" {
  name = %q
}

resource "payments_customer_source" "test" {
  customer = payments_customer.test.id
  token    = "tok_visa"
  default  = %t
}
`, name, isDefault)
	}
	tf.writeConfig(config("Before", false))
	tf.mustRun("apply", "-auto-approve", "-no-color")
	var customerID string
	for _, r := range tf.state() {
		if r.Type == "payments_customer" {
			customerID, _ = r.Values["id"].(string)
		}
	}
	if _, err := acct.Client.DeleteCustomer(context.Background(), customerID); err != nil {
		t.Fatalf("deleting customer %s behind Terraform's back: %v", customerID, err)
	}

	tf.writeConfig(config("After", true))
	out, code := tf.run("apply", "-refresh=false", "-auto-approve", "-no-color")
	if code == 0 {
		t.Fatalf("apply -refresh=false on a deleted customer succeeded:\n%s", out)
	}
	flat := oneLine(out)
	for _, want := range []string{
		"Error Updating Customer",
		"Customer " + customerID + " no longer exists at the service",
		"deleted outside of Terraform",
		"terraform apply -refresh-only",
	} {
		if !strings.Contains(flat, want) {
			t.Errorf("the error does not say %q:\n%s", want, out)
		}
	}

	tf.mustRun("apply", "-refresh-only", "-auto-approve", "-no-color")
	if st := tf.state(); len(st) != 0 {
		t.Errorf("after apply -refresh-only the state still holds %d resources", len(st))
	}
	out = tf.mustRun("plan", "-no-color")
	if !strings.Contains(out, "2 to add, 0 to change, 0 to destroy") {
		t.Errorf("after the refresh the plan does not create both again:\n%s", out)
	}

	// The card deleted behind Terraform's back, then made the default
	// without a refresh: the same kind of message, naming the card.
	tf.writeConfig(config("After", false))
	tf.mustRun("apply", "-auto-approve", "-no-color")
	var sourceID string
	for _, r := range tf.state() {
		switch r.Type {
		case "payments_customer":
			customerID, _ = r.Values["id"].(string)
		case "payments_customer_source":
			sourceID, _ = r.Values["id"].(string)
		}
	}
	if _, err := acct.Client.DeleteSource(context.Background(), customerID, sourceID); err != nil {
		t.Fatalf("deleting source %s behind Terraform's back: %v", sourceID, err)
	}
	tf.writeConfig(config("After", true))
	out, code = tf.run("apply", "-refresh=false", "-auto-approve", "-no-color")
	if code == 0 {
		t.Fatalf("apply -refresh=false on a deleted card succeeded:\n%s", out)
	}
	flat = oneLine(out)
	for _, want := range []string{
		"Error Making Customer Source the Default",
		"Source " + sourceID + " of customer " + customerID,
		"no longer exists at the service",
		"terraform apply -refresh-only",
	} {
		if !strings.Contains(flat, want) {
			t.Errorf("the error does not say %q:\n%s", want, out)
		}
	}
	tf.mustRun("destroy", "-auto-approve", "-no-color")
}
