// Package metrics holds the sandbox's Prometheus metrics: requests and
// their latency by route, webhook delivery outcomes, refusals by limit,
// and the gauges the sandbox reads for it (accounts, bytes, connections).
// Each Metrics has a registry of its own, so that servers in one process
// (tests start many) never share or clash. It knows nothing of the
// sandbox's handlers: the sandbox counts through Observe, Refused and
// Delivered, and serves the registry at GET /metrics and its health
// (ServeHealth) at GET /healthz.
package metrics

import (
	"log/slog"
	"net/http"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// The limits a refusal is counted under (payments_sandbox_refusals_total).
// A fixed set: no label of a metric grows with accounts, keys or ids.
const (
	LimitAccounts      = "accounts"       // -max-accounts: a new key refused
	LimitAccountBytes  = "account_bytes"  // -max-account-bytes: a write refused
	LimitTotalBytes    = "total_bytes"    // -max-total-bytes: a write refused
	LimitRateLimit     = "rate_limit"     // the account's own rate_limit fault: 429
	LimitBodyBytes     = "body_bytes"     // a body over wire.MaxRequestBodyBytes: 413
	LimitWebhookTarget = "webhook_target" // an endpoint URL the target rules refuse
	LimitConnections   = "connections"    // -max-connections: an accept waited
)

// limits are every Limit*, each exposed at 0 from the start.
var limits = []string{LimitAccounts, LimitAccountBytes, LimitTotalBytes, LimitRateLimit, LimitBodyBytes, LimitWebhookTarget, LimitConnections}

// Webhook delivery outcomes (payments_sandbox_webhook_deliveries_total).
const (
	outcomeSuccess = "success" // a 2xx answer
	outcomeFailure = "failure" // another answer
	outcomeError   = "error"   // no answer: refused target, connection error, timeout
)

// Gauges are what the sandbox reports when scraped, read at each scrape.
type Gauges struct {
	Accounts    func() float64 // accounts in memory
	Bytes       func() float64 // bytes all accounts keep, as counted for -max-total-bytes
	Connections func() float64 // connections accepted so far
}

// Metrics are one server's Prometheus metrics.
type Metrics struct {
	handler    http.Handler
	requests   *prometheus.CounterVec
	latency    *prometheus.HistogramVec
	deliveries *prometheus.CounterVec
	refusals   *prometheus.CounterVec
}

// New returns metrics on a registry of their own, with g's gauges, the Go
// runtime's and the process's; log reports a failed scrape.
func New(g Gauges, log *slog.Logger) *Metrics {
	reg := prometheus.NewRegistry()
	m := &Metrics{
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
	for _, l := range limits {
		m.refusals.WithLabelValues(l)
	}
	reg.MustRegister(
		m.requests, m.latency, m.deliveries, m.refusals,
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "payments_sandbox_accounts",
			Help: "Accounts in memory.",
		}, g.Accounts),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "payments_sandbox_bytes",
			Help: "Bytes all accounts keep, as counted for -max-total-bytes.",
		}, g.Bytes),
		prometheus.NewCounterFunc(prometheus.CounterOpts{
			Name: "payments_sandbox_connections_accepted_total",
			Help: "Connections accepted.",
		}, g.Connections),
		collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
	)
	m.handler = promhttp.HandlerFor(reg, promhttp.HandlerOpts{ErrorLog: errorLog{log}})
	return m
}

// Observe counts one answered request.
func (m *Metrics) Observe(route string, status int, took time.Duration) {
	m.requests.WithLabelValues(route, strconv.Itoa(status)).Inc()
	m.latency.WithLabelValues(route).Observe(took.Seconds())
}

// Refused counts a request refused, or a connection kept waiting, by
// limit, one of the Limit* constants.
func (m *Metrics) Refused(limit string) { m.refusals.WithLabelValues(limit).Inc() }

// Delivered counts one webhook delivery attempt: a success when errText
// is empty, a failure when there was an answer (status), an error when
// there was none.
func (m *Metrics) Delivered(status int, errText string) {
	switch {
	case errText == "":
		m.deliveries.WithLabelValues(outcomeSuccess).Inc()
	case status != 0:
		m.deliveries.WithLabelValues(outcomeFailure).Inc()
	default:
		m.deliveries.WithLabelValues(outcomeError).Inc()
	}
}

// ServeHTTP answers a scrape in Prometheus's text format.
func (m *Metrics) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	m.handler.ServeHTTP(w, r)
}

type errorLog struct{ log *slog.Logger }

func (l errorLog) Println(v ...any) { l.log.Warn("serving metrics", "error", v) }
