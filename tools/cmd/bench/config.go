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

// resourcesPerCustomer is how many resources one customer brings: the
// customer and its card.
const resourcesPerCustomer = 2

// generateConfig returns a configuration of n customers, each with a card
// attached, for provider p: 2n resources, the cards depending on their
// customers. Both providers get the same shape, so their times compare.
func generateConfig(p providerSpec, n int) string {
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
	}
	return b.String()
}

// writeConfig writes the configuration of n customers for p into a fresh
// directory dir, removing any state left by an earlier run.
func writeConfig(dir string, p providerSpec, n int) error {
	if err := os.RemoveAll(dir); err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "main.tf"), []byte(generateConfig(p, n)), 0o644)
}
