package provider

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"
	"github.com/paymentsdev/terraform-provider-payments/internal/tfcli"
)

// The acceptance tests run on Terraform and on OpenTofu (see `make test`):
// TF_ACC_TERRAFORM_PATH names the CLI, as terraform-plugin-testing reads
// it, and the terraform on PATH is the default. OpenTofu numbers its
// versions on its own scale (OpenTofu 1.12 is not Terraform 1.12), so
// tfversion checks by number say nothing about it: a test of a feature only
// Terraform has skips on OpenTofu explicitly, with skipOnOpenTofu or the
// skipOpenTofu version check.

const (
	// terraformRegistryHost and openTofuRegistryHost are the hosts each CLI
	// gives a provider source without one ("paymentsdev/payments").
	terraformRegistryHost = "registry.terraform.io"
	openTofuRegistryHost  = "registry.opentofu.org"
)

// cliIdentity is what the acceptance tests' CLI says it is.
type cliIdentity struct {
	Path     string
	Name     string // "Terraform" or "OpenTofu"
	Version  string // without the leading v
	OpenTofu bool
}

var (
	cliIdentityOnce   sync.Once
	cliIdentityResult cliIdentity
	cliIdentityErr    error
)

// acceptanceCLI runs `<cli> version` once per test binary and reports which
// CLI it is. Both print "<Name> v<version>" on their first line; OpenTofu's
// `version -json` has no field that tells it from Terraform.
func acceptanceCLI() (cliIdentity, error) {
	cliIdentityOnce.Do(func() {
		cliIdentityResult, cliIdentityErr = identifyCLI()
	})
	return cliIdentityResult, cliIdentityErr
}

func identifyCLI() (cliIdentity, error) {
	// The CLI terraform-plugin-testing runs: TF_ACC_TERRAFORM_PATH, or
	// terraform on PATH.
	path, err := tfcli.Binary("")
	if err != nil {
		return cliIdentity{}, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, path, "version")
	cmd.Env = append(os.Environ(), "CHECKPOINT_DISABLE=1")
	out, err := cmd.Output()
	if err != nil {
		return cliIdentity{}, fmt.Errorf("running %s version: %w", path, err)
	}
	id, err := parseCLIVersion(string(out))
	if err != nil {
		return cliIdentity{}, fmt.Errorf("%s version: %w", path, err)
	}
	id.Path = path
	return id, nil
}

// parseCLIVersion finds the "<Name> v<version>" line of `terraform version`
// or `tofu version`. It need not be the first: OpenTofu prints warnings
// about the CLI configuration (a missing TF_CLI_CONFIG_FILE) on stdout
// before it.
func parseCLIVersion(out string) (cliIdentity, error) {
	for line := range strings.Lines(out) {
		name, ver, ok := strings.Cut(strings.TrimSpace(line), " v")
		if !ok || ver == "" || strings.ContainsAny(ver, " \t") {
			continue
		}
		switch name {
		case "Terraform":
			return cliIdentity{Name: name, Version: ver}, nil
		case "OpenTofu":
			return cliIdentity{Name: name, Version: ver, OpenTofu: true}, nil
		}
	}
	return cliIdentity{}, fmt.Errorf("no \"Terraform v1.2.3\" or \"OpenTofu v1.2.3\" line in its output:\n%s", out)
}

// testCLI returns the acceptance tests' CLI, failing the test when it
// cannot be run.
func testCLI(t *testing.T) cliIdentity {
	t.Helper()
	id, err := acceptanceCLI()
	if err != nil {
		t.Fatalf("identifying the acceptance tests' CLI: %v", err)
	}
	return id
}

// skipOpenTofu is a tfversion check, for a TestCase's TerraformVersionChecks,
// that skips the test on OpenTofu; why names the Terraform-only feature.
// tfversion.SkipBelow(tfversion.Version1_14_0) alone would run a Terraform
// 1.14 feature on OpenTofu 1.14. Tests that drive the CLI themselves (tfCLI)
// check testCLI(t).OpenTofu.
func skipOpenTofu(why string) tfversion.TerraformVersionCheck {
	return openTofuCheck{why: why, identify: acceptanceCLI}
}

type openTofuCheck struct {
	why      string
	identify func() (cliIdentity, error)
}

// CheckTerraformVersion satisfies tfversion.TerraformVersionCheck.
func (c openTofuCheck) CheckTerraformVersion(_ context.Context, _ tfversion.CheckTerraformVersionRequest, resp *tfversion.CheckTerraformVersionResponse) {
	id, err := c.identify()
	if err != nil {
		resp.Error = fmt.Errorf("identifying the acceptance tests' CLI: %w", err)
		return
	}
	if id.OpenTofu {
		resp.Skip = fmt.Sprintf("OpenTofu v%s: %s is Terraform-only", id.Version, c.why)
	}
}

// init prepares terraform-plugin-testing for OpenTofu when the acceptance
// tests run on it, so `TF_ACC_TERRAFORM_PATH=.../tofu go test` works with
// nothing else set. Values already set are kept. It runs in init, before any
// test starts a goroutine.
//
//   - The in-process provider is reattached under
//     TF_ACC_PROVIDER_HOST/TF_ACC_PROVIDER_NAMESPACE/payments, which must be
//     the address OpenTofu gives "payments" (registry.opentofu.org/hashicorp);
//     OpenTofu documents the same two settings for provider developers.
//   - OpenTofu prints its warning about a CLI configuration file that does
//     not exist on stdout, ahead of `tofu version`'s output, where
//     terraform-exec then finds no version and every test fails. A
//     TF_CLI_CONFIG_FILE naming a missing file (as on the CI machines, to
//     keep a user's configuration out) becomes the empty /dev/null, which
//     means the same: no CLI configuration.
func init() {
	if os.Getenv("TF_ACC") == "" {
		return
	}
	id, err := acceptanceCLI()
	if err != nil || !id.OpenTofu {
		return // a missing CLI fails in testAccPreCheck, with its reason
	}
	if os.Getenv("TF_ACC_PROVIDER_HOST") == "" {
		_ = os.Setenv("TF_ACC_PROVIDER_HOST", openTofuRegistryHost)
	}
	if os.Getenv("TF_ACC_PROVIDER_NAMESPACE") == "" {
		_ = os.Setenv("TF_ACC_PROVIDER_NAMESPACE", "hashicorp")
	}
	if rc := os.Getenv("TF_CLI_CONFIG_FILE"); rc != "" && os.Getenv("TOFU_CLI_CONFIG_FILE") == "" {
		if _, err := os.Stat(rc); os.IsNotExist(err) {
			_ = os.Setenv("TF_CLI_CONFIG_FILE", os.DevNull)
		}
	}
}

func TestParseCLIVersion_Outputs(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, out string
		want      cliIdentity
		wantErr   string
	}{
		{name: "terraform", out: "Terraform v1.16.4\non linux_amd64\n", want: cliIdentity{Name: "Terraform", Version: "1.16.4"}},
		{name: "terraform outdated", out: "Terraform v1.11.4\non linux_amd64\n\nYour version of Terraform is out of date!\n", want: cliIdentity{Name: "Terraform", Version: "1.11.4"}},
		{name: "opentofu", out: "OpenTofu v1.12.6\non linux_amd64\n", want: cliIdentity{Name: "OpenTofu", Version: "1.12.6", OpenTofu: true}},
		{name: "prerelease", out: "Terraform v1.17.0-dev\n", want: cliIdentity{Name: "Terraform", Version: "1.17.0-dev"}},
		{name: "opentofu after config warning", out: "There are some problems with the CLI configuration:\n\nWarning: Unable to open CLI configuration file\n\nThe CLI configuration file at \"/x\" does not exist.\nOpenTofu v1.12.6\non linux_amd64\n", want: cliIdentity{Name: "OpenTofu", Version: "1.12.6", OpenTofu: true}},
		{name: "empty", out: "", wantErr: "no \"Terraform v1.2.3\""},
		{name: "other cli", out: "Pulumi v3.0.0\n", wantErr: "no \"Terraform v1.2.3\""},
		{name: "json", out: `{"terraform_version":"1.16.4"}`, wantErr: "no \"Terraform v1.2.3\""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := parseCLIVersion(tt.out)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("parseCLIVersion(%q) error = %v; want one containing %q", tt.out, err, tt.wantErr)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Fatalf("parseCLIVersion(%q) = %+v, %v; want %+v", tt.out, got, err, tt.want)
			}
		})
	}
}

func TestSkipOpenTofu_ByCLI(t *testing.T) {
	t.Parallel()
	if c, ok := skipOpenTofu("list resources").(openTofuCheck); !ok || c.why != "list resources" || c.identify == nil {
		t.Fatalf("skipOpenTofu = %#v; want an openTofuCheck naming the feature and identifying the CLI", c)
	}
	tests := []struct {
		name      string
		id        cliIdentity
		err       error
		wantSkip  string
		wantError bool
	}{
		{name: "terraform runs", id: cliIdentity{Name: "Terraform", Version: "1.16.4"}},
		{name: "old terraform runs", id: cliIdentity{Name: "Terraform", Version: "1.11.4"}},
		{name: "opentofu skips", id: cliIdentity{Name: "OpenTofu", Version: "1.12.6", OpenTofu: true}, wantSkip: "OpenTofu v1.12.6: list resources is Terraform-only"},
		{name: "unknown cli fails", err: errors.New("no version line"), wantError: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c := openTofuCheck{why: "list resources", identify: func() (cliIdentity, error) { return tt.id, tt.err }}
			var resp tfversion.CheckTerraformVersionResponse
			c.CheckTerraformVersion(context.Background(), tfversion.CheckTerraformVersionRequest{}, &resp)
			if resp.Skip != tt.wantSkip || (resp.Error != nil) != tt.wantError {
				t.Fatalf("skip %q, error %v; want skip %q, error %v", resp.Skip, resp.Error, tt.wantSkip, tt.wantError)
			}
		})
	}
}

// TestAccProvider_CLISameAsPluginTesting proves that the CLI the tests
// identify (for skipOpenTofu, for dev_overrides, and for the tests that run
// it through tfCLI) is the one terraform-plugin-testing runs: both report
// one version.
func TestAccProvider_CLISameAsPluginTesting(t *testing.T) {
	id := testCLI(t)
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{sameVersionCheck{want: id}},
		Steps: []resource.TestStep{
			{Config: `output "cli" { value = "ran" }`},
		},
	})
}

// sameVersionCheck fails a test whose CLI, as terraform-plugin-testing sees
// it, is not the one want describes.
type sameVersionCheck struct{ want cliIdentity }

func (c sameVersionCheck) CheckTerraformVersion(_ context.Context, req tfversion.CheckTerraformVersionRequest, resp *tfversion.CheckTerraformVersionResponse) {
	if req.TerraformVersion == nil || req.TerraformVersion.String() != c.want.Version {
		resp.Error = fmt.Errorf("terraform-plugin-testing runs a CLI of version %v; the tests identified %s v%s at %s",
			req.TerraformVersion, c.want.Name, c.want.Version, c.want.Path)
	}
}
