package main

import (
	"encoding/json"
	"regexp"
	"testing"

	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// TestDocs_StripeGuideStatesTheWireAndThePins keeps the guide to Stripe's
// libraries in step with internal/wire and with the library versions the
// examples it describes pin.
func TestDocs_StripeGuideStatesTheWireAndThePins(t *testing.T) {
	const guide = "templates/guides/testing-stripe-libraries.md.tmpl"
	var pkg struct {
		Dependencies map[string]string `json:"dependencies"`
	}
	if err := json.Unmarshal([]byte(readFile(t, "examples/stripe-node/package.json")), &pkg); err != nil {
		t.Fatalf("examples/stripe-node/package.json: %v", err)
	}
	node := pkg.Dependencies["stripe"]
	if !regexp.MustCompile(`^\d+\.\d+\.\d+$`).MatchString(node) {
		t.Fatalf("examples/stripe-node/package.json pins stripe %q; want an exact version", node)
	}
	m := regexp.MustCompile(`(?m)^require github\.com/stripe/stripe-go/v\d+ (v\S+)$`).FindStringSubmatch(readFile(t, "examples/stripe-go/go.mod"))
	if m == nil {
		t.Fatal("examples/stripe-go/go.mod requires no stripe-go on a line of its own")
	}
	requireContains(t, guide, readFile(t, guide),
		"stripe-node "+node+" pinned",
		"stripe-go "+m[1],
		"`"+wire.HeaderSignature+"`",
		"`"+wire.APIVersion+"`",
	)
}
