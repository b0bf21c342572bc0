package sandbox

import (
	"net/http"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/metrics"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

func newMetrics(s *Server) *metrics.Metrics {
	return metrics.New(metrics.Gauges{
		Accounts: func() float64 {
			s.mu.RLock()
			defer s.mu.RUnlock()
			return float64(len(s.accounts))
		},
		Bytes:       func() float64 { return float64(s.total.Load()) },
		Connections: func() float64 { return float64(s.connections.Load()) },
	}, s.log)
}

// CountConnectionWait records that an accept waited because the
// connection cap was reached (payments-sandbox -max-connections).
func (s *Server) CountConnectionWait() { s.metrics.Refused(metrics.LimitConnections) }

// serveMetrics answers GET /metrics, without a key: the numbers are
// totals over every account, and name no account, key or object.
func (s *Server) serveMetrics(w http.ResponseWriter, r *http.Request) {
	s.metrics.ServeHTTP(w, r)
}

// serveHealth answers GET /healthz, without a key: 200 while the data
// file answers (StoreHealthy), 503 with the reason otherwise.
func (s *Server) serveHealth(w http.ResponseWriter, _ *http.Request) {
	metrics.ServeHealth(w, s.StoreHealthy())
}

// handleOperational serves the operational paths, without a key and
// counted nowhere: they are for the sandbox's operator, not the API.
func (s *Server) handleOperational() {
	s.mux.HandleFunc("GET "+wire.PathHealth, s.serveHealth)
	s.mux.HandleFunc("GET "+wire.PathMetrics, s.serveMetrics)
}
