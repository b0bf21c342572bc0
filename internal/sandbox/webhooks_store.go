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
	bucketWebhookEndpoints = "webhook_endpoints"
	bucketEvents           = "events"
)

// webhookBuckets are read by the store's load into storedAccount.webhooks;
// the delivery engine's records are in the last two.
var webhookBuckets = []string{bucketWebhookEndpoints, bucketEvents, delivery.BucketPending, delivery.BucketLog}

type (
	webhookEndpointRecord struct {
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
	eventRecord struct {
		ID      string `json:"id"`
		Seq     uint64 `json:"seq"`
		Type    string `json:"type"`
		Created int64  `json:"created"`
		Body    []byte `json:"body"` // exactly as sent and signed
	}
)

func (c *call) putWebhookEndpoint(ep *webhookEndpoint) {
	c.a.recount(&ep.counted, ep.memBytes())
	c.addOp(storage.PutRecord(bucketWebhookEndpoints, ep))
}

func (ep *webhookEndpoint) RecordKey() string { return ep.id.format(wire.WebhookEndpointIDPrefix) }

func (ep *webhookEndpoint) RecordValue() []byte {
	return marshal(webhookEndpointRecord{
		ID: ep.id.format(wire.WebhookEndpointIDPrefix), Seq: ep.seq, Created: ep.created, URL: ep.url,
		Events: ep.events, Description: ep.description, Disabled: ep.disabled, Meta: metaRecord(ep.meta), Secret: ep.secret,
	})
}

func (c *call) deleteWebhookEndpointRecord(ep *webhookEndpoint) {
	c.addOp(storage.DeleteRecord(bucketWebhookEndpoints, ep))
}

func (c *call) putEvent(ev *event) { c.addOp(storage.PutRecord(bucketEvents, ev)) }

func (ev *event) RecordKey() string { return ev.id.format(wire.EventIDPrefix) }

func (ev *event) RecordValue() []byte {
	return marshal(eventRecord{ID: ev.id.format(wire.EventIDPrefix), Seq: ev.seq, Type: ev.typ, Created: ev.created, Body: ev.body})
}

// deleteEventRecord names the event, not its id's text: without a data
// file nothing formats it, and each new event at the count bound prunes
// one.
func (c *call) deleteEventRecord(ev *event) { c.addOp(storage.DeleteRecord(bucketEvents, ev)) }

// loadWebhooks rebuilds an account's webhook state from its records.
func (a *account) loadWebhooks(recs map[string][][]byte) error {
	if len(recs) == 0 {
		return nil
	}
	wh := &a.wh
	wh.ensure()
	for _, raw := range recs[bucketWebhookEndpoints] {
		ep, err := endpointFromRecord(raw)
		if err != nil {
			return err
		}
		wh.endpoints[ep.id] = ep
		wh.endpointOrder = append(wh.endpointOrder, ep)
		wh.seq = max(wh.seq, ep.seq)
	}
	for _, raw := range recs[bucketEvents] {
		ev, err := eventFromRecord(raw)
		if err != nil {
			return err
		}
		wh.events[ev.id] = ev
		wh.eventOrder = append(wh.eventOrder, ev)
		wh.seq = max(wh.seq, ev.seq)
	}
	valid := func(ev, ep string) bool {
		_, ok1 := parseRID(ev, wire.EventIDPrefix)
		_, ok2 := parseRID(ep, wire.WebhookEndpointIDPrefix)
		return ok1 && ok2
	}
	if err := delivery.Load(a, recs, valid); err != nil {
		return err
	}
	slices.SortFunc(wh.endpointOrder, func(x, y *webhookEndpoint) int { return cmp.Compare(x.seq, y.seq) })
	slices.SortFunc(wh.eventOrder, func(x, y *event) int { return cmp.Compare(x.seq, y.seq) })
	return nil
}

// endpointFromRecord decodes a webhook endpoint's record.
func endpointFromRecord(raw []byte) (*webhookEndpoint, error) {
	var rec webhookEndpointRecord
	if err := json.Unmarshal(raw, &rec); err != nil {
		return nil, fmt.Errorf("reading a webhook endpoint record from the data file: %w", err)
	}
	id, ok := parseRID(rec.ID, wire.WebhookEndpointIDPrefix)
	if !ok {
		return nil, fmt.Errorf("data file: webhook endpoint id %q is malformed", rec.ID)
	}
	return &webhookEndpoint{
		id: id, seq: rec.Seq, created: rec.Created, url: rec.URL, events: rec.Events,
		description: rec.Description, disabled: rec.Disabled, meta: metaFromRecord(rec.Meta), secret: rec.Secret,
	}, nil
}

// eventFromRecord decodes an event's record.
func eventFromRecord(raw []byte) (*event, error) {
	var rec eventRecord
	if err := json.Unmarshal(raw, &rec); err != nil {
		return nil, fmt.Errorf("reading an event record from the data file: %w", err)
	}
	id, ok := parseRID(rec.ID, wire.EventIDPrefix)
	if !ok {
		return nil, fmt.Errorf("data file: event id %q is malformed", rec.ID)
	}
	return &event{id: id, seq: rec.Seq, typ: rec.Type, created: rec.Created, body: rec.Body}, nil
}
