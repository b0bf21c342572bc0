// Package sandboxtest runs in-process sandboxes for tests, and sends the
// raw requests tests need to send what no API client would.
package sandboxtest

import (
	"crypto/rand"
	"log/slog"
	"net"
	"net/http/httptest"
	"slices"
	"sync"
	"testing"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/clock"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/storage"
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

	closeOnce sync.Once
	closeErr  error
}

// Option changes the sandbox.Options of a sandbox Start runs.
type Option func(*sandbox.Options)

// WithStore keeps the sandbox's state in st (see storage.Open); the
// sandbox closes it when the test ends.
func WithStore(st storage.Store) Option { return func(o *sandbox.Options) { o.Store = st } }

// WithOptions replaces every option with opts (webhook timings, say);
// options after it change opts further.
func WithOptions(opts sandbox.Options) Option { return func(o *sandbox.Options) { *o = opts } }

// WithKeys admits only the keys named.
func WithKeys(keys ...string) Option { return func(o *sandbox.Options) { o.Keys = keys } }

// WithLogger sends the sandbox's logs to l.
func WithLogger(l *slog.Logger) Option { return func(o *sandbox.Options) { o.Logger = l } }

// WithLimits bounds the accounts and bytes the sandbox keeps.
func WithLimits(l sandbox.Limits) Option { return func(o *sandbox.Options) { o.Limits = l } }

// WithClock makes c the sandbox's clock: timestamps, idempotency expiry,
// idle accounts and delivery retries read it (clock.NewFake for a clock a
// test moves by hand).
func WithClock(c clock.Clock) Option { return func(o *sandbox.Options) { o.Clock = c } }

// WithFaultSeed starts every account's fault decisions from seed.
func WithFaultSeed(seed int64) Option { return func(o *sandbox.Options) { o.FaultSeed = seed } }

// Start runs an in-process sandbox on a random loopback port, wired for
// connection counting, and closes it when the test ends.
func Start(tb testing.TB, opts ...Option) *Sandbox {
	tb.Helper()
	sb, err := start(opts...)
	if err != nil {
		tb.Fatalf("sandboxtest: starting the sandbox: %v", err)
	}
	tb.Cleanup(func() {
		if err := sb.Close(); err != nil {
			tb.Errorf("sandboxtest: closing the sandbox: %v", err)
		}
	})
	return sb
}

func start(opts ...Option) (*Sandbox, error) {
	var o sandbox.Options
	for _, f := range opts {
		f(&o)
	}
	// Listening first tells the sandbox its address, where it never
	// delivers webhooks.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	if tcp, ok := ln.Addr().(*net.TCPAddr); ok {
		o.Webhooks.Listen = append(slices.Clip(o.Webhooks.Listen), tcp.AddrPort())
	}
	srv, err := sandbox.New(o)
	if err != nil {
		_ = ln.Close()
		if o.Store != nil {
			_ = o.Store.Close()
		}
		return nil, err
	}
	hs := httptest.NewUnstartedServer(srv)
	_ = hs.Listener.Close()
	hs.Listener = ln
	// httptest chains its own hook after ours, so both see every state.
	hs.Config.ConnState = srv.ConnState
	hs.Start()
	return &Sandbox{URL: hs.URL, Server: srv, HTTP: hs}, nil
}

// Close stops the sandbox before the test ends (to reopen its data file,
// say); later calls return the first one's result.
func (sb *Sandbox) Close() error {
	sb.closeOnce.Do(func() {
		sb.HTTP.Close()
		sb.closeErr = sb.Server.Close()
	})
	return sb.closeErr
}

// shared is the one sandbox of Shared, for the whole test binary.
var shared struct {
	once sync.Once
	sb   *Sandbox
	err  error
}

// Shared returns one in-process sandbox for the whole test binary, started
// on first use. Tests that each use their own account (NewKey) are
// isolated on it and may run in parallel; unlike Start's, it outlives the
// test that started it. CloseShared, from TestMain, stops it.
func Shared(tb testing.TB) *Sandbox {
	tb.Helper()
	shared.once.Do(func() { shared.sb, shared.err = start() })
	if shared.err != nil {
		tb.Fatalf("sandboxtest: starting the shared sandbox: %v", shared.err)
	}
	return shared.sb
}

// CloseShared stops the sandbox of Shared, if one was started.
func CloseShared() error {
	if shared.sb == nil {
		return nil
	}
	return shared.sb.Close()
}

// NewKey returns a fresh random sandbox secret key. Each key is its own
// account on the sandbox, isolated from every other, so tests that use
// their own key can run in parallel against one sandbox.
func NewKey(tb testing.TB) string {
	tb.Helper()
	return wire.SecretKeySandboxPrefix + rand.Text()
}
