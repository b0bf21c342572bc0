package sandbox_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandboxclient"

	"github.com/paymentsdev/terraform-provider-payments/internal/client"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/clock"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/sandboxtest"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// fastHooks retry quickly, so that no test waits for seconds.
var fastHooks = sandbox.WebhookOptions{RetryBase: 20 * time.Millisecond, Timeout: 2 * time.Second}

// newHookEnv starts a sandbox with opts and returns an account on it.
func newHookEnv(t *testing.T, opts sandbox.Options) *env {
	t.Helper()
	return envOn(t, sandboxtest.Start(t, sandboxtest.WithOptions(opts)), sandboxtest.NewKey(t))
}

// hit is one request a receiver got.
type hit struct {
	path   string
	header http.Header
	body   []byte
}

// receiver is a webhook handler in the test: it records every request
// and answers with status (200 unless set), or runs handle when set.
type receiver struct {
	*httptest.Server
	hits   chan hit
	status atomic.Int32
	handle func(w http.ResponseWriter, r *http.Request, h hit)
}

func newReceiver(t *testing.T) *receiver {
	t.Helper()
	rc := &receiver{hits: make(chan hit, 1000)}
	rc.status.Store(http.StatusOK)
	rc.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		h := hit{path: r.URL.Path, header: r.Header.Clone(), body: body}
		rc.hits <- h
		if rc.handle != nil {
			rc.handle(w, r, h)
			return
		}
		w.WriteHeader(int(rc.status.Load()))
	}))
	t.Cleanup(rc.Close)
	return rc
}

// next waits for the next request.
func (rc *receiver) next(t *testing.T) hit {
	t.Helper()
	select {
	case h := <-rc.hits:
		return h
	case <-time.After(15 * time.Second):
		t.Fatal("the receiver got nothing within 15s")
		return hit{}
	}
}

// event decodes a delivered event, strictly.
func (h hit) event(t *testing.T) *client.Event {
	t.Helper()
	var ev client.Event
	dec := json.NewDecoder(bytes.NewReader(h.body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&ev); err != nil {
		t.Fatalf("decoding delivered event %s: %v", h.body, err)
	}
	return &ev
}

func (e *env) endpoint(target string, events ...string) *client.WebhookEndpoint {
	e.t.Helper()
	f := vals(wire.ParamURL, target)
	for _, ev := range events {
		f.Add(wire.ParamEnabledEventsItem, ev)
	}
	var ep client.WebhookEndpoint
	e.post(wire.PathWebhookEndpoints, f).ok(&ep)
	return &ep
}

func (e *env) deliveries(q url.Values) []*sandboxclient.Delivery {
	e.t.Helper()
	var l sandboxclient.DeliveryList
	e.get(wire.PathSandboxDeliveries, q).ok(&l)
	return l.Data
}

// waitDeliveries polls until at least n attempts matching q are recorded.
func (e *env) waitDeliveries(q url.Values, n int) []*sandboxclient.Delivery {
	e.t.Helper()
	var ds []*sandboxclient.Delivery
	waitFor(e.t, 15*time.Second, fmt.Sprintf("%d delivery attempts recorded for %v", n, q), func() bool {
		ds = e.deliveries(q)
		return len(ds) >= n
	})
	return ds
}

func (e *env) events(q url.Values) []*client.Event {
	e.t.Helper()
	var l client.EventList
	e.get(wire.PathEvents, q).ok(&l)
	return l.Data
}

func TestWebhooks_DefaultsAsDocumented(t *testing.T) {
	t.Parallel()
	srv, err := sandbox.New(sandbox.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	attempts, base, timeout := sandbox.WebhookSettings(srv)
	if attempts != 5 || base != time.Second || timeout != 10*time.Second {
		t.Errorf("defaults: %d attempts, first retry after %s, %s per attempt; want 5, 1s, 10s", attempts, base, timeout)
	}
	if wire.DeliveryTimeout != 10*time.Second {
		t.Errorf("wire.DeliveryTimeout = %s, want the documented 10s", wire.DeliveryTimeout)
	}
}

func TestWebhooks_EndpointLifecycle(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ep := e.endpoint("http://127.0.0.1:9/hooks", wire.EventPaymentApproved, wire.EventCustomerCreated, wire.EventPaymentApproved)
	if !reEndpointID.MatchString(ep.ID) || !reSecret.MatchString(ep.Secret) || !reTimestamp.MatchString(ep.CreatedAt) {
		t.Fatalf("create: id %q, secret shape ok %v, created_at %q", ep.ID, reSecret.MatchString(ep.Secret), ep.CreatedAt)
	}
	if ep.Object != "webhook_endpoint" || ep.URL != "http://127.0.0.1:9/hooks" || ep.Disabled || ep.Description != "" || ep.Livemode ||
		!slices.Equal(ep.EnabledEvents, []string{wire.EventPaymentApproved, wire.EventCustomerCreated}) {
		t.Fatalf("create answered %+v", ep)
	}

	var got client.WebhookEndpoint
	e.get(wire.PathWebhookEndpoints+"/"+ep.ID, nil).ok(&got)
	if got.Secret != "" || got.ID != ep.ID {
		t.Errorf("retrieve shows secret %v, id %s", got.Secret != "", got.ID)
	}

	e.post(wire.PathWebhookEndpoints+"/"+ep.ID, vals(wire.ParamDescription, "orders", wire.ParamDisabled, "true",
		"metadata[team]", "billing", wire.ParamEnabledEventsItem, "*")).ok(&got)
	if got.Description != "orders" || !got.Disabled || got.Metadata["team"] != "billing" || !slices.Equal(got.EnabledEvents, []string{"*"}) || got.Secret != "" {
		t.Errorf("update answered %+v", got)
	}
	got = client.WebhookEndpoint{} // null leaves a decoded field as it was
	e.post(wire.PathWebhookEndpoints+"/"+ep.ID, vals(wire.ParamDescription, "", wire.ParamDisabled, "false")).ok(&got)
	if got.Description != "" || got.Disabled || !slices.Equal(got.EnabledEvents, []string{"*"}) {
		t.Errorf("clearing update answered %+v", got)
	}

	var rolled client.WebhookEndpoint
	e.post(wire.PathWebhookEndpoints+"/"+ep.ID+wire.PathRollSecret, nil).ok(&rolled)
	if !reSecret.MatchString(rolled.Secret) || rolled.Secret == ep.Secret {
		t.Errorf("roll_secret gave a secret of the right shape %v, different %v", reSecret.MatchString(rolled.Secret), rolled.Secret != ep.Secret)
	}

	second := e.endpoint("http://localhost:9/other", "*")
	var list client.WebhookEndpointList
	e.get(wire.PathWebhookEndpoints, vals("limit", "1")).ok(&list)
	if len(list.Data) != 1 || list.Data[0].ID != second.ID || !list.HasMore || list.URL != wire.PathWebhookEndpoints {
		t.Errorf("first page: %+v", list)
	}
	e.get(wire.PathWebhookEndpoints, vals("starting_after", second.ID)).ok(&list)
	if len(list.Data) != 1 || list.Data[0].ID != ep.ID || list.HasMore || list.Data[0].Secret != "" {
		t.Errorf("second page: %+v", list)
	}

	var del client.Deleted
	e.del(wire.PathWebhookEndpoints + "/" + ep.ID).ok(&del)
	if !del.Deleted || del.ID != ep.ID || del.Object != "webhook_endpoint" {
		t.Errorf("delete answered %+v", del)
	}
	e.get(wire.PathWebhookEndpoints+"/"+ep.ID, nil).fails(404, wire.ErrorTypeInvalidRequest, wire.ErrorCodeResourceMissing, "")
	e.del(wire.PathWebhookEndpoints+"/"+ep.ID).fails(404, wire.ErrorTypeInvalidRequest, wire.ErrorCodeResourceMissing, "")
	e.post(wire.PathWebhookEndpoints+"/"+ep.ID+wire.PathRollSecret, nil).fails(404, wire.ErrorTypeInvalidRequest, wire.ErrorCodeResourceMissing, "")
}

// TestWebhooks_EndpointEventsByIndex: enabled_events sent by index, as
// Stripe's libraries send lists, in create and update, in the order of
// the indexes; and the same request under one Idempotency-Key in either
// form.
func TestWebhooks_EndpointEventsByIndex(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	var ep client.WebhookEndpoint
	e.doRaw(http.MethodPost, wire.PathWebhookEndpoints, "url=http%3A%2F%2F127.0.0.1%3A9%2Fh&enabled_events%5B1%5D="+wire.EventCustomerCreated+
		"&enabled_events%5B0%5D="+wire.EventPaymentApproved, idemKey("by-index")).ok(&ep)
	if want := []string{wire.EventPaymentApproved, wire.EventCustomerCreated}; !slices.Equal(ep.EnabledEvents, want) {
		t.Errorf("created with events %v, want %v", ep.EnabledEvents, want)
	}
	// The same list with empty brackets is the same request: replayed.
	again := e.doRaw(http.MethodPost, wire.PathWebhookEndpoints, "enabled_events%5B%5D="+wire.EventPaymentApproved+
		"&enabled_events%5B%5D="+wire.EventCustomerCreated+"&url=http%3A%2F%2F127.0.0.1%3A9%2Fh", idemKey("by-index")).ok(nil)
	if again.header.Get(wire.HeaderIdempotentReplayed) != "true" {
		t.Errorf("the list with empty brackets under the same key was not replayed: %s", again.body)
	}
	// In another order it is another request.
	e.doRaw(http.MethodPost, wire.PathWebhookEndpoints, "enabled_events%5B%5D="+wire.EventCustomerCreated+
		"&enabled_events%5B%5D="+wire.EventPaymentApproved+"&url=http%3A%2F%2F127.0.0.1%3A9%2Fh", idemKey("by-index")).
		fails(400, wire.ErrorTypeIdempotency, wire.ErrorCodeIdempotencyKeyReused, "")

	var got client.WebhookEndpoint
	f := vals()
	for i, ev := range []string{wire.EventCustomerUpdated, wire.EventCustomerDeleted, wire.EventPaymentDeclined} {
		f.Set(fmt.Sprintf("enabled_events[%d]", i), ev)
	}
	e.post(wire.PathWebhookEndpoints+"/"+ep.ID, f).ok(&got)
	if want := []string{wire.EventCustomerUpdated, wire.EventCustomerDeleted, wire.EventPaymentDeclined}; !slices.Equal(got.EnabledEvents, want) {
		t.Errorf("updated to events %v, want %v", got.EnabledEvents, want)
	}
	if n := len(e.ids(wire.PathWebhookEndpoints)); n != 1 {
		t.Errorf("%d endpoints, want the one created once", n)
	}
}

func TestWebhooks_EndpointValidation(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	const ok = "http://127.0.0.1:9/h"
	for _, tc := range []struct {
		name, body, code, param string
	}{
		{"no url", "enabled_events[]=*", wire.ErrorCodeParameterMissing, "url"},
		{"no events", "url=" + ok, wire.ErrorCodeParameterMissing, "enabled_events"},
		{"empty events", "url=" + ok + "&enabled_events[]=", wire.ErrorCodeParameterInvalid, "enabled_events"},
		{"unknown event", "url=" + ok + "&enabled_events[]=payment.exploded", wire.ErrorCodeParameterInvalid, "enabled_events"},
		{"relative url", "url=/hooks&enabled_events[]=*", wire.ErrorCodeParameterInvalid, "url"},
		{"ftp url", "url=ftp://127.0.0.1/h&enabled_events[]=*", wire.ErrorCodeParameterInvalid, "url"},
		{"fragment", "url=http://127.0.0.1/h%23x&enabled_events[]=*", wire.ErrorCodeParameterInvalid, "url"},
		{"too long", "url=http://127.0.0.1/" + strings.Repeat("a", wire.WebhookURLMaxLength) + "&enabled_events[]=*", wire.ErrorCodeParameterInvalid, "url"},
		{"public host", "url=https://example.com/h&enabled_events[]=*", wire.ErrorCodeParameterInvalid, "url"},
		{"private address", "url=http://10.1.2.3/h&enabled_events[]=*", wire.ErrorCodeParameterInvalid, "url"},
		{"bad disabled", "url=" + ok + "&enabled_events[]=*&disabled=yes", wire.ErrorCodeParameterInvalid, "disabled"},
		{"long description", "url=" + ok + "&enabled_events[]=*&description=" + strings.Repeat("d", wire.WebhookDescriptionMaxLength+1), wire.ErrorCodeParameterInvalid, "description"},
		{"enabled_events without brackets", "url=" + ok + "&enabled_events=*", wire.ErrorCodeParameterUnknown, "enabled_events"},
		{"indexes with a gap", "url=" + ok + "&enabled_events[0]=*&enabled_events[2]=*", wire.ErrorCodeParameterInvalid, "enabled_events"},
		{"indexes not from 0", "url=" + ok + "&enabled_events[1]=*", wire.ErrorCodeParameterInvalid, "enabled_events"},
		{"index twice", "url=" + ok + "&enabled_events[0]=*&enabled_events[0]=*", wire.ErrorCodeParameterInvalid, "enabled_events[0]"},
		{"both forms", "url=" + ok + "&enabled_events[]=*&enabled_events[0]=*", wire.ErrorCodeParameterInvalid, "enabled_events"},
		{"malformed index", "url=" + ok + "&enabled_events[x]=*", wire.ErrorCodeParameterInvalid, "enabled_events"},
		{"unknown event by index", "url=" + ok + "&enabled_events[0]=*&enabled_events[1]=payment.exploded", wire.ErrorCodeParameterInvalid, "enabled_events"},
		{"secret is not a parameter", "url=" + ok + "&enabled_events[]=*&secret=whsec_x", wire.ErrorCodeParameterUnknown, "secret"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e.t = t
			e.doRaw(http.MethodPost, wire.PathWebhookEndpoints, tc.body).fails(400, wire.ErrorTypeInvalidRequest, tc.code, tc.param)
		})
	}
	e.t = t
	if n := len(e.deliveries(nil)); n != 0 {
		t.Errorf("%d deliveries after refused creates", n)
	}

	// A refused update changes nothing.
	ep := e.endpoint(ok, "*")
	e.post(wire.PathWebhookEndpoints+"/"+ep.ID, vals(wire.ParamURL, "http://192.168.1.1/h", wire.ParamDescription, "x")).
		fails(400, wire.ErrorTypeInvalidRequest, wire.ErrorCodeParameterInvalid, "url")
	var got client.WebhookEndpoint
	e.get(wire.PathWebhookEndpoints+"/"+ep.ID, nil).ok(&got)
	if got.URL != ok || got.Description != "" {
		t.Errorf("a refused update changed the endpoint: %+v", got)
	}

	// At most 16 per account.
	for i := 1; i < wire.MaxWebhookEndpoints; i++ {
		e.endpoint(ok, "*")
	}
	e.post(wire.PathWebhookEndpoints, vals(wire.ParamURL, ok, wire.ParamEnabledEventsItem, "*")).
		fails(400, wire.ErrorTypeInvalidRequest, wire.ErrorCodeParameterInvalid, "url")
	e.other().endpoint(ok, "*") // another account has its own 16
}

func TestWebhooks_AllowList(t *testing.T) {
	t.Parallel()
	e := newHookEnv(t, sandbox.Options{Webhooks: sandbox.WebhookOptions{Allow: []string{"10.0.0.0/8", "hooks.internal", "192.0.2.7"}}})
	for _, u := range []string{"http://10.1.2.3/h", "https://hooks.internal/h", "https://HOOKS.internal./h", "http://192.0.2.7:8080/h",
		"http://127.0.0.1/h", "http://localhost:1/h", "http://[::1]:1/h", "http://app.localhost/h"} {
		e.endpoint(u, "*")
	}
	for _, u := range []string{"http://11.0.0.1/h", "https://example.com/h", "http://192.0.2.8/h", "https://hooks.internal.evil.com/h"} {
		e.post(wire.PathWebhookEndpoints, vals(wire.ParamURL, u, wire.ParamEnabledEventsItem, "*")).
			fails(400, wire.ErrorTypeInvalidRequest, wire.ErrorCodeParameterInvalid, "url")
	}
	if _, err := sandbox.New(sandbox.Options{Webhooks: sandbox.WebhookOptions{Allow: []string{"10.0.0.0/33"}}}); err == nil {
		t.Error("a malformed -webhook-allow network was accepted")
	}
}

// TestWebhooks_EventsForEveryChange makes every kind of change and checks
// the events recorded, their order and the object each carries.
func TestWebhooks_EventsForEveryChange(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	cus := e.customer(vals("email", "a@example.com", "source", sandbox.TokenVisa))
	e.post("/v1/customers/"+cus.ID, vals("name", "Ada")).ok(nil)
	var src client.Source
	e.post("/v1/customers/"+cus.ID+"/sources", vals("source", sandbox.TokenMastercard)).ok(&src)
	e.del("/v1/customers/" + cus.ID + "/sources/" + cus.DefaultSource).ok(nil) // the default: customer.updated too
	approved := e.payment(pay("500", "USD", sandbox.TokenVisa))
	e.post("/v1/payments/"+approved.ID+"/refund", vals("amount", "100")).ok(nil)
	e.post("/v1/payments/"+approved.ID+"/refund", nil).ok(nil)
	auth := e.payment(pay("700", "EUR", sandbox.TokenVisa, "capture", "false"))
	e.post("/v1/payments/"+auth.ID+"/capture", nil).ok(nil)
	e.post("/_sandbox/payments/"+auth.ID+"/dispute", nil).ok(nil)
	e.post("/v1/payments", pay("100", "USD", sandbox.TokenDeclined)).fails(402, wire.ErrorTypeCard, wire.ErrorCodeCardDeclined, "")
	pending := e.payment(pay("100", "USD", sandbox.Token3DS))
	e.post("/_sandbox/payments/"+pending.ID+"/complete", nil).ok(nil)
	e.del("/v1/customers/" + cus.ID).ok(nil)

	want := []string{
		wire.EventCustomerCreated, wire.EventCustomerSourceCreated, wire.EventCustomerUpdated,
		wire.EventCustomerSourceCreated, wire.EventCustomerSourceDeleted, wire.EventCustomerUpdated,
		wire.EventPaymentApproved, wire.EventPaymentPartiallyRefunded, wire.EventPaymentRefunded,
		wire.EventPaymentAuthorized, wire.EventPaymentApproved, wire.EventPaymentDisputed,
		wire.EventPaymentDeclined, wire.EventPaymentPending, wire.EventPaymentApproved,
		wire.EventCustomerDeleted,
	}
	var all []*client.Event
	var l client.EventList
	e.get(wire.PathEvents, vals("limit", "10")).ok(&l)
	all = append(all, l.Data...)
	if !l.HasMore || l.URL != wire.PathEvents {
		t.Fatalf("first page: has_more %v url %s", l.HasMore, l.URL)
	}
	var l2 client.EventList // decoding into l again would overwrite its events
	e.get(wire.PathEvents, vals("limit", "10", "starting_after", l.Data[len(l.Data)-1].ID)).ok(&l2)
	all = append(all, l2.Data...)
	var got []string
	for i := len(all) - 1; i >= 0; i-- {
		got = append(got, all[i].Type)
	}
	if !slices.Equal(got, want) {
		t.Fatalf("events, oldest first:\n got %v\nwant %v", got, want)
	}
	for _, ev := range all {
		if !reEventID.MatchString(ev.ID) || ev.Object != "event" || ev.Livemode || !reTimestamp.MatchString(ev.CreatedAt) {
			t.Errorf("event %+v is malformed", ev)
		}
		// data.object decodes strictly into the client's type of its kind.
		var dst any
		switch {
		case ev.Type == wire.EventCustomerDeleted || ev.Type == wire.EventCustomerSourceDeleted:
			dst = &client.Deleted{}
		case ev.Type == wire.EventCustomerSourceCreated:
			dst = &client.Source{}
		case strings.HasPrefix(ev.Type, "customer."):
			dst = &client.Customer{}
		default:
			dst = &client.Payment{}
		}
		dec := json.NewDecoder(bytes.NewReader(ev.Data.Object))
		dec.DisallowUnknownFields()
		if err := dec.Decode(dst); err != nil {
			t.Errorf("%s: data.object %s: %v", ev.Type, ev.Data.Object, err)
		}
		if p, ok := dst.(*client.Payment); ok && wire.PaymentStatusEvent(p.Status) != ev.Type {
			t.Errorf("%s carries a payment in status %s", ev.Type, p.Status)
		}
	}
	// The object right after the change: the first refund left 400 to refund.
	var p client.Payment
	if err := json.Unmarshal(all[len(all)-1-7].Data.Object, &p); err != nil || p.AmountRefunded == nil || *p.AmountRefunded != 100 {
		t.Errorf("payment.partially_refunded carries %s", all[len(all)-1-7].Data.Object)
	}

	// Retrieve, and the type filter.
	var one client.Event
	e.get(wire.PathEvents+"/"+all[0].ID, nil).ok(&one)
	if one.ID != all[0].ID || one.Type != wire.EventCustomerDeleted {
		t.Errorf("retrieve: %+v", one)
	}
	e.get(wire.PathEvents+"/evt_000000000000000000000000", nil).fails(404, wire.ErrorTypeInvalidRequest, wire.ErrorCodeResourceMissing, "")
	if approvedOnly := e.events(vals(wire.ParamType, wire.EventPaymentApproved)); len(approvedOnly) != 3 {
		t.Errorf("type=payment.approved lists %d events, want 3", len(approvedOnly))
	}
	e.get(wire.PathEvents, vals(wire.ParamType, "payment.exploded")).fails(400, wire.ErrorTypeInvalidRequest, wire.ErrorCodeParameterInvalid, "type")
	if n := len(e.other().events(nil)); n != 0 {
		t.Errorf("another account lists %d events", n)
	}
	e.other().get(wire.PathEvents+"/"+all[0].ID, nil).fails(404, wire.ErrorTypeInvalidRequest, wire.ErrorCodeResourceMissing, "")
}

func TestWebhooks_DeliveryIsSigned(t *testing.T) {
	t.Parallel()
	e := newHookEnv(t, sandbox.Options{Webhooks: fastHooks})
	rc := newReceiver(t)
	ep := e.endpoint(rc.URL+"/hooks", "*")
	cus := e.customer(vals("name", "Signed"))

	h := rc.next(t)
	ev := h.event(t)
	if h.path != "/hooks" || ev.Type != wire.EventCustomerCreated || h.header.Get("Content-Type") != "application/json" {
		t.Fatalf("delivered %s %s with Content-Type %q", h.path, ev.Type, h.header.Get("Content-Type"))
	}
	var c client.Customer
	if err := json.Unmarshal(ev.Data.Object, &c); err != nil || c.ID != cus.ID {
		t.Errorf("data.object is %s, want customer %s", ev.Data.Object, cus.ID)
	}
	sig := h.header.Get(wire.HeaderSignature)
	if err := wire.VerifySignature(sig, ep.Secret, h.body, wire.SignatureTolerance, time.Now()); err != nil {
		t.Errorf("signature %q does not verify: %v", sig, err)
	}
	// The body delivered is the event as the API shows it.
	r := e.get(wire.PathEvents+"/"+ev.ID, nil).ok(nil)
	if !bytes.Equal(r.body, h.body) {
		t.Errorf("delivered body differs from GET /v1/events/%s:\n%s\n%s", ev.ID, h.body, r.body)
	}

	ds := e.waitDeliveries(vals(wire.ParamEvent, ev.ID), 1)
	d := ds[0]
	if d.Event != ev.ID || d.Endpoint != ep.ID || d.Attempt != 1 || d.Status != 200 || d.Error != "" || !reTimestamp.MatchString(d.At) {
		t.Errorf("delivery record %+v", d)
	}
}

// TestWebhooks_EndpointAPIVersion: an endpoint takes api_version at its
// create, as Stripe's do, and its deliveries carry it; the events listed
// carry the account's default, and the two bodies differ in that field
// only, each signed as sent.
func TestWebhooks_EndpointAPIVersion(t *testing.T) {
	t.Parallel()
	e := newHookEnv(t, sandbox.Options{Webhooks: fastHooks})
	plain, pinned := newReceiver(t), newReceiver(t)
	def := e.endpoint(plain.URL, "*")
	const basil = "2025-03-31.basil"
	var ep client.WebhookEndpoint
	e.post(wire.PathWebhookEndpoints, vals(wire.ParamURL, pinned.URL, "enabled_events[0]", "*", wire.ParamAPIVersion, basil)).ok(&ep)
	if def.APIVersion != wire.APIVersion || ep.APIVersion != basil {
		t.Fatalf("api_version: %q without one, %q with %s", def.APIVersion, ep.APIVersion, basil)
	}
	var got client.WebhookEndpoint
	if e.get(wire.PathWebhookEndpoints+"/"+ep.ID, nil).ok(&got); got.APIVersion != basil {
		t.Errorf("retrieved api_version %q, want %s", got.APIVersion, basil)
	}
	e.customer(vals("name", "Versioned"))
	a, b := plain.next(t), pinned.next(t)
	if ev := b.event(t); ev.APIVersion != basil {
		t.Errorf("delivered api_version %q, want %s", ev.APIVersion, basil)
	}
	evA := a.event(t)
	listed := e.get(wire.PathEvents+"/"+evA.ID, nil).ok(nil).body
	if !bytes.Equal(a.body, listed) || evA.APIVersion != wire.APIVersion {
		t.Errorf("the default endpoint's delivery differs from the event listed:\n%s\n%s", a.body, listed)
	}
	if want := bytes.Replace(listed, []byte(`"api_version":"`+wire.APIVersion+`"`), []byte(`"api_version":"`+basil+`"`), 1); !bytes.Equal(b.body, want) {
		t.Errorf("the pinned endpoint's delivery:\n got %s\nwant %s", b.body, want)
	}
	for _, h := range []struct {
		hit
		secret string
	}{{a, def.Secret}, {b, ep.Secret}} {
		if err := wire.VerifySignature(h.header.Get(wire.HeaderSignature), h.secret, h.body, wire.SignatureTolerance, time.Now()); err != nil {
			t.Errorf("signature of %s: %v", h.body, err)
		}
	}

	for _, v := range []string{"2025-02-29.basil", "basil", "2025-03-31.Basil", "2025-03-31."} {
		e.post(wire.PathWebhookEndpoints, vals(wire.ParamURL, pinned.URL, "enabled_events[]", "*", wire.ParamAPIVersion, v)).
			fails(400, wire.ErrorTypeInvalidRequest, wire.ErrorCodeParameterInvalid, wire.ParamAPIVersion)
	}
	// Taken at create only, as Stripe's.
	e.post(wire.PathWebhookEndpoints+"/"+ep.ID, vals(wire.ParamAPIVersion, wire.APIVersion)).
		fails(400, wire.ErrorTypeInvalidRequest, wire.ErrorCodeParameterUnknown, wire.ParamAPIVersion)
}

func TestWebhooks_Filtering(t *testing.T) {
	t.Parallel()
	e := newHookEnv(t, sandbox.Options{Webhooks: fastHooks})
	only, every, off := newReceiver(t), newReceiver(t), newReceiver(t)
	epOnly := e.endpoint(only.URL, wire.EventPaymentApproved)
	epEvery := e.endpoint(every.URL, "*")
	epOff := e.endpoint(off.URL, "*")
	e.post(wire.PathWebhookEndpoints+"/"+epOff.ID, vals(wire.ParamDisabled, "true")).ok(nil)

	e.customer(vals("name", "Filter"))
	p := e.payment(pay("100", "USD", sandbox.TokenVisa))
	e.post("/v1/payments/"+p.ID+"/refund", nil).ok(nil)

	var types []string
	for range 3 {
		types = append(types, every.next(t).event(t).Type)
	}
	slices.Sort(types)
	if want := []string{wire.EventCustomerCreated, wire.EventPaymentApproved, wire.EventPaymentRefunded}; !slices.Equal(types, want) {
		t.Errorf("the * endpoint got %v, want %v", types, want)
	}
	if ev := only.next(t).event(t); ev.Type != wire.EventPaymentApproved {
		t.Errorf("the payment.approved endpoint got %s", ev.Type)
	}
	e.waitDeliveries(vals(wire.ParamEndpoint, epEvery.ID), 3)
	if ds := e.deliveries(vals(wire.ParamEndpoint, epOnly.ID)); len(ds) != 1 {
		t.Errorf("the payment.approved endpoint has %d attempts, want 1", len(ds))
	}
	if ds := e.deliveries(vals(wire.ParamEndpoint, epOff.ID)); len(ds) != 0 {
		t.Errorf("the disabled endpoint has %d attempts, want none", len(ds))
	}
	select {
	case h := <-off.hits:
		t.Errorf("the disabled endpoint got %s", h.body)
	case h := <-only.hits:
		t.Errorf("the payment.approved endpoint also got %s", h.body)
	default:
	}
}

// The retries wait base, 2×base, 4×base… on the sandbox's clock: each is
// scheduled exactly that far after the attempt before it, and is made only
// once the clock, moved by hand, reaches it.
func TestWebhooks_RetriesWithGrowingGaps(t *testing.T) {
	t.Parallel()
	const attempts = 4
	base := time.Minute // never passes on its own: the test moves the clock
	clk := clock.NewFake(time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC))
	e := newHookEnv(t, sandbox.Options{Clock: clk, Webhooks: sandbox.WebhookOptions{Attempts: attempts, RetryBase: base, Timeout: 2 * time.Second}})
	rc := newReceiver(t)
	rc.status.Store(http.StatusInternalServerError)
	ep := e.endpoint(rc.URL, wire.EventCustomerCreated)
	e.customer(nil)

	q := vals(wire.ParamEndpoint, ep.ID)
	for n := 1; n <= attempts; n++ {
		ds := e.waitDeliveries(q, n)
		if len(ds) != n {
			t.Fatalf("%d attempts recorded before the clock reached attempt %d's time", len(ds), n+1)
		}
		d := ds[0] // newest first
		if d.Attempt != n || d.Status != 500 || !strings.Contains(d.Error, "500") {
			t.Errorf("attempt record %d: %+v", n, d)
		}
		if at := clk.Now().UTC().Format(time.RFC3339); d.At != at {
			t.Errorf("attempt %d made at %s, want %s: when the clock reached it", n, d.At, at)
		}
		if n == attempts {
			if d.NextRetryAt != "" {
				t.Errorf("the last attempt schedules another, at %s", d.NextRetryAt)
			}
			break
		}
		gap := base << (n - 1)
		if want := clk.Now().Add(gap).UTC().Format(time.RFC3339); d.NextRetryAt != want {
			t.Errorf("attempt %d schedules the next at %s, want %s (%s later)", n, d.NextRetryAt, want, gap)
		}
		// The log shows the attempt a moment before the engine arms the
		// retry's timer: moving the clock first would leave it unarmed.
		due := clk.Now().Add(gap)
		waitFor(t, 15*time.Second, "the retry's timer on the clock", func() bool {
			next, ok := clk.Next()
			return ok && !next.After(due)
		})
		clk.Set(due)
	}
	if got := len(rc.hits); got != attempts {
		t.Errorf("the receiver got %d attempts, want %d", got, attempts)
	}
	// Nothing more is scheduled once the last has failed.
	if n, _ := clk.Next(); clk.Timers() != 0 {
		t.Errorf("%d timers wait on the clock after the last attempt, the next at %v", clk.Timers(), n)
	}
}

func TestWebhooks_RetryThenDelivered(t *testing.T) {
	t.Parallel()
	e := newHookEnv(t, sandbox.Options{Webhooks: fastHooks})
	rc := newReceiver(t)
	var n atomic.Int32
	rc.handle = func(w http.ResponseWriter, _ *http.Request, _ hit) {
		if n.Add(1) <= 2 {
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		w.WriteHeader(http.StatusNoContent)
	}
	ep := e.endpoint(rc.URL, "*")
	e.customer(nil)
	ds := e.waitDeliveries(vals(wire.ParamEndpoint, ep.ID), 3)
	if ds[0].Attempt != 3 || ds[0].Status != 204 || ds[0].Error != "" || ds[1].Status != 503 {
		t.Errorf("attempts: %+v %+v", ds[0], ds[1])
	}
	// Delivered: nothing of it is left to attempt, so no fourth attempt
	// can come (the attempt that delivered took it off in the same step
	// that recorded it).
	if n := sandbox.PendingDeliveries(e.srv, e.key); n != 0 {
		t.Errorf("%d deliveries still pending after the event was delivered", n)
	}
	if got := len(e.deliveries(nil)); got != 3 {
		t.Errorf("%d attempts after delivery, want 3", got)
	}
}

// TestWebhooks_HungReceiverIsCutOff: a receiver that never answers holds
// up neither the API nor another receiver, and is cut off at the timeout.
func TestWebhooks_HungReceiverIsCutOff(t *testing.T) {
	t.Parallel()
	timeout := 1500 * time.Millisecond
	e := newHookEnv(t, sandbox.Options{Webhooks: sandbox.WebhookOptions{Attempts: 1, Timeout: timeout}})
	release := make(chan struct{})
	hung, fast := newReceiver(t), newReceiver(t)
	hung.handle = func(http.ResponseWriter, *http.Request, hit) { <-release }
	defer close(release)
	epHung := e.endpoint(hung.URL, "*")
	epFast := e.endpoint(fast.URL, "*")

	// More events than one endpoint's concurrent attempts.
	const events = 10
	for i := range events {
		e.customer(vals("name", fmt.Sprint("c", i)))
	}
	hung.next(t) // it is now holding an attempt open
	for range events {
		fast.next(t)
	}
	// While the hung receiver holds its attempts, the API answers and the
	// fast receiver has every event.
	e.customer(vals("name", "while hung"))
	fast.next(t)
	if ds := e.waitDeliveries(vals(wire.ParamEndpoint, epFast.ID), events+1); len(ds) != events+1 {
		t.Errorf("fast endpoint: %d attempts", len(ds))
	}

	ds := e.waitDeliveries(vals(wire.ParamEndpoint, epHung.ID), events+1)
	for _, d := range ds {
		if d.Status != 0 || !strings.Contains(d.Error, "no complete answer within 1.5 seconds") {
			t.Errorf("hung attempt recorded as %+v", d)
		}
	}
}

func TestWebhooks_RolledSecretSigns(t *testing.T) {
	t.Parallel()
	e := newHookEnv(t, sandbox.Options{Webhooks: fastHooks})
	rc := newReceiver(t)
	var fail atomic.Bool
	fail.Store(true)
	rc.handle = func(w http.ResponseWriter, _ *http.Request, _ hit) {
		if fail.Load() {
			w.WriteHeader(http.StatusInternalServerError)
			return
		}
		w.WriteHeader(http.StatusOK)
	}
	ep := e.endpoint(rc.URL, "*")
	e.customer(nil)
	first := rc.next(t)
	if err := wire.VerifySignature(first.header.Get(wire.HeaderSignature), ep.Secret, first.body, 0, time.Now()); err != nil {
		t.Fatalf("first attempt: %v", err)
	}
	var rolled client.WebhookEndpoint
	e.post(wire.PathWebhookEndpoints+"/"+ep.ID+wire.PathRollSecret, nil).ok(&rolled)
	fail.Store(false)
	// Every attempt after the roll, the pending retry included, is signed
	// with the new secret only.
	for {
		h := rc.next(t)
		sig := h.header.Get(wire.HeaderSignature)
		if err := wire.VerifySignature(sig, ep.Secret, h.body, 0, time.Now()); err == nil {
			continue // a retry sent before the roll landed
		}
		if err := wire.VerifySignature(sig, rolled.Secret, h.body, 0, time.Now()); err != nil {
			t.Fatalf("after the roll: %v", err)
		}
		break
	}
	e.customer(nil)
	h := rc.next(t)
	if err := wire.VerifySignature(h.header.Get(wire.HeaderSignature), rolled.Secret, h.body, 0, time.Now()); err != nil {
		t.Errorf("new event: %v", err)
	}
}

func TestWebhooks_DeletedEndpointStopsRetrying(t *testing.T) {
	t.Parallel()
	e := newHookEnv(t, sandbox.Options{Webhooks: sandbox.WebhookOptions{RetryBase: 100 * time.Millisecond, Attempts: 5}})
	rc := newReceiver(t)
	rc.status.Store(http.StatusBadGateway)
	ep := e.endpoint(rc.URL, "*")
	e.customer(nil)
	rc.next(t)
	e.del(wire.PathWebhookEndpoints + "/" + ep.ID).ok(nil)
	// Nothing is left to attempt, and an attempt under way when the
	// endpoint went records nothing: the log is final at once.
	if n := sandbox.PendingDeliveries(e.srv, e.key); n != 0 {
		t.Errorf("%d deliveries still pending after the endpoint was deleted", n)
	}
	if n := len(e.deliveries(nil)); n > 2 {
		t.Errorf("%d attempts recorded by the time the endpoint was deleted; want at most the one received and a retry", n)
	}
}

func TestWebhooks_Isolation(t *testing.T) {
	t.Parallel()
	a := newHookEnv(t, sandbox.Options{Webhooks: fastHooks})
	b := a.other()
	rc := newReceiver(t)
	epA := a.endpoint(rc.URL+"/a", "*")
	epB := b.endpoint(rc.URL+"/b", "*")
	cusA := a.customer(vals("name", "A"))
	cusB := b.customer(vals("name", "B"))
	for range 2 {
		h := rc.next(t)
		var c client.Customer
		if err := json.Unmarshal(h.event(t).Data.Object, &c); err != nil {
			t.Fatal(err)
		}
		want := map[string]string{"/a": cusA.ID, "/b": cusB.ID}[h.path]
		if c.ID != want {
			t.Errorf("%s got customer %s, want %s", h.path, c.ID, want)
		}
		secret := map[string]string{"/a": epA.Secret, "/b": epB.Secret}[h.path]
		if err := wire.VerifySignature(h.header.Get(wire.HeaderSignature), secret, h.body, 0, time.Now()); err != nil {
			t.Errorf("%s: %v", h.path, err)
		}
	}
	b.get(wire.PathWebhookEndpoints+"/"+epA.ID, nil).fails(404, wire.ErrorTypeInvalidRequest, wire.ErrorCodeResourceMissing, "")
	b.post(wire.PathWebhookEndpoints+"/"+epA.ID+wire.PathRollSecret, nil).fails(404, wire.ErrorTypeInvalidRequest, wire.ErrorCodeResourceMissing, "")
	var l client.WebhookEndpointList
	b.get(wire.PathWebhookEndpoints, nil).ok(&l)
	if len(l.Data) != 1 || l.Data[0].ID != epB.ID {
		t.Errorf("b lists %+v", l.Data)
	}
	b.waitDeliveries(nil, 1)
	for _, d := range b.deliveries(nil) {
		if d.Endpoint != epB.ID {
			t.Errorf("b's deliveries show %+v", d)
		}
	}
}

func TestWebhooks_ResetForgetsEndpointsAndEvents(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ep := e.endpoint("http://127.0.0.1:9/h", "*")
	e.customer(nil)
	e.post("/_sandbox/reset", nil).ok(nil)
	e.get(wire.PathWebhookEndpoints+"/"+ep.ID, nil).fails(404, wire.ErrorTypeInvalidRequest, wire.ErrorCodeResourceMissing, "")
	if n := len(e.events(nil)); n != 0 {
		t.Errorf("%d events after reset", n)
	}
}

// TestWebhooks_SurvivesRestart: endpoints, events, secrets, the delivery
// log and pending deliveries are in the data file; a restart resumes the
// pending ones at once.
func TestWebhooks_SurvivesRestart(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "sandbox.db")
	key := sandboxtest.NewKey(t)
	rc := newReceiver(t)
	rc.status.Store(http.StatusServiceUnavailable)

	start := func(base time.Duration) (*env, func()) {
		return openEnv(t, path, key, sandboxtest.WithOptions(sandbox.Options{
			Webhooks: sandbox.WebhookOptions{RetryBase: base, Timeout: 2 * time.Second}}))
	}

	e, stop := start(time.Hour) // the retry would come in an hour
	// Of another version than the default, so that the retry's body is
	// written for it from the body the data file keeps.
	var ep client.WebhookEndpoint
	e.post(wire.PathWebhookEndpoints, vals(wire.ParamURL, rc.URL, "enabled_events[]", "*", wire.ParamAPIVersion, "2025-03-31.basil")).ok(&ep)
	cus := e.customer(vals("name", "Persistent"))
	first := rc.next(t)
	e.waitDeliveries(nil, 1)
	stop()

	rc.status.Store(http.StatusOK)
	e, stop = start(time.Hour)
	defer stop()
	second := rc.next(t)
	if !bytes.Equal(first.body, second.body) {
		t.Errorf("the retry after the restart sent another body:\n%s\n%s", first.body, second.body)
	}
	if ev := second.event(t); ev.APIVersion != "2025-03-31.basil" {
		t.Errorf("the retry after the restart has api_version %q", ev.APIVersion)
	}
	if err := wire.VerifySignature(second.header.Get(wire.HeaderSignature), ep.Secret, second.body, 0, time.Now()); err != nil {
		t.Errorf("after the restart the secret does not sign: %v", err)
	}
	ds := e.waitDeliveries(nil, 2)
	if ds[0].Attempt != 2 || ds[0].Status != 200 || ds[1].Attempt != 1 || ds[1].Status != 503 {
		t.Errorf("delivery log after the restart: %+v %+v", ds[0], ds[1])
	}
	var got client.WebhookEndpoint
	e.get(wire.PathWebhookEndpoints+"/"+ep.ID, nil).ok(&got)
	evs := e.events(nil)
	if len(evs) != 1 || evs[0].Type != wire.EventCustomerCreated || !strings.Contains(string(evs[0].Data.Object), cus.ID) {
		t.Errorf("events after the restart: %+v", evs)
	}
	// New endpoints and events after a restart do not reuse sequence
	// numbers: the order of lists stays right.
	ep2 := e.endpoint(rc.URL+"/2", wire.EventCustomerUpdated)
	var l client.WebhookEndpointList
	e.get(wire.PathWebhookEndpoints, nil).ok(&l)
	if len(l.Data) != 2 || l.Data[0].ID != ep2.ID {
		t.Errorf("endpoints after the restart, newest first: %+v", l.Data)
	}
}

// inFlight counts a receiver's requests in progress and the most at once.
type inFlight struct {
	now, most atomic.Int32
}

func (f *inFlight) enter() int32 {
	n := f.now.Add(1)
	for {
		m := f.most.Load()
		if n <= m || f.most.CompareAndSwap(m, n) {
			return n
		}
	}
}

func (f *inFlight) leave() { f.now.Add(-1) }

// TestWebhooks_ConcurrencyCap: attempts in flight never exceed
// Concurrency, all endpoints together, though each endpoint's lane alone
// would run more; the rest wait and are delivered.
func TestWebhooks_ConcurrencyCap(t *testing.T) {
	t.Parallel()
	const limit, endpoints, events = 3, 6, 8
	opts := fastHooks
	opts.Concurrency = limit
	e := newHookEnv(t, sandbox.Options{Webhooks: opts})
	rc := newReceiver(t)
	var flight inFlight
	full := make(chan struct{})
	var once sync.Once
	rc.handle = func(w http.ResponseWriter, _ *http.Request, _ hit) {
		defer flight.leave()
		if flight.enter() >= limit {
			once.Do(func() { close(full) })
		}
		// Hold every attempt until the cap was reached once, and a little
		// longer, so that attempts past the cap would overlap these.
		select {
		case <-full:
		case <-time.After(15 * time.Second):
		}
		time.Sleep(20 * time.Millisecond)
		w.WriteHeader(http.StatusOK)
	}
	for i := range endpoints {
		e.endpoint(fmt.Sprintf("%s/%d", rc.URL, i), "*")
	}
	for i := range events {
		e.customer(vals("name", fmt.Sprint("c", i)))
	}
	ds := e.waitDeliveries(nil, endpoints*events)
	for _, d := range ds {
		if d.Status != http.StatusOK {
			t.Errorf("attempt %+v failed", d)
		}
	}
	if most := flight.most.Load(); most != limit {
		t.Errorf("at most %d attempts were in flight at once, want %d (the cap, reached)", most, limit)
	}
}

// TestWebhooks_OrderPerEndpointUnderCap: with one slot for everything,
// each endpoint still gets its events in the order they happened.
func TestWebhooks_OrderPerEndpointUnderCap(t *testing.T) {
	t.Parallel()
	const endpoints, events = 3, 12
	opts := fastHooks
	opts.Concurrency = 1
	e := newHookEnv(t, sandbox.Options{Webhooks: opts})
	rc := newReceiver(t)
	var flight inFlight
	rc.handle = func(w http.ResponseWriter, _ *http.Request, _ hit) {
		defer flight.leave()
		flight.enter()
		time.Sleep(time.Millisecond) // room for a second attempt to overlap
		w.WriteHeader(http.StatusOK)
	}
	for i := range endpoints {
		e.endpoint(fmt.Sprintf("%s/%d", rc.URL, i), wire.EventCustomerCreated)
	}
	for i := range events {
		e.customer(vals("name", fmt.Sprintf("c%02d", i)))
	}
	got := make(map[string][]string)
	for range endpoints * events {
		h := rc.next(t)
		var c client.Customer
		if err := json.Unmarshal(h.event(t).Data.Object, &c); err != nil {
			t.Fatal(err)
		}
		got[h.path] = append(got[h.path], c.Name)
	}
	for path, names := range got {
		if !slices.IsSorted(names) || len(names) != events {
			t.Errorf("endpoint %s got %v, want c00…c%02d in order", path, names, events-1)
		}
	}
	if most := flight.most.Load(); most != 1 {
		t.Errorf("%d attempts in flight at once under a cap of 1", most)
	}
}

// TestWebhooks_ResetAndDeleteReachTheStore: attempts are written to the
// data file in batches, outside the account's lock; a reset or an
// endpoint's deletion still leaves nothing of what it removed behind
// after a restart, however the batches fell.
func TestWebhooks_ResetAndDeleteReachTheStore(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "sandbox.db")
	key := sandboxtest.NewKey(t)
	rc := newReceiver(t)
	rc.status.Store(http.StatusServiceUnavailable)
	start := func() (*env, func()) {
		e, stop := openEnv(t, path, key, sandboxtest.WithOptions(sandbox.Options{Webhooks: sandbox.WebhookOptions{
			Attempts: 20, RetryBase: time.Millisecond, Timeout: 2 * time.Second}}))
		return e, func() {
			stop()
			// Closed, it sends nothing more: forget what it sent.
			for len(rc.hits) > 0 {
				<-rc.hits
			}
		}
	}

	e, stop := start()
	gone := e.endpoint(rc.URL+"/gone", "*")
	e.endpoint(rc.URL+"/kept", "*")
	for range 5 {
		e.customer(nil)
	}
	e.waitDeliveries(vals(wire.ParamEndpoint, gone.ID), 10)
	e.del(wire.PathWebhookEndpoints + "/" + gone.ID).ok(nil)
	logged := len(e.deliveries(nil))
	stop()

	e, stop = start()
	if n := len(e.deliveries(nil)); n < logged {
		t.Errorf("after the restart the log has %d attempts, %d before", n, logged)
	}
	// Retries resume for the kept endpoint only.
	for range 10 {
		if h := rc.next(t); h.path != "/kept" {
			t.Errorf("after the restart a delivery went to %s", h.path)
		}
	}
	e.post("/_sandbox/reset", nil).ok(nil)
	stop()

	e, stop = start()
	defer stop()
	if ds := e.deliveries(nil); len(ds) != 0 {
		t.Errorf("after a reset and a restart the log has %d attempts, first %+v", len(ds), ds[0])
	}
	// A delivery left pending by the reset would be attempted at once on
	// start, before this one.
	rc.status.Store(http.StatusOK)
	e.endpoint(rc.URL+"/new", "*")
	e.customer(nil)
	if h := rc.next(t); h.path != "/new" {
		t.Errorf("after a reset and a restart a delivery went to %s", h.path)
	}
}

// TestWebhooks_TestClockEventsOnRealTime: an event carries the time of the
// change, a test clock's for the objects on one, and is delivered on the
// sandbox's clock all the same: at once, signed at the sandbox's time, to
// every endpoint enabled for its type or for *. The sandbox's clock never
// moves here, so an event scheduled at its clock's time, years ahead, is
// never delivered.
func TestWebhooks_TestClockEventsOnRealTime(t *testing.T) {
	t.Parallel()
	// Every type the objects on a clock make: at their creation, in an
	// advance's renewals, trial notice, expiry and dunning, and by a void.
	types := []string{
		wire.EventCustomerCreated, wire.EventCustomerSourceCreated,
		wire.EventTestClockAdvancing, wire.EventTestClockReady,
		wire.EventSubscriptionCreated, wire.EventSubscriptionUpdated, wire.EventSubscriptionDeleted, wire.EventSubscriptionTrialWillEnd,
		wire.EventInvoiceCreated, wire.EventInvoiceFinalized, wire.EventInvoicePaid, wire.EventInvoicePaymentFailed,
		wire.EventInvoicePaymentActionNeeded, wire.EventInvoiceVoided, wire.EventInvoiceMarkedUncollectible,
		wire.EventPaymentPending, wire.EventPaymentApproved, wire.EventPaymentDeclined,
	}
	for _, year := range []string{"2031", "9000"} {
		t.Run(year, func(t *testing.T) {
			t.Parallel()
			clk := clock.NewFake(time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC))
			sb := sandboxtest.Start(t, sandboxtest.WithOptions(sandbox.Options{Clock: clk, Webhooks: fastHooks}))
			rc := newReceiver(t)
			// An account has at most wire.MaxWebhookEndpoints: the types are
			// shared out among accounts, each with an endpoint for * and one
			// for each of its types, and each runs the whole story.
			type account struct {
				e       *env
				all     *client.WebhookEndpoint
				typed   map[string]*client.WebhookEndpoint
				secrets map[string]string // by the path its endpoint posts to
			}
			var accounts []*account
			for i, chunk := range slices.Collect(slices.Chunk(types, wire.MaxWebhookEndpoints-1)) {
				a := &account{e: envOn(t, sb, sandboxtest.NewKey(t)), typed: map[string]*client.WebhookEndpoint{}, secrets: map[string]string{}}
				path := fmt.Sprintf("/%d/*", i)
				a.all = a.e.endpoint(rc.URL+path, "*")
				a.secrets[path] = a.all.Secret
				for _, typ := range chunk {
					path := fmt.Sprintf("/%d/%s", i, typ)
					a.typed[typ] = a.e.endpoint(rc.URL+path, typ)
					a.secrets[path] = a.typed[typ].Secret
				}
				clockStory(a.e, year)
				accounts = append(accounts, a)
			}

			// want is each delivery the events call for: event id to
			// endpoint ids.
			want := map[string][]string{}
			byType := map[string][]string{} // event ids
			for _, a := range accounts {
				evs := a.e.events(vals("limit", "100"))
				if len(evs) == 100 {
					t.Fatal("the story made over 100 events; the test reads only the first page")
				}
				for _, ev := range evs {
					want[ev.ID] = append(want[ev.ID], a.all.ID)
					if ep := a.typed[ev.Type]; ep != nil {
						want[ev.ID] = append(want[ev.ID], ep.ID)
					}
					byType[ev.Type] = append(byType[ev.Type], ev.ID)
				}
			}
			// got is the endpoints each event was delivered to, answered 200.
			got := map[string][]string{}
			complete := func() bool {
				clear(got)
				for _, a := range accounts {
					for _, d := range a.e.deliveries(nil) {
						if d.Status == http.StatusOK {
							got[d.Event] = append(got[d.Event], d.Endpoint)
						}
					}
				}
				for ev, eps := range want {
					if len(got[ev]) < len(eps) {
						return false
					}
				}
				return true
			}
			// Waits for every delivery, then says which are missing, type
			// by type, rather than stopping at the first.
			for deadline := time.Now().Add(15 * time.Second); !complete() && time.Now().Before(deadline); {
				time.Sleep(10 * time.Millisecond)
			}
			delivered := map[string]hit{} // by the path and the event id
			for len(rc.hits) > 0 {
				h := <-rc.hits
				delivered[h.path+" "+h.event(t).ID] = h
			}

			for _, typ := range types {
				t.Run(typ, func(t *testing.T) {
					if len(byType[typ]) == 0 {
						t.Fatalf("the story made no %s", typ)
					}
					missing, of := 0, 0
					for _, ev := range byType[typ] {
						for _, ep := range want[ev] {
							if of++; !slices.Contains(got[ev], ep) {
								missing++
							}
						}
					}
					if missing > 0 {
						t.Errorf("%d of the %d deliveries of %s are not made", missing, of, typ)
					}
					for _, a := range accounts {
						for path, secret := range a.secrets {
							for _, ev := range byType[typ] {
								h, ok := delivered[path+" "+ev]
								if !ok {
									continue
								}
								if err := wire.VerifySignature(h.header.Get(wire.HeaderSignature), secret, h.body, wire.SignatureTolerance, clk.Now()); err != nil {
									t.Errorf("%s %s to %s: the signature does not verify at the sandbox's time: %v", typ, ev, path, err)
								}
							}
						}
					}
				})
			}
			if extra := slices.DeleteFunc(slices.Sorted(maps.Keys(byType)), func(typ string) bool {
				return slices.Contains(types, typ) || typ == wire.EventTestClockCreated || typ == wire.EventProductCreated || typ == wire.EventPriceCreated
			}); len(extra) > 0 {
				t.Errorf("the story made types the test does not name: %v", extra)
			}
		})
	}
}

// clockStory makes, for customers on a test clock from the start of year,
// every kind of event a clock's objects have: a trial that ends, a
// renewal paid, renewals declined until dunning ends, an invoice voided,
// a first payment waiting for 3-D Secure that expires.
func clockStory(e *env, year string) {
	e.t.Helper()
	k := e.testClock("frozen_time", year+"-01-01T00:00:00Z")
	advance := func(to string) {
		e.t.Helper()
		e.post(wire.PathTestClocks+"/"+k.ID+"/advance", vals("frozen_time", year+"-"+to)).ok(nil)
	}
	pr := e.plan("1500")
	sub := func(token string, f ...string) *wire.Subscription {
		e.t.Helper()
		cu := e.customer(vals("source", token, "test_clock", k.ID))
		return e.subscribe(append([]string{"customer", cu.ID, "items[0][price]", pr.ID}, f...)...)
	}
	sub(sandbox.TokenVisa, "trial_period_days", "5")
	sub(sandbox.TokenDeclinedLater)
	voided := sub(sandbox.TokenDeclinedLater)
	sub(sandbox.Token3DS)
	advance("01-10T00:00:00Z") // the trial's notice and end, the 3-D Secure payment's expiry
	advance("02-02T00:00:00Z") // two renewals declined
	e.post(wire.PathInvoices+"/"+e.subscription(voided.ID).LatestInvoice+"/void", nil).ok(nil)
	advance("02-20T00:00:00Z") // the other's dunning ends
}
