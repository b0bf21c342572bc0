package sandbox

import (
	"fmt"
	"slices"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/apierr"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/bytesize"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/delivery"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/jsonw"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/listing"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/metrics"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/storage"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// The sandbox's side of webhook delivery: package delivery runs the
// deliveries, and reaches the accounts and the store only through the
// delivery.Account that *account implements and the delivery.Host that
// deliveryHost implements.

// WebhookOptions configure webhook delivery (see package delivery). The
// zero value is the payments-sandbox program's defaults.
type WebhookOptions = delivery.Options

// Delivery defaults of the sandbox program.
const (
	DefaultWebhookAttempts    = delivery.DefaultAttempts
	DefaultWebhookRetryBase   = delivery.DefaultRetryBase
	DefaultWebhookConcurrency = delivery.DefaultConcurrency
)

var (
	_ delivery.Account = (*account)(nil)
	_ delivery.Host    = deliveryHost{}
)

// Book is the account's pending deliveries and delivery log.
func (a *account) Book() *delivery.Book { return &a.wh.book }

// Target is what an attempt of event to endpoint sends, read under the
// account's read lock.
func (a *account) Target(event, endpoint string) (delivery.Target, bool) {
	evR, ok1 := parseRID(event, wire.EventIDPrefix)
	epR, ok2 := parseRID(endpoint, wire.WebhookEndpointIDPrefix)
	a.mu.RLock()
	defer a.mu.RUnlock()
	ep, ev := a.wh.endpoints[epR], a.wh.event(evR)
	if !ok1 || !ok2 || ep == nil || ev == nil || ep.Disabled {
		return delivery.Target{}, false
	}
	return delivery.Target{URL: ep.URL, Secret: ep.Secret, Body: ev.JSONFor(ep.APIVersion)}, true
}

// deliveryHost is the sandbox as the delivery engine sees it.
type deliveryHost struct{ s *Server }

func (h deliveryHost) Stored() bool { return h.s.durable }

func (h deliveryHost) Keyed() bool { return h.s.keys.Load() != nil }

func (h deliveryHost) Commit(da delivery.Account, w []delivery.Write) bool {
	a, ok := da.(*account)
	if !ok {
		return false
	}
	return h.s.commitBackground(a, writeOps(w))
}

func (h deliveryHost) Delivered(status int, errText string) { h.s.metrics.Delivered(status, errText) }

// writeOps turns the engine's writes into store ops.
func writeOps(w []delivery.Write) []storage.Op {
	ops := make([]storage.Op, 0, len(w))
	for _, x := range w {
		if x.Value == nil {
			ops = append(ops, storage.Delete(x.Bucket, x.Key))
		} else {
			ops = append(ops, storage.Put(x.Bucket, x.Key, x.Value))
		}
	}
	return ops
}

// addDelivery schedules the first attempt of an event to an endpoint,
// unless the account or the sandbox is at its byte limit: then the
// delivery log says it was not queued, and why.
func (c *call) addDelivery(ev, ep rid) {
	evID, epID := ev.Format(wire.EventIDPrefix), ep.Format(wire.WebhookEndpointIDPrefix)
	if why := c.deliveryRefusal(); why != "" {
		c.s.hooks.Refuse(c.a, evID, epID, why)
		return
	}
	w, undo := c.s.hooks.Add(c.a, evID, epID)
	c.addWrites(w)
	c.undoBook(undo)
}

// deliveryRefusal is why a new delivery is not queued: the account, or
// the sandbox, keeps as many bytes as its limit allows, pending
// deliveries included; "" when there is room.
func (c *call) deliveryRefusal() string {
	lim := &c.s.limits
	switch {
	case lim.MaxAccountBytes > 0 && c.a.kept() >= lim.MaxAccountBytes:
		c.s.metrics.Refused(metrics.LimitAccountBytes)
		return fmt.Sprintf("not queued: this account keeps %s, pending deliveries included, the most this sandbox allows one account "+
			"(-max-account-bytes %s); deliveries are queued again once pending ones are delivered or given up, or after POST %s",
			bytesize.Format(c.a.kept()), bytesize.Format(lim.MaxAccountBytes), wire.PathSandboxReset)
	case lim.MaxTotalBytes > 0 && c.s.total.Load() >= lim.MaxTotalBytes:
		c.s.metrics.Refused(metrics.LimitTotalBytes)
		return fmt.Sprintf("not queued: this sandbox keeps %s over all its accounts, pending deliveries included, the most it allows "+
			"(-max-total-bytes %s); deliveries are queued again once there is room", bytesize.Format(c.s.total.Load()), bytesize.Format(lim.MaxTotalBytes))
	}
	return ""
}

// cancelEndpoint stops the deliveries to an endpoint being deleted; the
// attempts recorded but not yet flushed are written by the request first.
func (c *call) cancelEndpoint(ep rid) {
	w, undo := c.s.hooks.CancelEndpoint(c.a, ep.Format(wire.WebhookEndpointIDPrefix))
	c.addWrites(w)
	c.undoBook(undo)
}

func (c *call) addWrites(w []delivery.Write) {
	for _, o := range writeOps(w) {
		c.addOp(o)
	}
}

// undoBook records how to take back a change to the delivery book, should
// the request's write fail (see account.restore).
func (c *call) undoBook(f delivery.Undo) { c.undo = append(c.undo, f) }

// commitBackground writes changes made outside a request (delivery
// records, an idle account's removal), and reports whether they were
// written; on failure the caller keeps them to try again.
func (s *Server) commitBackground(a *account, ops []storage.Op) bool {
	if len(ops) == 0 {
		return true
	}
	if err := s.store.Commit(a.hash, ops); err != nil {
		if !s.backgroundFailing.Swap(true) {
			s.log.Error("writing the data file failed; delivery records are kept in memory and written once it takes writes again", "error", err)
		}
		return false
	}
	if s.backgroundFailing.Swap(false) {
		s.log.Info("the data file takes writes again")
	}
	return true
}

func (c *call) listDeliveries() response {
	if e := c.f.Check(wire.ParamEvent, wire.ParamEndpoint); e != nil {
		return errResponse(e)
	}
	evID, _ := c.f.Get(wire.ParamEvent)
	epID, _ := c.f.Get(wire.ParamEndpoint)
	if evID != "" {
		if _, ok := parseRID(evID, wire.EventIDPrefix); !ok {
			return errResponse(apierr.Invalid(wire.ParamEvent, "event %q is not an event id (%s…).", apierr.Clip(evID), wire.EventIDPrefix))
		}
	}
	if epID != "" {
		if _, ok := parseRID(epID, wire.WebhookEndpointIDPrefix); !ok {
			return errResponse(apierr.Invalid(wire.ParamEndpoint, "endpoint %q is not a webhook endpoint id (%s…).", apierr.Clip(epID), wire.WebhookEndpointIDPrefix))
		}
	}
	var page []*delivery.Attempt // newest first
	for _, at := range slices.Backward(c.a.wh.book.Log()) {
		if (evID == "" || at.Event == evID) && (epID == "" || at.Endpoint == epID) {
			page = append(page, at)
		}
	}
	return answerList(wire.PathSandboxDeliveries, false, len(page), func(b []byte, i int) []byte {
		at := page[i]
		b = append(b, `{"event":`...)
		b = appendString(b, at.Event)
		b = append(b, `,"endpoint":`...)
		b = appendString(b, at.Endpoint)
		b = append(b, `,"attempt":`...)
		b = appendInt(b, int64(at.N))
		b = append(b, `,"status":`...)
		b = appendInt(b, int64(at.Status))
		b = append(b, `,"error":`...)
		b = appendOptString(b, at.Err)
		b = append(b, `,"at":`...)
		b = appendTime(b, at.At)
		b = append(b, `,"duration_ms":`...)
		b = jsonw.Millis(b, at.Duration)
		b = append(b, `,"next_retry_at":`...)
		if at.RetryMS == 0 {
			b = append(b, "null"...)
		} else {
			b = appendTime(b, at.RetryMS/1000)
		}
		return append(b, '}')
	}, listing.NoLock)
}
