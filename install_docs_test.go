package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
)

// registryHosts are the hosts the two CLIs put in front of
// source = "paymentsdev/payments": Terraform's, and OpenTofu's own.
var registryHosts = []string{"registry.terraform.io", "registry.opentofu.org"}

// installBlock finds the provider_installation settings a reader copies:
// a dev_overrides block, and a filesystem mirror's include and exclude.
var installBlock = regexp.MustCompile(`(?s)dev_overrides \{.*?\n\s*\}|(?:include|exclude) += \[[^\]]*\]`)

// TestDocs_LocalInstallServesTerraformAndOpenTofu: the CLI configurations
// the docs give for a local build name the provider under both registries'
// hosts, so that one copied block serves OpenTofu as well as Terraform
// (OpenTofu, told only of registry.terraform.io, asks its own registry and
// fails offline).
func TestDocs_LocalInstallServesTerraformAndOpenTofu(t *testing.T) {
	for _, path := range []string{"README.md", "templates/guides/getting-started.md.tmpl", "docs/guides/getting-started.md"} {
		blocks := installBlock.FindAllString(readFile(t, path), -1)
		if len(blocks) == 0 {
			t.Errorf("%s: no dev_overrides block or mirror include list to check", path)
		}
		for _, b := range blocks {
			for _, host := range registryHosts {
				if !strings.Contains(b, `"`+host+`/paymentsdev/payments"`) {
					t.Errorf("%s: this block does not name %s/paymentsdev/payments:\n%s", path, host, b)
				}
			}
		}
	}
}

// TestMakeInstall_ServesTerraformAndOpenTofu runs make install into a
// temporary mirror and checks that the provider is there under both
// registries' hosts, where terraform init and tofu init look for it.
func TestMakeInstall_ServesTerraformAndOpenTofu(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the provider")
	}
	mk, err := exec.LookPath("make")
	if err != nil {
		t.Skip("make is not on PATH")
	}
	mirror := t.TempDir()
	cmd := exec.Command(mk, "--no-print-directory", "install", "PLUGIN_MIRROR="+mirror, "PROVIDER_VERSION=9.8.7")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("make install: %v\n%s", err, out)
	}
	osArch := runtime.GOOS + "_" + runtime.GOARCH
	for _, host := range registryHosts {
		bin := filepath.Join(mirror, host, "paymentsdev", "payments", "9.8.7", osArch, "terraform-provider-payments_v9.8.7")
		if fi, err := os.Stat(bin); err != nil || fi.Mode()&0o111 == 0 {
			t.Errorf("make install left no executable provider at %s (%v)", bin, err)
		}
	}
}
