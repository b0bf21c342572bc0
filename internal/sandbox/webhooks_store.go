package sandbox

import (
	"cmp"
	"slices"
	"time"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/delivery"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/model"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/storage"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// The store records of webhook endpoints, events, pending deliveries and
// the delivery log, each in its own bucket of the account. Secrets are
// stored: the sandbox must sign with them after a restart.

// webhookBuckets are read by the store's load into storedAccount.webhooks;
// the delivery engine's records are in the last three.
var webhookBuckets = []string{model.BucketWebhookEndpoints, model.BucketEvents, delivery.BucketPending, delivery.BucketLog, delivery.BucketDays}

func (c *call) putWebhookEndpoint(ep *model.WebhookEndpoint) {
	c.a.recount(&ep.Counted, ep.MemBytes())
	c.addOp(storage.PutRecord(model.BucketWebhookEndpoints, ep))
}

func (c *call) deleteWebhookEndpointRecord(ep *model.WebhookEndpoint) {
	c.addOp(storage.DeleteRecord(model.BucketWebhookEndpoints, ep))
}

func (c *call) putEvent(ev *model.Event) { c.addOp(storage.PutRecord(model.BucketEvents, ev)) }

// deleteEventRecord names the event, not its id's text: without a data
// file nothing formats it, and each new event at the count bound prunes
// one.
func (c *call) deleteEventRecord(ev *model.Event) {
	c.addOp(storage.DeleteRecord(model.BucketEvents, ev))
}

// loadWebhooks rebuilds an account's webhook state from its records.
// An event's retention counts from when it was recorded on the sandbox's
// clock; files written before that rule may hold a test clock's later
// time there, which would keep the event (and every event after it, as
// pruning stops at the first it keeps) until that time: such a time is
// read as now.
func (a *account) loadWebhooks(recs map[string][][]byte, now time.Time) error {
	if len(recs) == 0 {
		return nil
	}
	wh := &a.wh
	wh.ensure()
	for _, raw := range recs[model.BucketWebhookEndpoints] {
		ep, err := model.EndpointFromRecord(raw)
		if err != nil {
			return err
		}
		wh.endpoints[ep.ID] = ep
		wh.endpointOrder = append(wh.endpointOrder, ep)
		wh.seq = max(wh.seq, ep.Seq)
	}
	for _, raw := range recs[model.BucketEvents] {
		ev, err := model.EventFromRecord(raw)
		if err != nil {
			return err
		}
		ev.Created = min(ev.Created, now.Unix())
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
	slices.SortFunc(wh.endpointOrder, func(x, y *model.WebhookEndpoint) int { return cmp.Compare(x.Seq, y.Seq) })
	slices.SortFunc(wh.eventOrder, func(x, y *model.Event) int { return cmp.Compare(x.Seq, y.Seq) })
	return nil
}
