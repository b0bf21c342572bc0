package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox"
	"github.com/paymentsdev/terraform-provider-payments/internal/tfcli"
)

// providerSpec names a provider in generated configurations: its local name
// (also the prefix of its resource types), its registry source, where
// dev_overrides finds its binary, and the body of its provider block.
type providerSpec struct {
	Local  string
	Source string
	Dir    string
	Block  string
}

// override serves p from its directory through dev_overrides.
func (p providerSpec) override() tfcli.Override {
	return tfcli.Override{Source: p.Source, Dir: p.Dir}
}

// mix is what each of the N customers of a configuration brings.
type mix string

const (
	// mixCards: the customer and its card (2 resources).
	mixCards mix = "cards"
	// mixSubscriptions: the customer, its card, a product, the product's
	// monthly price and the customer's subscription to it, charged to the
	// card (5 resources).
	mixSubscriptions mix = "subscriptions"
)

// mixes are the -mix values, in the order the help lists them.
var mixes = []mix{mixCards, mixSubscriptions}

// perCustomer is how many resources one customer brings.
func (m mix) perCustomer() int {
	if m == mixSubscriptions {
		return 5
	}
	return 2
}

// generateConfig returns a configuration of n customers for provider p,
// each with a card attached and, with mixSubscriptions, a plan of its own
// that it subscribes to: n × m.perCustomer() resources, each depending on
// the ones before it. Both providers get the same shape, so their times
// compare; every resource is one request to create, read or destroy.
func generateConfig(p providerSpec, n int, m mix) string {
	var b strings.Builder
	fmt.Fprintf(&b, "terraform {\n  required_providers {\n    %s = {\n      source = %q\n    }\n  }\n}\n\n", p.Local, p.Source)
	fmt.Fprintf(&b, "provider %q {\n", p.Local)
	for line := range strings.Lines(p.Block) {
		if line = strings.TrimRight(line, "\n"); line != "" {
			b.WriteString("  " + line)
		}
		b.WriteString("\n")
	}
	b.WriteString("}\n")
	for i := range n {
		fmt.Fprintf(&b, `
resource "%[1]s_customer" "c%[2]d" {
  email = "customer%[2]d@example.com"
  name  = "Bench Customer %[2]d"
  metadata = {
    seed  = "bench"
    index = "%[2]d"
  }
}

resource "%[1]s_customer_source" "c%[2]d" {
  customer = %[1]s_customer.c%[2]d.id
  token    = %[3]q
}
`, p.Local, i, sandbox.TokenVisa)
		if m != mixSubscriptions {
			continue
		}
		fmt.Fprintf(&b, `
resource "%[1]s_product" "c%[2]d" {
  name = "Bench Plan %[2]d"
}

resource "%[1]s_price" "c%[2]d" {
  product     = %[1]s_product.c%[2]d.id
  currency    = "USD"
  unit_amount = %[3]d
  interval    = "month"
}

resource "%[1]s_subscription" "c%[2]d" {
  customer       = %[1]s_customer.c%[2]d.id
  default_source = %[1]s_customer_source.c%[2]d.id
  items          = [{ price = %[1]s_price.c%[2]d.id, quantity = 1 }]
  metadata = {
    seed = "bench"
  }
}
`, p.Local, i, 1000+i)
	}
	return b.String()
}

// writeConfig writes the configuration of n customers of mix m for p into
// a fresh directory dir, removing any state left by an earlier run.
func writeConfig(dir string, p providerSpec, n int, m mix) error {
	if err := os.RemoveAll(dir); err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "main.tf"), []byte(generateConfig(p, n, m)), 0o644)
}
