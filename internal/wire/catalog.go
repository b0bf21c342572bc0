package wire

import (
	"fmt"
	"time"
)

// The catalog: products and their prices, the plans that subscriptions
// charge. Every fact here is [assumed] (the service's published interface
// names no catalog), modelled on Stripe's products and prices.

// Identifier prefixes. [assumed]
const (
	ProductIDPrefix = "prod_"
	PriceIDPrefix   = "price_"
)

// Paths of the catalog. [assumed]
const (
	PathProducts = APIVersionPrefix + "/products"
	PathProduct  = PathProducts + "/{id}"
	PathPrices   = APIVersionPrefix + "/prices"
	PathPrice    = PathPrices + "/{id}"
)

// Form and query parameter names of the catalog. [assumed]
const (
	ParamActive            = "active"
	ParamProduct           = "product"
	ParamUnitAmount        = "unit_amount"
	ParamRecurring         = "recurring"
	ParamRecurringInterval = "recurring[interval]"
	// ParamRecurringIntervalCount is how many intervals make one period.
	ParamRecurringIntervalCount = "recurring[interval_count]"
	ParamNickname               = "nickname"
	ParamLookupKey              = "lookup_key"
	// ParamTransferLookupKey (true) moves a lookup_key held by another
	// active price to this one.
	ParamTransferLookupKey = "transfer_lookup_key"
	// ParamLookupKeys filters a price list; ParamLookupKeysItem is its
	// repeated form name.
	ParamLookupKeys     = "lookup_keys"
	ParamLookupKeysItem = ParamLookupKeys + "[]"
)

// Limits of the catalog. [assumed]
const (
	// ProductDescriptionMaxLength bounds a product's description, in
	// characters.
	ProductDescriptionMaxLength = 5000
	// LookupKeyMaxLength bounds a price's lookup_key, in characters
	// (Stripe's bound).
	LookupKeyMaxLength = 200
	// LookupKeysMax is how many lookup_keys[] a price list takes.
	LookupKeysMax = 10
	// PriceAmountMin and PriceAmountMax bound unit_amount, in the
	// currency's minor unit: 0 is a free price.
	PriceAmountMin = 0
	PriceAmountMax = PaymentAmountMax
	// RecurringMaxYears is the longest period of a recurring price.
	RecurringMaxYears = 3
)

// Error codes of the catalog. [assumed]
const (
	// ErrorCodeProductHasPrices (400) refuses to delete a product that
	// has prices: prices cannot be deleted, so such a product is archived
	// (active=false) instead.
	ErrorCodeProductHasPrices = "product_has_prices"
)

// Event types of the catalog. [assumed]
const (
	EventProductCreated = "product.created"
	EventProductUpdated = "product.updated"
	EventProductDeleted = "product.deleted"
	EventPriceCreated   = "price.created"
	EventPriceUpdated   = "price.updated"
)

// Price types. [assumed]
const (
	PriceTypeOneTime   = "one_time"
	PriceTypeRecurring = "recurring"
)

// Recurring intervals. [assumed]
const (
	IntervalDay   = "day"
	IntervalWeek  = "week"
	IntervalMonth = "month"
	IntervalYear  = "year"
)

// Intervals lists the recurring intervals, shortest first.
var Intervals = []string{IntervalDay, IntervalWeek, IntervalMonth, IntervalYear}

// IntervalMaxCount is the largest interval_count of interval whose period
// is at most RecurringMaxYears (3 years: 1,095 days, 156 weeks, 36
// months); 0 for an unknown interval.
func IntervalMaxCount(interval string) int {
	switch interval {
	case IntervalDay:
		return RecurringMaxYears * 365
	case IntervalWeek:
		return RecurringMaxYears * 52
	case IntervalMonth:
		return RecurringMaxYears * 12
	case IntervalYear:
		return RecurringMaxYears
	}
	return 0
}

// Recurring is a price's billing period: interval_count intervals.
type Recurring struct {
	Interval      string `json:"interval"`
	IntervalCount int64  `json:"interval_count"`
}

// Check reports whether r is a period a price may have, naming the
// parameter at fault.
func (r Recurring) Check() (param string, err error) {
	maxCount := IntervalMaxCount(r.Interval)
	if maxCount == 0 {
		return ParamRecurringInterval, fmt.Errorf("recurring[interval] %q is not an interval; use day, week, month or year", Clip(r.Interval, ErrorEchoMaxLength))
	}
	if r.IntervalCount < 1 || r.IntervalCount > int64(maxCount) {
		return ParamRecurringIntervalCount, fmt.Errorf("recurring[interval_count] %d with interval %s is not a period of 1 %s to %d years; use 1 to %d",
			r.IntervalCount, r.Interval, r.Interval, RecurringMaxYears, maxCount)
	}
	return "", nil
}

// PeriodEnd is the end of the n-th period (n ≥ 1) of r from anchor, in
// anchor's location: the start of the period after it. Months and years
// keep the anchor's day of the month, or the month's last day when it is
// shorter (an anchor on 31 January ends periods on 28 or 29 February, then
// 31 March), as Stripe bills; counting every period from the anchor, not
// from the previous end, keeps one short month from shortening the rest.
func (r Recurring) PeriodEnd(anchor time.Time, n int) time.Time {
	steps := int(r.IntervalCount) * n
	switch r.Interval {
	case IntervalDay:
		return anchor.AddDate(0, 0, steps)
	case IntervalWeek:
		return anchor.AddDate(0, 0, 7*steps)
	case IntervalYear:
		steps *= 12
	}
	y, m, d := anchor.Date()
	hh, mm, ss := anchor.Clock()
	first := time.Date(y, m+time.Month(steps), 1, hh, mm, ss, anchor.Nanosecond(), anchor.Location())
	fy, fm, _ := first.Date()
	return first.AddDate(0, 0, min(d, daysIn(fy, fm))-1)
}

// daysIn is the number of days of month m of year y: counted rather than
// found with two more calendar conversions, which took a month's period
// end from about 66 ns to 49.
func daysIn(y int, m time.Month) int {
	switch m {
	case time.February:
		if y%4 == 0 && (y%100 != 0 || y%400 == 0) {
			return 29
		}
		return 28
	case time.April, time.June, time.September, time.November:
		return 30
	}
	return 31
}

// Product is a product of the catalog. Description is "" when null.
type Product struct {
	ID          string            `json:"id"`
	Object      string            `json:"object"`
	Name        string            `json:"name"`
	Description string            `json:"description"`
	Active      bool              `json:"active"`
	Metadata    map[string]string `json:"metadata"`
	CreatedAt   string            `json:"created_at"`
	Livemode    bool              `json:"livemode"`
}

// ProductList is one page of products.
type ProductList = List[Product]

// Price is a price of a product: what one unit costs, once or every
// period. Recurring is nil for a one-time price; Nickname and LookupKey
// are "" when null.
type Price struct {
	ID         string            `json:"id"`
	Object     string            `json:"object"`
	Product    string            `json:"product"`
	Type       string            `json:"type"`
	Currency   string            `json:"currency"`
	UnitAmount int64             `json:"unit_amount"`
	Recurring  *Recurring        `json:"recurring"`
	Nickname   string            `json:"nickname"`
	LookupKey  string            `json:"lookup_key"`
	Active     bool              `json:"active"`
	Metadata   map[string]string `json:"metadata"`
	CreatedAt  string            `json:"created_at"`
	Livemode   bool              `json:"livemode"`
}

// PriceList is one page of prices.
type PriceList = List[Price]
