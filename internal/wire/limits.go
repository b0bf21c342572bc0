package wire

// Object identifier prefixes. [spec] The length of the random part is [assumed].
const (
	CustomerIDPrefix = "cus_"
	SourceIDPrefix   = "src_"
	PaymentIDPrefix  = "pay_"
	// IDRandomLength is the number of [A-Za-z0-9] characters after the prefix. [assumed]
	IDRandomLength = 24
)

// IdempotencyKeyMaxLength is the longest Idempotency-Key accepted. [assumed]
const IdempotencyKeyMaxLength = 255

// Metadata and field limits. [assumed]
const (
	MetadataMaxKeys        = 50
	MetadataKeyMaxLength   = 40
	MetadataValueMaxLength = 500
	EmailMaxLength         = 512
	NameMaxLength          = 256
	// PhonePattern is E.164: a plus sign and 8 to 15 digits.
	PhonePattern        = `^\+[0-9]{8,15}$`
	PhoneMinDigits      = 8
	PhoneMaxDigits      = 15
	MaxRequestBodyBytes = 64 << 10
	// PaymentDescriptionMaxLength bounds a payment's description, in characters.
	PaymentDescriptionMaxLength = 1000
)

// RefusedControlClass is the regular-expression class (Go and ECMAScript
// alike) of the control characters that names and metadata keys may not
// contain: every Unicode control character but tab and newline. [assumed]
const RefusedControlClass = `\x00-\x08\x0B-\x1F\x7F-\x9F`

// BidiControlClass is the regular-expression class (Go and ECMAScript
// alike: the characters themselves, written here as Go escapes) of the
// bidirectional controls that names, descriptions and metadata may not
// contain: the embeddings and overrides U+202A to U+202E, the isolates
// U+2066 to U+2069, the marks U+200E, U+200F and U+061C. They make text
// display in another order than it is stored (a name that reads
// "invoice.pdf" while it is "fdp.eciovni"). [own decision]
const BidiControlClass = "\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069"

// NoRefusedControlPattern matches text without a refused control character
// nor a bidirectional control: names and metadata keys.
const NoRefusedControlPattern = `^[^` + RefusedControlClass + BidiControlClass + `]*$`

// NoBidiControlPattern matches text without a bidirectional control:
// descriptions and metadata values.
const NoBidiControlPattern = `^[^` + BidiControlClass + `]*$`

// ErrorEchoMaxLength is how many characters of a value the request sent
// (an id, a key, a token, a field name) an error message or its param
// quotes at most, followed by "…", so that a 10 KB bogus id is never sent
// back whole. [assumed]
const ErrorEchoMaxLength = 64

// Clip is s cut to at most n characters, then "…": between characters,
// so that the text stays valid UTF-8.
func Clip(s string, n int) string {
	seen := 0
	for i := range s {
		if seen == n {
			return s[:i] + "…"
		}
		seen++
	}
	return s
}

// Payment amount bounds, in the currency's minor unit. [assumed]
const (
	PaymentAmountMin = 1
	PaymentAmountMax = 99_999_999
)

// Currencies lists the ISO 4217 codes the service accepts, upper case. [assumed]
var Currencies = []string{"USD", "EUR", "GBP", "BRL", "CAD", "AUD", "JPY", "MXN"}

// CurrencyDecimals is each accepted currency's ISO 4217 exponent: how many
// digits of an amount in minor units are after the decimal point (1999 USD
// is 19.99; 1200 JPY is 1200). Every code of Currencies has an entry.
var CurrencyDecimals = map[string]int{
	"USD": 2, "EUR": 2, "GBP": 2, "BRL": 2, "CAD": 2, "AUD": 2, "JPY": 0, "MXN": 2,
}

// Pagination. [assumed]
const (
	ListLimitMin     = 1
	ListLimitMax     = 100
	ListLimitDefault = 10
)

// Payment statuses. [spec]
const (
	PaymentStatusPending           = "pending"
	PaymentStatusApproved          = "approved"
	PaymentStatusAuthorized        = "authorized"
	PaymentStatusDeclined          = "declined"
	PaymentStatusRefunded          = "refunded"
	PaymentStatusPartiallyRefunded = "partially_refunded"
	PaymentStatusDisputed          = "disputed"
)

// PaymentStatuses lists every payment status, in the order the service's
// published interface gives them.
var PaymentStatuses = []string{
	PaymentStatusPending, PaymentStatusApproved, PaymentStatusAuthorized, PaymentStatusDeclined,
	PaymentStatusRefunded, PaymentStatusPartiallyRefunded, PaymentStatusDisputed,
}
