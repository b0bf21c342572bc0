package sandbox

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

var phoneRE = regexp.MustCompile(wire.PhonePattern)

// checkEmail accepts local@domain: one @, both sides non-empty, no spaces
// or control characters, at most EmailMaxLength characters.
func checkEmail(v string) *apiError {
	if n := utf8.RuneCountInString(v); n > wire.EmailMaxLength {
		return invalid(wire.ParamEmail, "email is %d characters long; use at most %d.", n, wire.EmailMaxLength)
	}
	local, domain, ok := strings.Cut(v, "@")
	if !ok || local == "" || domain == "" || strings.Contains(domain, "@") ||
		strings.IndexFunc(v, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) }) >= 0 {
		return invalid(wire.ParamEmail, "email %q is not an e-mail address; use the form local@domain.", clip(v))
	}
	return nil
}

func checkPhone(v string) *apiError {
	if !phoneRE.MatchString(v) {
		return invalid(wire.ParamPhone, "phone %q is not in E.164 format; use + followed by %d to %d digits, as in +14155550123 (encode + as %%2B in forms).",
			clip(v), wire.PhoneMinDigits, wire.PhoneMaxDigits)
	}
	return nil
}

func checkName(v string) *apiError { return checkLabel(wire.ParamName, v, wire.NameMaxLength) }

// checkLabel bounds a short text people read as a label, such as a name,
// a nickname or a lookup key, to most characters, free of controls.
func checkLabel(param, v string, most int) *apiError {
	if n := utf8.RuneCountInString(v); n > most {
		return invalid(param, "%s is %d characters long; use at most %d.", param, n, most)
	}
	return refuseControl(param, param, v)
}

// refusedControl finds the control characters names and metadata keys
// may not hold (wire.RefusedControlClass), and refusedBidi the
// bidirectional controls they, descriptions and metadata values may not
// (wire.BidiControlClass).
var (
	refusedControl = regexp.MustCompile(`[` + wire.RefusedControlClass + `]`)
	refusedBidi    = regexp.MustCompile(`[` + wire.BidiControlClass + `]`)
)

// refuseControl is a 400 naming param when v holds a refused control
// character or a bidirectional control, or nil; what names the text in
// the message.
func refuseControl(param, what, v string) *apiError {
	loc := refusedControl.FindStringIndex(v)
	if loc == nil {
		return refuseBidi(param, what, v)
	}
	r, _ := utf8.DecodeRuneInString(v[loc[0]:])
	return invalid(param, "%s holds the control character U+%04X at character %d; only tab and newline are allowed. Remove it.",
		what, r, utf8.RuneCountInString(v[:loc[0]])+1)
}

// refuseBidi is a 400 naming param when v holds a bidirectional control,
// or nil.
func refuseBidi(param, what, v string) *apiError {
	loc := refusedBidi.FindStringIndex(v)
	if loc == nil {
		return nil
	}
	r, _ := utf8.DecodeRuneInString(v[loc[0]:])
	return invalid(param, "%s holds the bidirectional control U+%04X at character %d, which makes text display in another order than it is stored. Remove it.",
		what, r, utf8.RuneCountInString(v[:loc[0]])+1)
}

// checkDescription bounds a payment's description; empty clears it.
func checkDescription(v string) *apiError {
	if n := utf8.RuneCountInString(v); n > wire.PaymentDescriptionMaxLength {
		return invalid(wire.ParamDescription, "description is %d characters long; use at most %d.", n, wire.PaymentDescriptionMaxLength)
	}
	return refuseBidi(wire.ParamDescription, "description", v)
}

// paramMetadataKeys admits every metadata[key] field in form.check.
const paramMetadataKeys = wire.ParamMetadata + "[*]"

// applyMetadata returns cur changed by the metadata fields of f, without
// touching cur: `metadata=` removes every key, then `metadata[k]=` removes
// k and `metadata[k]=v` sets it. The limits apply to the result.
func applyMetadata(cur metadata, f form) (metadata, *apiError) {
	next := cur
	copied := false
	if v, ok := f.get(wire.ParamMetadata); ok {
		if v != "" {
			return nil, invalid(wire.ParamMetadata, "metadata takes its keys in brackets, as in metadata[plan]=gold; send metadata= (empty) only to remove every key.")
		}
		next, copied = nil, true
	}
	for i := range f {
		p := &f[i]
		if !p.bracketed || p.base != wire.ParamMetadata {
			continue
		}
		if n := utf8.RuneCountInString(p.sub); n > wire.MetadataKeyMaxLength {
			return nil, invalid(p.name, "The metadata key %q is %d characters long; use at most %d.", clip(p.sub), n, wire.MetadataKeyMaxLength)
		}
		// The param spells the key's control characters as escapes, so
		// that it can be printed; the message quotes it the same way.
		if e := refuseControl(wire.ParamMetadata+"["+escaped(p.sub)+"]", fmt.Sprintf("The metadata key %q", p.sub), p.sub); e != nil {
			return nil, e
		}
		if n := utf8.RuneCountInString(p.value); n > wire.MetadataValueMaxLength {
			return nil, invalid(p.name, "The value of %s is %d characters long; use at most %d.", p.name, n, wire.MetadataValueMaxLength)
		}
		if e := refuseBidi(wire.ParamMetadata+"["+escaped(p.sub)+"]", fmt.Sprintf("The value of metadata key %q", p.sub), p.value); e != nil {
			return nil, e
		}
		if !copied {
			next, copied = slices.Clone(cur), true
		}
		i, found := next.index(p.sub)
		switch {
		case p.value == "" && found:
			next = slices.Delete(next, i, i+1)
		case p.value == "":
		case found:
			next[i].v = strings.Clone(p.value)
		default:
			// Clones: the form's strings are views into the request body.
			next = slices.Insert(next, i, kv{strings.Clone(p.sub), strings.Clone(p.value)})
		}
	}
	if len(next) > wire.MetadataMaxKeys {
		return nil, invalid(wire.ParamMetadata, "metadata would have %d keys; use at most %d.", len(next), wire.MetadataMaxKeys)
	}
	if len(next) == 0 {
		next = nil
	}
	return next, nil
}

// parseAmount reads an amount in minor units within [min, max].
func parseAmount(param, v string, lo, hi int64) (int64, *apiError) {
	n, ok := parseWhole(v, lo, hi)
	if !ok {
		return 0, invalid(param, "%s %q is not valid; use a whole number of minor units from %d to %d.", param, clip(v), lo, hi)
	}
	return n, nil
}

// parseMoney reads an amount in minor units of a known currency within
// [min, max], and says the bounds in major units too when refused: the
// most a capture or refund may take is the payment's own amount, which
// people know as "9.00 GBP", not 900.
func parseMoney(param, v string, lo, hi int64, currency string) (int64, *apiError) {
	n, ok := parseWhole(v, lo, hi)
	if !ok {
		return 0, invalid(param, "%s %q is not valid; use a whole number of minor units from %d to %d (%s to %s).",
			param, clip(v), lo, hi, wire.FormatMoney(lo, currency), wire.FormatMoney(hi, currency))
	}
	return n, nil
}

// parseCount reads a count, such as a quantity or a number of days,
// within [min, max].
func parseCount(param, v string, lo, hi int64) (int64, *apiError) {
	n, ok := parseWhole(v, lo, hi)
	if !ok {
		return 0, invalid(param, "%s %q is not valid; use a whole number from %d to %d.", param, clip(v), lo, hi)
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

// currency returns the canonical (interned) code, so payments share the
// strings of wire.Currencies instead of each holding a copy.
func currency(v string) (string, *apiError) {
	if i := slices.Index(wire.Currencies, v); i >= 0 {
		return wire.Currencies[i], nil
	}
	hint := ""
	if slices.Contains(wire.Currencies, strings.ToUpper(v)) {
		hint = fmt.Sprintf(" Currency codes are upper case: use %s.", strings.ToUpper(v))
	}
	return "", invalid(wire.ParamCurrency, "currency %q is not supported.%s Use one of %s.", clip(v), hint, strings.Join(wire.Currencies, ", "))
}

// canMove reports whether PaymentTransitions allows from -> to.
func canMove(from, to string) bool {
	return slices.Contains(PaymentTransitions[from], to)
}

// escaped is s as Go would quote it, without the quotes: control
// characters become \x01, \u0085 and the like.
func escaped(s string) string {
	q := strconv.Quote(s)
	return q[1 : len(q)-1]
}

// boolParam reads the boolean field name into *dst when the request has
// it: true or false, anything else (empty included) a 400 naming it.
func boolParam(f form, name string, dst *bool) *apiError {
	v, ok := f.get(name)
	if !ok {
		return nil
	}
	switch v {
	case "true":
		*dst = true
	case "false":
		*dst = false
	default:
		return invalid(name, "%s %q is not valid; use true or false.", name, clip(v))
	}
	return nil
}

// boolFilter reads a list's boolean filter, or a field with a default
// (a payment's capture); given is false when it is absent or empty, which
// filters nothing, as the other lists' filters, or keeps the default.
func boolFilter(f form, name string) (val, given bool, e *apiError) {
	if v, _ := f.get(name); v == "" {
		return false, false, nil
	}
	if e := boolParam(f, name, &val); e != nil {
		return false, false, e
	}
	return val, true, nil
}
