package sandbox

import (
	"net/http"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// The limits a refusal is counted under (payments_sandbox_refusals_total).
// A fixed set: no label of a metric grows with accounts, keys or ids.
const (
	limitAccounts      = "accounts"       // -max-accounts: a new key refused
	limitAccountBytes  = "account_bytes"  // -max-account-bytes: a write refused
	limitTotalBytes    = "total_bytes"    // -max-total-bytes: a write refused
	limitRateLimit     = "rate_limit"     // the account's own rate_limit fault: 429
	limitBodyBytes     = "body_bytes"     // a body over wire.MaxRequestBodyBytes: 413
	limitWebhookTarget = "webhook_target" // an endpoint URL the target rules refuse
	limitConnections   = "connections"    // -max-connections: an accept waited (CountConnectionWait)
)

// Webhook delivery outcomes (payments_sandbox_webhook_deliveries_total).
const (
	outcomeSuccess = "success" // a 2xx answer
	outcomeFailure = "failure" // another answer
	outcomeError   = "error"   // no answer: refused target, connection error, timeout
)

// metrics are a server's Prometheus metrics, on a registry of its own so
// that servers in one process (tests start many) never share or clash.
type metrics struct {
	handler    http.Handler
	requests   *prometheus.CounterVec
	latency    *prometheus.HistogramVec
	deliveries *prometheus.CounterVec
	refusals   *prometheus.CounterVec
}

func newMetrics(s *Server) *metrics {
	reg := prometheus.NewRegistry()
	m := &metrics{
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "payments_sandbox_requests_total",
			Help: "Requests answered, by route (the route table's name, such as GET /v1/customers/:id, or unknown) and HTTP status.",
		}, []string{"route", "status"}),
		latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "payments_sandbox_request_duration_seconds",
			Help:    "Time from the start of handling to the answer written, by route; injected latency faults included.",
			Buckets: prometheus.DefBuckets,
		}, []string{"route"}),
		deliveries: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "payments_sandbox_webhook_deliveries_total",
			Help: "Webhook delivery attempts, by outcome: success (a 2xx answer), failure (another answer) or error (no answer).",
		}, []string{"outcome"}),
		refusals: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "payments_sandbox_refusals_total",
			Help: "Requests refused, or connections kept waiting, by the limit that stopped them.",
		}, []string{"limit"}),
	}
	for _, o := range []string{outcomeSuccess, outcomeFailure, outcomeError} {
		m.deliveries.WithLabelValues(o)
	}
	for _, l := range []string{limitAccounts, limitAccountBytes, limitTotalBytes, limitRateLimit, limitBodyBytes, limitWebhookTarget, limitConnections} {
		m.refusals.WithLabelValues(l)
	}
	reg.MustRegister(
		m.requests, m.latency, m.deliveries, m.refusals,
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "payments_sandbox_accounts",
			Help: "Accounts in memory.",
		}, func() float64 {
			s.mu.RLock()
			defer s.mu.RUnlock()
			return float64(len(s.accounts))
		}),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "payments_sandbox_bytes",
			Help: "Bytes all accounts keep, as counted for -max-total-bytes.",
		}, func() float64 { return float64(s.total.Load()) }),
		prometheus.NewCounterFunc(prometheus.CounterOpts{
			Name: "payments_sandbox_connections_accepted_total",
			Help: "Connections accepted.",
		}, func() float64 { return float64(s.connections.Load()) }),
		collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
	)
	m.handler = promhttp.HandlerFor(reg, promhttp.HandlerOpts{ErrorLog: slogErrorLog{s}})
	return m
}

// observe counts one answered request.
func (m *metrics) observe(route string, status int, took time.Duration) {
	m.requests.WithLabelValues(route, strconv.Itoa(status)).Inc()
	m.latency.WithLabelValues(route).Observe(took.Seconds())
}

func (m *metrics) refused(limit string) { m.refusals.WithLabelValues(limit).Inc() }

func (m *metrics) delivered(status int, errText string) {
	switch {
	case errText == "":
		m.deliveries.WithLabelValues(outcomeSuccess).Inc()
	case status != 0:
		m.deliveries.WithLabelValues(outcomeFailure).Inc()
	default:
		m.deliveries.WithLabelValues(outcomeError).Inc()
	}
}

// CountConnectionWait records that an accept waited because the
// connection cap was reached (payments-sandbox -max-connections).
func (s *Server) CountConnectionWait() { s.metrics.refused(limitConnections) }

type slogErrorLog struct{ s *Server }

func (l slogErrorLog) Println(v ...any) { l.s.log.Warn("serving metrics", "error", v) }

// serveMetrics answers GET /metrics, without a key: the numbers are
// totals over every account, and name no account, key or object.
func (s *Server) serveMetrics(w http.ResponseWriter, r *http.Request) {
	s.metrics.handler.ServeHTTP(w, r)
}

// serveHealth answers GET /healthz, without a key: 200 while the data
// file answers (StoreHealthy), 503 with the reason otherwise.
func (s *Server) serveHealth(w http.ResponseWriter, _ *http.Request) {
	err := s.StoreHealthy()
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Cache-Control", "no-store")
	if err == nil {
		_, _ = w.Write([]byte(`{"status":"ok"}`))
		return
	}
	w.WriteHeader(http.StatusServiceUnavailable)
	b := append([]byte(`{"status":"unavailable","reason":`), appendString(nil, err.Error())...)
	_, _ = w.Write(append(b, '}'))
}

// handleOperational serves the operational paths, without a key and
// counted nowhere: they are for the sandbox's operator, not the API.
func (s *Server) handleOperational() {
	s.mux.HandleFunc("GET "+wire.PathHealth, s.serveHealth)
	s.mux.HandleFunc("GET "+wire.PathMetrics, s.serveMetrics)
}
