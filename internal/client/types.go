package client

// Customer is a customer object. Optional string fields are "" when the
// service sends null or omits them.
type Customer struct {
	ID            string            `json:"id"`
	Object        string            `json:"object"`
	Email         string            `json:"email"`
	Name          string            `json:"name"`
	Phone         string            `json:"phone"`
	DefaultSource string            `json:"default_source"`
	Sources       SourceSummaryList `json:"sources"`
	Metadata      map[string]string `json:"metadata"`
	CreatedAt     string            `json:"created_at"`
	Livemode      bool              `json:"livemode"`
}

// SourceSummaryList is the list wrapper of a customer's `sources` field.
type SourceSummaryList struct {
	Object string          `json:"object"`
	Data   []SourceSummary `json:"data"`
}

// SourceSummary is one entry of a customer's `sources` list.
type SourceSummary struct {
	ID    string `json:"id"`
	Brand string `json:"brand"`
	Last4 string `json:"last4"`
}

// Source is a stored payment method of a customer.
type Source struct {
	ID       string `json:"id"`
	Object   string `json:"object"`
	Customer string `json:"customer"`
	Brand    string `json:"brand"`
	Last4    string `json:"last4"`
	ExpMonth int64  `json:"exp_month"`
	ExpYear  int64  `json:"exp_year"`
	Livemode bool   `json:"livemode"`
}

// PaymentSource is the payment method a payment used.
type PaymentSource struct {
	ID       string `json:"id"`
	Brand    string `json:"brand"`
	Last4    string `json:"last4"`
	ExpMonth int64  `json:"exp_month"`
	ExpYear  int64  `json:"exp_year"`
}

// Payment is a payment object. Fields SPEC.md calls possibly absent are
// pointers (nil when absent) or "" for strings.
type Payment struct {
	ID                string            `json:"id"`
	Object            string            `json:"object"`
	Amount            int64             `json:"amount"`
	AmountRefunded    *int64            `json:"amount_refunded"`
	Currency          string            `json:"currency"`
	Status            string            `json:"status"`
	Captured          *bool             `json:"captured"`
	AuthorizationCode string            `json:"authorization_code"`
	Source            *PaymentSource    `json:"source"`
	Customer          string            `json:"customer"`
	Description       string            `json:"description"`
	Metadata          map[string]string `json:"metadata"`
	CreatedAt         string            `json:"created_at"`
	Livemode          bool              `json:"livemode"`
}

// PaymentList is one page of a payment list.
type PaymentList struct {
	Object  string     `json:"object"`
	Data    []*Payment `json:"data"`
	HasMore bool       `json:"has_more"`
	URL     string     `json:"url"`
}

// Deleted is the answer to a delete.
type Deleted struct {
	ID      string `json:"id"`
	Object  string `json:"object"`
	Deleted bool   `json:"deleted"`
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

// CustomerParams are the fields of a customer create or update. A nil
// pointer is not sent; on update a pointer to "" clears the field.
// In Metadata, a "" value deletes that key; ClearMetadata removes every key.
type CustomerParams struct {
	Email         *string
	Name          *string
	Phone         *string
	Metadata      map[string]string
	ClearMetadata bool
	// Source is a token to store and make default (create only).
	Source *string
	// DefaultSource is an attached src_ id to make default (update only).
	DefaultSource *string
}

// PaymentParams are the fields of a payment create.
type PaymentParams struct {
	Amount      int64
	Currency    string
	Source      string
	Customer    string
	Description string
	Metadata    map[string]string
	// Capture false only authorizes; nil means the service default (true).
	Capture *bool
}

// PaymentUpdateParams are the fields of a payment update. A nil
// Description is not sent, a pointer to "" clears it; in Metadata a ""
// value deletes that key, and ClearMetadata removes every key first.
type PaymentUpdateParams struct {
	Description   *string
	Metadata      map[string]string
	ClearMetadata bool
}

// ListPaymentsParams filter and page a payment list. Created bounds are
// RFC 3339 strings; "" means unbounded.
type ListPaymentsParams struct {
	Customer      string
	Status        string
	CreatedGTE    string
	CreatedLTE    string
	Limit         int
	StartingAfter string
	EndingBefore  string
}

// FaultsParams change the sandbox's fault settings; nil fields stay as they are.
type FaultsParams struct {
	ErrorRate *float64
	DropRate  *float64
	LatencyMS *int64
	RateLimit *int64
}
