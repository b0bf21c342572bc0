// Package apierr is the shape of the sandbox's error answers: an Error
// holds the status, Retry-After and the body {"error": {...}} of
// wire.ErrorBody, and the constructors below are the refusals the
// handlers give, so that every one reads alike. It knows nothing of the
// handlers; the sandbox turns an Error into its answer.
package apierr

import (
	"fmt"
	"net/http"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/jsonw"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// Error is an error answer.
type Error struct {
	Status  int
	Type    string
	Code    string
	Message string
	Param   string
	Payment string
	// RetryAfter, in whole seconds, is sent as Retry-After when above 0.
	RetryAfter int
}

func (e *Error) Error() string { return e.Message }

// JSON is the answer's body: {"error":{...}}, param and payment only when
// set.
func (e *Error) JSON() []byte {
	b := make([]byte, 0, 160+len(e.Message))
	b = append(b, `{"error":{"type":`...)
	b = jsonw.String(b, e.Type)
	b = append(b, `,"code":`...)
	b = jsonw.String(b, e.Code)
	b = append(b, `,"message":`...)
	b = jsonw.String(b, e.Message)
	if e.Param != "" {
		b = append(b, `,"param":`...)
		b = jsonw.String(b, e.Param)
	}
	if e.Payment != "" {
		b = append(b, `,"payment":`...)
		b = jsonw.String(b, e.Payment)
	}
	return append(b, "}}"...)
}

// Invalid is a 400 parameter_invalid naming the parameter at fault.
func Invalid(param, format string, args ...any) *Error {
	return &Error{
		Status: http.StatusBadRequest, Type: wire.ErrorTypeInvalidRequest,
		Code: wire.ErrorCodeParameterInvalid, Param: Clip(param), Message: fmt.Sprintf(format, args...),
	}
}

// MissingParam is a 400 parameter_missing.
func MissingParam(param, format string, args ...any) *Error {
	e := Invalid(param, format, args...)
	e.Code = wire.ErrorCodeParameterMissing
	return e
}

// UnknownParam is a 400 parameter_unknown.
func UnknownParam(param string) *Error {
	e := Invalid(param, "Received unknown parameter: %s. Remove it; api/openapi.yaml lists the parameters of this endpoint.", Clip(param))
	e.Code = wire.ErrorCodeParameterUnknown
	return e
}

// MissingRef is a 400 resource_missing: a parameter names an object the
// account does not have.
func MissingRef(param, format string, args ...any) *Error {
	e := Invalid(param, format, args...)
	e.Code = wire.ErrorCodeResourceMissing
	return e
}

// NotFound is a 404 resource_missing for an object in the path. Objects of
// other accounts get exactly this too, so that existence never leaks.
func NotFound(kind, id string) *Error {
	return &Error{
		Status: http.StatusNotFound, Type: wire.ErrorTypeInvalidRequest,
		Code: wire.ErrorCodeResourceMissing, Message: fmt.Sprintf("No such %s: '%s'", kind, Clip(id)),
	}
}

// UnexpectedState is a 400 payment_unexpected_state.
func UnexpectedState(format string, args ...any) *Error {
	return &Error{
		Status: http.StatusBadRequest, Type: wire.ErrorTypeInvalidRequest,
		Code: wire.ErrorCodePaymentUnexpectedState, Message: fmt.Sprintf(format, args...),
	}
}

// ServerError is an api_error server_error with the given status.
func ServerError(status int, format string, args ...any) *Error {
	return &Error{
		Status: status, Type: wire.ErrorTypeAPI, Code: wire.ErrorCodeServerError,
		Message: fmt.Sprintf(format, args...),
	}
}

// Clip bounds text from a request quoted back in an error message or its
// param: anything that looks like a key masked (wire.MaskKeys), then at
// most wire.ErrorEchoMaxLength characters and "…". It cuts between
// characters, so that the message stays valid UTF-8.
func Clip(s string) string { return wire.Clip(wire.MaskKeys(s), wire.ErrorEchoMaxLength) }
