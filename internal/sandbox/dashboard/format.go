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
