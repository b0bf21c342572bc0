package wire

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// ParseAmount turns a decimal amount written in major units ("19.99") into
// the currency's minor units (1999 for USD), by the currency's ISO 4217
// exponent. The amount is plain decimal digits with at most the currency's
// number of decimals after one point: no sign, exponent, spaces or
// thousands separators, so that a typo is an error and never a different
// amount. Errors name what was wrong and what is accepted.
func ParseAmount(amount, currency string) (int64, error) {
	decimals, err := currencyDecimals(currency)
	if err != nil {
		return 0, err
	}
	whole, frac, hasPoint := strings.Cut(amount, ".")
	if !AllDigits(whole) || (hasPoint && !AllDigits(frac)) {
		return 0, fmt.Errorf("amount %q is not a decimal number: write digits with an optional decimal point, such as %q, without a sign, spaces or thousands separators",
			Clip(amount, ErrorEchoMaxLength), example(decimals))
	}
	if len(frac) > decimals {
		return 0, fmt.Errorf("amount %q has %d decimals, but %s has %s: write at most %s, such as %q",
			amount, len(frac), currency, decimalsText(decimals), decimalsText(decimals), example(decimals))
	}
	digits := whole + frac + strings.Repeat("0", decimals-len(frac))
	n, err := strconv.ParseInt(digits, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("amount %q is too large: at most %s %s", Clip(amount, ErrorEchoMaxLength), FormatAmount(math.MaxInt64, currency), currency)
	}
	return n, nil
}

// FormatMoney writes an amount in minor units as people read it in a
// message: the major units with the currency's decimals and the code, so
// 900 GBP is "9.00 GBP" and 1200 JPY is "1200 JPY". The currency's case
// does not matter; one that is not in Currencies gets its minor units.
func FormatMoney(minorUnits int64, currency string) string {
	code := strings.ToUpper(currency)
	return FormatAmount(minorUnits, code) + " " + code
}

// FormatAmount writes an amount in minor units as a decimal in major units
// with exactly the currency's number of decimals: 1999 USD is "19.99" and
// 1200 JPY is "1200". The currency must be one of Currencies.
func FormatAmount(minorUnits int64, currency string) string {
	decimals := CurrencyDecimals[currency]
	neg := minorUnits < 0
	// Through uint64 so that the smallest int64 has a magnitude too.
	mag := uint64(minorUnits)
	if neg {
		mag = -mag
	}
	s := strconv.FormatUint(mag, 10)
	if decimals > 0 {
		if len(s) <= decimals {
			s = strings.Repeat("0", decimals-len(s)+1) + s
		}
		s = s[:len(s)-decimals] + "." + s[len(s)-decimals:]
	}
	if neg {
		s = "-" + s
	}
	return s
}

// CheckCurrency returns an error naming the accepted currencies when c is
// not one of them; a known code in lower case gets the upper-case spelling
// as the fix, as the API's own answer does.
func CheckCurrency(c string) error {
	_, err := currencyDecimals(c)
	return err
}

func currencyDecimals(c string) (int, error) {
	if d, ok := CurrencyDecimals[c]; ok {
		return d, nil
	}
	if slices.Contains(Currencies, strings.ToUpper(c)) {
		return 0, fmt.Errorf("currency %q must be written in upper case: %q", c, strings.ToUpper(c))
	}
	return 0, fmt.Errorf("currency %q is not accepted; use one of %s", Clip(c, ErrorEchoMaxLength), strings.Join(Currencies, ", "))
}

func decimalsText(d int) string {
	switch d {
	case 0:
		return "zero decimals"
	case 1:
		return "one decimal"
	case 2:
		return "two decimals"
	case 3:
		return "three decimals"
	}
	return strconv.Itoa(d) + " decimals"
}

func example(decimals int) string {
	if decimals == 0 {
		return "1200"
	}
	return "19." + strings.Repeat("9", decimals)
}

// AllDigits tells whether s is one or more ASCII digits, nothing else: no
// sign, space or separator.
func AllDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
