package wire

// Outcomes of POST /_sandbox/payments/:id/complete. [assumed]
const (
	OutcomeApproved   = "approved"
	OutcomeAuthorized = "authorized"
	OutcomeDeclined   = "declined"
)

// SandboxAccount is the answer of GET /_sandbox/account: what the sandbox
// tells an account's secret key about the account.
type SandboxAccount struct {
	Object string `json:"object"`
	// PublishableKey is the account's publishable key, for POST
	// /v1/tokens from a browser or an app; the sandbox derives it one way
	// from the secret key, so it gives nothing of the secret key away.
	PublishableKey string `json:"publishable_key"`
}

// Stats are the sandbox's counters for the calling account.
type Stats struct {
	Object      string        `json:"object"`
	Customers   int64         `json:"customers"`
	Sources     int64         `json:"sources"`
	Payments    int64         `json:"payments"`
	Requests    StatsRequests `json:"requests"`
	Connections int64         `json:"connections"`
	// Faults counts the faults injected into the account's /v1 requests.
	// An addition of ours to the stats [own decision]; zero from a sandbox
	// without it.
	Faults StatsFaults `json:"faults"`
}

// StatsFaults counts injected faults by kind: errors (500 or 503 without
// acting), drops (acted, then the connection closed) and 429s.
type StatsFaults struct {
	Errors      int64 `json:"errors"`
	Drops       int64 `json:"drops"`
	RateLimited int64 `json:"rate_limited"`
}

// StatsRequests counts the account's /v1 requests, in all and by route
// pattern (for example "GET /v1/customers/:id").
type StatsRequests struct {
	Total   int64            `json:"total"`
	ByRoute map[string]int64 `json:"by_route"`
}

// The account's billing settings of payments-sandbox. [assumed]
const (
	// PathSandboxBilling reads (GET) and changes (POST) them.
	PathSandboxBilling = PathSandbox + "/billing"
	// ParamDunningEnd is the status a subscription ends in when the
	// retries of a renewal's invoice run out; empty is the sandbox's
	// default (its -dunning-end flag).
	ParamDunningEnd = "dunning_end"
)

// DunningEnds are the statuses dunning may end a subscription in; the
// first is the sandbox's default.
var DunningEnds = []string{SubscriptionStatusCanceled, SubscriptionStatusUnpaid, SubscriptionStatusPastDue}

// SandboxBilling is the account's billing settings.
type SandboxBilling struct {
	Object string `json:"object"`
	// DunningEnd is the status the account's subscriptions end in when
	// dunning runs out: the account's choice, else the sandbox's.
	DunningEnd string `json:"dunning_end"`
	// DunningEndDefault is the sandbox's own (-dunning-end), which an
	// empty dunning_end goes back to.
	DunningEndDefault string `json:"dunning_end_default"`
}

// Faults are the sandbox's fault-injection settings for an account.
type Faults struct {
	Object    string  `json:"object"`
	ErrorRate float64 `json:"error_rate"`
	DropRate  float64 `json:"drop_rate"`
	LatencyMS int64   `json:"latency_ms"`
	RateLimit int64   `json:"rate_limit"`
	// Seed starts the account's fault decisions: the same seed and the
	// same requests in the same order meet the same faults.
	Seed int64 `json:"seed"`
}

// FaultSeedMax is the largest fault seed, the largest integer every JSON
// client reads exactly (2^53 - 1). Seeds are 1 to FaultSeedMax; 0 asks
// for a random one.
const FaultSeedMax = 1<<53 - 1

// The request log and the resend control of payments-sandbox. [assumed]
const (
	// PathSandboxRequests lists the calling account's recent requests.
	PathSandboxRequests = PathSandbox + "/requests"
	// PathSandboxEventResend delivers an event again.
	PathSandboxEventResend = PathSandbox + "/events/{id}/resend"
	// ParamStatusClass filters the request log by status class: 2xx, 4xx…
	ParamStatusClass = "status_class"
	// RequestLogSize is how many requests the log keeps per account; the
	// oldest go first.
	RequestLogSize = 1000
)

// LoggedRequest is one line of the request log. It holds no key, no
// header but Idempotency-Key, and no body.
type LoggedRequest struct {
	ID             string  `json:"id"`
	Object         string  `json:"object"`
	At             string  `json:"at"`
	Method         string  `json:"method"`
	Path           string  `json:"path"`
	Status         int     `json:"status"`
	DurationMS     float64 `json:"duration_ms"`
	IdempotencyKey string  `json:"idempotency_key"`
	Replayed       bool    `json:"replayed"`
	ErrorCode      string  `json:"error_code"`
}

// Delivery is one webhook delivery attempt, as GET /_sandbox/deliveries
// lists it, newest first. Status is the receiver's HTTP status, 0 when it
// did not answer; Error is "" when the attempt delivered the event.
type Delivery struct {
	Event    string `json:"event"`
	Endpoint string `json:"endpoint"`
	Attempt  int    `json:"attempt"`
	Status   int    `json:"status"`
	Error    string `json:"error"`
	At       string `json:"at"`
	// DurationMS is from sending to the end of the answer; NextRetryAt is
	// when the next attempt was scheduled, "" when none was.
	DurationMS  float64 `json:"duration_ms"`
	NextRetryAt string  `json:"next_retry_at"`
}

// EventResend is the answer of the resend control: the endpoints a new
// delivery of the event was scheduled to.
type EventResend struct {
	Object    string   `json:"object"`
	Event     string   `json:"event"`
	Endpoints []string `json:"endpoints"`
}
