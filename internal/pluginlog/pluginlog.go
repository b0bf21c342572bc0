// Package pluginlog sets up the logging of a provider process built on
// terraform-plugin-framework: the payments provider and the benchmark's
// floor provider, so that the floor pays what the provider pays.
package pluginlog

import (
	"os"
	"strings"
)

// sdkLevelVars are the log-level variables of terraform-plugin-go,
// terraform-plugin-framework and terraform-plugin-log (the provider's own
// lines).
var sdkLevelVars = []string{"TF_LOG_PROVIDER", "TF_LOG_SDK", "TF_LOG_SDK_PROTO", "TF_LOG_SDK_FRAMEWORK"}

// QuietUnasked turns the plugin's logs off when no TF_LOG* variable asks
// for them. Without it the framework writes TRACE lines for every request
// even when TF_LOG is unset, and Terraform parses and discards them
// (hashicorp/terraform-plugin-framework#1269): about half of a refresh
// plan's CPU. Terraform passes its environment to the plugin, so
// TF_LOG=TRACE (or any TF_LOG_* setting) still gets every line. Call it
// first thing in main, before the server starts.
func QuietUnasked() {
	for _, name := range unasked(os.Environ()) {
		_ = os.Setenv(name, "off")
	}
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

// unasked returns the level variables to set to "off" in environ: all of
// them when no variable of environ starts with TF_LOG, else none.
func unasked(environ []string) []string {
	for _, kv := range environ {
		if strings.HasPrefix(kv, "TF_LOG") {
			return nil
		}
	}
	return sdkLevelVars
}
