package dashboard

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// The dashboard's only way to the account: requests to the sandbox's
// handler, in-process, authenticated with the session's key as any client
// would, answers decoded from JSON.

// apiError is an error answer of the API.
type apiError struct {
	status  int
	code    string
	message string
}

func (e *apiError) Error() string { return e.message }

// recorder is the ResponseWriter an in-process request is answered into.
type recorder struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func (r *recorder) Header() http.Header { return r.header }

func (r *recorder) WriteHeader(status int) {
	if r.status == 0 {
		r.status = status
	}
}

func (r *recorder) Write(b []byte) (int, error) {
	if r.status == 0 {
		r.status = http.StatusOK
	}
	return r.body.Write(b)
}

// call sends one request with key and decodes a 200 answer into out (when
// not nil). path is already expanded; form is the query of a GET or the
// body of a POST.
func (d *Dashboard) call(ctx context.Context, key, method, path string, form url.Values, out any) error {
	target := path
	var body *strings.Reader
	if method == http.MethodGet && len(form) > 0 {
		target += "?" + form.Encode()
		body = strings.NewReader("")
	} else {
		body = strings.NewReader(form.Encode())
	}
	req, err := http.NewRequestWithContext(ctx, method, target, body)
	if err != nil {
		return err
	}
	if method == http.MethodPost {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	req.SetBasicAuth(key, "")
	req.RemoteAddr = "127.0.0.1:0"
	rec := &recorder{header: http.Header{}}
	d.api.ServeHTTP(rec, req)
	if rec.status != http.StatusOK {
		var eb wire.ErrorBody
		if json.Unmarshal(rec.body.Bytes(), &eb) == nil && eb.Error != nil {
			return &apiError{status: rec.status, code: eb.Error.Code, message: eb.Error.Message}
		}
		return &apiError{status: rec.status, message: fmt.Sprintf("The sandbox answered HTTP %d.", rec.status)}
	}
	if out == nil {
		return nil
	}
	if err := json.Unmarshal(rec.body.Bytes(), out); err != nil {
		return fmt.Errorf("decoding the answer of %s %s: %w", method, path, err)
	}
	return nil
}

// get is a GET of path with query q.
func (d *Dashboard) get(ctx context.Context, ss *session, path string, q url.Values, out any) error {
	return d.call(ctx, ss.key, http.MethodGet, path, q, out)
}

// post is a POST of form to path.
func (d *Dashboard) post(ctx context.Context, ss *session, path string, form url.Values, out any) error {
	return d.call(ctx, ss.key, http.MethodPost, path, form, out)
}

// expand fills a wire path template with escaped ids.
func expand(template string, ids ...string) string {
	return wire.ExpandPath(template, url.PathEscape, ids...)
}
