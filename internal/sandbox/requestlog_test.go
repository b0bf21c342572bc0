package sandbox_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/sandboxtest"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

func (e *env) requests(q url.Values) []*wire.LoggedRequest {
	e.t.Helper()
	var l wire.List[wire.LoggedRequest]
	e.get(wire.PathSandboxRequests, q).ok(&l)
	return l.Data
}

// TestRequestLog_RecordsEachRequest: every request of the account, newest
// first, with its status, error code, idempotency key and replay flag, and
// never the key nor a body.
func TestRequestLog_RecordsEachRequest(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.post(wire.PathCustomers, vals("email", "jo@example.com", "source", "tok_visa"), idemKey("k-1")).ok(nil)
	e.post(wire.PathCustomers, vals("email", "jo@example.com", "source", "tok_visa"), idemKey("k-1")).ok(nil)
	e.get(wire.PathPayments+"/pay_"+strings.Repeat("x", 24), nil).fails(http.StatusNotFound, wire.ErrorTypeInvalidRequest, wire.ErrorCodeResourceMissing, "")
	e.get("/v1/nowhere/"+e.key, nil)
	e.get(wire.PathSandboxStats, nil).ok(nil)
	e.get(wire.PathSandboxRequests, nil).ok(nil) // reading the log is not logged

	got := e.requests(nil)
	type line struct {
		method, path string
		status       int
		idem         string
		replayed     bool
		code         string
	}
	want := []line{
		{"GET", wire.PathSandboxStats, 200, "", false, ""},
		{"GET", "/v1/nowhere/[redacted key]", 404, "", false, wire.ErrorCodeUnrecognizedURL},
		{"GET", wire.PathPayments + "/pay_" + strings.Repeat("x", 24), 404, "", false, wire.ErrorCodeResourceMissing},
		{"POST", wire.PathCustomers, 200, "k-1", true, ""},
		{"POST", wire.PathCustomers, 200, "k-1", false, ""},
	}
	if len(got) != len(want) {
		t.Fatalf("%d lines, want %d: %+v", len(got), len(want), got)
	}
	for i, w := range want {
		g := got[i]
		if (line{g.Method, g.Path, g.Status, g.IdempotencyKey, g.Replayed, g.ErrorCode}) != w {
			t.Errorf("line %d = %+v, want %+v", i, g, w)
		}
		if !reRequestID.MatchString(g.ID) || g.Object != "request" || g.DurationMS < 0 || !strings.HasSuffix(g.At, "Z") {
			t.Errorf("line %d: id %q object %q duration %v at %q", i, g.ID, g.Object, g.DurationMS, g.At)
		}
	}
	raw := e.get(wire.PathSandboxRequests, nil).body
	for _, secret := range []string{e.key, "tok_visa", "jo@example.com"} {
		if strings.Contains(string(raw), secret) {
			t.Errorf("the log holds %q: %s", secret, raw)
		}
	}
	if o := e.other().requests(nil); len(o) != 0 {
		t.Errorf("another account sees %d lines", len(o))
	}
}

func TestRequestLog_StatusClass(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.customer(nil)
	e.get(wire.PathCustomers+"/cus_"+strings.Repeat("x", 24), nil)
	for _, tc := range []struct {
		class string
		n     int
	}{{"", 2}, {"2xx", 1}, {"4xx", 1}, {"5xx", 0}} {
		q := url.Values{}
		if tc.class != "" {
			q.Set(wire.ParamStatusClass, tc.class)
		}
		if got := e.requests(q); len(got) != tc.n {
			t.Errorf("status_class %q: %d lines, want %d", tc.class, len(got), tc.n)
		}
	}
	for _, bad := range []string{"200", "6xx", "2XX", "xx"} {
		e.get(wire.PathSandboxRequests, vals(wire.ParamStatusClass, bad)).fails(http.StatusBadRequest, wire.ErrorTypeInvalidRequest, wire.ErrorCodeParameterInvalid, wire.ParamStatusClass)
	}
}

// TestRequestLog_KeepsTheLatest: the log is bounded; the oldest go first.
func TestRequestLog_KeepsTheLatest(t *testing.T) {
	t.Parallel()
	srv, err := sandbox.New(sandbox.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	key := sandboxtest.NewKey(t)
	const n = wire.RequestLogSize + 10
	for i := range n {
		r := httptest.NewRequest(http.MethodGet, fmt.Sprintf("%s/cus_%024d", wire.PathCustomers, i), nil)
		r.SetBasicAuth(key, "")
		srv.ServeHTTP(httptest.NewRecorder(), r)
	}
	r := httptest.NewRequest(http.MethodGet, wire.PathSandboxRequests, nil)
	r.SetBasicAuth(key, "")
	w := httptest.NewRecorder()
	srv.ServeHTTP(w, r)
	var l wire.List[wire.LoggedRequest]
	if err := json.Unmarshal(w.Body.Bytes(), &l); err != nil {
		t.Fatal(err)
	}
	if len(l.Data) != wire.RequestLogSize {
		t.Fatalf("%d lines, want %d", len(l.Data), wire.RequestLogSize)
	}
	for i, want := range map[int]int{0: n - 1, wire.RequestLogSize - 1: n - wire.RequestLogSize} {
		if p := fmt.Sprintf("%s/cus_%024d", wire.PathCustomers, want); l.Data[i].Path != p {
			t.Errorf("line %d is %s, want %s", i, l.Data[i].Path, p)
		}
	}
}

// TestRequestLog_InternalNotLogged: the in-process handler the dashboard
// uses reads the account without adding to its log or its stats.
func TestRequestLog_InternalNotLogged(t *testing.T) {
	t.Parallel()
	srv, err := sandbox.New(sandbox.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	key := sandboxtest.NewKey(t)
	do := func(h http.Handler, path string) []byte {
		r := httptest.NewRequest(http.MethodGet, path, nil)
		r.SetBasicAuth(key, "")
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		if w.Code != http.StatusOK {
			t.Fatalf("%s: %d %s", path, w.Code, w.Body)
		}
		return w.Body.Bytes()
	}
	do(srv.Internal(), wire.PathCustomers)
	do(srv.Internal(), wire.PathSandboxStats)
	var l wire.List[wire.LoggedRequest]
	if err := json.Unmarshal(do(srv, wire.PathSandboxRequests), &l); err != nil || len(l.Data) != 0 {
		t.Errorf("log after internal requests: %v %+v", err, l.Data)
	}
	var st wire.Stats
	if err := json.Unmarshal(do(srv, wire.PathSandboxStats), &st); err != nil || st.Requests.Total != 0 {
		t.Errorf("stats after internal requests: %v %+v", err, st.Requests)
	}
}

// TestResend_DeliversAgain: a resend makes a new delivery, counted from
// attempt 1, to the named endpoint or to every subscribed one.
func TestResend_DeliversAgain(t *testing.T) {
	t.Parallel()
	e := newHookEnv(t, sandbox.Options{Webhooks: fastHooks})
	rc := newReceiver(t)
	ep := e.endpoint(rc.URL, wire.EventCustomerCreated)
	e.customer(nil)
	first := rc.next(t).event(t)
	e.waitDeliveries(vals(wire.ParamEvent, first.ID), 1)

	path := wire.ExpandPath(wire.PathSandboxEventResend, url.PathEscape, first.ID)
	var rs wire.EventResend
	e.post(path, nil).ok(&rs)
	if rs.Object != "event_resend" || rs.Event != first.ID || len(rs.Endpoints) != 1 || rs.Endpoints[0] != ep.ID {
		t.Errorf("resend answer %+v", rs)
	}
	if again := rc.next(t).event(t); again.ID != first.ID {
		t.Errorf("delivered %s, want %s again", again.ID, first.ID)
	}
	ds := e.waitDeliveries(vals(wire.ParamEvent, first.ID), 2)
	if ds[0].Attempt != 1 || ds[0].Status != 200 || ds[0].NextRetryAt != "" || ds[0].DurationMS < 0 {
		t.Errorf("the resend's attempt: %+v", ds[0])
	}

	// An endpoint not subscribed to the type still gets it when named.
	rc2 := newReceiver(t)
	ep2 := e.endpoint(rc2.URL, wire.EventPaymentApproved)
	e.post(path, vals(wire.ParamEndpoint, ep2.ID)).ok(&rs)
	if got := rc2.next(t).event(t); got.ID != first.ID {
		t.Errorf("endpoint 2 got %s", got.ID)
	}

	e.post(path, vals(wire.ParamEndpoint, "we_"+strings.Repeat("x", 24))).fails(http.StatusBadRequest, wire.ErrorTypeInvalidRequest, wire.ErrorCodeResourceMissing, wire.ParamEndpoint)
	e.post(wire.PathWebhookEndpoints+"/"+ep2.ID, vals(wire.ParamDisabled, "true")).ok(nil)
	e.post(path, vals(wire.ParamEndpoint, ep2.ID)).fails(http.StatusBadRequest, wire.ErrorTypeInvalidRequest, wire.ErrorCodeParameterInvalid, wire.ParamEndpoint)
	e.post(wire.ExpandPath(wire.PathSandboxEventResend, url.PathEscape, "evt_"+strings.Repeat("x", 24)), nil).fails(http.StatusNotFound, wire.ErrorTypeInvalidRequest, wire.ErrorCodeResourceMissing, "")
	e.other().post(path, nil).fails(http.StatusNotFound, wire.ErrorTypeInvalidRequest, wire.ErrorCodeResourceMissing, "")

	// No subscribed endpoint and none named.
	e.payment(pay("500", "USD", "tok_visa"))
	evs := e.events(vals(wire.ParamType, wire.EventPaymentApproved))
	e.post(wire.ExpandPath(wire.PathSandboxEventResend, url.PathEscape, evs[0].ID), nil).fails(http.StatusBadRequest, wire.ErrorTypeInvalidRequest, wire.ErrorCodeParameterMissing, wire.ParamEndpoint)
}

// TestDeliveries_NextRetry: a failed attempt says when the next is due.
func TestDeliveries_NextRetry(t *testing.T) {
	t.Parallel()
	e := newHookEnv(t, sandbox.Options{Webhooks: sandbox.WebhookOptions{Attempts: 2, RetryBase: 50 * 1e6, Timeout: 2e9}})
	rc := newReceiver(t)
	rc.status.Store(http.StatusInternalServerError)
	e.endpoint(rc.URL, "*")
	e.customer(nil)
	ds := e.waitDeliveries(nil, 2)
	if ds[1].Attempt != 1 || ds[1].NextRetryAt == "" || ds[0].Attempt != 2 || ds[0].NextRetryAt != "" {
		t.Errorf("attempts: %+v %+v", ds[1], ds[0])
	}
}

// TestRequestLog_DroppedAnswer: a request whose connection a fault closed
// after it acted is logged with status 0: it got no answer.
func TestRequestLog_DroppedAnswer(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.faults(vals("drop_rate", "1"))
	hc := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
	r, _ := http.NewRequest(http.MethodPost, e.url+wire.PathCustomers, strings.NewReader("name=Dropped"))
	r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	r.Header.Set(wire.HeaderIdempotencyKey, "drop-1")
	r.SetBasicAuth(e.key, "")
	if resp, err := hc.Do(r); err == nil {
		resp.Body.Close()
		t.Fatalf("drop_rate 1 answered %d", resp.StatusCode)
	}
	e.faults(vals("drop_rate", "0"))
	var dropped *wire.LoggedRequest
	for _, l := range e.requests(nil) {
		if l.Method == http.MethodPost && l.Path == wire.PathCustomers {
			dropped = l
		}
	}
	if dropped == nil || dropped.Status != 0 || dropped.IdempotencyKey != "drop-1" {
		t.Errorf("the dropped request is logged as %+v, want status 0 with its key", dropped)
	}
}
