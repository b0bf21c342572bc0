package wire

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
