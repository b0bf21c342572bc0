package form

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/apierr"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

var phoneRE = regexp.MustCompile(wire.PhonePattern)

// CheckEmail accepts local@domain: one @, both sides non-empty, no spaces
// or control characters, at most EmailMaxLength characters.
func CheckEmail(v string) *apierr.Error {
	if n := utf8.RuneCountInString(v); n > wire.EmailMaxLength {
		return apierr.Invalid(wire.ParamEmail, "email is %d characters long; use at most %d.", n, wire.EmailMaxLength)
	}
	local, domain, ok := strings.Cut(v, "@")
	if !ok || local == "" || domain == "" || strings.Contains(domain, "@") ||
		strings.IndexFunc(v, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) }) >= 0 {
		return apierr.Invalid(wire.ParamEmail, "email %q is not an e-mail address; use the form local@domain.", apierr.Clip(v))
	}
	return nil
}

// CheckPhone accepts an E.164 number (wire.PhonePattern).
func CheckPhone(v string) *apierr.Error {
	if !phoneRE.MatchString(v) {
		return apierr.Invalid(wire.ParamPhone, "phone %q is not in E.164 format; use + followed by %d to %d digits, as in +14155550123 (encode + as %%2B in forms).",
			apierr.Clip(v), wire.PhoneMinDigits, wire.PhoneMaxDigits)
	}
	return nil
}

// CheckName bounds a customer's or a product's name as a label.
func CheckName(v string) *apierr.Error {
	return CheckLabel(wire.ParamName, v, wire.NameMaxLength)
}

// CheckLabel bounds a short text people read as a label, such as a name,
// a nickname or a lookup key, to most characters, free of controls.
func CheckLabel(param, v string, most int) *apierr.Error {
	if n := utf8.RuneCountInString(v); n > most {
		return apierr.Invalid(param, "%s is %d characters long; use at most %d.", param, n, most)
	}
	return RefuseControl(param, param, v)
}

// refusedControl finds the control characters names and metadata keys
// may not hold (wire.RefusedControlClass), and refusedBidi the
// bidirectional controls they, descriptions and metadata values may not
// (wire.BidiControlClass).
var (
	refusedControl = regexp.MustCompile(`[` + wire.RefusedControlClass + `]`)
	refusedBidi    = regexp.MustCompile(`[` + wire.BidiControlClass + `]`)
)

// RefuseControl is a 400 naming param when v holds a refused control
// character or a bidirectional control, or nil; what names the text in
// the message.
func RefuseControl(param, what, v string) *apierr.Error {
	loc := refusedControl.FindStringIndex(v)
	if loc == nil {
		return RefuseBidi(param, what, v)
	}
	r, _ := utf8.DecodeRuneInString(v[loc[0]:])
	return apierr.Invalid(param, "%s holds the control character U+%04X at character %d; only tab and newline are allowed. Remove it.",
		what, r, utf8.RuneCountInString(v[:loc[0]])+1)
}

// RefuseBidi is a 400 naming param when v holds a bidirectional control,
// or nil.
func RefuseBidi(param, what, v string) *apierr.Error {
	loc := refusedBidi.FindStringIndex(v)
	if loc == nil {
		return nil
	}
	r, _ := utf8.DecodeRuneInString(v[loc[0]:])
	return apierr.Invalid(param, "%s holds the bidirectional control U+%04X at character %d, which makes text display in another order than it is stored. Remove it.",
		what, r, utf8.RuneCountInString(v[:loc[0]])+1)
}

// CheckDescription bounds a payment's description; empty clears it.
func CheckDescription(v string) *apierr.Error {
	if n := utf8.RuneCountInString(v); n > wire.PaymentDescriptionMaxLength {
		return apierr.Invalid(wire.ParamDescription, "description is %d characters long; use at most %d.", n, wire.PaymentDescriptionMaxLength)
	}
	return RefuseBidi(wire.ParamDescription, "description", v)
}

// MetadataKeys admits every metadata[key] field in Form.Check.
const MetadataKeys = wire.ParamMetadata + "[*]"

// ParseAmount reads an amount in minor units within [min, max].
func ParseAmount(param, v string, lo, hi int64) (int64, *apierr.Error) {
	n, ok := parseWhole(v, lo, hi)
	if !ok {
		return 0, apierr.Invalid(param, "%s %q is not valid; use a whole number of minor units from %d to %d.", param, apierr.Clip(v), lo, hi)
	}
	return n, nil
}

// ParseMoney reads an amount in minor units of a known currency within
// [min, max], and says the bounds in major units too when refused: the
// most a capture or refund may take is the payment's own amount, which
// people know as "9.00 GBP", not 900.
func ParseMoney(param, v string, lo, hi int64, currency string) (int64, *apierr.Error) {
	n, ok := parseWhole(v, lo, hi)
	if !ok {
		return 0, apierr.Invalid(param, "%s %q is not valid; use a whole number of minor units from %d to %d (%s to %s).",
			param, apierr.Clip(v), lo, hi, wire.FormatMoney(lo, currency), wire.FormatMoney(hi, currency))
	}
	return n, nil
}

// ParseCount reads a count, such as a quantity or a number of days,
// within [min, max].
func ParseCount(param, v string, lo, hi int64) (int64, *apierr.Error) {
	n, ok := parseWhole(v, lo, hi)
	if !ok {
		return 0, apierr.Invalid(param, "%s %q is not valid; use a whole number from %d to %d.", param, apierr.Clip(v), lo, hi)
	}
	return n, nil
}

// parseWhole reads a decimal whole number, without a sign, within [lo, hi].
func parseWhole(v string, lo, hi int64) (int64, bool) {
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n < lo || n > hi || strings.HasPrefix(v, "+") {
		return 0, false
	}
	return n, true
}

// Currency returns the canonical (interned) code, so payments share the
// strings of wire.Currencies instead of each holding a copy.
func Currency(v string) (string, *apierr.Error) {
	if i := slices.Index(wire.Currencies, v); i >= 0 {
		return wire.Currencies[i], nil
	}
	hint := ""
	if slices.Contains(wire.Currencies, strings.ToUpper(v)) {
		hint = fmt.Sprintf(" Currency codes are upper case: use %s.", strings.ToUpper(v))
	}
	return "", apierr.Invalid(wire.ParamCurrency, "currency %q is not supported.%s Use one of %s.", apierr.Clip(v), hint, strings.Join(wire.Currencies, ", "))
}

// Escaped is s as Go would quote it, without the quotes: control
// characters become \x01, \u0085 and the like.
func Escaped(s string) string {
	q := strconv.Quote(s)
	return q[1 : len(q)-1]
}

// Bool reads the boolean field name into *dst when the request has
// it: true or false, anything else (empty included) a 400 naming it.
func Bool(f Form, name string, dst *bool) *apierr.Error {
	v, ok := f.Get(name)
	if !ok {
		return nil
	}
	switch v {
	case "true":
		*dst = true
	case "false":
		*dst = false
	default:
		return apierr.Invalid(name, "%s %q is not valid; use true or false.", name, apierr.Clip(v))
	}
	return nil
}

// BoolFilter reads a list's boolean filter, or a field with a default
// (a payment's capture); given is false when it is absent or empty, which
// filters nothing, as the other lists' filters, or keeps the default.
func BoolFilter(f Form, name string) (val, given bool, e *apierr.Error) {
	if v, _ := f.Get(name); v == "" {
		return false, false, nil
	}
	if e := Bool(f, name, &val); e != nil {
		return false, false, e
	}
	return val, true, nil
}
