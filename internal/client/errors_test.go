package client_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/paymentsdev/terraform-provider-payments/internal/client"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/sandboxtest"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandboxclient"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// TestClient_ErrorRows drives the client into every error answer of
// api/openapi.yaml against the sandbox and checks the decoded
// *client.Error. checkAPIError also
// asserts, for every case, that the secret key appears nowhere in the error.
func TestClient_ErrorRows(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	tests := []struct {
		name string
		// run returns the error of the call under test and the key it used.
		run  func(t *testing.T, e *env) (error, string)
		want wantErr
		// check runs extra assertions on the decoded error.
		check func(t *testing.T, e *env, err *client.Error)
	}{
		{
			name: "400 parameter_unknown in a form",
			run: func(t *testing.T, e *env) (error, string) {
				rec := newRecorder()
				rec.rewrite = appendBody("nickname=bob")
				_, err := e.client(t, withTransport(rec)).CreateCustomer(ctx, &client.CustomerParams{Name: new("Bob")})
				return err, e.key
			},
			want: wantErr{status: 400, typ: wire.ErrorTypeInvalidRequest, code: wire.ErrorCodeParameterUnknown, param: "nickname"},
		},
		{
			name: "400 parameter_unknown in a query",
			run: func(t *testing.T, e *env) (error, string) {
				rec := newRecorder()
				rec.rewrite = func(r *http.Request) { r.URL.RawQuery = "limit=5&colour=red" }
				_, err := e.client(t, withTransport(rec)).ListPayments(ctx, nil)
				return err, e.key
			},
			want: wantErr{status: 400, typ: wire.ErrorTypeInvalidRequest, code: wire.ErrorCodeParameterUnknown, param: "colour"},
		},
		{
			name: "400 resource_missing customer",
			run: func(t *testing.T, e *env) (error, string) {
				_, err := e.c.CreatePayment(ctx, &client.PaymentParams{Amount: mediumAmount, Currency: "USD", Customer: fakeID(wire.CustomerIDPrefix)})
				return err, e.key
			},
			want: wantErr{status: 400, typ: wire.ErrorTypeInvalidRequest, code: wire.ErrorCodeResourceMissing, param: "customer"},
		},
		{
			name: "400 resource_missing source id",
			run: func(t *testing.T, e *env) (error, string) {
				cus := mustCustomer(t, e.c, &client.CustomerParams{Source: new(sandbox.TokenVisa)})
				_, err := e.c.CreatePayment(ctx, &client.PaymentParams{Amount: mediumAmount, Currency: "USD", Customer: cus.ID, Source: fakeID(wire.SourceIDPrefix)})
				return err, e.key
			},
			want: wantErr{status: 400, typ: wire.ErrorTypeInvalidRequest, code: wire.ErrorCodeResourceMissing, param: "source"},
		},
		{
			name: "400 resource_missing default_source",
			run: func(t *testing.T, e *env) (error, string) {
				cus := mustCustomer(t, e.c, nil)
				_, err := e.c.SetDefaultSource(ctx, cus.ID, fakeID(wire.SourceIDPrefix))
				return err, e.key
			},
			want: wantErr{status: 400, typ: wire.ErrorTypeInvalidRequest, code: wire.ErrorCodeResourceMissing, param: "default_source"},
		},
		{
			name: "400 resource_missing starting_after",
			run: func(t *testing.T, e *env) (error, string) {
				_, err := e.c.ListPayments(ctx, &client.ListPaymentsParams{ListParams: client.ListParams{StartingAfter: fakeID(wire.PaymentIDPrefix)}})
				return err, e.key
			},
			want: wantErr{status: 400, typ: wire.ErrorTypeInvalidRequest, code: wire.ErrorCodeResourceMissing, param: "starting_after"},
		},
		{
			name: "400 resource_missing ending_before",
			run: func(t *testing.T, e *env) (error, string) {
				_, err := e.c.ListPayments(ctx, &client.ListPaymentsParams{ListParams: client.ListParams{EndingBefore: fakeID(wire.PaymentIDPrefix)}})
				return err, e.key
			},
			want: wantErr{status: 400, typ: wire.ErrorTypeInvalidRequest, code: wire.ErrorCodeResourceMissing, param: "ending_before"},
		},
		{
			name: "400 validation email",
			run: func(t *testing.T, e *env) (error, string) {
				_, err := e.c.CreateCustomer(ctx, &client.CustomerParams{Email: new("not-an-address")})
				return err, e.key
			},
			want: wantErr{status: 400, typ: wire.ErrorTypeInvalidRequest, param: "email"},
		},
		{
			name: "400 validation amount",
			run: func(t *testing.T, e *env) (error, string) {
				_, err := e.c.CreatePayment(ctx, &client.PaymentParams{Amount: 0, Currency: "USD", Source: sandbox.TokenVisa})
				return err, e.key
			},
			want: wantErr{status: 400, typ: wire.ErrorTypeInvalidRequest, param: "amount"},
		},
		{
			name: "400 token_invalid",
			run: func(t *testing.T, e *env) (error, string) {
				cus := mustCustomer(t, e.c, nil)
				_, err := e.c.AddSource(ctx, cus.ID, "tok_unknown")
				return err, e.key
			},
			want: wantErr{status: 400, typ: wire.ErrorTypeInvalidRequest, code: wire.ErrorCodeTokenInvalid, param: "source"},
		},
		{
			name: "400 missing_source",
			run: func(t *testing.T, e *env) (error, string) {
				cus := mustCustomer(t, e.c, nil)
				_, err := e.c.CreatePayment(ctx, &client.PaymentParams{Amount: mediumAmount, Currency: "USD", Customer: cus.ID})
				return err, e.key
			},
			want: wantErr{status: 400, typ: wire.ErrorTypeInvalidRequest, code: wire.ErrorCodeMissingSource},
		},
		{
			name: "401 missing key",
			run: func(t *testing.T, e *env) (error, string) {
				rec := newRecorder()
				rec.rewrite = func(r *http.Request) { r.Header.Del("Authorization") }
				_, err := e.client(t, withTransport(rec)).GetCustomer(ctx, fakeID(wire.CustomerIDPrefix))
				return err, e.key
			},
			want: wantErr{status: 401, typ: wire.ErrorTypeAuthentication, code: wire.ErrorCodeMissingAPIKey},
		},
		{
			name: "401 malformed key",
			run: func(t *testing.T, e *env) (error, string) {
				key := wire.SecretKeySandboxPrefix + "short"
				_, err := newClient(t, e.sb.URL, key).GetCustomer(ctx, fakeID(wire.CustomerIDPrefix))
				return err, key
			},
			want: wantErr{status: 401, typ: wire.ErrorTypeAuthentication, code: wire.ErrorCodeInvalidAPIKey},
		},
		{
			name: "401 not a key at all",
			run: func(t *testing.T, e *env) (error, string) {
				key := "hunter2hunter2hunter2"
				_, err := newClient(t, e.sb.URL, key).CreateCustomer(ctx, nil)
				return err, key
			},
			want: wantErr{status: 401, typ: wire.ErrorTypeAuthentication, code: wire.ErrorCodeInvalidAPIKey},
		},
		{
			name: "402 card_error stores the declined payment",
			run: func(t *testing.T, e *env) (error, string) {
				_, err := e.c.CreatePayment(ctx, &client.PaymentParams{Amount: mediumAmount, Currency: "USD", Source: sandbox.TokenDeclined})
				return err, e.key
			},
			want: wantErr{status: 402, typ: wire.ErrorTypeCard, code: wire.ErrorCodeCardDeclined},
			check: func(t *testing.T, e *env, ae *client.Error) {
				if !client.IsCardError(ae) {
					t.Error("IsCardError = false")
				}
				if !strings.HasPrefix(ae.Payment, wire.PaymentIDPrefix) {
					t.Fatalf("Payment = %q, want a %s id", ae.Payment, wire.PaymentIDPrefix)
				}
				pay, err := e.c.GetPayment(ctx, ae.Payment)
				if err != nil {
					t.Fatalf("GetPayment(declined): %v", err)
				}
				if pay.Status != wire.PaymentStatusDeclined || pay.AuthorizationCode != "" || pay.Amount != mediumAmount {
					t.Errorf("declined payment = status %q, authorization_code %q, amount %d; want declined, null, %d", pay.Status, pay.AuthorizationCode, pay.Amount, mediumAmount)
				}
				if n := stats(t, e.c).Payments; n != 1 {
					t.Errorf("stats.payments = %d, want 1", n)
				}
			},
		},
		{
			name: "403 public sandbox key",
			run: func(t *testing.T, e *env) (error, string) {
				key := wire.PublicKeySandboxPrefix + "abcdefgh12345678"
				_, err := newClient(t, e.sb.URL, key).CreateCustomer(ctx, nil)
				return err, key
			},
			want: wantErr{status: 403, typ: wire.ErrorTypePermission, code: wire.ErrorCodeSecretKeyRequired},
		},
		{
			name: "403 public live key",
			run: func(t *testing.T, e *env) (error, string) {
				key := wire.PublicKeyLivePrefix + "abcdefgh12345678"
				_, err := newClient(t, e.sb.URL, key).GetPayment(ctx, fakeID(wire.PaymentIDPrefix))
				return err, key
			},
			want: wantErr{status: 403, typ: wire.ErrorTypePermission, code: wire.ErrorCodeSecretKeyRequired},
		},
		{
			name: "403 live key on the sandbox",
			run: func(t *testing.T, e *env) (error, string) {
				key := wire.SecretKeyLivePrefix + "abcdefgh12345678"
				_, err := newClient(t, e.sb.URL, key).CreateCustomer(ctx, nil)
				return err, key
			},
			want: wantErr{status: 403, typ: wire.ErrorTypePermission, code: wire.ErrorCodeLiveKeyOnSandbox},
		},
		{
			name: "404 missing customer",
			run: func(t *testing.T, e *env) (error, string) {
				_, err := e.c.GetCustomer(ctx, fakeID(wire.CustomerIDPrefix))
				return err, e.key
			},
			want: wantErr{status: 404, typ: wire.ErrorTypeInvalidRequest, code: wire.ErrorCodeResourceMissing},
			check: func(t *testing.T, _ *env, ae *client.Error) {
				if !client.IsNotFound(ae) {
					t.Error("IsNotFound = false")
				}
			},
		},
		{
			name: "404 id that would escape its path segment",
			run: func(t *testing.T, e *env) (error, string) {
				_, err := e.c.GetCustomer(ctx, "../payments")
				return err, e.key
			},
			want: wantErr{status: 404, typ: wire.ErrorTypeInvalidRequest, code: wire.ErrorCodeResourceMissing},
		},
		{
			name: "404 missing payment",
			run: func(t *testing.T, e *env) (error, string) {
				_, err := e.c.RefundPayment(ctx, fakeID(wire.PaymentIDPrefix), nil)
				return err, e.key
			},
			want: wantErr{status: 404, typ: wire.ErrorTypeInvalidRequest, code: wire.ErrorCodeResourceMissing},
		},
		{
			name: "400 idempotency key reused with other parameters",
			run: func(t *testing.T, e *env) (error, string) {
				rec := newRecorder()
				rec.rewrite = fixedIdemKey("reused-key-1")
				c := e.client(t, withTransport(rec))
				if _, err := c.CreateCustomer(ctx, &client.CustomerParams{Name: new("First")}); err != nil {
					t.Fatalf("first create: %v", err)
				}
				_, err := c.CreateCustomer(ctx, &client.CustomerParams{Name: new("Second")})
				return err, e.key
			},
			want: wantErr{status: 400, typ: wire.ErrorTypeIdempotency, code: wire.ErrorCodeIdempotencyKeyReused},
		},
		{
			name: "413 body over 64 KiB",
			run: func(t *testing.T, e *env) (error, string) {
				md := map[string]string{}
				for i := 0; len(md)*wire.MetadataValueMaxLength < wire.MaxRequestBodyBytes+1024; i++ {
					md[fmt.Sprintf("k%d", i)] = strings.Repeat("v", wire.MetadataValueMaxLength)
				}
				_, err := e.c.CreateCustomer(ctx, &client.CustomerParams{Metadata: md})
				return err, e.key
			},
			want: wantErr{status: 413, typ: wire.ErrorTypeInvalidRequest, code: wire.ErrorCodeRequestTooLarge},
			check: func(t *testing.T, e *env, _ *client.Error) {
				if n := stats(t, e.c).Customers; n != 0 {
					t.Errorf("stats.customers = %d after a 413, want 0", n)
				}
			},
		},
		{
			name: "429 rate limited",
			run: func(t *testing.T, e *env) (error, string) {
				setFaults(t, e.c, sandboxclient.FaultsParams{RateLimit: new(int64(1))})
				c := e.client(t, noRetries)
				var err error
				for range 5 {
					if _, err = c.ListPayments(ctx, nil); err != nil {
						break
					}
				}
				return err, e.key
			},
			want: wantErr{status: 429, typ: wire.ErrorTypeRateLimit, code: wire.ErrorCodeRateLimited},
			check: func(t *testing.T, _ *env, ae *client.Error) {
				if !client.IsRateLimited(ae) {
					t.Error("IsRateLimited = false")
				}
			},
		},
		{
			name: "500/503 api_error after the retries",
			run: func(t *testing.T, e *env) (error, string) {
				setFaults(t, e.c, sandboxclient.FaultsParams{ErrorRate: new(1.0)})
				rec := newRecorder()
				_, err := e.client(t, withTransport(rec), withRetries(2)).CreateCustomer(ctx, nil)
				if n := len(rec.exchanges()); n != 3 {
					t.Errorf("attempts = %d, want 3 (MaxRetries 2 + 1)", n)
				}
				return err, e.key
			},
			want: wantErr{typ: wire.ErrorTypeAPI},
			check: func(t *testing.T, e *env, ae *client.Error) {
				if ae.HTTPStatus != 500 && ae.HTTPStatus != 503 {
					t.Errorf("HTTPStatus = %d, want 500 or 503", ae.HTTPStatus)
				}
				setFaults(t, e.c, sandboxclient.FaultsParams{ErrorRate: new(0.0)})
				if n := stats(t, e.c).Customers; n != 0 {
					t.Errorf("stats.customers = %d after injected errors, want 0 (faults act before the request)", n)
				}
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := &env{sb: sandboxtest.Start(t), key: sandboxtest.NewKey(t)}
			e.c = newClient(t, e.sb.URL, e.key)
			err, key := tc.run(t, e)
			ae := checkAPIError(t, err, key, tc.want)
			noKeyIn(t, "error fields", fmt.Sprintf("%+v %#v", err, ae), key)
			if tc.check != nil {
				tc.check(t, e, ae)
			}
		})
	}
}

// TestError_Predicates checks the predicates on wrapped and foreign errors.
func TestError_Predicates(t *testing.T) {
	t.Parallel()
	wrap := func(e *client.Error) error { return fmt.Errorf("context: %w", e) }
	tests := []struct {
		err                               error
		notFound, card, rate, auth, codeM bool
	}{
		{err: wrap(&client.Error{HTTPStatus: 404, Code: wire.ErrorCodeResourceMissing}), notFound: true, codeM: true},
		{err: wrap(&client.Error{HTTPStatus: 400, Code: wire.ErrorCodeResourceMissing}), codeM: true},
		{err: wrap(&client.Error{HTTPStatus: 402, Type: wire.ErrorTypeCard}), card: true},
		{err: wrap(&client.Error{HTTPStatus: 429, Type: wire.ErrorTypeRateLimit}), rate: true},
		{err: wrap(&client.Error{HTTPStatus: 401}), auth: true},
		{err: wrap(&client.Error{HTTPStatus: 403}), auth: true},
		{err: errors.New("plain")},
		{err: nil},
	}
	for i, tc := range tests {
		if got := client.IsNotFound(tc.err); got != tc.notFound {
			t.Errorf("%d: IsNotFound = %v", i, got)
		}
		if got := client.IsCardError(tc.err); got != tc.card {
			t.Errorf("%d: IsCardError = %v", i, got)
		}
		if got := client.IsRateLimited(tc.err); got != tc.rate {
			t.Errorf("%d: IsRateLimited = %v", i, got)
		}
		if got := client.IsAuthError(tc.err); got != tc.auth {
			t.Errorf("%d: IsAuthError = %v", i, got)
		}
		if got := client.HasCode(tc.err, wire.ErrorCodeResourceMissing); got != tc.codeM {
			t.Errorf("%d: HasCode = %v", i, got)
		}
	}
	e := &client.Error{HTTPStatus: 402, Type: "card_error", Code: "card_declined", Param: "source", Message: "declined", Payment: "pay_1", RequestID: "req_1"}
	for _, part := range []string{"declined", "402", "card_error", "card_declined", "source", "pay_1", "req_1"} {
		if !strings.Contains(e.Error(), part) {
			t.Errorf("Error() = %q lacks %q", e.Error(), part)
		}
	}
}

// TestIsNotFound_OnlyResourceMissing: only a JSON error body with code
// resource_missing reads as "the object is gone". Any other 404 (another
// code, no code, a proxy's HTML page, an empty body) is an error naming the
// request URL and base_url, so that a wrong base URL never makes Terraform
// forget objects that exist.
func TestIsNotFound_OnlyResourceMissing(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	const id = "cus_AAAAAAAAAAAAAAAAAAAAAAAA"
	tests := []struct {
		name     string
		ctype    string
		body     string
		notFound bool
		// wantMsg are parts the error text must hold.
		wantMsg []string
	}{
		{
			name: "resource_missing", ctype: "application/json", notFound: true,
			body:    `{"error":{"type":"invalid_request_error","code":"resource_missing","message":"No such customer"}}`,
			wantMsg: []string{"No such customer", "resource_missing"},
		},
		{
			name: "unrecognized_url", ctype: "application/json",
			body:    `{"error":{"type":"invalid_request_error","code":"unrecognized_url","message":"Unrecognized request URL"}}`,
			wantMsg: []string{"GET ", "/v1/customers/" + id, "is not an endpoint", "base_url", "without /v1", "unrecognized_url"},
		},
		{
			name: "another code", ctype: "application/json",
			body:    `{"error":{"type":"invalid_request_error","code":"no_such_thing","message":"nope"}}`,
			wantMsg: []string{"/v1/customers/" + id, "base_url"},
		},
		{
			name: "error body without a code", ctype: "application/json",
			body:    `{"error":{"type":"invalid_request_error","message":"Not here"}}`,
			wantMsg: []string{"/v1/customers/" + id, "answered 404 with no payments API error", "base_url"},
		},
		{
			name: "proxy HTML page", ctype: "text/html",
			body:    "<html><body><h1>404 Not Found</h1>nginx</body></html>",
			wantMsg: []string{"/v1/customers/" + id, "answered 404 with no payments API error", "404 Not Found", "check that base_url points at the payments API root, without /v1"},
		},
		{
			name: "empty body", ctype: "text/plain",
			wantMsg: []string{"/v1/customers/" + id, "answered 404 with no payments API error", "base_url"},
		},
		{
			name: "JSON that is not an error body", ctype: "application/json",
			body:    `{"message":"not found"}`,
			wantMsg: []string{"/v1/customers/" + id, "base_url"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", tc.ctype)
				w.Header().Set(wire.HeaderRequestID, "req_test")
				w.WriteHeader(http.StatusNotFound)
				_, _ = io.WriteString(w, tc.body)
			}))
			t.Cleanup(srv.Close)
			key := sandboxtest.NewKey(t)
			c := newClient(t, srv.URL+"/api", key)
			_, err := c.GetCustomer(ctx, id)
			if err == nil {
				t.Fatal("got no error")
			}
			if got := client.IsNotFound(err); got != tc.notFound {
				t.Errorf("IsNotFound = %v, want %v (%v)", got, tc.notFound, err)
			}
			for _, part := range tc.wantMsg {
				if !strings.Contains(err.Error(), part) {
					t.Errorf("error %q lacks %q", err, part)
				}
			}
			if !tc.notFound && !strings.Contains(err.Error(), srv.URL+"/api/v1/customers/"+id) {
				t.Errorf("error %q does not name the request URL", err)
			}
			noKeyIn(t, "error", err.Error(), key)
			if ae, ok := client.AsError(err); !ok || ae.HTTPStatus != http.StatusNotFound {
				t.Errorf("error %#v is not a *client.Error with HTTP 404", err)
			}
		})
	}
}

// TestClient_WrongBaseURL: every read and write of an object through
// a base URL with an extra path reaches no endpoint of the sandbox, which
// answers unrecognized_url; none of it reads as not found.
func TestClient_WrongBaseURL(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := newEnv(t)
	cus := mustCustomer(t, e.c, &client.CustomerParams{Name: new("Kept")})
	src := mustSource(t, e.c, cus.ID, sandbox.TokenVisa)
	pay := mustPayment(t, e.c, &client.PaymentParams{Amount: mediumAmount, Currency: "USD", Source: sandbox.TokenVisa})
	bad := newClient(t, e.sb.URL+"/payments-api", e.key, noRetries)
	calls := map[string]func() error{
		"GetCustomer": func() error { _, err := bad.GetCustomer(ctx, cus.ID); return err },
		"UpdateCustomer": func() error {
			_, err := bad.UpdateCustomer(ctx, cus.ID, &client.CustomerParams{Name: new("x")})
			return err
		},
		"DeleteCustomer": func() error { _, err := bad.DeleteCustomer(ctx, cus.ID); return err },
		"GetSource":      func() error { _, err := bad.GetSource(ctx, cus.ID, src.ID); return err },
		"DeleteSource":   func() error { _, err := bad.DeleteSource(ctx, cus.ID, src.ID); return err },
		"GetPayment":     func() error { _, err := bad.GetPayment(ctx, pay.ID); return err },
		"RefundPayment":  func() error { _, err := bad.RefundPayment(ctx, pay.ID, nil); return err },
	}
	for name, call := range calls {
		err := call()
		if err == nil || client.IsNotFound(err) || !client.HasCode(err, wire.ErrorCodeUnrecognizedURL) {
			t.Errorf("%s through a wrong base URL: %v; want unrecognized_url, not not-found", name, err)
			continue
		}
		if !strings.Contains(err.Error(), e.sb.URL+"/payments-api/v1/") || !strings.Contains(err.Error(), "base_url") {
			t.Errorf("%s: error %q does not name the URL and base_url", name, err)
		}
	}
	if got, err := e.c.GetCustomer(ctx, cus.ID); err != nil || got.Name != "Kept" || len(got.Sources.Data) != 1 {
		t.Errorf("the customer changed through a wrong base URL: %+v %v", got, err)
	}
}
