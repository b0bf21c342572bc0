package client

import "github.com/paymentsdev/terraform-provider-payments/internal/wire"

// The objects of the API, as the wire package defines them; the aliases
// keep callers' code short.
type (
	// Customer is a customer object.
	Customer = wire.Customer
	// SourceSummaryList is the list wrapper of a customer's `sources` field.
	SourceSummaryList = wire.SourceSummaryList
	// SourceSummary is one entry of a customer's `sources` list.
	SourceSummary = wire.SourceSummary
	// Source is a stored payment method of a customer.
	Source = wire.Source
	// PaymentSource is the payment method a payment used.
	PaymentSource = wire.PaymentSource
	// Payment is a payment object.
	Payment = wire.Payment
	// PaymentList is one page of a payment list.
	PaymentList = wire.PaymentList
	// Deleted is the answer to a delete.
	Deleted = wire.Deleted
	// Product is a product of the catalog.
	Product = wire.Product
	// ProductList is one page of products.
	ProductList = wire.ProductList
	// Price is a price of a product.
	Price = wire.Price
	// PriceList is one page of prices.
	PriceList = wire.PriceList
	// Recurring is a price's billing period.
	Recurring = wire.Recurring
	// Subscription is a customer on recurring prices.
	Subscription = wire.Subscription
	// SubscriptionItem is one price of a subscription and its quantity.
	SubscriptionItem = wire.SubscriptionItem
	// SubscriptionList is one page of subscriptions.
	SubscriptionList = wire.SubscriptionList
	// Invoice is what a subscription bills for a period.
	Invoice = wire.Invoice
	// InvoiceLine is what one item costs for a period.
	InvoiceLine = wire.InvoiceLine
	// InvoiceList is one page of invoices.
	InvoiceList = wire.InvoiceList
	// InvoiceLineList is an invoice's lines, or one page of them.
	InvoiceLineList = wire.InvoiceLineList
	// SubscriptionItemList is a subscription's items, or one page of them.
	SubscriptionItemList = wire.SubscriptionItemList
	// TestClock is a clock of its own for the customers on it.
	TestClock = wire.TestClock
	// TestClockList is one page of test clocks.
	TestClockList = wire.TestClockList
)

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
	// TestClock is the clock_ id of a test clock to put the customer on,
	// for its life (create only).
	TestClock *string
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
	Customer   string
	Status     string
	CreatedGTE string
	CreatedLTE string
	ListParams
}
