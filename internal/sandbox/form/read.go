package form

import (
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/apierr"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// ErrClientGone means the request body could not be read: nobody is left
// to answer.
var ErrClientGone = errors.New("reading the request body failed")

// Refused is a request refused before any handler ran (bad encoding, a
// body over the limit); its answer is still stored under an
// Idempotency-Key, identified by the raw request (RawFingerprint).
type Refused struct {
	Err *apierr.Error
	FP  [32]byte
	// TooLarge: the body was over wire.MaxRequestBodyBytes, and not read.
	TooLarge bool
}

// Read decodes the query string of r and, for a POST, its body: at most
// wire.MaxRequestBodyBytes of application/x-www-form-urlencoded text.
func Read(r *http.Request) (Form, *Refused, error) {
	var body []byte
	if r.Method == http.MethodPost {
		tooLarge := r.ContentLength > wire.MaxRequestBodyBytes
		if !tooLarge {
			var err error
			body, err = io.ReadAll(io.LimitReader(r.Body, wire.MaxRequestBodyBytes+1))
			if err != nil {
				return nil, nil, ErrClientGone
			}
			tooLarge = len(body) > wire.MaxRequestBodyBytes
		}
		if tooLarge {
			return nil, &Refused{
				Err: &apierr.Error{
					Status: http.StatusRequestEntityTooLarge, Type: wire.ErrorTypeInvalidRequest,
					Code:    wire.ErrorCodeRequestTooLarge,
					Message: fmt.Sprintf("The request body is over %d bytes; send less metadata or a shorter description.", wire.MaxRequestBodyBytes),
				},
				FP:       RawFingerprint(r.Method, r.URL.Path, r.URL.RawQuery, nil, true),
				TooLarge: true,
			}, nil
		}
		if ct := r.Header.Get("Content-Type"); len(body) > 0 && ct != "" {
			if mt, _, _ := mime.ParseMediaType(ct); mt != "application/x-www-form-urlencoded" {
				return nil, &Refused{
					Err: apierr.Invalid("", "The body is %s; send application/x-www-form-urlencoded.", apierr.Clip(ct)),
					FP:  RawFingerprint(r.Method, r.URL.Path, r.URL.RawQuery, body, false),
				}, nil
			}
		}
	}
	f, e := Parse(nil, r.URL.RawQuery)
	if e == nil && len(body) > 0 {
		f, e = Parse(f, string(body))
	}
	if e != nil {
		return nil, &Refused{Err: e, FP: RawFingerprint(r.Method, r.URL.Path, r.URL.RawQuery, body, false)}, nil
	}
	return f, nil, nil
}
