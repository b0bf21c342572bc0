package sandbox

import (
	"io"
	"net/http"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/apierr"
)

// response is an answer, built under the account lock and written after.
type response struct {
	status     int
	body       []byte
	retryAfter int
	replayed   bool
	// rest, when set, writes the answer's rest after body, with no
	// Content-Length: a long list (answerList), streamed once the
	// request's lock is released. Only GETs have one.
	rest func(w io.Writer) error
}

// ok is a 200 answer with body.
func ok(body []byte) response { return response{status: http.StatusOK, body: body} }

// errResponse is the answer of an error: its status, Retry-After and body.
func errResponse(e *apierr.Error) response {
	return response{status: e.Status, body: e.JSON(), retryAfter: e.RetryAfter}
}
