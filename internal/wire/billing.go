package wire

import "strconv"

// Subscriptions and their invoices: a customer on recurring prices, billed
// every period. Every fact here is [assumed] (the service's published
// interface names the area but shows none of it), modelled on Stripe's
// subscriptions and invoices.

// Identifier prefixes. [assumed]
const (
	SubscriptionIDPrefix     = "sub_"
	SubscriptionItemIDPrefix = "si_"
	InvoiceLineIDPrefix      = "il_"
	InvoiceIDPrefix          = "in_"
)

// Paths of subscriptions and invoices. [assumed]
const (
	PathSubscriptions = APIVersionPrefix + "/subscriptions"
	PathSubscription  = PathSubscriptions + "/{id}"
	PathInvoices      = APIVersionPrefix + "/invoices"
	PathInvoice       = PathInvoices + "/{id}"
	PathInvoicePay    = PathInvoice + "/pay"
	PathInvoiceVoid   = PathInvoice + "/void"
	// PathInvoiceLines is the url of an invoice's `lines` list and
	// PathSubscriptionItems, with ParamSubscription, of a subscription's
	// `items` list.
	PathInvoiceLines      = PathInvoice + "/lines"
	PathSubscriptionItems = APIVersionPrefix + "/subscription_items"
)

// Form and query parameter names of subscriptions and invoices. [assumed]
// An item is sent as items[<index>][price] and items[<index>][quantity]
// (ItemParam), the indexes 0, 1, 2… in order.
const (
	ParamItems             = "items"
	ParamQuantity          = "quantity"
	ParamPrice             = "price"
	ParamCancelAtPeriodEnd = "cancel_at_period_end"
	ParamTrialPeriodDays   = "trial_period_days"
	ParamPaymentBehavior   = "payment_behavior"
	ParamSubscription      = "subscription"
)

// ItemParam is the form name of a field of the items' i-th entry, as in
// items[0][price].
func ItemParam(i int, field string) string {
	return ParamItems + "[" + strconv.Itoa(i) + "][" + field + "]"
}

// Limits of subscriptions. [assumed]
const (
	// SubscriptionItemsMax is how many items one subscription has
	// (Stripe's bound).
	SubscriptionItemsMax = 20
	// QuantityMax bounds an item's quantity.
	QuantityMax = 10_000
	// TrialPeriodDaysMax bounds trial_period_days (Stripe's bound).
	TrialPeriodDaysMax = 730
	// IncompleteExpiryHours is how long an incomplete subscription waits
	// for its first payment before it is incomplete_expired.
	IncompleteExpiryHours = 23
)

// Payment behaviours of a subscription's create. [assumed]
const (
	// PaymentBehaviorAllowIncomplete (the default) keeps a subscription
	// whose first charge fails, incomplete.
	PaymentBehaviorAllowIncomplete = "allow_incomplete"
	// PaymentBehaviorErrorIfIncomplete refuses it: a 402 card error, and
	// nothing is created.
	PaymentBehaviorErrorIfIncomplete = "error_if_incomplete"
)

// Subscription statuses. [assumed]
const (
	SubscriptionStatusIncomplete        = "incomplete"
	SubscriptionStatusIncompleteExpired = "incomplete_expired"
	SubscriptionStatusTrialing          = "trialing"
	SubscriptionStatusActive            = "active"
	SubscriptionStatusPastDue           = "past_due"
	SubscriptionStatusCanceled          = "canceled"
	SubscriptionStatusUnpaid            = "unpaid"
	// SubscriptionStatusAll is the list filter that keeps every status.
	SubscriptionStatusAll = "all"
)

// SubscriptionStatuses lists the statuses of a subscription.
var SubscriptionStatuses = []string{
	SubscriptionStatusIncomplete, SubscriptionStatusIncompleteExpired, SubscriptionStatusTrialing,
	SubscriptionStatusActive, SubscriptionStatusPastDue, SubscriptionStatusCanceled, SubscriptionStatusUnpaid,
}

// Invoice statuses. [assumed]
const (
	InvoiceStatusDraft         = "draft"
	InvoiceStatusOpen          = "open"
	InvoiceStatusPaid          = "paid"
	InvoiceStatusUncollectible = "uncollectible"
	InvoiceStatusVoid          = "void"
)

// InvoiceStatuses lists the statuses of an invoice.
var InvoiceStatuses = []string{InvoiceStatusDraft, InvoiceStatusOpen, InvoiceStatusPaid, InvoiceStatusUncollectible, InvoiceStatusVoid}

// Billing reasons of an invoice. [assumed]
const (
	BillingReasonSubscriptionCreate = "subscription_create"
	BillingReasonSubscriptionCycle  = "subscription_cycle"
)

// Error codes of subscriptions and invoices. [assumed]
const (
	// ErrorCodeSubscriptionUnexpectedState (400) refuses to change a
	// subscription that has ended (canceled or incomplete_expired).
	ErrorCodeSubscriptionUnexpectedState = "subscription_unexpected_state"
	// ErrorCodeInvoiceUnexpectedState (400) refuses to pay an invoice
	// that is neither open nor uncollectible, or to void one that is not
	// open.
	ErrorCodeInvoiceUnexpectedState = "invoice_unexpected_state"
)

// Event types of subscriptions and invoices. [assumed]
const (
	EventSubscriptionCreated        = "customer.subscription.created"
	EventSubscriptionUpdated        = "customer.subscription.updated"
	EventSubscriptionDeleted        = "customer.subscription.deleted"
	EventSubscriptionTrialWillEnd   = "customer.subscription.trial_will_end"
	EventInvoiceCreated             = "invoice.created"
	EventInvoiceFinalized           = "invoice.finalized"
	EventInvoicePaid                = "invoice.paid"
	EventInvoicePaymentFailed       = "invoice.payment_failed"
	EventInvoicePaymentActionNeeded = "invoice.payment_action_required"
	EventInvoiceVoided              = "invoice.voided"
	EventInvoiceMarkedUncollectible = "invoice.marked_uncollectible"
)

// SubscriptionItem is one price of a subscription and its quantity.
type SubscriptionItem struct {
	ID       string `json:"id"`
	Object   string `json:"object"`
	Price    *Price `json:"price"`
	Quantity int64  `json:"quantity"`
}

// Subscription is a customer on recurring prices. Times are RFC 3339;
// those that are null are "". DefaultSource, LatestInvoice are "" when
// null.
type Subscription struct {
	ID                 string               `json:"id"`
	Object             string               `json:"object"`
	Customer           string               `json:"customer"`
	Items              SubscriptionItemList `json:"items"`
	DefaultSource      string               `json:"default_source"`
	Status             string               `json:"status"`
	CurrentPeriodStart string               `json:"current_period_start"`
	CurrentPeriodEnd   string               `json:"current_period_end"`
	CancelAtPeriodEnd  bool                 `json:"cancel_at_period_end"`
	CanceledAt         string               `json:"canceled_at"`
	TrialStart         string               `json:"trial_start"`
	TrialEnd           string               `json:"trial_end"`
	LatestInvoice      string               `json:"latest_invoice"`
	Metadata           map[string]string    `json:"metadata"`
	CreatedAt          string               `json:"created_at"`
	Livemode           bool                 `json:"livemode"`
}

// SubscriptionList is one page of subscriptions.
type SubscriptionList = List[Subscription]

// SubscriptionItemList is a subscription's `items`: a list object of
// every item, so HasMore is false.
type SubscriptionItemList = List[SubscriptionItem]

// InvoiceLineList is an invoice's `lines`: a list object of every line,
// so HasMore is false.
type InvoiceLineList = List[InvoiceLine]

// InvoiceLine is what one item of a subscription costs for a period.
type InvoiceLine struct {
	ID               string `json:"id"`
	Object           string `json:"object"`
	SubscriptionItem string `json:"subscription_item"`
	Price            string `json:"price"`
	Quantity         int64  `json:"quantity"`
	Amount           int64  `json:"amount"`
	PeriodStart      string `json:"period_start"`
	PeriodEnd        string `json:"period_end"`
}

// Invoice is what a subscription bills for a period, and how its payment
// went. NextPaymentAttempt and Payment are "" when null.
type Invoice struct {
	ID                 string          `json:"id"`
	Object             string          `json:"object"`
	Customer           string          `json:"customer"`
	Subscription       string          `json:"subscription"`
	Status             string          `json:"status"`
	BillingReason      string          `json:"billing_reason"`
	Lines              InvoiceLineList `json:"lines"`
	AmountDue          int64           `json:"amount_due"`
	AmountPaid         int64           `json:"amount_paid"`
	Currency           string          `json:"currency"`
	AttemptCount       int64           `json:"attempt_count"`
	NextPaymentAttempt string          `json:"next_payment_attempt"`
	Payment            string          `json:"payment"`
	PeriodStart        string          `json:"period_start"`
	PeriodEnd          string          `json:"period_end"`
	CreatedAt          string          `json:"created_at"`
	Livemode           bool            `json:"livemode"`
}

// InvoiceList is one page of invoices.
type InvoiceList = List[Invoice]
