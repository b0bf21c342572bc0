// Command terraform-provider-payments is the Terraform provider for the
// payments service.
package main

import (
	"context"
	"flag"
	"log"
	"os"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"

	"github.com/paymentsdev/terraform-provider-payments/internal/provider"
)

// version is set by goreleaser at build time.
var version = "dev"

func main() {
	var debug bool
	flag.BoolVar(&debug, "debug", false, "set to true to run the provider with support for debuggers like delve")
	flag.Parse()
	quietUnaskedLogs()

	opts := providerserver.ServeOpts{
		Address: "registry.terraform.io/paymentsdev/payments",
		Debug:   debug,
	}
	if err := providerserver.Serve(context.Background(), provider.New(version), opts); err != nil {
		log.Fatal(err.Error())
	}
}

// sdkLogLevelVars are the plugin SDK's and the provider's log-level
// variables (terraform-plugin-go, -framework and -log).
var sdkLogLevelVars = []string{"TF_LOG_PROVIDER", "TF_LOG_SDK", "TF_LOG_SDK_PROTO", "TF_LOG_SDK_FRAMEWORK"}

// quietUnaskedLogs turns the plugin's logs off when no TF_LOG* variable
// asks for them. Without it the framework writes TRACE lines for every
// request even when TF_LOG is unset, and Terraform parses and discards
// them (hashicorp/terraform-plugin-framework#1269): about half of a
// refresh plan's CPU. Terraform passes its environment to the plugin, so
// TF_LOG=TRACE (or any TF_LOG_* setting) still gets every line.
func quietUnaskedLogs() {
	for _, kv := range os.Environ() {
		if strings.HasPrefix(kv, "TF_LOG") {
			return
		}
	}
	for _, name := range sdkLogLevelVars {
		_ = os.Setenv(name, "off")
	}
}
