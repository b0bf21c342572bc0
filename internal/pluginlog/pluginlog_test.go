package pluginlog

import (
	"os"
	"slices"
	"strings"
	"testing"
)

func TestUnasked_Environments(t *testing.T) {
	all := []string{"TF_LOG_PROVIDER", "TF_LOG_SDK", "TF_LOG_SDK_PROTO", "TF_LOG_SDK_FRAMEWORK", "TF_LOG_PROVIDER_PAYMENTS"}
	tests := []struct {
		name    string
		environ []string
		want    []string
	}{
		{"empty environment", nil, all},
		{"no TF_LOG variable", []string{"HOME=/root", "TF_CLI_CONFIG_FILE=/x", "PAYMENTS_TF_LOG=trace"}, all},
		{"TF_LOG asks", []string{"HOME=/root", "TF_LOG=TRACE"}, nil},
		{"TF_LOG empty still asks", []string{"TF_LOG="}, nil},
		{"TF_LOG_PATH alone", []string{"TF_LOG_PATH=/tmp/tf.log"}, nil},
		{"one subsystem asks", []string{"TF_LOG_SDK_PROTO=debug"}, nil},
		{"provider lines asked", []string{"TF_LOG_PROVIDER=info"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := unasked(tt.environ, testAddress); !slices.Equal(got, tt.want) {
				t.Errorf("unasked(%q) = %q, want %q", tt.environ, got, tt.want)
			}
		})
	}
}

// testAddress is the payments provider's address, as main.go serves it.
const testAddress = "registry.terraform.io/paymentsdev/payments"

func TestProviderLevelVar_Addresses(t *testing.T) {
	for _, tt := range []struct{ address, want string }{
		{testAddress, "TF_LOG_PROVIDER_PAYMENTS"},
		{"registry.terraform.io/bench/floor", "TF_LOG_PROVIDER_FLOOR"},
		{"registry.opentofu.org/example/some-thing", "TF_LOG_PROVIDER_SOME_THING"},
		{"payments", "TF_LOG_PROVIDER_PAYMENTS"},
	} {
		if got := providerLevelVar(tt.address); got != tt.want {
			t.Errorf("providerLevelVar(%q) = %q, want %q", tt.address, got, tt.want)
		}
	}
}

func TestWanted_Environments(t *testing.T) {
	tests := []struct {
		name    string
		environ []string
		want    bool
	}{
		{"empty environment", nil, false},
		{"unrelated variables", []string{"HOME=/root", "PAYMENTS_TF_LOG=trace", "XTF_LOG=trace"}, false},
		{"as QuietUnasked leaves it", []string{"TF_LOG_PROVIDER=off", "TF_LOG_SDK=off", "TF_LOG_SDK_PROTO=off", "TF_LOG_SDK_FRAMEWORK=off", "TF_LOG_PROVIDER_PAYMENTS=off"}, false},
		{"off in any case, or empty", []string{"TF_LOG=OFF", "TF_LOG_PROVIDER=Off", "TF_LOG_SDK="}, false},
		{"TF_LOG", []string{"TF_LOG=TRACE"}, true},
		{"the provider's level only", []string{"TF_LOG_SDK=off", "TF_LOG_PROVIDER=DEBUG"}, true},
		{"a subsystem's level", []string{"TF_LOG_PROVIDER_PAYMENTS_API=debug"}, true},
		{"a log path alone", []string{"TF_LOG_PATH=/tmp/tf.log"}, true},
		{"plugin-testing's log path", []string{"TF_ACC_LOG_PATH=/tmp/acc.log"}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := wanted(tt.environ); got != tt.want {
				t.Errorf("wanted(%q) = %v, want %v", tt.environ, got, tt.want)
			}
		})
	}
}

func TestQuietUnasked_TurnsLogsOff(t *testing.T) {
	// Unset every TF_LOG* variable for the test; t.Setenv restores them.
	quieted := append(slices.Clone(sdkLevelVars), "TF_LOG_PROVIDER_PAYMENTS")
	names := slices.Clone(quieted)
	for _, kv := range os.Environ() {
		if name, _, _ := strings.Cut(kv, "="); strings.HasPrefix(name, "TF_LOG") {
			names = append(names, name)
		}
	}
	for _, name := range names {
		t.Setenv(name, "")
		if err := os.Unsetenv(name); err != nil {
			t.Fatal(err)
		}
	}
	QuietUnasked(testAddress)
	for _, name := range quieted {
		if got := os.Getenv(name); got != "off" {
			t.Errorf("%s = %q after QuietUnasked without TF_LOG*, want off", name, got)
		}
	}
	if Wanted() {
		t.Error("Wanted() after QuietUnasked without TF_LOG*: true, want false")
	}
}
