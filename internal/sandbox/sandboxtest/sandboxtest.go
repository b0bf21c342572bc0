// Package sandboxtest runs an in-process sandbox for tests.
package sandboxtest

import (
	"crypto/rand"
	"net/http/httptest"
	"testing"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// Sandbox is a running in-process sandbox.
type Sandbox struct {
	// URL is the base URL, for example http://127.0.0.1:34567 (no trailing slash).
	URL string
	// Server is the handler, for direct calls and inspection.
	Server *sandbox.Server
	// HTTP is the listening test server.
	HTTP *httptest.Server
}

// Start runs an in-process sandbox on a random loopback port, wired for
// connection counting, and closes it when the test ends.
func Start(tb testing.TB) *Sandbox {
	tb.Helper()
	srv, err := sandbox.New(sandbox.Options{})
	if err != nil {
		tb.Fatalf("sandboxtest: starting the sandbox: %v", err)
	}
	hs := httptest.NewUnstartedServer(srv)
	// httptest chains its own hook after ours, so both see every state.
	hs.Config.ConnState = srv.ConnState
	hs.Start()
	tb.Cleanup(func() {
		hs.Close()
		if err := srv.Close(); err != nil {
			tb.Errorf("sandboxtest: closing the sandbox: %v", err)
		}
	})
	return &Sandbox{URL: hs.URL, Server: srv, HTTP: hs}
}

// NewKey returns a fresh random sandbox secret key. Each key is its own
// account on the sandbox, isolated from every other, so tests that use
// their own key can run in parallel against one sandbox.
func NewKey(tb testing.TB) string {
	tb.Helper()
	return wire.SecretKeySandboxPrefix + rand.Text()
}
