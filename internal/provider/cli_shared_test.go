package provider

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	tfjson "github.com/hashicorp/terraform-json"
)

// sharedProvider is one provider binary for every CLI test of the test
// binary that does not need its own: building it takes a while on small
// machines. TestMain removes it.
var sharedProvider struct {
	once sync.Once
	dir  string
	err  error
	out  []byte
}

// sharedProviderBinary builds the provider once and returns the directory
// holding it, ready for newTFCLI.
func sharedProviderBinary(t *testing.T) string {
	t.Helper()
	sharedProvider.once.Do(func() {
		// Not t.TempDir: the binary outlives the test that builds it; TestMain removes it.
		dir, err := os.MkdirTemp("", "terraform-provider-payments-cli-") //nolint:usetesting // shared by every CLI test
		if err != nil {
			sharedProvider.err = err
			return
		}
		sharedProvider.dir = dir
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, "go", "build", "-o", filepath.Join(dir, "terraform-provider-payments"),
			"github.com/paymentsdev/terraform-provider-payments")
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
		sharedProvider.out, sharedProvider.err = cmd.CombinedOutput()
	})
	if sharedProvider.err != nil {
		t.Fatalf("building the provider: %v\n%s", sharedProvider.err, sharedProvider.out)
	}
	return sharedProvider.dir
}

// removeSharedProviderBinary is TestMain's cleanup.
func removeSharedProviderBinary() {
	if sharedProvider.dir != "" {
		_ = os.RemoveAll(sharedProvider.dir)
	}
}

// skipUnlessAcc skips a CLI test unless acceptance tests are asked for.
func skipUnlessAcc(t *testing.T) {
	t.Helper()
	if os.Getenv("TF_ACC") == "" {
		t.Skip("acceptance test: set TF_ACC=1")
	}
	testAccPreCheck(t)
}

// cliRequiredProviders is the terraform block every CLI test's
// configuration starts with, for the dev_overrides of newTFCLI.
const cliRequiredProviders = `
terraform {
  required_providers {
    payments = {
      source = "paymentsdev/payments"
    }
  }
}
`

// writeFiles writes files (name -> content) into the working directory.
// A guide's whole configuration declares the provider itself, as a user
// copies it; then the test's own cliRequiredProviders is left out, since
// Terraform takes one required_providers block a module.
func (c *tfCLI) writeFiles(files map[string]string) {
	c.t.Helper()
	declaring := 0
	for _, content := range files {
		if strings.Contains(content, "required_providers") {
			declaring++
		}
	}
	for name, content := range files {
		if declaring > 1 && strings.HasPrefix(content, cliRequiredProviders) {
			declaring--
			content = strings.TrimPrefix(content, cliRequiredProviders)
			if strings.TrimSpace(content) == "" {
				continue
			}
		}
		writeFile(c.t, filepath.Join(c.dir, name), content)
	}
}

// removeFile removes one file of the working directory.
func (c *tfCLI) removeFile(name string) {
	c.t.Helper()
	if err := os.Remove(filepath.Join(c.dir, name)); err != nil {
		c.t.Fatal(err)
	}
}

// planJSON runs terraform plan with args, saving the plan, and returns the
// plan as JSON and the command's human output.
func (c *tfCLI) planJSON(args ...string) (*tfjson.Plan, string) {
	c.t.Helper()
	out := c.mustRun(append([]string{"plan", "-no-color", "-input=false", "-out=cli-test.tfplan"}, args...)...)
	var plan tfjson.Plan
	c.json(&plan, "show", "-json", "cli-test.tfplan")
	return &plan, out
}

// outputs returns the root module's outputs, as `terraform output -json`
// gives them.
func (c *tfCLI) outputs() map[string]any {
	c.t.Helper()
	var raw map[string]struct {
		Value any `json:"value"`
	}
	c.json(&raw, "output", "-json")
	out := make(map[string]any, len(raw))
	for k, v := range raw {
		out[k] = v.Value
	}
	return out
}

// oneLine folds Terraform's wrapped, boxed output into single spaces, so
// that phrases can be searched for whatever the terminal width.
func oneLine(s string) string {
	return strings.Join(strings.Fields(strings.ReplaceAll(s, "│", " ")), " ")
}

// dirProvider returns the provider directory of c's CLI configuration, for
// another working directory with the same provider.
func (c *tfCLI) dirProvider() string {
	c.t.Helper()
	return sharedProviderBinary(c.t)
}
