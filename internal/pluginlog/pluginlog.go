// Package pluginlog sets up the logging of a provider process built on
// terraform-plugin-framework: the payments provider and the benchmark's
// floor provider, so that the floor pays what the provider pays.
package pluginlog

import (
	"os"
	"slices"
	"strings"
)

// sdkLevelVars are the log-level variables of terraform-plugin-go and
// terraform-plugin-framework. The provider's own lines (tflog, and the
// libraries that log through it, such as the timeouts package) have a
// variable named after the provider, providerLevelVar.
var sdkLevelVars = []string{"TF_LOG_PROVIDER", "TF_LOG_SDK", "TF_LOG_SDK_PROTO", "TF_LOG_SDK_FRAMEWORK"}

// QuietUnasked turns the plugin's logs off when no TF_LOG* variable asks
// for them. Without it the framework writes TRACE lines for every request
// even when TF_LOG is unset, and Terraform parses and discards them
// (hashicorp/terraform-plugin-framework#1269): about half of a refresh
// plan's CPU. The provider's own logger, served at address (the registry
// address given to providerserver.Serve), is at TRACE too unless its own
// variable says otherwise: terraform-plugin-go reads TF_LOG_PROVIDER_<TYPE>
// for it, not TF_LOG_PROVIDER. Terraform passes its environment to the
// plugin, so TF_LOG=TRACE (or any TF_LOG_* setting) still gets every line.
// Call it first thing in main, before the server starts.
func QuietUnasked(address string) {
	for _, name := range unasked(os.Environ(), address) {
		_ = os.Setenv(name, "off")
	}
}

// providerLevelVar is the variable terraform-plugin-go reads the level of
// the provider's own logger from: TF_LOG_PROVIDER_ and the provider's type,
// the last part of its address, with dashes as underscores, in upper case
// ("registry.terraform.io/paymentsdev/payments": TF_LOG_PROVIDER_PAYMENTS).
func providerLevelVar(address string) string {
	typ := address[strings.LastIndexByte(address, '/')+1:]
	return "TF_LOG_PROVIDER_" + strings.ToUpper(strings.ReplaceAll(typ, "-", "_"))
}

// Wanted tells whether the environment may ask for the plugin's logs:
// some TF_LOG* variable (or plugin-testing's TF_ACC_LOG_PATH) is set to
// something other than off. When it is false no log line of the plugin
// reaches anyone, so a caller may skip building lines, as the payments
// API client's per-request entries are skipped. It errs on the side of
// building them: TF_LOG_PATH alone counts.
func Wanted() bool { return wanted(os.Environ()) }

func wanted(environ []string) bool {
	for _, kv := range environ {
		name, value, _ := strings.Cut(kv, "=")
		if (strings.HasPrefix(name, "TF_LOG") || name == "TF_ACC_LOG_PATH") && value != "" && !strings.EqualFold(value, "off") {
			return true
		}
	}
	return false
}

// unasked returns the level variables to set to "off" in environ, for the
// provider served at address: all of them when no variable of environ
// starts with TF_LOG, else none.
func unasked(environ []string, address string) []string {
	for _, kv := range environ {
		if strings.HasPrefix(kv, "TF_LOG") {
			return nil
		}
	}
	return append(slices.Clone(sdkLevelVars), providerLevelVar(address))
}
