package dashboard

import (
	"errors"
	"fmt"
	"html/template"
	"strconv"
	"strings"
	"time"

	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// currencySymbols are the signs written before an amount; a currency
// without one is written with its code.
var currencySymbols = map[string]string{
	"USD": "$", "EUR": "€", "GBP": "£", "JPY": "¥", "BRL": "R$", "CAD": "CA$", "AUD": "A$", "MXN": "MX$",
}

// formatMoney writes an amount in a currency's minor unit as people read
// it: 1999 USD is $19.99, 1200 JPY is ¥1,200, each currency with its own
// number of decimals (wire.FormatAmount), the whole part grouped by
// thousands.
func formatMoney(amount int64, currency string) string {
	code := strings.ToUpper(currency)
	if _, known := wire.CurrencyDecimals[code]; !known {
		// Not an accepted currency: the minor units as they are, as
		// messages write them.
		return wire.FormatMoney(amount, code)
	}
	num, neg := strings.CutPrefix(wire.FormatAmount(amount, code), "-")
	whole, frac, hasFrac := strings.Cut(num, ".")
	var b strings.Builder
	if neg {
		b.WriteByte('-')
	}
	sym, ok := currencySymbols[code]
	if ok {
		b.WriteString(sym)
	}
	b.WriteString(groupDigits(whole))
	if hasFrac {
		b.WriteByte('.')
		b.WriteString(frac)
	}
	if !ok {
		b.WriteString(" " + code)
	}
	return b.String()
}

// groupDigits puts a comma between each group of three digits: 1,000.
func groupDigits(digits string) string {
	var b strings.Builder
	for i, c := range digits {
		if i > 0 && (len(digits)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// timeLayout shows times in UTC with the offset stated.
const timeLayout = "2006-01-02 15:04:05 UTC-07:00"

// formatTime writes an RFC 3339 time of the API as a <time> element in
// UTC; a value that is not a time is shown as it came.
func formatTime(s string) template.HTML {
	if s == "" {
		return ""
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return template.HTML(template.HTMLEscapeString(s))
	}
	t = t.UTC()
	return template.HTML(`<time datetime="` + t.Format(time.RFC3339Nano) + `">` +
		t.Format(timeLayout) + `</time>`)
}

// formatSpan says how long it is from start to end, two RFC 3339 times of
// the API: under a day in hours, minutes and seconds; under a year in days
// ("45 days", "1 day 12 hours"); longer in years, months and days ("3
// years 2 months"), counted on the calendar from start as a price's
// periods are, so that a yearly period from 29 February reads "1 year".
// It never holds the whole span in a time.Duration, which stops at about
// 292 years; "" when either is missing or not a time.
func formatSpan(start, end string) string {
	a, err1 := time.Parse(time.RFC3339Nano, start)
	b, err2 := time.Parse(time.RFC3339Nano, end)
	if err1 != nil || err2 != nil {
		return ""
	}
	a, b = a.UTC(), b.UTC()
	if b.Before(a) {
		return "minus " + span(b, a)
	}
	return span(a, b)
}

// span is formatSpan's words for a, not after b.
func span(a, b time.Time) string {
	const day = 24 * time.Hour
	months := monthsBetween(a, b)
	if months < 12 {
		d := b.Sub(a) // under a year: far from Duration's limit
		if d < day {
			return wire.FormatDurationWords(d)
		}
		return words(units(int64(d/day), "day"), underDay(d%day))
	}
	d := b.Sub(addMonths(a, months)) // under a month
	return words(units(int64(months/12), "year"), units(int64(months%12), "month"), units(int64(d/day), "day"), underDay(d%day))
}

// monthsBetween is how many whole calendar months from a fit before b.
func monthsBetween(a, b time.Time) int {
	m := (b.Year()-a.Year())*12 + int(b.Month()) - int(a.Month())
	if m > 0 && addMonths(a, m).After(b) {
		m--
	}
	return max(m, 0)
}

// addMonths is n months after t, on t's day of the month or the month's
// last day when it is shorter, as a monthly price's periods end.
func addMonths(t time.Time, n int) time.Time {
	return wire.Recurring{Interval: wire.IntervalMonth, IntervalCount: 1}.PeriodEnd(t, n)
}

// units writes n of unit, "" for none: "1 day", "3 days".
func units(n int64, unit string) string {
	switch {
	case n <= 0:
		return ""
	case n == 1:
		return "1 " + unit
	}
	return strconv.FormatInt(n, 10) + " " + unit + "s"
}

// underDay writes what is left of a span under a day, "" for nothing.
func underDay(d time.Duration) string {
	if d == 0 {
		return ""
	}
	return wire.FormatDurationWords(d)
}

// words joins the parts that are not empty with spaces.
func words(parts ...string) string {
	out := parts[:0]
	for _, p := range parts {
		if p != "" {
			out = append(out, p)
		}
	}
	return strings.Join(out, " ")
}

// formatMillis writes a duration in milliseconds.
func formatMillis(ms float64) string {
	switch {
	case ms < 1:
		return strconv.FormatFloat(ms, 'f', 3, 64) + " ms"
	case ms < 100:
		return strconv.FormatFloat(ms, 'f', 1, 64) + " ms"
	}
	return strconv.FormatFloat(ms, 'f', 0, 64) + " ms"
}

// badgeClass is the CSS class of the badge of a payment's, a
// subscription's, an invoice's or a test clock's status (no two share a
// name).
func badgeClass(status string) string {
	switch status {
	case wire.PaymentStatusApproved, wire.SubscriptionStatusActive, wire.InvoiceStatusPaid, wire.TestClockStatusReady:
		return "badge ok"
	case wire.PaymentStatusAuthorized, wire.PaymentStatusPending, wire.SubscriptionStatusTrialing,
		wire.SubscriptionStatusIncomplete, wire.SubscriptionStatusPastDue, wire.InvoiceStatusOpen, wire.InvoiceStatusDraft,
		wire.TestClockStatusAdvancing:
		return "badge wait"
	case wire.PaymentStatusDeclined, wire.PaymentStatusDisputed, wire.SubscriptionStatusUnpaid,
		wire.SubscriptionStatusIncompleteExpired, wire.InvoiceStatusUncollectible:
		return "badge bad"
	}
	return "badge"
}

// statusClass is the CSS class of an HTTP status.
func statusClass(status int) string {
	switch {
	case status == 0:
		return "badge bad"
	case status < 300:
		return "badge ok"
	case status < 500:
		return "badge wait"
	}
	return "badge bad"
}

var funcs = template.FuncMap{
	"money":       formatMoney,
	"count":       func(n int) string { return groupDigits(strconv.Itoa(n)) },
	"count64":     formatInt,
	"s":           pluralS,
	"when":        formatTime,
	"period":      formatPeriod,
	"millis":      formatMillis,
	"badge":       badgeClass,
	"statusClass": statusClass,
	"label":       func(s string) string { return strings.ReplaceAll(s, "_", " ") },
	"int":         deref[int64],
	"bool":        deref[bool],
	"dict":        dict,
	"short":       shorten,
	"span":        formatSpan,
	"itemTotal":   itemTotal,
	"subTotal":    subscriptionTotal,
	"atPeriodEnd": atPeriodEnd,
}

// pluralS is the ending of a noun after a count: "s" unless it is 1.
func pluralS(n int64) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// shortLen is the most characters shorten keeps of a value.
const shortLen = 20

// shorten keeps a long value, an idempotency key say, from widening its
// table: its first characters and an ellipsis. Pages put the full value in
// the element's title, shown on hover.
func shorten(s string) string {
	r := []rune(s)
	if len(r) <= shortLen {
		return s
	}
	return string(r[:shortLen-1]) + "…"
}

// deref reads an optional field of the API (a nil pointer is the zero value).
func deref[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}

// dict builds the arguments of a shared template from name, value pairs.
func dict(kv ...any) (map[string]any, error) {
	if len(kv)%2 != 0 {
		return nil, errors.New("dict: an odd number of arguments")
	}
	m := make(map[string]any, len(kv)/2)
	for i := 0; i < len(kv); i += 2 {
		k, ok := kv[i].(string)
		if !ok {
			return nil, fmt.Errorf("dict: argument %d is not a name", i)
		}
		m[k] = kv[i+1]
	}
	return m, nil
}
