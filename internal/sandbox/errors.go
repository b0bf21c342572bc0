package sandbox

import (
	"fmt"
	"net/http"

	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// apiError is an error answer: the body {"error": {...}} of wire.ErrorBody.
type apiError struct {
	status  int
	typ     string
	code    string
	message string
	param   string
	payment string
	// retryAfter, in whole seconds, is sent as Retry-After when above 0.
	retryAfter int
}

func (e *apiError) Error() string { return e.message }

func (e *apiError) response() response {
	b := make([]byte, 0, 160+len(e.message))
	b = append(b, `{"error":{"type":`...)
	b = appendString(b, e.typ)
	b = append(b, `,"code":`...)
	b = appendString(b, e.code)
	b = append(b, `,"message":`...)
	b = appendString(b, e.message)
	if e.param != "" {
		b = append(b, `,"param":`...)
		b = appendString(b, e.param)
	}
	if e.payment != "" {
		b = append(b, `,"payment":`...)
		b = appendString(b, e.payment)
	}
	b = append(b, "}}"...)
	return response{status: e.status, body: b, retryAfter: e.retryAfter}
}

// invalid is a 400 parameter_invalid naming the parameter at fault.
func invalid(param, format string, args ...any) *apiError {
	return &apiError{
		status: http.StatusBadRequest, typ: wire.ErrorTypeInvalidRequest,
		code: wire.ErrorCodeParameterInvalid, param: clip(param), message: fmt.Sprintf(format, args...),
	}
}

// missingParam is a 400 parameter_missing.
func missingParam(param, format string, args ...any) *apiError {
	e := invalid(param, format, args...)
	e.code = wire.ErrorCodeParameterMissing
	return e
}

// unknownParam is a 400 parameter_unknown.
func unknownParam(param string) *apiError {
	e := invalid(param, "Received unknown parameter: %s. Remove it; api/openapi.yaml lists the parameters of this endpoint.", clip(param))
	e.code = wire.ErrorCodeParameterUnknown
	return e
}

// missingRef is a 400 resource_missing: a parameter names an object the
// account does not have.
func missingRef(param, format string, args ...any) *apiError {
	e := invalid(param, format, args...)
	e.code = wire.ErrorCodeResourceMissing
	return e
}

// notFound is a 404 resource_missing for an object in the path. Objects of
// other accounts get exactly this too, so that existence never leaks.
func notFound(kind, id string) *apiError {
	return &apiError{
		status: http.StatusNotFound, typ: wire.ErrorTypeInvalidRequest,
		code: wire.ErrorCodeResourceMissing, message: fmt.Sprintf("No such %s: '%s'", kind, clip(id)),
	}
}

// unexpectedState is a 400 payment_unexpected_state.
func unexpectedState(format string, args ...any) *apiError {
	return &apiError{
		status: http.StatusBadRequest, typ: wire.ErrorTypeInvalidRequest,
		code: wire.ErrorCodePaymentUnexpectedState, message: fmt.Sprintf(format, args...),
	}
}

func serverError(status int, format string, args ...any) *apiError {
	return &apiError{
		status: status, typ: wire.ErrorTypeAPI, code: wire.ErrorCodeServerError,
		message: fmt.Sprintf(format, args...),
	}
}
