// Command terraform-provider-payments is the Terraform provider for the
// payments service.
package main

import (
	"context"
	"flag"
	"log"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"

	"github.com/paymentsdev/terraform-provider-payments/internal/pluginlog"
	"github.com/paymentsdev/terraform-provider-payments/internal/pluginprof"
	"github.com/paymentsdev/terraform-provider-payments/internal/provider"
)

// version is set by goreleaser at build time.
var version = "dev"

// address is the provider's registry address, which also names its logger.
const address = "registry.terraform.io/paymentsdev/payments"

func main() {
	var debug bool
	flag.BoolVar(&debug, "debug", false, "set to true to run the provider with support for debuggers like delve")
	flag.Parse()
	pluginlog.QuietUnasked(address)
	stopProfile := pluginprof.Start() // only in a build tagged benchprofile

	opts := providerserver.ServeOpts{
		Address: address,
		Debug:   debug,
	}
	err := providerserver.Serve(context.Background(), provider.New(version), opts)
	stopProfile()
	if err != nil {
		log.Fatal(err.Error())
	}
}
