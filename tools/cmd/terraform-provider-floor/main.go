// Command terraform-provider-floor serves the benchmark's do-nothing floor
// provider (see package floor).
package main

import (
	"context"
	"log"

	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/providerserver"

	"github.com/paymentsdev/terraform-provider-payments/tools/internal/floor"
)

func main() {
	err := providerserver.Serve(context.Background(), func() provider.Provider { return floor.New() },
		providerserver.ServeOpts{Address: floor.Address})
	if err != nil {
		log.Fatal(err.Error())
	}
}
