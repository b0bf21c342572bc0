package sandbox

import (
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/storage"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// The store records of webhook endpoints, events, pending deliveries and
// the delivery log, each in its own bucket of the account. Secrets are
// stored: the sandbox must sign with them after a restart.

const (
	bucketWebhookEndpoints = "webhook_endpoints"
	bucketEvents           = "events"
	bucketDeliveries       = "deliveries"
	bucketDeliveryLog      = "delivery_log"
)

// webhookBuckets are read into storedAccount.webhooks (storedFrom).
var webhookBuckets = []string{bucketWebhookEndpoints, bucketEvents, bucketDeliveries, bucketDeliveryLog}

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
	deliveryRecord struct {
		Event    string `json:"event"`
		Endpoint string `json:"endpoint"`
		Attempts int    `json:"attempts"`
		DueMS    int64  `json:"due_ms"`
	}
	deliveryAttemptRecord struct {
		Seq      uint64 `json:"seq"`
		Event    string `json:"event"`
		Endpoint string `json:"endpoint"`
		Attempt  int    `json:"attempt"`
		Status   int    `json:"status"`
		Error    string `json:"error,omitempty"`
		At       int64  `json:"at"`
		// DurationUS and RetryMS were added later; 0 in older files.
		DurationUS int64 `json:"duration_us,omitempty"`
		RetryMS    int64 `json:"retry_ms,omitempty"`
	}
)

func (c *call) putWebhookEndpoint(ep *webhookEndpoint) {
	c.a.recount(&ep.counted, ep.memBytes())
	if c.s.store == nil {
		return
	}
	rec := webhookEndpointRecord{
		ID: ep.id.format(wire.WebhookEndpointIDPrefix), Seq: ep.seq, Created: ep.created, URL: ep.url,
		Events: ep.events, Description: ep.description, Disabled: ep.disabled, Meta: metaRecord(ep.meta), Secret: ep.secret,
	}
	c.addOp(storage.Put(bucketWebhookEndpoints, rec.ID, c.marshal(rec)))
}

func (c *call) deleteWebhookEndpointRecord(id rid) {
	c.addOp(storage.Delete(bucketWebhookEndpoints, id.format(wire.WebhookEndpointIDPrefix)))
}

func (c *call) putEvent(ev *event) {
	if c.s.store == nil {
		return
	}
	rec := eventRecord{ID: ev.id.format(wire.EventIDPrefix), Seq: ev.seq, Type: ev.typ, Created: ev.created, Body: ev.body}
	c.addOp(storage.Put(bucketEvents, rec.ID, c.marshal(rec)))
}

func (c *call) deleteEventRecord(id rid) {
	c.addOp(storage.Delete(bucketEvents, id.format(wire.EventIDPrefix)))
}

func (c *call) putDelivery(d *delivery) {
	if c.s.store == nil {
		return
	}
	rec := deliveryRecord{
		Event: d.event.format(wire.EventIDPrefix), Endpoint: d.endpoint.format(wire.WebhookEndpointIDPrefix),
		Attempts: d.attempts, DueMS: d.due.UnixMilli(),
	}
	c.addOp(storage.Put(bucketDeliveries, d.key, c.marshal(rec)))
}

func (c *call) deleteDeliveryRecord(key string) {
	c.addOp(storage.Delete(bucketDeliveries, key))
}

// attemptKey orders the log's keys as the attempts were made.
func attemptKey(seq uint64) string { return fmt.Sprintf("%016x", seq) }

func (c *call) putDeliveryAttempt(at *deliveryAttempt) {
	if c.s.store == nil {
		return
	}
	rec := deliveryAttemptRecord{
		Seq: at.seq, Event: at.event.format(wire.EventIDPrefix), Endpoint: at.endpoint.format(wire.WebhookEndpointIDPrefix),
		Attempt: at.attempt, Status: at.status, Error: at.err, At: at.at,
		DurationUS: at.duration.Microseconds(), RetryMS: at.retryMS,
	}
	c.addOp(storage.Put(bucketDeliveryLog, attemptKey(at.seq), c.marshal(rec)))
}

func (c *call) deleteDeliveryAttemptRecord(seq uint64) {
	c.addOp(storage.Delete(bucketDeliveryLog, attemptKey(seq)))
}

// loadWebhooks rebuilds an account's webhook state from its records.
func (a *account) loadWebhooks(recs map[string][][]byte) error {
	if len(recs) == 0 {
		return nil
	}
	wh := &a.wh
	wh.ensure()
	// Loading runs before the server serves: nothing else holds the lock.
	bk := &wh.book
	bk.mu.Lock()
	defer bk.mu.Unlock()
	bk.ensure()
	bad := func(kind string, err error) error {
		return fmt.Errorf("reading a %s record from the data file: %w", kind, err)
	}
	for _, raw := range recs[bucketWebhookEndpoints] {
		var rec webhookEndpointRecord
		if err := json.Unmarshal(raw, &rec); err != nil {
			return bad("webhook endpoint", err)
		}
		id, ok := parseRID(rec.ID, wire.WebhookEndpointIDPrefix)
		if !ok {
			return fmt.Errorf("data file: webhook endpoint id %q is malformed", rec.ID)
		}
		ep := &webhookEndpoint{
			id: id, seq: rec.Seq, created: rec.Created, url: rec.URL, events: rec.Events,
			description: rec.Description, disabled: rec.Disabled, meta: metaFromRecord(rec.Meta), secret: rec.Secret,
		}
		wh.endpoints[id] = ep
		wh.endpointOrder = append(wh.endpointOrder, ep)
		wh.seq = max(wh.seq, ep.seq)
	}
	for _, raw := range recs[bucketEvents] {
		var rec eventRecord
		if err := json.Unmarshal(raw, &rec); err != nil {
			return bad("event", err)
		}
		id, ok := parseRID(rec.ID, wire.EventIDPrefix)
		if !ok {
			return fmt.Errorf("data file: event id %q is malformed", rec.ID)
		}
		ev := &event{id: id, seq: rec.Seq, typ: rec.Type, created: rec.Created, body: rec.Body}
		wh.events[id] = ev
		wh.eventOrder = append(wh.eventOrder, ev)
		wh.seq = max(wh.seq, ev.seq)
	}
	for _, raw := range recs[bucketDeliveries] {
		var rec deliveryRecord
		if err := json.Unmarshal(raw, &rec); err != nil {
			return bad("delivery", err)
		}
		ev, ok1 := parseRID(rec.Event, wire.EventIDPrefix)
		ep, ok2 := parseRID(rec.Endpoint, wire.WebhookEndpointIDPrefix)
		if !ok1 || !ok2 {
			return fmt.Errorf("data file: delivery of %q to %q is malformed", rec.Event, rec.Endpoint)
		}
		d := &delivery{a: a, key: deliveryKey(ev, ep), event: ev, endpoint: ep, attempts: rec.Attempts, due: time.UnixMilli(rec.DueMS)}
		bk.pending[d.key] = d
	}
	for _, raw := range recs[bucketDeliveryLog] {
		var rec deliveryAttemptRecord
		if err := json.Unmarshal(raw, &rec); err != nil {
			return bad("delivery attempt", err)
		}
		ev, ok1 := parseRID(rec.Event, wire.EventIDPrefix)
		ep, ok2 := parseRID(rec.Endpoint, wire.WebhookEndpointIDPrefix)
		if !ok1 || !ok2 {
			return fmt.Errorf("data file: delivery attempt %s is malformed", strconv.FormatUint(rec.Seq, 10))
		}
		bk.attempts = append(bk.attempts, &deliveryAttempt{
			seq: rec.Seq, event: ev, endpoint: ep, attempt: rec.Attempt, status: rec.Status, err: rec.Error, at: rec.At,
			duration: time.Duration(rec.DurationUS) * time.Microsecond, retryMS: rec.RetryMS,
		})
		bk.seq = max(bk.seq, rec.Seq)
	}
	slices.SortFunc(wh.endpointOrder, func(x, y *webhookEndpoint) int { return cmp.Compare(x.seq, y.seq) })
	slices.SortFunc(wh.eventOrder, func(x, y *event) int { return cmp.Compare(x.seq, y.seq) })
	slices.SortFunc(bk.attempts, func(x, y *deliveryAttempt) int { return cmp.Compare(x.seq, y.seq) })
	return nil
}
