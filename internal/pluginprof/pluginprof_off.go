//go:build !benchprofile

package pluginprof

// Start does nothing: this build is not tagged benchprofile.
func Start() (stop func()) { return func() {} }
