// Command terraform-provider-floor serves the benchmark's do-nothing floor
// provider (see package floor).
package main

import (
	"context"
	"log"

	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/providerserver"

	"github.com/paymentsdev/terraform-provider-payments/internal/pluginlog"
	"github.com/paymentsdev/terraform-provider-payments/internal/pluginprof"
	"github.com/paymentsdev/terraform-provider-payments/tools/internal/floor"
)

func main() {
	// As the payments provider does: a floor that wrote TRACE lines for
	// Terraform to discard would be slower than the provider it measures.
	pluginlog.QuietUnasked(floor.Address)
	stopProfile := pluginprof.Start() // only in a build tagged benchprofile
	err := providerserver.Serve(context.Background(), func() provider.Provider { return floor.New() },
		providerserver.ServeOpts{Address: floor.Address})
	stopProfile()
	if err != nil {
		log.Fatal(err.Error())
	}
}
