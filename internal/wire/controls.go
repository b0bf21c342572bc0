package wire

// Outcomes of POST /_sandbox/payments/:id/complete. [assumed]
const (
	OutcomeApproved   = "approved"
	OutcomeAuthorized = "authorized"
	OutcomeDeclined   = "declined"
)

// Stats are the sandbox's counters for the calling account.
type Stats struct {
	Object      string        `json:"object"`
	Customers   int64         `json:"customers"`
	Sources     int64         `json:"sources"`
	Payments    int64         `json:"payments"`
	Requests    StatsRequests `json:"requests"`
	Connections int64         `json:"connections"`
	// Faults counts the faults injected into the account's /v1 requests.
	// An addition to the contract's stats; zero from a sandbox without it.
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

// Faults are the sandbox's fault-injection settings for an account.
type Faults struct {
	Object    string  `json:"object"`
	ErrorRate float64 `json:"error_rate"`
	DropRate  float64 `json:"drop_rate"`
	LatencyMS int64   `json:"latency_ms"`
	RateLimit int64   `json:"rate_limit"`
}
