// Command terraform-provider-payments is the Terraform provider for the
// payments service.
package main

import (
	"flag"
	"log"
	"os"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6/tf6server"

	"github.com/paymentsdev/terraform-provider-payments/internal/journal"
	"github.com/paymentsdev/terraform-provider-payments/internal/parentwatch"
	"github.com/paymentsdev/terraform-provider-payments/internal/pluginlog"
	"github.com/paymentsdev/terraform-provider-payments/internal/pluginprof"
	"github.com/paymentsdev/terraform-provider-payments/internal/provider"
)

// version is set by goreleaser at build time.
var version = "dev"

// address is the provider's registry address, which also names its logger.
const address = "registry.terraform.io/paymentsdev/payments"

// exitParentGone is the exit status when Terraform died first.
const exitParentGone = 3

func main() {
	var debug bool
	flag.BoolVar(&debug, "debug", false, "set to true to run the provider with support for debuggers like delve")
	flag.Parse()
	pluginlog.QuietUnasked(address)
	stopProfile := pluginprof.Start() // only in a build tagged benchprofile

	var opts []tf6server.ServeOpt
	var j *journal.Journal
	if debug {
		// Started by a person, not by Terraform, and in no working directory.
		opts = append(opts, tf6server.WithManagedDebug())
	} else {
		if os.Getenv(journal.EnvDisable) != "off" {
			if wd, err := os.Getwd(); err == nil {
				j = journal.New(journal.Dir(wd))
				j.Prepare()
			}
		}
		// Terraform killed leaves its plugins running: end with it, and
		// leave this run's journal entries for the next run to find.
		parentwatch.Start(func() {
			stopProfile()
			os.Exit(exitParentGone)
		})
	}
	err := tf6server.Serve(address, provider.NewServer(version, j), opts...)
	stopProfile()
	if err != nil {
		log.Fatal(err.Error())
	}
	// Terraform closed the provider: it has every answer of this run.
	j.CloseClean()
}
