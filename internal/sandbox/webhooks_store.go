package sandbox

import (
	"cmp"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/delivery"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/storage"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// The store records of webhook endpoints, events, pending deliveries and
// the delivery log, each in its own bucket of the account. Secrets are
// stored: the sandbox must sign with them after a restart.

const (
	BucketWebhookEndpoints = "webhook_endpoints"
	BucketEvents           = "events"
)

// webhookBuckets are read by the store's load into storedAccount.webhooks;
// the delivery engine's records are in the last two.
var webhookBuckets = []string{BucketWebhookEndpoints, BucketEvents, delivery.BucketPending, delivery.BucketLog}

type (
	WebhookEndpointRecord struct {
		ID          string      `json:"id"`
		Seq         uint64      `json:"seq"`
		Created     int64       `json:"created"`
		URL         string      `json:"url"`
		Events      []string    `json:"events"`
		Description string      `json:"description,omitempty"`
		Disabled    bool        `json:"disabled,omitempty"`
		Meta        [][2]string `json:"meta,omitempty"`
		Secret      string      `json:"secret"`
	}
	EventRecord struct {
		ID      string `json:"id"`
		Seq     uint64 `json:"seq"`
		Type    string `json:"type"`
		Created int64  `json:"created"`
		Body    []byte `json:"body"` // exactly as sent and signed
	}
)

func (c *call) putWebhookEndpoint(ep *WebhookEndpoint) {
	c.a.recount(&ep.Counted, ep.MemBytes())
	c.addOp(storage.PutRecord(BucketWebhookEndpoints, ep))
}

func (ep *WebhookEndpoint) RecordKey() string { return ep.ID.Format(wire.WebhookEndpointIDPrefix) }

func (ep *WebhookEndpoint) RecordValue() []byte {
	return Marshal(WebhookEndpointRecord{
		ID: ep.ID.Format(wire.WebhookEndpointIDPrefix), Seq: ep.Seq, Created: ep.Created, URL: ep.URL,
		Events: ep.Events, Description: ep.Description, Disabled: ep.Disabled, Meta: MetaRecord(ep.Meta), Secret: ep.Secret,
	})
}

func (c *call) deleteWebhookEndpointRecord(ep *WebhookEndpoint) {
	c.addOp(storage.DeleteRecord(BucketWebhookEndpoints, ep))
}

func (c *call) putEvent(ev *Event) { c.addOp(storage.PutRecord(BucketEvents, ev)) }

func (ev *Event) RecordKey() string { return ev.ID.Format(wire.EventIDPrefix) }

func (ev *Event) RecordValue() []byte {
	return Marshal(EventRecord{ID: ev.ID.Format(wire.EventIDPrefix), Seq: ev.Seq, Type: ev.Type, Created: ev.Created, Body: ev.JSON()})
}

// deleteEventRecord names the event, not its id's text: without a data
// file nothing formats it, and each new event at the count bound prunes
// one.
func (c *call) deleteEventRecord(ev *Event) { c.addOp(storage.DeleteRecord(BucketEvents, ev)) }

// loadWebhooks rebuilds an account's webhook state from its records.
func (a *account) loadWebhooks(recs map[string][][]byte) error {
	if len(recs) == 0 {
		return nil
	}
	wh := &a.wh
	wh.ensure()
	for _, raw := range recs[BucketWebhookEndpoints] {
		ep, err := EndpointFromRecord(raw)
		if err != nil {
			return err
		}
		wh.endpoints[ep.ID] = ep
		wh.endpointOrder = append(wh.endpointOrder, ep)
		wh.seq = max(wh.seq, ep.Seq)
	}
	for _, raw := range recs[BucketEvents] {
		ev, err := EventFromRecord(raw)
		if err != nil {
			return err
		}
		wh.events[ev.ID] = ev
		wh.eventOrder = append(wh.eventOrder, ev)
		wh.seq = max(wh.seq, ev.Seq)
	}
	valid := func(ev, ep string) bool {
		_, ok1 := parseRID(ev, wire.EventIDPrefix)
		_, ok2 := parseRID(ep, wire.WebhookEndpointIDPrefix)
		return ok1 && ok2
	}
	if err := delivery.Load(a, recs, valid); err != nil {
		return err
	}
	slices.SortFunc(wh.endpointOrder, func(x, y *WebhookEndpoint) int { return cmp.Compare(x.Seq, y.Seq) })
	slices.SortFunc(wh.eventOrder, func(x, y *Event) int { return cmp.Compare(x.Seq, y.Seq) })
	return nil
}

// endpointFromRecord decodes a webhook endpoint's record.
func EndpointFromRecord(raw []byte) (*WebhookEndpoint, error) {
	var rec WebhookEndpointRecord
	if err := json.Unmarshal(raw, &rec); err != nil {
		return nil, fmt.Errorf("reading a webhook endpoint record from the data file: %w", err)
	}
	id, ok := parseRID(rec.ID, wire.WebhookEndpointIDPrefix)
	if !ok {
		return nil, fmt.Errorf("data file: webhook endpoint id %q is malformed", rec.ID)
	}
	return &WebhookEndpoint{
		ID: id, Seq: rec.Seq, Created: rec.Created, URL: rec.URL, Events: rec.Events,
		Description: rec.Description, Disabled: rec.Disabled, Meta: MetaFromRecord(rec.Meta), Secret: rec.Secret,
	}, nil
}

// eventFromRecord decodes an event's record.
func EventFromRecord(raw []byte) (*Event, error) {
	var rec EventRecord
	if err := json.Unmarshal(raw, &rec); err != nil {
		return nil, fmt.Errorf("reading an event record from the data file: %w", err)
	}
	id, ok := parseRID(rec.ID, wire.EventIDPrefix)
	if !ok {
		return nil, fmt.Errorf("data file: event id %q is malformed", rec.ID)
	}
	return &Event{ID: id, Seq: rec.Seq, Type: rec.Type, Created: rec.Created, Body: rec.Body}, nil
}
