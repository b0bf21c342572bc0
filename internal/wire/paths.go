package wire

import "strings"

// APIVersionPrefix is the path prefix of every endpoint. [spec]
const APIVersionPrefix = "/v1"

// Paths of the endpoints, as templates whose {name} segments are object
// ids. They double as net/http route patterns (after a method and a
// space). [spec] for customers, adding a source and payments; the others
// are [assumed].
const (
	PathCustomers       = APIVersionPrefix + "/customers"
	PathCustomer        = PathCustomers + "/{id}"
	PathCustomerSources = PathCustomer + "/sources"
	PathCustomerSource  = PathCustomerSources + "/{src}"
	PathPayments        = APIVersionPrefix + "/payments"
	PathPayment         = PathPayments + "/{id}"
	PathPaymentCapture  = PathPayment + "/capture"
	PathPaymentRefund   = PathPayment + "/refund"
)

// Paths of the sandbox-only controls, outside /v1. A real service has none
// of them. [assumed]
const (
	PathSandbox                = "/_sandbox"
	PathSandboxPaymentComplete = PathSandbox + "/payments/{id}/complete"
	PathSandboxPaymentDispute  = PathSandbox + "/payments/{id}/dispute"
	PathSandboxReset           = PathSandbox + "/reset"
	PathSandboxStats           = PathSandbox + "/stats"
	PathSandboxFaults          = PathSandbox + "/faults"
	// PathSandboxAccount tells the calling account's publishable key; only
	// a secret key may read it.
	PathSandboxAccount = PathSandbox + "/account"
)

// Operational paths of the sandbox, for whoever runs it: served without a
// key, outside the API. [assumed]
const (
	PathHealth  = "/healthz"
	PathMetrics = "/metrics"
)

// ExpandPath fills the {name} segments of a path template with ids, in
// order, each passed through escape (which must make it one path segment).
// It panics when the counts differ: that is a programming error.
func ExpandPath(template string, escape func(string) string, ids ...string) string {
	var b strings.Builder
	rest := template
	for _, id := range ids {
		open := strings.IndexByte(rest, '{')
		end := strings.IndexByte(rest, '}')
		if open < 0 || end < open {
			panic("wire: too many ids for path " + template)
		}
		b.WriteString(rest[:open])
		b.WriteString(escape(id))
		rest = rest[end+1:]
	}
	if strings.IndexByte(rest, '{') >= 0 {
		panic("wire: too few ids for path " + template)
	}
	b.WriteString(rest)
	return b.String()
}

// HTTP headers. Authorization and Idempotency-Key are [spec]; the others
// are [assumed].
const (
	HeaderAuthorization      = "Authorization"
	HeaderIdempotencyKey     = "Idempotency-Key"
	HeaderIdempotentReplayed = "Idempotent-Replayed"
	HeaderRequestID          = "Request-Id"
	HeaderRetryAfter         = "Retry-After"
)
