package wire

import "time"

// The account at a glance: GET /_sandbox/summary, the dashboard's home
// page. Its figures are counters and per-day buckets the sandbox keeps as
// objects change, so that the answer costs the same for ten objects as
// for a hundred thousand. [assumed]
const (
	PathSandboxSummary = PathSandbox + "/summary"
	// ParamSummaryDays is how many days, ending at the summary's last
	// day, the answer's days span: 1 to SummaryDaysMax, default
	// SummaryDaysDefault.
	ParamSummaryDays   = "days"
	SummaryDaysDefault = 90
	SummaryDaysMax     = 366
	// ObjectSummary is the object of the answer.
	ObjectSummary = "sandbox.summary"
)

// Summary is the answer of GET /_sandbox/summary. Days are UTC calendar
// days ("2006-01-02") on the objects' own time: a payment, an invoice or
// a subscription on a test clock counts on the clock's day, anything else
// on the sandbox's; a delivery always counts on real time.
type Summary struct {
	Object string `json:"object"`
	// Now is the account's latest time: the sandbox's, or the latest
	// frozen time of its test clocks when that is later. Until is the
	// last day of Days, From the first (Until's day less days-1).
	Now   string `json:"now"`
	From  string `json:"from"`
	Until string `json:"until"`
	// TestClocks is how many test clocks the account has: when any, some
	// of its figures are on a clock's time.
	TestClocks int64         `json:"test_clocks"`
	Counts     SummaryCounts `json:"counts"`
	// MRRBefore is the monthly recurring revenue by currency at the end of
	// the day before From; each day's MRRChange adds to it.
	MRRBefore []SummaryAmount `json:"mrr_before"`
	// Days are the days from From to Until that had any activity, oldest
	// first; a day not listed had none.
	Days []SummaryDay `json:"days"`
}

// SummaryCounts are what the account holds now. Each map is by status and
// lists only statuses with at least one object.
type SummaryCounts struct {
	Customers             int64            `json:"customers"`
	Cards                 int64            `json:"cards"`
	PaymentsByStatus      map[string]int64 `json:"payments_by_status"`
	SubscriptionsByStatus map[string]int64 `json:"subscriptions_by_status"`
	InvoicesByStatus      map[string]int64 `json:"invoices_by_status"`
	WebhookEndpoints      int64            `json:"webhook_endpoints"`
}

// SummaryDay is one day's activity.
type SummaryDay struct {
	Date string `json:"date"`
	// Payments are the day's payments by currency: made and approved or
	// authorized, made and declined, and refunded and disputed that day
	// (by the refund's or dispute's own day).
	Payments []SummaryVolume `json:"payments,omitempty"`
	// MRRChange is what the day's subscription changes added to (or took
	// from) the monthly recurring revenue of active subscriptions, by
	// currency.
	MRRChange []SummaryAmount `json:"mrr_change,omitempty"`
	// Renewals are the day's renewal invoices paid and failed (a charge
	// declined, first try or retry).
	RenewalsPaid   int64 `json:"renewals_paid"`
	RenewalsFailed int64 `json:"renewals_failed"`
	// Deliveries are the day's webhook delivery attempts that delivered
	// the event and that did not.
	DeliveriesSucceeded int64 `json:"deliveries_succeeded"`
	DeliveriesFailed    int64 `json:"deliveries_failed"`
}

// SummaryVolume is one currency's payments of a day.
type SummaryVolume struct {
	Currency string       `json:"currency"`
	Approved SummaryTally `json:"approved"`
	Declined SummaryTally `json:"declined"`
	Refunded SummaryTally `json:"refunded"`
	Disputed SummaryTally `json:"disputed"`
}

// SummaryTally is a count and an amount in the currency's minor units.
type SummaryTally struct {
	Count  int64 `json:"count"`
	Amount int64 `json:"amount"`
}

// SummaryAmount is an amount in a currency's minor units.
type SummaryAmount struct {
	Currency string `json:"currency"`
	Amount   int64  `json:"amount"`
}

// SummaryDayOf is the summary's day of a Unix time: whole UTC days since
// 1970-01-01, counted down for times before it.
func SummaryDayOf(unix int64) int64 {
	d := unix / 86400
	if unix%86400 < 0 {
		d--
	}
	return d
}

// SummaryDate is a summary day's date, as a SummaryDay's Date writes it.
func SummaryDate(day int64) string {
	return time.Unix(day*86400, 0).UTC().Format(time.DateOnly)
}
