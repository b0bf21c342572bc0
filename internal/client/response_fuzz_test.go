package client

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"testing"
	"time"

	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// fuzzTransport answers every request with the same fuzzed response,
// without a network.
type fuzzTransport struct {
	status int
	body   []byte
	header http.Header
}

func (f *fuzzTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.Body != nil {
		_, _ = io.Copy(io.Discard, r.Body)
		_ = r.Body.Close()
	}
	return &http.Response{
		StatusCode: f.status,
		Header:     f.header.Clone(),
		Body:       io.NopCloser(bytes.NewReader(f.body)),
		Request:    r,
	}, nil
}

// FuzzResponseDecoding answers every call of the client with an arbitrary
// status, body and Retry-After, and checks that no answer panics, that a
// call either returns an object or an error, that a non-200 answer is a
// *Error with its status, and that a paging loop over a server that
// always says "has_more" cannot run away. The seeds, and the crashers
// found in testdata/fuzz/FuzzResponseDecoding, run in every `go test`.
func FuzzResponseDecoding(f *testing.F) {
	for _, s := range []struct {
		status int
		body   string
	}{
		{200, `{"id":"cus_AAAAAAAAAAAAAAAAAAAAAAAA","object":"customer","sources":{"object":"list","data":[{"id":"src_x","brand":"visa","last4":"4242"}]},"metadata":{"a":"b"},"livemode":false}`},
		{200, `{"id":"src_x","object":"source","customer":"cus_y","exp_month":12,"exp_year":2030,"livemode":false}`},
		{200, `{"id":"pay_x","object":"payment","amount":100,"currency":"USD","status":"approved","source":{"id":"src_x"},"livemode":false}`},
		{200, `{"object":"list","data":[{"id":"pay_a","livemode":false},{"id":"pay_b","livemode":false}],"has_more":true}`},
		{200, `{"object":"list","data":[],"has_more":true}`},
		{200, `{"object":"list","data":null,"has_more":false}`},
		{200, `{"id":"cus_x","livemode":true}`},
		{200, `{"sources":{"data":[null]},"metadata":null}`},
		{200, `null`},
		{200, ``},
		{200, `[]`},
		{200, `{"amount":1e400}`},
		{200, `{"amount_refunded":null,"captured":null,"source":null}`},
		{400, `{"error":{"type":"invalid_request_error","code":"parameter_unknown","param":"x","message":"m"}}`},
		{404, `{"error":{"type":"invalid_request_error","code":"resource_missing"}}`},
		{409, `{"error":{"type":"idempotency_error","code":"idempotency_key_in_use"}}`},
		{429, `{"error":{"type":"rate_limit_error"}}`},
		{302, ``},
		{204, `{}`},
	} {
		f.Add(s.status, []byte(s.body), "")
	}
	f.Add(429, []byte(`{}`), "999999")
	f.Add(503, []byte(`{}`), "-5")

	f.Fuzz(func(t *testing.T, status int, body []byte, retryAfter string) {
		if status < 100 || status > 999 {
			return // net/http never produces these
		}
		tr := &fuzzTransport{status: status, body: body, header: http.Header{}}
		tr.header.Set(wire.HeaderRequestID, "req_fuzz")
		if retryAfter != "" {
			tr.header.Set(wire.HeaderRetryAfter, retryAfter)
		}
		c, err := New(Config{
			BaseURL: "http://sandbox.invalid", SecretKey: "sk_sandbox_fuzzfuzzfuzz",
			MaxRetries: -1, HTTPClient: &http.Client{Transport: tr},
		})
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()

		check := func(what string, got any, isNil bool, err error) {
			t.Helper()
			if err == nil && isNil {
				t.Fatalf("%s: no error and no object for status %d", what, status)
			}
			if err != nil && status != http.StatusOK {
				if e, ok := AsError(err); !ok || e.HTTPStatus != status {
					t.Fatalf("%s: status %d gave %T %v, want a *Error with that status", what, status, err, err)
				}
			}
			_ = got
		}
		cus, err := c.GetCustomer(ctx, "cus_x")
		check("GetCustomer", cus, cus == nil, err)
		src, err := c.GetSource(ctx, "cus_x", "src_x")
		check("GetSource", src, src == nil, err)
		pay, err := c.GetPayment(ctx, "pay_x")
		check("GetPayment", pay, pay == nil, err)
		list, err := c.ListPayments(ctx, &ListPaymentsParams{ListParams: ListParams{Limit: 2}})
		check("ListPayments", list, list == nil, err)
		if err == nil {
			for i, p := range list.Data {
				if p == nil {
					t.Fatalf("ListPayments returned a nil payment at %d", i)
				}
			}
		}
		n := 0
		for p, err := range c.AllPayments(ctx, &ListPaymentsParams{ListParams: ListParams{Limit: 2}}) {
			if err == nil && p == nil {
				t.Fatalf("AllPayments yielded neither a payment nor an error")
			}
			if n++; n > 50 {
				break // a server that always says has_more; the caller's context bounds it
			}
		}
		cus, err = c.CreateCustomer(ctx, &CustomerParams{})
		check("CreateCustomer", cus, cus == nil, err)
		_, err = c.DeleteCustomer(ctx, "cus_x")
		if err != nil && status != http.StatusOK {
			if e, ok := AsError(err); !ok || e.HTTPStatus != status {
				t.Fatalf("DeleteCustomer: status %d gave %T %v, want a *Error with that status", status, err, err)
			}
		}
	})
}
