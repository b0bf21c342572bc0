// Package apitest checks HTTP exchanges against the OpenAPI document of
// package api, for tests: a request the document refuses must be refused
// (4xx), and every answer must be one the document lists for its
// operation, with its headers and body. Only tests import it, so its
// validator (kin-openapi) never reaches a shipped binary.
package apitest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"

	"github.com/paymentsdev/terraform-provider-payments/api"
)

// Load parses and validates the document as OpenAPI 3.1.
func Load() (*openapi3.T, error) { return LoadData(api.OpenAPI) }

// LoadData parses and validates data as an OpenAPI 3.1 document; it lets
// tests show that a broken document is refused.
func LoadData(data []byte) (*openapi3.T, error) {
	loader := openapi3.NewLoader()
	doc, err := loader.LoadFromData(data)
	if err != nil {
		return nil, fmt.Errorf("api/openapi.yaml: %w", err)
	}
	if !doc.IsOpenAPI31OrLater() {
		return nil, fmt.Errorf("api/openapi.yaml: openapi is %q, want 3.1", doc.OpenAPI)
	}
	if err := doc.Validate(loader.Context); err != nil {
		return nil, fmt.Errorf("api/openapi.yaml is not a valid OpenAPI document: %w", err)
	}
	return doc, nil
}

// Checker validates exchanges against the document. It is safe for
// concurrent use.
type Checker struct {
	doc    *openapi3.T
	router routers.Router
	// unrecognized is the answer of a path no endpoint serves.
	unrecognized *openapi3.Response
}

// New returns a Checker for the document, which is loaded once per process.
func New() (*Checker, error) { return shared() }

var shared = sync.OnceValues(func() (*Checker, error) {
	doc, err := Load()
	if err != nil {
		return nil, err
	}
	// The document's server is a variable base URL; tests run on random
	// ports, so route on the path alone.
	doc.Servers = nil
	router, err := gorillamux.NewRouter(doc)
	if err != nil {
		return nil, fmt.Errorf("api/openapi.yaml: building the router: %w", err)
	}
	ref := doc.Components.Responses["UnrecognizedURL"]
	if ref == nil || ref.Value == nil {
		return nil, errors.New("api/openapi.yaml: components.responses.UnrecognizedURL is missing")
	}
	return &Checker{doc: doc, router: router, unrecognized: ref.Value}, nil
})

// Check validates one exchange: req with the body reqBody, answered with
// status, header and respBody. The error names the operation, the status
// and what is wrong.
func (c *Checker) Check(req *http.Request, reqBody []byte, status int, header http.Header, respBody []byte) error {
	ctx := context.Background()
	r := req.Clone(ctx)
	where := fmt.Sprintf("%s %s", req.Method, req.URL.Path)

	route, pathParams, err := c.router.FindRoute(r)
	if err != nil {
		return c.checkUnrouted(where, status, header, respBody)
	}
	where = fmt.Sprintf("%s (operation %s)", where, route.Operation.OperationID)
	reqBody = listsByIndex(route.Operation, r, reqBody)
	r.Body = io.NopCloser(bytes.NewReader(reqBody))
	r.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(reqBody)), nil }
	r.ContentLength = int64(len(reqBody))

	opts := &openapi3filter.Options{
		IncludeResponseStatus: true,
		MultiError:            true,
		AuthenticationFunc:    authenticate,
	}
	opts.WithCustomSchemaErrorFunc(reason)
	in := &openapi3filter.RequestValidationInput{Request: r, PathParams: pathParams, Route: route, Options: opts}
	reqErr := openapi3filter.ValidateRequest(ctx, in)
	if reqErr != nil && (status < 400 || status > 499) {
		return fmt.Errorf("openapi: %s answered %d to a request the document refuses: %w", where, status, reqErr)
	}
	out := &openapi3filter.ResponseValidationInput{
		RequestValidationInput: in,
		Status:                 status,
		Header:                 header,
		Body:                   io.NopCloser(bytes.NewReader(respBody)),
		Options:                opts,
	}
	if err := openapi3filter.ValidateResponse(ctx, out); err != nil {
		return fmt.Errorf("openapi: %s answered %d, which the document does not allow: %w\nbody: %s", where, status, err, clip(respBody))
	}
	return nil
}

// checkUnrouted checks the answer to a path or method the document does
// not have: refused before routing (401, 403), or 404 unrecognized_url.
func (c *Checker) checkUnrouted(where string, status int, header http.Header, body []byte) error {
	var want *openapi3.Response
	switch status {
	case http.StatusUnauthorized, http.StatusForbidden:
		// Authentication comes first, so that no route is discoverable
		// without a key; any documented operation lists these answers.
		want = c.doc.Components.Responses[map[int]string{401: "Unauthorized", 403: "Forbidden"}[status]].Value
	case http.StatusNotFound:
		want = c.unrecognized
	default:
		return fmt.Errorf("openapi: %s is in no path of the document, yet it was answered %d (want 404 unrecognized_url)\nbody: %s", where, status, clip(body))
	}
	if rid := header.Get("Request-Id"); rid == "" {
		return fmt.Errorf("openapi: %s answered %d without a Request-Id header", where, status)
	}
	var v any
	if err := json.Unmarshal(body, &v); err != nil {
		return fmt.Errorf("openapi: %s answered %d with a body that is not JSON: %w\nbody: %s", where, status, err, clip(body))
	}
	schema := want.Content.Get("application/json").Schema.Value
	if err := schema.VisitJSON(v, openapi3.EnableJSONSchema2020(), openapi3.MultiErrors(), reasonOnly); err != nil {
		return fmt.Errorf("openapi: %s is in no path of the document; its %d answer does not match: %w\nbody: %s", where, status, err, clip(body))
	}
	return nil
}

// reason keeps a schema error's reason alone: the default message repeats
// the schema (as null) and the value, which the caller prints anyway.
func reason(err *openapi3.SchemaError) string { return err.Reason }

var reasonOnly = openapi3.SetSchemaErrorMessageCustomizer(reason)

// listsByIndex reads a request's lists as the document's conventions say
// they may be sent, which OpenAPI's form styles cannot: a list the
// operation declares as x[] (enabled_events[], lookup_keys[]) may come as
// x[0]=a&x[1]=b, as Stripe's libraries send it. Such entries, numbered
// from 0 without a gap and each once, are rewritten to x[]=a&x[]=b in r's
// query and in the returned body before validation; any other shape (a
// gap, both forms at once) is left as sent, for the document to refuse.
func listsByIndex(op *openapi3.Operation, r *http.Request, body []byte) []byte {
	var lists []string
	for _, p := range op.Parameters {
		if p.Value != nil && p.Value.In == openapi3.ParameterInQuery && strings.HasSuffix(p.Value.Name, "[]") {
			lists = append(lists, p.Value.Name)
		}
	}
	if op.RequestBody != nil && op.RequestBody.Value != nil {
		if mt := op.RequestBody.Value.Content.Get("application/x-www-form-urlencoded"); mt != nil && mt.Schema != nil && mt.Schema.Value != nil {
			for name := range mt.Schema.Value.Properties {
				if strings.HasSuffix(name, "[]") {
					lists = append(lists, name)
				}
			}
		}
	}
	if len(lists) == 0 {
		return body
	}
	if q, ok := indexedToBrackets(r.URL.RawQuery, lists); ok {
		r.URL.RawQuery = q
	}
	if b, ok := indexedToBrackets(string(body), lists); ok {
		return []byte(b)
	}
	return body
}

// indexedToBrackets rewrites raw's well-numbered x[N] entries of each list
// x[] to x[]; ok is false when there were none.
func indexedToBrackets(raw string, lists []string) (string, bool) {
	values, err := url.ParseQuery(raw)
	if err != nil {
		return raw, false
	}
	changed := false
	for _, list := range lists {
		base := strings.TrimSuffix(list, "[]")
		entries := map[int]string{}
		var names []string
		for name, vs := range values {
			rest, ok := strings.CutPrefix(name, base+"[")
			if !ok {
				continue
			}
			idx, ok := strings.CutSuffix(rest, "]")
			if !ok || strings.ContainsAny(idx, "[]") {
				continue
			}
			n, err := strconv.Atoi(idx)
			if err != nil || strconv.Itoa(n) != idx || n < 0 || len(vs) != 1 {
				entries = nil
				break
			}
			entries[n] = vs[0]
			names = append(names, name)
		}
		if len(entries) == 0 || values.Has(list) {
			continue
		}
		ordered := make([]string, len(entries))
		for n, v := range entries {
			if n >= len(ordered) {
				ordered = nil
				break
			}
			ordered[n] = v
		}
		if ordered == nil {
			continue
		}
		for _, name := range names {
			values.Del(name)
		}
		values[list] = ordered
		changed = true
	}
	if !changed {
		return raw, false
	}
	return values.Encode(), true
}

// authenticate accepts what the document's security schemes describe: a
// secret key (secretKey, secretKeyBearer) or a publishable key
// (publishableKey, publishableKeyBearer), as the HTTP Basic user name
// with an empty password or as a Bearer token, the key alone after one
// space. A request without it is one the document refuses, so it must get
// a 4xx.
func authenticate(_ context.Context, in *openapi3filter.AuthenticationInput) error {
	prefix := "sk_"
	if strings.HasPrefix(in.SecuritySchemeName, "publishableKey") {
		prefix = "pk_"
	}
	req := in.RequestValidationInput.Request
	if in.SecurityScheme != nil && strings.EqualFold(in.SecurityScheme.Scheme, "bearer") {
		scheme, token, _ := strings.Cut(req.Header.Get("Authorization"), " ")
		switch {
		case !strings.EqualFold(scheme, "bearer"):
			return errors.New("no Bearer token")
		case !strings.HasPrefix(token, prefix) || strings.ContainsAny(token, " \t"):
			return fmt.Errorf("the Bearer token is not a %s... key alone (scheme %s)", prefix, in.SecuritySchemeName)
		}
		return nil
	}
	user, password, ok := req.BasicAuth()
	switch {
	case !ok:
		return errors.New("no HTTP Basic credentials")
	case !strings.HasPrefix(user, prefix):
		return fmt.Errorf("the Basic user name is not a %s... key (scheme %s)", prefix, in.SecuritySchemeName)
	case password != "":
		return errors.New("the Basic password is not empty")
	}
	return nil
}

func clip(b []byte) string {
	if len(b) > 2000 {
		return string(b[:2000]) + "..."
	}
	return string(b)
}

// Transport wraps base (nil is http.DefaultTransport) so that every
// exchange through it is checked; a failed check fails tb, naming the
// operation, the status and what is wrong. Answers pass through unchanged.
func Transport(tb testing.TB, base http.RoundTripper) http.RoundTripper {
	if base == nil {
		base = http.DefaultTransport
	}
	c, err := New()
	if err != nil {
		tb.Fatal(err)
	}
	return &transport{tb: tb, base: base, c: c}
}

type transport struct {
	tb   testing.TB
	base http.RoundTripper
	c    *Checker
}

func (t *transport) RoundTrip(req *http.Request) (*http.Response, error) {
	var body []byte
	if req.Body != nil && req.Body != http.NoBody {
		var err error
		body, err = io.ReadAll(req.Body)
		_ = req.Body.Close()
		if err != nil {
			return nil, err
		}
		req = req.Clone(req.Context())
		req.Body = io.NopCloser(bytes.NewReader(body))
		req.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(body)), nil }
	}
	resp, err := t.base.RoundTrip(req)
	if err != nil {
		// No answer (a dropped connection): nothing to check.
		return resp, err
	}
	rb, err := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	if err != nil {
		return nil, err
	}
	resp.Body = io.NopCloser(bytes.NewReader(rb))
	if err := t.c.Check(req, body, resp.StatusCode, resp.Header, rb); err != nil {
		t.tb.Error(err)
	}
	return resp, nil
}

// CloseIdleConnections lets http.Client.CloseIdleConnections reach base.
func (t *transport) CloseIdleConnections() {
	if c, ok := t.base.(interface{ CloseIdleConnections() }); ok {
		c.CloseIdleConnections()
	}
}
