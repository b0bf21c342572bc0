package wire

import "encoding/json"

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
	// TestClock is the clock_ id of the customer's test clock; absent
	// ("") for a customer on real time.
	TestClock string            `json:"test_clock,omitempty"`
	Metadata  map[string]string `json:"metadata"`
	CreatedAt string            `json:"created_at"`
	Livemode  bool              `json:"livemode"`
}

// SourceSummaryList is the list wrapper of a customer's `sources` field.
// It holds every source, so HasMore is false.
type SourceSummaryList struct {
	Object  string          `json:"object"`
	Data    []SourceSummary `json:"data"`
	HasMore bool            `json:"has_more"`
	URL     string          `json:"url"`
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

// Payment is a payment object. Fields the service may leave out are
// pointers (nil when absent) or "" for strings.
type Payment struct {
	ID                string         `json:"id"`
	Object            string         `json:"object"`
	Amount            int64          `json:"amount"`
	AmountRefunded    *int64         `json:"amount_refunded"`
	Currency          string         `json:"currency"`
	Status            string         `json:"status"`
	Captured          *bool          `json:"captured"`
	AuthorizationCode string         `json:"authorization_code"`
	Source            *PaymentSource `json:"source"`
	Customer          string         `json:"customer"`
	Description       string         `json:"description"`
	// Invoice is the in_ id of the invoice the payment pays, "" when none.
	Invoice   string            `json:"invoice"`
	Metadata  map[string]string `json:"metadata"`
	CreatedAt string            `json:"created_at"`
	Livemode  bool              `json:"livemode"`
}

// List is one page of a list of T: the service's list envelope.
type List[T any] struct {
	Object  string `json:"object"`
	Data    []*T   `json:"data"`
	HasMore bool   `json:"has_more"`
	URL     string `json:"url"`
}

// PaymentList is one page of a payment list.
type PaymentList = List[Payment]

// Deleted is the answer to a delete.
type Deleted struct {
	ID      string `json:"id"`
	Object  string `json:"object"`
	Deleted bool   `json:"deleted"`
}

// WebhookEndpoint is a webhook endpoint. Secret is set only in the answers
// of create and roll secret; the service never shows it again.
type WebhookEndpoint struct {
	ID            string            `json:"id"`
	Object        string            `json:"object"`
	URL           string            `json:"url"`
	EnabledEvents []string          `json:"enabled_events"`
	Description   string            `json:"description"`
	Disabled      bool              `json:"disabled"`
	APIVersion    string            `json:"api_version"`
	Secret        string            `json:"secret,omitempty"`
	Metadata      map[string]string `json:"metadata"`
	CreatedAt     string            `json:"created_at"`
	Livemode      bool              `json:"livemode"`
}

// WebhookEndpointList is one page of webhook endpoints.
type WebhookEndpointList = List[WebhookEndpoint]

// Event is a change of an object: Data.Object is the object right after
// the change (a deleted object as its deletion answer).
type Event struct {
	ID         string    `json:"id"`
	Object     string    `json:"object"`
	APIVersion string    `json:"api_version"`
	Type       string    `json:"type"`
	CreatedAt  string    `json:"created_at"`
	Livemode   bool      `json:"livemode"`
	Data       EventData `json:"data"`
}

// EventData holds an event's object, undecoded: its type depends on the
// event's type (customer.* a customer, payment.* a payment, …).
type EventData struct {
	Object json.RawMessage `json:"object"`
}

// EventList is one page of events.
type EventList = List[Event]
