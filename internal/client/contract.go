package client

import "time"

// This file keeps every wire-level decision of ../shared/api/CONTRACT.md in
// one place. Items marked [assumed] there are decisions of ours, not of the
// published SPEC.md: each is a single constant here, so that aligning the
// client with the real service is a one-line change. The sandbox server uses
// the same constants, so both sides of the wire move together.

// APIVersionPrefix is the path prefix of every endpoint. [spec]
const APIVersionPrefix = "/v1"

// Object identifier prefixes. [spec] The length of the random part is [assumed].
const (
	CustomerIDPrefix = "cus_"
	SourceIDPrefix   = "src_"
	PaymentIDPrefix  = "pay_"
	// IDRandomLength is the number of [A-Za-z0-9] characters after the prefix. [assumed]
	IDRandomLength = 24
)

// Key prefixes. [spec]
const (
	SecretKeySandboxPrefix = "sk_sandbox_"
	SecretKeyLivePrefix    = "sk_live_"
	PublicKeySandboxPrefix = "pk_sandbox_"
	PublicKeyLivePrefix    = "pk_live_"
	// MinKeySecretLength is the least number of characters after a key's prefix. [assumed]
	MinKeySecretLength = 8
)

// HTTP headers. Idempotency-Key is [spec]; the others are [assumed].
const (
	HeaderIdempotencyKey     = "Idempotency-Key"
	HeaderIdempotentReplayed = "Idempotent-Replayed"
	HeaderRequestID          = "Request-Id"
	HeaderRetryAfter         = "Retry-After"
)

// Idempotency limits. [assumed]
const (
	IdempotencyKeyMaxLength = 255
	IdempotencyKeyRetention = 24 * time.Hour
)

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
)

// Payment amount bounds, in the currency's minor unit. [assumed]
const (
	PaymentAmountMin = 1
	PaymentAmountMax = 99_999_999
)

// Currencies lists the ISO 4217 codes the sandbox accepts. [assumed]
var Currencies = []string{"USD", "EUR", "GBP", "BRL", "CAD", "AUD", "JPY", "MXN"}

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

// PaymentStatuses lists every payment status, in the order SPEC.md gives them.
var PaymentStatuses = []string{
	PaymentStatusPending, PaymentStatusApproved, PaymentStatusAuthorized, PaymentStatusDeclined,
	PaymentStatusRefunded, PaymentStatusPartiallyRefunded, PaymentStatusDisputed,
}

// PaymentTransitions lists, for each status, the statuses it may move to. [assumed]
var PaymentTransitions = map[string][]string{
	PaymentStatusPending:           {PaymentStatusApproved, PaymentStatusAuthorized, PaymentStatusDeclined},
	PaymentStatusAuthorized:        {PaymentStatusApproved},
	PaymentStatusApproved:          {PaymentStatusPartiallyRefunded, PaymentStatusRefunded, PaymentStatusDisputed},
	PaymentStatusPartiallyRefunded: {PaymentStatusPartiallyRefunded, PaymentStatusRefunded, PaymentStatusDisputed},
}

// Error types. [assumed]
const (
	ErrorTypeInvalidRequest = "invalid_request_error"
	ErrorTypeAuthentication = "authentication_error"
	ErrorTypeCard           = "card_error"
	ErrorTypePermission     = "permission_error"
	ErrorTypeIdempotency    = "idempotency_error"
	ErrorTypeRateLimit      = "rate_limit_error"
	ErrorTypeAPI            = "api_error"
)

// Error codes. [assumed]
const (
	ErrorCodeParameterUnknown       = "parameter_unknown"
	ErrorCodeParameterMissing       = "parameter_missing"
	ErrorCodeParameterInvalid       = "parameter_invalid"
	ErrorCodeResourceMissing        = "resource_missing"
	ErrorCodeUnrecognizedURL        = "unrecognized_url"
	ErrorCodeSecretKeyRequired      = "secret_key_required"
	ErrorCodeLiveKeyOnSandbox       = "livemode_mismatch"
	ErrorCodeMissingAPIKey          = "missing_api_key"
	ErrorCodeInvalidAPIKey          = "invalid_api_key"
	ErrorCodeIdempotencyKeyReused   = "idempotency_key_reused"
	ErrorCodeIdempotencyKeyInUse    = "idempotency_key_in_use"
	ErrorCodeTokenInvalid           = "token_invalid"
	ErrorCodeMissingSource          = "missing_source"
	ErrorCodePaymentUnexpectedState = "payment_unexpected_state"
	ErrorCodeCardDeclined           = "card_declined"
	ErrorCodeRateLimited            = "rate_limited"
	ErrorCodeRequestTooLarge        = "request_too_large"
	ErrorCodeServerError            = "server_error"
)

// Sandbox test tokens. [assumed] They are reusable in the sandbox.
const (
	TokenVisa       = "tok_visa"
	TokenMastercard = "tok_mastercard"
	TokenAmex       = "tok_amex"
	TokenDeclined   = "tok_declined"
	Token3DS        = "tok_3ds"
	TokenDispute    = "tok_dispute"
)

// Sandbox payment completion outcomes. [assumed]
const (
	OutcomeApproved   = "approved"
	OutcomeAuthorized = "authorized"
	OutcomeDeclined   = "declined"
)
