package main

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"
)

// providerSource is a required_providers entry naming this provider.
var providerSource = regexp.MustCompile(`(?s)required_providers\s*\{.*?payments\s*=\s*\{[^}]*source\s*=\s*"paymentsdev/payments"`)

// TestExamples_GuideConfigurationsNameTheProvider: a guide's whole
// configuration (a folder of examples/guides with a main.tf, and the quick
// start) declares source = "paymentsdev/payments". Copied into a folder of
// its own without it, Terraform looks for hashicorp/payments and the first
// command fails ("Inconsistent dependency lock file"), as it did for a
// reader applying the webhook guide's endpoint.
func TestExamples_GuideConfigurationsNameTheProvider(t *testing.T) {
	dirs, err := filepath.Glob("examples/guides/*/main.tf")
	if err != nil {
		t.Fatal(err)
	}
	dirs = append(dirs, "examples/quickstart/main.tf")
	if len(dirs) < 5 {
		t.Fatalf("found only %v: has examples/guides moved?", dirs)
	}
	for _, main := range dirs {
		dir := filepath.Dir(main)
		files, err := filepath.Glob(filepath.Join(dir, "*.tf"))
		if err != nil {
			t.Fatal(err)
		}
		found := false
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			found = found || providerSource.Match(b)
		}
		if !found {
			t.Errorf("%s: no required_providers block with payments = { source = \"paymentsdev/payments\" }; add one to main.tf", dir)
		}
	}
}
