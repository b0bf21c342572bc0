package sandboxtest

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// Request is one raw HTTP request, outside any API client: how tests send
// what a client never would (no key, a fixed Idempotency-Key, a malformed
// body) and see the answer as it is.
type Request struct {
	Method string
	// Path is appended to the base URL; it may hold a query.
	Path string
	// Key is sent as the HTTP Basic user name; "" sends no credentials.
	Key string
	// Form is the form-encoded body of a POST, or the query of any other
	// method; nil sends none.
	Form url.Values
	// Raw, when not nil, is sent as it is in place of Form.
	Raw *string
	// IdempotencyKey, when not "", is sent in the Idempotency-Key header.
	IdempotencyKey string
	// Header holds more headers to send.
	Header http.Header
}

// Response is the answer to a Request.
type Response struct {
	Status int
	Header http.Header
	Body   []byte
}

// rawHTTP is the client of Do when none is given: its own pool, so that
// raw requests never share connections with the client under test.
var rawHTTP = sync.OnceValue(func() *http.Client {
	c := &http.Client{Timeout: 30 * time.Second}
	if t, ok := http.DefaultTransport.(*http.Transport); ok {
		t = t.Clone()
		t.MaxIdleConnsPerHost = 32
		c.Transport = t
	}
	return c
})

// Do sends r to baseURL with hc (nil: a pooled client of this package) and
// reads the whole answer. It returns transport errors: a test of dropped
// connections needs them.
func Do(hc *http.Client, baseURL string, r Request) (*Response, error) {
	if hc == nil {
		hc = rawHTTP()
	}
	var payload *string
	if r.Raw != nil {
		payload = r.Raw
	} else if r.Form != nil {
		s := r.Form.Encode()
		payload = &s
	}
	path := r.Path
	var body io.Reader
	if r.Method == http.MethodPost {
		if payload != nil {
			body = strings.NewReader(*payload)
		}
	} else if payload != nil && *payload != "" {
		path += "?" + *payload
	}
	req, err := http.NewRequestWithContext(context.Background(), r.Method, baseURL+path, body)
	if err != nil {
		return nil, err
	}
	if r.Method == http.MethodPost && payload != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	if r.Key != "" {
		req.SetBasicAuth(r.Key, "")
	}
	if r.IdempotencyKey != "" {
		req.Header.Set(wire.HeaderIdempotencyKey, r.IdempotencyKey)
	}
	for name, vals := range r.Header {
		req.Header[name] = vals
	}
	resp, err := hc.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	return &Response{Status: resp.StatusCode, Header: resp.Header, Body: b}, nil
}

// JSON decodes the body as an object, failing the test if it is not one.
func (r *Response) JSON(tb testing.TB) map[string]any {
	tb.Helper()
	var m map[string]any
	if err := json.Unmarshal(r.Body, &m); err != nil {
		tb.Fatalf("answer %d is not a JSON object: %v: %s", r.Status, err, r.Body)
	}
	return m
}

// ErrorField returns error.<name> of an error body, "" if absent.
func (r *Response) ErrorField(tb testing.TB, name string) string {
	tb.Helper()
	e, _ := r.JSON(tb)["error"].(map[string]any)
	s, _ := e[name].(string)
	return s
}
