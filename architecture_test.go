package main

import (
	"os/exec"
	"strings"
	"testing"
)

// TestArchitecture_Doors checks the one-way doors of ARCHITECTURE.md with
// `go list -deps`, on what ships (tests excluded): provider → client →
// wire ← sandbox, and nothing of Terraform below the provider.
func TestArchitecture_Doors(t *testing.T) {
	const mod = "github.com/paymentsdev/terraform-provider-payments/"
	for _, tc := range []struct {
		pkg    string
		denied []string
	}{
		{"./internal/wire", []string{mod + "internal/client", mod + "internal/sandbox", mod + "internal/provider", "github.com/hashicorp/terraform-plugin"}},
		{"./internal/sandbox", []string{mod + "internal/client", mod + "internal/provider", mod + "internal/sandbox/dashboard", "github.com/hashicorp/terraform-plugin"}},
		{"./internal/sandbox/dashboard", []string{mod + "internal/client", mod + "internal/provider", "github.com/hashicorp/terraform-plugin"}},
		{"./internal/client", []string{mod + "internal/sandbox", mod + "internal/provider", "github.com/hashicorp/terraform-plugin"}},
		{"./internal/provider", []string{mod + "internal/sandbox", mod + "internal/tfcli", mod + "api"}},
		{".", []string{mod + "internal/sandbox", mod + "internal/tfcli", mod + "api", "github.com/getkin/kin-openapi"}},
	} {
		out, err := exec.Command("go", "list", "-deps", tc.pkg).Output()
		if err != nil {
			t.Fatalf("go list -deps %s: %v", tc.pkg, err)
		}
		for dep := range strings.FieldsSeq(string(out)) {
			for _, d := range tc.denied {
				if dep == d || strings.HasPrefix(dep, strings.TrimSuffix(d, "/")+"/") || (strings.HasSuffix(d, "terraform-plugin") && strings.HasPrefix(dep, d)) {
					t.Errorf("%s imports %s (through %s): the doors of ARCHITECTURE.md forbid it", tc.pkg, d, dep)
				}
			}
		}
	}
}
