// Package sandbox is a stateful, in-memory stand-in for the payments service.
// It serves every row of shared/api/CONTRACT.md over HTTP, for tests, demos,
// benchmarks and users without network access. Wire constants come from
// package client, so both sides of the wire move together.
package sandbox

import (
	"log/slog"
	"net"
	"net/http"
	"sync/atomic"
	"time"
)

// Options configure a Server. The zero value is a memory-only server that
// admits every well-formed sandbox secret key.
type Options struct {
	// Keys, when non-empty, are the only secret keys admitted; any other
	// key gets 401 invalid_api_key.
	Keys []string
	// Store keeps the state across restarts; nil keeps it in memory only.
	// The server owns it from New on and closes it in Close.
	Store Store
	// Logger receives operational logs; nil discards them. Keys and the
	// Authorization header are never logged.
	Logger *slog.Logger
	// Now is the clock for timestamps and idempotency expiry; nil is time.Now.
	Now func() time.Time
}

// Server is the sandbox's http.Handler. It is safe for concurrent use.
type Server struct {
	opts        Options
	connections atomic.Int64
}

// New returns a Server ready to serve.
func New(opts Options) (*Server, error) {
	return &Server{opts: opts}, nil
}

// ServeHTTP answers one request.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	http.Error(w, "not implemented yet", http.StatusNotImplemented)
}

// ConnState counts accepted connections for /_sandbox/stats; wire it into
// http.Server.ConnState.
func (s *Server) ConnState(_ net.Conn, state http.ConnState) {
	if state == http.StateNew {
		s.connections.Add(1)
	}
}

// Close releases the store, if any.
func (s *Server) Close() error { return nil }
