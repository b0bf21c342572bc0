package main

import (
	"os/exec"
	"strings"
	"testing"
)

// TestArchitecture_Doors checks the one-way doors of ARCHITECTURE.md with
// `go list -deps`, on what ships (tests excluded): provider → client →
// wire ← sandbox → storage, delivery, clock and its operational rooms, and nothing of Terraform
// below the provider.
// A denied path ending in "$" denies that package alone, not those under
// it.
func TestArchitecture_Doors(t *testing.T) {
	const mod = "github.com/paymentsdev/terraform-provider-payments/"
	opsDenied := []string{mod + "internal/sandbox$", mod + "internal/sandbox/dashboard", mod + "internal/sandbox/sandboxtest",
		mod + "internal/sandbox/storage", mod + "internal/sandbox/delivery", mod + "internal/client", mod + "internal/provider", "github.com/hashicorp/terraform-plugin"}
	for _, tc := range []struct {
		pkg    string
		denied []string
	}{
		{"./internal/wire", []string{mod + "internal/client", mod + "internal/sandbox", mod + "internal/provider", "github.com/hashicorp/terraform-plugin"}},
		{"./internal/sandbox", []string{mod + "internal/client", mod + "internal/provider", mod + "internal/sandbox/dashboard", "github.com/hashicorp/terraform-plugin"}},
		// The storage engine keeps records and knows nothing of what they
		// mean: none of the sandbox's handlers, no wire facts, no HTTP.
		{"./internal/sandbox/storage", []string{mod + "internal/sandbox$", mod + "internal/sandbox/dashboard", mod + "internal/sandbox/sandboxtest",
			mod + "internal/sandbox/model", mod + "internal/wire", mod + "internal/client", mod + "internal/provider", "net/http", "github.com/hashicorp/terraform-plugin"}},
		// The delivery engine reaches accounts and the store through the
		// interfaces it defines: none of the sandbox's handlers, nor its
		// storage engine.
		{"./internal/sandbox/delivery", []string{mod + "internal/sandbox$", mod + "internal/sandbox/dashboard", mod + "internal/sandbox/sandboxtest",
			mod + "internal/sandbox/storage", mod + "internal/client", mod + "internal/provider", "github.com/hashicorp/terraform-plugin"}},
		// The renewal engine reaches subscriptions through the ledger it
		// defines and waits on the clock: none of the sandbox's handlers,
		// its storage engine, the wire or HTTP.
		{"./internal/sandbox/billing", []string{mod + "internal/sandbox$", mod + "internal/sandbox/dashboard", mod + "internal/sandbox/sandboxtest",
			mod + "internal/sandbox/storage", mod + "internal/sandbox/delivery", mod + "internal/wire", mod + "internal/client", mod + "internal/provider",
			"net/http", "github.com/hashicorp/terraform-plugin"}},
		// The object model is the account's objects, their records, sizes
		// and JSON: none of the handlers, the engines or HTTP.
		{"./internal/sandbox/model", append(opsDenied, mod+"internal/sandbox/billing", mod+"internal/sandbox/form",
			mod+"internal/sandbox/apierr", mod+"internal/sandbox/listing", mod+"internal/sandbox/idem", "net/http")},
		// The clock is time alone: it imports nothing of the project.
		{"./internal/sandbox/clock", []string{mod + "internal/wire", mod + "internal/sandbox$", mod + "internal/sandbox/storage", mod + "internal/sandbox/delivery",
			mod + "internal/sandbox/dashboard", mod + "internal/client", mod + "internal/provider", "net/http", "github.com/hashicorp/terraform-plugin"}},
		// The sandbox's operational rooms know nothing of its handlers,
		// nor of each other's engines.
		{"./internal/sandbox/bytesize", opsDenied},
		{"./internal/sandbox/faults", opsDenied},
		{"./internal/sandbox/ids", opsDenied},
		{"./internal/sandbox/jsonw", opsDenied},
		{"./internal/sandbox/keys", opsDenied},
		{"./internal/sandbox/logmask", opsDenied},
		{"./internal/sandbox/metrics", opsDenied},
		{"./internal/sandbox/reqlog", opsDenied},
		// The API's input and its refusals know nothing of the handlers
		// nor of the engines.
		{"./internal/sandbox/apierr", append(opsDenied, mod+"internal/sandbox/billing", mod+"internal/sandbox/form")},
		{"./internal/sandbox/form", append(opsDenied, mod+"internal/sandbox/billing")},
		{"./internal/sandbox/listing", append(opsDenied, mod+"internal/sandbox/billing")},
		{"./internal/sandbox/idem", append(opsDenied, mod+"internal/sandbox/billing", mod+"internal/sandbox/listing")},
		{"./internal/sandbox/dashboard", []string{mod + "internal/client", mod + "internal/provider", "github.com/hashicorp/terraform-plugin"}},
		{"./internal/client", []string{mod + "internal/sandbox", mod + "internal/provider", "github.com/hashicorp/terraform-plugin"}},
		// The create journal and the parent watch are the plugin process's:
		// nothing of the service, of Terraform or of the other rooms.
		{"./internal/journal", []string{mod + "internal/wire", mod + "internal/client", mod + "internal/provider", mod + "internal/sandbox", "github.com/hashicorp/terraform-plugin", "net/http"}},
		{"./internal/parentwatch", []string{mod + "internal/wire", mod + "internal/client", mod + "internal/provider", mod + "internal/sandbox", "github.com/hashicorp/terraform-plugin", "net/http"}},
		{"./internal/provider", []string{mod + "internal/sandbox", mod + "internal/tfcli", mod + "api"}},
		{".", []string{mod + "internal/sandbox", mod + "internal/tfcli", mod + "api", "github.com/getkin/kin-openapi"}},
	} {
		out, err := exec.Command("go", "list", "-deps", tc.pkg).Output()
		if err != nil {
			t.Fatalf("go list -deps %s: %v", tc.pkg, err)
		}
		for dep := range strings.FieldsSeq(string(out)) {
			for _, d := range tc.denied {
				if exact, ok := strings.CutSuffix(d, "$"); ok {
					if dep == exact {
						t.Errorf("%s imports %s: the doors of ARCHITECTURE.md forbid it", tc.pkg, exact)
					}
					continue
				}
				if dep == d || strings.HasPrefix(dep, strings.TrimSuffix(d, "/")+"/") || (strings.HasSuffix(d, "terraform-plugin") && strings.HasPrefix(dep, d)) {
					t.Errorf("%s imports %s (through %s): the doors of ARCHITECTURE.md forbid it", tc.pkg, d, dep)
				}
			}
		}
	}
}
