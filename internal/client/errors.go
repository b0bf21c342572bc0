package client

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"unicode"

	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// Error is an error answered by the service. Every non-200 answer becomes
// one, whatever its body: use errors.As to reach it.
type Error struct {
	// HTTPStatus is the answer's status code.
	HTTPStatus int
	// Type is the error type, for example invalid_request_error.
	Type string
	// Code is the machine-readable code, for example resource_missing.
	Code string
	// Param names the parameter at fault, when one is.
	Param string
	// Message is the service's human-readable explanation.
	Message string
	// Payment is the id of the declined payment on card errors.
	Payment string
	// RequestID is the answer's Request-Id header, for support.
	RequestID string
}

func (e *Error) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "payments API error: %s (HTTP %d", e.Message, e.HTTPStatus)
	if e.Type != "" {
		fmt.Fprintf(&b, ", type %s", e.Type)
	}
	if e.Code != "" {
		fmt.Fprintf(&b, ", code %s", e.Code)
	}
	if e.Param != "" {
		fmt.Fprintf(&b, ", param %s", e.Param)
	}
	if e.Payment != "" {
		fmt.Fprintf(&b, ", payment %s", e.Payment)
	}
	if e.RequestID != "" {
		fmt.Fprintf(&b, ", request %s", e.RequestID)
	}
	b.WriteString(")")
	return b.String()
}

// AsError returns the service error inside err, if there is one.
func AsError(err error) (*Error, bool) {
	var e *Error
	ok := errors.As(err, &e)
	return e, ok
}

// IsNotFound reports whether err says that the object in the path does not
// exist for this account (deleted, or another account's): a 404 whose body
// is a payments API error with code resource_missing. No other 404 counts:
// a mistyped base URL, or a proxy's HTML page, must never make an existing
// object look deleted.
func IsNotFound(err error) bool {
	e, ok := AsError(err)
	return ok && e.HTTPStatus == http.StatusNotFound && e.Code == wire.ErrorCodeResourceMissing
}

// misroutedMessage explains a 404 that is not resource_missing: the request
// reached something other than an endpoint of the payments API, most often
// because base_url is wrong. It names the URL without its query (which may
// hold filters) and never credentials, which New refuses in base URLs.
func misroutedMessage(method string, u url.URL, e *Error) string {
	u.RawQuery, u.ForceQuery, u.Fragment, u.User = "", false, "", nil
	const hint = "check that base_url points at the payments API root, without " + wire.APIVersionPrefix
	if e.Code == "" {
		return fmt.Sprintf("%s %s answered 404 with no payments API error (%s); %s", method, u.String(), e.Message, hint)
	}
	return fmt.Sprintf("%s %s is not an endpoint of the payments API (%s); %s", method, u.String(), e.Message, hint)
}

// IsCardError reports whether err is a declined charge.
func IsCardError(err error) bool {
	e, ok := AsError(err)
	return ok && e.Type == wire.ErrorTypeCard
}

// IsRateLimited reports whether err is a 429 that outlasted the retries.
func IsRateLimited(err error) bool {
	e, ok := AsError(err)
	return ok && e.HTTPStatus == http.StatusTooManyRequests
}

// IsAuthError reports whether err is an authentication (401) or permission (403) error.
func IsAuthError(err error) bool {
	e, ok := AsError(err)
	return ok && (e.HTTPStatus == http.StatusUnauthorized || e.HTTPStatus == http.StatusForbidden)
}

// HasCode reports whether err is a service error with the given code.
func HasCode(err error, code string) bool {
	e, ok := AsError(err)
	return ok && e.Code == code
}

// maxMessageBytes bounds how much of an unexpected body goes into an error.
const maxMessageBytes = 200

// decodeError turns any non-200 answer into an *Error. A body that is not
// the documented shape (a proxy's HTML page, say) still gives an error with
// the status and a short, printable excerpt.
func decodeError(status int, header http.Header, body []byte) *Error {
	e := &Error{HTTPStatus: status, RequestID: header.Get(wire.HeaderRequestID)}
	var eb wire.ErrorBody
	if err := json.Unmarshal(body, &eb); err == nil && eb.Error != nil {
		e.Type, e.Code, e.Message = eb.Error.Type, eb.Error.Code, eb.Error.Message
		e.Param, e.Payment = eb.Error.Param, eb.Error.Payment
	}
	if e.Type == "" {
		e.Type = defaultErrorType(status)
	}
	if e.Message == "" {
		e.Message = fmt.Sprintf("unexpected answer %q", excerpt(body))
		if len(body) == 0 {
			e.Message = http.StatusText(status)
			if e.Message == "" {
				e.Message = "unexpected answer with no body"
			}
		}
	}
	return e
}

// defaultErrorType infers the type from the status when the body has none.
func defaultErrorType(status int) string {
	switch {
	case status == http.StatusUnauthorized:
		return wire.ErrorTypeAuthentication
	case status == http.StatusForbidden:
		return wire.ErrorTypePermission
	case status == http.StatusPaymentRequired:
		return wire.ErrorTypeCard
	case status == http.StatusConflict:
		return wire.ErrorTypeIdempotency
	case status == http.StatusTooManyRequests:
		return wire.ErrorTypeRateLimit
	case status >= 500:
		return wire.ErrorTypeAPI
	default:
		return wire.ErrorTypeInvalidRequest
	}
}

// excerpt returns at most maxMessageBytes of body with control characters
// replaced, safe to show in a terminal.
func excerpt(body []byte) string {
	s := strings.ToValidUTF8(string(body), "\uFFFD")
	s = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return ' '
		}
		return r
	}, s)
	if len(s) > maxMessageBytes {
		cut := maxMessageBytes
		for cut > 0 && !utf8RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut] + "…"
	}
	return strings.TrimSpace(s)
}

func utf8RuneStart(b byte) bool { return b&0xC0 != 0x80 }

// redirectMessage explains a 3xx answer to a request for u. The client
// follows no redirect, so that the key and the request go only to the base
// URL; the message names where the service pointed (made absolute, without
// user info or query), for the user to decide whether to change base_url.
func redirectMessage(method string, u url.URL, status int, location string) string {
	u.RawQuery, u.ForceQuery, u.Fragment, u.User = "", false, "", nil
	where := "without a Location"
	if location != "" {
		where = "to an unparsable Location"
		if loc, err := u.Parse(location); err == nil {
			loc.User, loc.Fragment, loc.RawFragment = nil, "", ""
			if loc.RawQuery != "" || loc.ForceQuery {
				loc.RawQuery, loc.ForceQuery = "…", false
			}
			where = "to " + loc.String()
		}
	}
	return fmt.Sprintf("%s %s answered %d %s, redirecting %s; the provider follows no redirect, so that the "+
		"secret key is sent only to base_url: if the service has moved, set base_url to its new address",
		method, u.String(), status, http.StatusText(status), where)
}
