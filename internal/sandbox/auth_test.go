package sandbox_test

import (
	"encoding/base64"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/sandboxtest"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

func TestAuth_Credentials(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	basic := func(user, pass string) string {
		return "Basic " + base64.StdEncoding.EncodeToString([]byte(user+":"+pass))
	}
	// The refusals of how the key was sent, which say both ways to send it.
	howSent := map[string]bool{"no header": true, "empty user": true, "other scheme": true, "key without a scheme": true,
		"not base64": true, "bearer empty": true}
	for _, tc := range []struct {
		name          string
		authorization string
		status        int
		typ, code     string
	}{
		{"no header", "", 401, wire.ErrorTypeAuthentication, wire.ErrorCodeMissingAPIKey},
		{"empty user", basic("", ""), 401, wire.ErrorTypeAuthentication, wire.ErrorCodeMissingAPIKey},
		{"other scheme", "Digest " + e.key, 401, wire.ErrorTypeAuthentication, wire.ErrorCodeInvalidAPIKey},
		{"key without a scheme", e.key, 401, wire.ErrorTypeAuthentication, wire.ErrorCodeInvalidAPIKey},
		{"not base64", "Basic !!!", 401, wire.ErrorTypeAuthentication, wire.ErrorCodeInvalidAPIKey},
		{"bearer empty", "Bearer", 401, wire.ErrorTypeAuthentication, wire.ErrorCodeMissingAPIKey},
		{"bearer two spaces", "Bearer  " + e.key, 401, wire.ErrorTypeAuthentication, wire.ErrorCodeInvalidAPIKey},
		{"bearer space inside", "Bearer sk_sandbox_1234 5678", 401, wire.ErrorTypeAuthentication, wire.ErrorCodeInvalidAPIKey},
		{"bearer tab inside", "Bearer sk_sandbox_1234\t5678", 401, wire.ErrorTypeAuthentication, wire.ErrorCodeInvalidAPIKey},
		{"bearer basic credentials", "Bearer " + base64.StdEncoding.EncodeToString([]byte(e.key+":")), 401, wire.ErrorTypeAuthentication, wire.ErrorCodeInvalidAPIKey},
		{"bearer unknown prefix", "Bearer xk_sandbox_12345678", 401, wire.ErrorTypeAuthentication, wire.ErrorCodeInvalidAPIKey},
		{"bearer too short", "Bearer sk_sandbox_1234567", 401, wire.ErrorTypeAuthentication, wire.ErrorCodeInvalidAPIKey},
		{"bearer public sandbox key", "Bearer pk_sandbox_12345678", 403, wire.ErrorTypePermission, wire.ErrorCodeSecretKeyRequired},
		{"bearer live key", "Bearer sk_live_12345678", 403, wire.ErrorTypePermission, wire.ErrorCodeLiveKeyOnSandbox},
		{"unknown prefix", basic("xk_sandbox_12345678", ""), 401, wire.ErrorTypeAuthentication, wire.ErrorCodeInvalidAPIKey},
		{"too short", basic("sk_sandbox_1234567", ""), 401, wire.ErrorTypeAuthentication, wire.ErrorCodeInvalidAPIKey},
		{"bad characters", basic("sk_sandbox_1234-5678", ""), 401, wire.ErrorTypeAuthentication, wire.ErrorCodeInvalidAPIKey},
		{"password given", basic(e.key, "secret"), 401, wire.ErrorTypeAuthentication, wire.ErrorCodeInvalidAPIKey},
		{"public sandbox key", basic("pk_sandbox_12345678", ""), 403, wire.ErrorTypePermission, wire.ErrorCodeSecretKeyRequired},
		{"public live key", basic("pk_live_12345678", ""), 403, wire.ErrorTypePermission, wire.ErrorCodeSecretKeyRequired},
		{"live key", basic("sk_live_12345678", ""), 403, wire.ErrorTypePermission, wire.ErrorCodeLiveKeyOnSandbox},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, path := range []string{"/v1/customers/cus_x", "/_sandbox/stats", "/v1/nowhere"} {
				env := &env{t: t, url: e.url, hc: e.hc}
				var opts []req
				if tc.authorization != "" {
					opts = append(opts, header("Authorization", tc.authorization))
				}
				res := env.do(http.MethodGet, path, nil, opts...)
				body := res.fails(tc.status, tc.typ, tc.code, "")
				if strings.Contains(string(res.body), "12345678") || strings.Contains(string(res.body), e.key) {
					t.Errorf("%s: the answer quotes the key: %s", path, res.body)
				}
				if howSent[tc.name] && (!strings.Contains(body.Error.Message, "Bearer") || !strings.Contains(body.Error.Message, "Basic")) {
					t.Errorf("%s: a 401 that does not say how to send the key: %q", path, body.Error.Message)
				}
			}
		})
	}
	// A well-formed sandbox key is its own account, made on first use.
	e.get("/_sandbox/stats", nil).ok(nil)
}

// TestAuth_Bearer: a key sent as a Bearer token, as Stripe's libraries
// send it, is the same account as by HTTP Basic, under the same key list,
// in-process too (the dashboard's way in).
func TestAuth_Bearer(t *testing.T) {
	t.Parallel()
	allowed := sandboxtest.NewKey(t)
	sb := sandboxtest.Start(t, sandboxtest.WithKeys(allowed))
	e := envOn(t, sb, allowed)
	cu := e.customer(vals("name", "Basic"))
	for _, scheme := range []string{"Bearer ", "bearer ", "BEARER "} {
		var got wire.Customer
		e.do(http.MethodGet, "/v1/customers/"+cu.ID, nil, header("Authorization", scheme+allowed)).ok(&got)
		if got.ID != cu.ID {
			t.Errorf("%q: got customer %q, want %q", scheme, got.ID, cu.ID)
		}
	}
	var made wire.Customer
	e.post(wire.PathCustomers, vals("name", "Bearer"), header("Authorization", wire.BearerAuthorization(allowed))).ok(&made)
	e.get("/v1/customers/"+made.ID, nil).ok(nil)

	out := envOn(t, sb, sandboxtest.NewKey(t))
	out.do(http.MethodGet, wire.PathSandboxStats, nil, header("Authorization", wire.BearerAuthorization(out.key))).
		fails(401, wire.ErrorTypeAuthentication, wire.ErrorCodeInvalidAPIKey, "")

	// A publishable key as a Bearer token mints tokens of its account, and
	// does nothing else.
	pk := e.publishable()
	var tok wire.Token
	f := vals()
	for k, v := range card() {
		f.Set(k, v)
	}
	e.post(wire.PathTokens, f, header("Authorization", wire.BearerAuthorization(pk.key))).ok(&tok)
	e.payment(pay("100", "USD", tok.ID))
	e.do(http.MethodGet, wire.PathSandboxStats, nil, header("Authorization", wire.BearerAuthorization(pk.key))).
		fails(403, wire.ErrorTypePermission, wire.ErrorCodeSecretKeyRequired, "")

	for name, tc := range map[string]struct {
		authorization string
		status        int
	}{
		"bearer":      {wire.BearerAuthorization(allowed), http.StatusOK},
		"basic":       {wire.BasicAuthorization(allowed), http.StatusOK},
		"bearer, bad": {"Bearer  " + allowed, http.StatusUnauthorized},
		"other key":   {wire.BearerAuthorization(sandboxtest.NewKey(t)), http.StatusUnauthorized},
	} {
		req := httptest.NewRequest(http.MethodGet, wire.PathSandboxStats, nil)
		req.Header.Set(wire.HeaderAuthorization, tc.authorization)
		rec := httptest.NewRecorder()
		sb.Server.Internal().ServeHTTP(rec, req)
		if rec.Code != tc.status {
			t.Errorf("in-process, %s: %d %s, want %d", name, rec.Code, rec.Body, tc.status)
		}
	}
}

func TestAuth_AllowList(t *testing.T) {
	t.Parallel()
	allowed := sandboxtest.NewKey(t)
	sb := sandboxtest.Start(t, sandboxtest.WithKeys(allowed))
	in := envOn(t, sb, allowed)
	in.get("/_sandbox/stats", nil).ok(nil)
	out := envOn(t, sb, sandboxtest.NewKey(t))
	out.get("/_sandbox/stats", nil).fails(401, wire.ErrorTypeAuthentication, wire.ErrorCodeInvalidAPIKey, "")

	if _, err := sandbox.New(sandbox.Options{Keys: []string{"sk_live_12345678"}}); err == nil || strings.Contains(err.Error(), "12345678") {
		t.Errorf("New with a live key in Keys: err = %v; want an error that does not quote the key", err)
	}
}

// TestAuth_AccountIsolation: another account gets 404 for every verb on an
// object, never 403, and 400 resource_missing when a parameter names it.
func TestAuth_AccountIsolation(t *testing.T) {
	t.Parallel()
	a := newEnv(t)
	b := a.other()
	cu := a.customer(vals("source", sandbox.TokenVisa))
	src := cu.DefaultSource
	p := a.payment(pay("500", "EUR", "", "customer", cu.ID, "capture", "false"))
	pending := a.payment(pay("500", "EUR", sandbox.Token3DS))

	for _, tc := range []struct{ method, path string }{
		{"GET", "/v1/customers/" + cu.ID},
		{"POST", "/v1/customers/" + cu.ID},
		{"DELETE", "/v1/customers/" + cu.ID},
		{"POST", "/v1/customers/" + cu.ID + "/sources"},
		{"GET", "/v1/customers/" + cu.ID + "/sources/" + src},
		{"DELETE", "/v1/customers/" + cu.ID + "/sources/" + src},
		{"GET", "/v1/payments/" + p.ID},
		{"POST", "/v1/payments/" + p.ID + "/capture"},
		{"POST", "/v1/payments/" + p.ID + "/refund"},
		{"POST", "/_sandbox/payments/" + pending.ID + "/complete"},
		{"POST", "/_sandbox/payments/" + p.ID + "/dispute"},
	} {
		var f = vals()
		if strings.HasSuffix(tc.path, "/sources") {
			f = vals("source", sandbox.TokenVisa)
		}
		b.do(tc.method, tc.path, f).fails(404, wire.ErrorTypeInvalidRequest, wire.ErrorCodeResourceMissing, "")
	}
	b.post("/v1/payments", pay("100", "USD", "", "customer", cu.ID)).
		fails(400, wire.ErrorTypeInvalidRequest, wire.ErrorCodeResourceMissing, "customer")
	b.get("/v1/payments", vals("customer", cu.ID)).
		fails(400, wire.ErrorTypeInvalidRequest, wire.ErrorCodeResourceMissing, "customer")
	b.get("/v1/payments", vals("starting_after", p.ID)).
		fails(400, wire.ErrorTypeInvalidRequest, wire.ErrorCodeResourceMissing, "starting_after")
	b.get("/v1/payments", vals("ending_before", p.ID)).
		fails(400, wire.ErrorTypeInvalidRequest, wire.ErrorCodeResourceMissing, "ending_before")
	var list wire.PaymentList
	b.get("/v1/payments", nil).ok(&list)
	if len(list.Data) != 0 {
		t.Errorf("account B lists %d payments of account A", len(list.Data))
	}
	if s := b.stats(); s.Customers != 0 || s.Payments != 0 || s.Sources != 0 {
		t.Errorf("account B's stats count account A's objects: %+v", s)
	}
	// Nothing B did changed A's objects.
	var got wire.Payment
	a.get("/v1/payments/"+p.ID, nil).ok(&got)
	if got.Status != wire.PaymentStatusAuthorized {
		t.Errorf("A's payment is %s after B's attempts; want authorized", got.Status)
	}
	a.get("/v1/customers/"+cu.ID+"/sources/"+src, nil).ok(nil)
}

// TestServeUnknown_UnrecognizedURL: a path or method no endpoint serves is 404
// unrecognized_url naming the method and path, never resource_missing,
// which would read as the object being gone; it is not counted.
func TestServeUnknown_UnrecognizedURL(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	tests := []struct{ name, method, path string }{
		{"unknown resource", http.MethodGet, "/v1/widgets"},
		{"unknown method", http.MethodPut, "/v1/customers/cus_x"},
		{"base URL ending in /v1, retrieve", http.MethodGet, "/v1/v1/customers/cus_AAAAAAAAAAAAAAAAAAAAAAAA"},
		{"base URL ending in /v1, create", http.MethodPost, "/v1/v1/customers"},
		{"base URL ending in /v1, delete", http.MethodDelete, "/v1/v1/customers/cus_x/sources/src_x"},
		{"no version", http.MethodGet, "/customers/cus_x"},
		{"root", http.MethodGet, "/"},
		{"unknown control", http.MethodPost, "/_sandbox/nope"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			se := &env{t: t, url: e.url, key: e.key, hc: e.hc}
			eb := se.do(tc.method, tc.path, nil).fails(404, wire.ErrorTypeInvalidRequest, wire.ErrorCodeUnrecognizedURL, "")
			if want := tc.method + " " + tc.path; !strings.Contains(eb.Error.Message, want) {
				t.Errorf("message %q does not name %q", eb.Error.Message, want)
			}
		})
	}
	if n := e.stats().Requests.Total; n != 0 {
		t.Errorf("stats.requests.total = %d after unknown routes only, want 0", n)
	}
	anon := &env{t: t, url: e.url, hc: e.hc}
	anon.get("/v1/widgets", nil).fails(401, wire.ErrorTypeAuthentication, wire.ErrorCodeMissingAPIKey, "")
}
