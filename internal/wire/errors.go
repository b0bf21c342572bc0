package wire

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
	// ErrorCodeAccountLimitExceeded (403) refuses a write to an account
	// that keeps the most bytes the sandbox allows one account.
	ErrorCodeAccountLimitExceeded = "account_limit_exceeded"
	// ErrorCodeSandboxLimitExceeded (403) refuses a write when the whole
	// sandbox keeps the most bytes it allows, and every request of a key
	// that would need a new account when it has the most accounts.
	ErrorCodeSandboxLimitExceeded = "sandbox_limit_exceeded"
	// ErrorCodeStorageUnavailable is a 503: the sandbox could not write its
	// data file, so the request changed nothing.
	ErrorCodeStorageUnavailable = "storage_unavailable"
	// ErrorCodeHostNotAllowed (421) refuses a request whose Host header
	// names none of a keyless payments-sandbox's names: the defence
	// against DNS rebinding (-allowed-hosts names more).
	ErrorCodeHostNotAllowed = "host_not_allowed"
)

// ErrorBody is the JSON body of every error answer. [assumed]
type ErrorBody struct {
	Error *ErrorDetail `json:"error"`
}

// ErrorDetail is the error inside an ErrorBody.
type ErrorDetail struct {
	Type    string `json:"type"`
	Code    string `json:"code"`
	Message string `json:"message"`
	// Param names the parameter at fault, when one input is.
	Param string `json:"param,omitempty"`
	// Payment is the declined payment's id, on card errors.
	Payment string `json:"payment,omitempty"`
}
