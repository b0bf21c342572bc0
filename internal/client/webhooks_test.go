package client_test

import (
	"context"
	"encoding/json"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandboxclient"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/paymentsdev/terraform-provider-payments/internal/client"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// TestClient_WebhookEndpoints drives every webhook call against the sandbox and
// checks what went over the wire.
func TestClient_WebhookEndpoints(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := newEnv(t)
	rec := newRecorder()
	c := e.client(t, withTransport(rec))

	ep, err := c.CreateWebhookEndpoint(ctx, &client.WebhookEndpointParams{
		URL:           new("http://127.0.0.1:9/hooks"),
		EnabledEvents: []string{wire.EventPaymentApproved, wire.EventCustomerCreated},
		Description:   new("orders"),
		Metadata:      map[string]string{"team": "billing"},
	})
	if err != nil {
		t.Fatal(err)
	}
	if ep.Secret == "" || ep.Description != "orders" || len(ep.EnabledEvents) != 2 {
		t.Fatalf("create = %+v", ep)
	}
	sent, _ := url.ParseQuery(rec.exchanges()[0].ReqBody)
	if got := sent[wire.ParamEnabledEventsItem]; !slices.Equal(got, []string{wire.EventPaymentApproved, wire.EventCustomerCreated}) {
		t.Errorf("sent enabled_events[] = %v", got)
	}

	got, err := c.GetWebhookEndpoint(ctx, ep.ID)
	if err != nil || got.Secret != "" || got.URL != ep.URL {
		t.Errorf("get = %+v, %v", got, err)
	}
	disabled := true
	got, err = c.UpdateWebhookEndpoint(ctx, ep.ID, &client.WebhookEndpointParams{Description: new(""), Disabled: &disabled, EnabledEvents: []string{"*"}})
	if err != nil || got.Description != "" || !got.Disabled || !slices.Equal(got.EnabledEvents, []string{"*"}) || got.Metadata["team"] != "billing" {
		t.Errorf("update = %+v, %v", got, err)
	}
	rolled, err := c.RollWebhookEndpointSecret(ctx, ep.ID)
	if err != nil || rolled.Secret == "" || rolled.Secret == ep.Secret {
		t.Errorf("roll: new secret %v, %v", rolled.Secret != ep.Secret, err)
	}
	second, err := c.CreateWebhookEndpoint(ctx, &client.WebhookEndpointParams{URL: new("http://localhost:9/"), EnabledEvents: []string{"*"}})
	if err != nil {
		t.Fatal(err)
	}
	list, err := c.ListWebhookEndpoints(ctx, &client.ListParams{Limit: 1})
	if err != nil || len(list.Data) != 1 || list.Data[0].ID != second.ID || !list.HasMore {
		t.Errorf("list = %+v, %v", list, err)
	}
	if _, err := c.DeleteWebhookEndpoint(ctx, ep.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := c.GetWebhookEndpoint(ctx, ep.ID); !client.IsNotFound(err) {
		t.Errorf("get after delete: %v, want not found", err)
	}

	// A URL the sandbox may not call names the parameter.
	_, err = c.CreateWebhookEndpoint(ctx, &client.WebhookEndpointParams{URL: new("https://example.com/h"), EnabledEvents: []string{"*"}})
	if ae, ok := client.AsError(err); !ok || ae.HTTPStatus != 400 || ae.Param != wire.ParamURL {
		t.Errorf("refused url: %v", err)
	}
}

func TestClient_EventsAndDeliveries(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := newEnv(t)
	got := make(chan []byte, 4)
	var secret atomic.Value
	recv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		s, _ := secret.Load().(string)
		if err := wire.VerifySignature(r.Header.Get(wire.HeaderSignature), s, body, wire.SignatureTolerance, time.Now()); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
		}
		got <- body
	}))
	defer recv.Close()
	ep, err := e.c.CreateWebhookEndpoint(ctx, &client.WebhookEndpointParams{URL: new(recv.URL), EnabledEvents: []string{wire.EventPaymentApproved}})
	if err != nil {
		t.Fatal(err)
	}
	secret.Store(ep.Secret)
	mustCustomer(t, e.c, nil)
	p := mustPayment(t, e.c, &client.PaymentParams{Amount: 100, Currency: "USD", Source: sandbox.TokenVisa})

	evs, err := e.c.ListEvents(ctx, &client.ListEventsParams{Type: wire.EventPaymentApproved})
	if err != nil || len(evs.Data) != 1 {
		t.Fatalf("events of type payment.approved: %+v, %v", evs, err)
	}
	var paid client.Payment
	if err := json.Unmarshal(evs.Data[0].Data.Object, &paid); err != nil || paid.ID != p.ID {
		t.Errorf("event object %s", evs.Data[0].Data.Object)
	}
	all, err := e.c.ListEvents(ctx, &client.ListEventsParams{ListParams: client.ListParams{Limit: 1}})
	if err != nil || len(all.Data) != 1 || !all.HasMore || all.Data[0].Type != wire.EventPaymentApproved {
		t.Errorf("events, limit 1: %+v, %v", all, err)
	}
	ev, err := e.c.GetEvent(ctx, evs.Data[0].ID)
	if err != nil || ev.Type != wire.EventPaymentApproved {
		t.Errorf("get event: %+v, %v", ev, err)
	}

	select {
	case <-got:
	case <-time.After(15 * time.Second):
		t.Fatal("nothing delivered")
	}
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		ds, err := sandboxclient.New(e.c).Deliveries(ctx, ev.ID, ep.ID)
		if err != nil {
			t.Fatal(err)
		}
		if len(ds.Data) == 1 {
			if d := ds.Data[0]; d.Status != 200 || d.Error != "" || d.Attempt != 1 {
				t.Errorf("delivery = %+v", d)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("deliveries = %+v", ds.Data)
		}
	}
}
