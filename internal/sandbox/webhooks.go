package sandbox

import (
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/apierr"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/delivery"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/form"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/ids"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/listing"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/metrics"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/model"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// The webhook endpoints (api/openapi.yaml, tag webhook_endpoints). An
// endpoint's secret signs every delivery to it; the answers of create and
// roll_secret are the only ones that show it.

// webhookState is an account's endpoints, events and deliveries, guarded
// by the account's mu. Its maps are made on first write, so that an
// account that never uses webhooks costs nothing.
type webhookState struct {
	endpoints     map[rid]*model.WebhookEndpoint
	endpointOrder []*model.WebhookEndpoint // by seq, oldest first
	events        eventIndex
	eventOrder    []*model.Event // by seq, oldest first
	// eventBytes is what the events are charged, together: the most
	// forgetting them all can free (bounds.go, roomFor).
	eventBytes int64
	// indexMu orders the readers that file events (webhookState.event).
	indexMu sync.Mutex
	// slab and objs hold the events and their objects (events.go).
	slab []model.Event
	objs eventObjects
	// book is the pending deliveries and the delivery log, under a lock
	// of their own (see package delivery).
	book delivery.Book
	// seq orders endpoints and events; it only grows.
	seq uint64
}

func (w *webhookState) ensure() {
	if w.endpoints == nil {
		w.endpoints = make(map[rid]*model.WebhookEndpoint)
	}
}

// clear forgets everything but the sequences (POST /_sandbox/reset).
// Deliveries already scheduled find themselves gone from pending and stop.
func (w *webhookState) clear(c *call) {
	w.endpoints, w.endpointOrder = nil, nil
	w.events, w.eventOrder, w.slab, w.objs, w.eventBytes = eventIndex{}, nil, nil, eventObjects{}, 0
	c.undoBook(c.s.hooks.Reset(c.a))
}

func newWebhookSecret() string {
	b := make([]byte, len(wire.WebhookSecretPrefix)+wire.WebhookSecretRandomLength)
	copy(b, wire.WebhookSecretPrefix)
	ids.FillAlnum(b[len(wire.WebhookSecretPrefix):])
	return string(b)
}

// checkWebhookURL validates an endpoint's url.
func (c *call) checkWebhookURL(v string) *apierr.Error {
	host, port, r := model.ParseWebhookURL(v)
	if r != nil {
		return refused(r)
	}
	why, known := c.s.hooks.CheckURLHost(host, port)
	if why != nil || !known {
		c.s.metrics.Refused(metrics.LimitWebhookTarget)
	}
	if why != nil {
		return apierr.Invalid(wire.ParamURL, "url %q: %v.", apierr.Clip(v), why)
	}
	if !known {
		return apierr.Invalid(wire.ParamURL, "url %q names host %s, which this sandbox does not call: it delivers only to loopback "+
			"addresses (localhost, 127.0.0.1, ::1) unless started with -webhook-allow naming the host or its network.",
			apierr.Clip(v), apierr.Clip(host))
	}
	return nil
}

// enabledEvents reads and validates enabled_events[].
func (c *call) enabledEvents() ([]string, bool, *apierr.Error) {
	vals, found, e := c.f.All(wire.ParamEnabledEventsItem)
	if !found || e != nil {
		return nil, found, e
	}
	out, r := model.EnabledEvents(vals)
	return out, true, refused(r)
}

// setWebhookFields applies the optional fields of a create or update.
func (c *call) setWebhookFields(ep *model.WebhookEndpoint) *apierr.Error {
	if v, ok := c.f.Get(wire.ParamURL); ok {
		if e := c.checkWebhookURL(v); e != nil {
			return e
		}
		ep.URL = strings.Clone(v)
	}
	events, found, e := c.enabledEvents()
	if e != nil {
		return e
	}
	if found {
		ep.Events = events
	}
	if v, ok := c.f.Get(wire.ParamDescription); ok {
		if n := utf8.RuneCountInString(v); n > wire.WebhookDescriptionMaxLength {
			return apierr.Invalid(wire.ParamDescription, "description is %d characters long; use at most %d.", n, wire.WebhookDescriptionMaxLength)
		}
		if e := form.RefuseBidi(wire.ParamDescription, "description", v); e != nil {
			return e
		}
		ep.Description = strings.Clone(v)
	}
	if v, ok := c.f.Get(wire.ParamDisabled); ok {
		switch v {
		case "true":
			ep.Disabled = true
		case "false", "":
			ep.Disabled = false
		default:
			return apierr.Invalid(wire.ParamDisabled, "disabled %q is not valid; use true or false.", apierr.Clip(v))
		}
	}
	meta, e := form.ApplyMetadata(ep.Meta, c.f)
	if e != nil {
		return e
	}
	ep.Meta = meta
	return nil
}

var webhookEndpointParams = []string{
	wire.ParamURL, wire.ParamEnabledEventsItem, wire.ParamDescription, wire.ParamDisabled, wire.ParamMetadata, form.MetadataKeys,
}

func (c *call) createWebhookEndpoint() response {
	if e := c.f.Check(append(webhookEndpointParams, wire.ParamAPIVersion)...); e != nil {
		return errResponse(e)
	}
	ep := &model.WebhookEndpoint{Created: c.unix, APIVersion: wire.APIVersion}
	if v, _ := c.f.Get(wire.ParamAPIVersion); v != "" && v != wire.APIVersion {
		if e := refused(model.CheckAPIVersion(v)); e != nil {
			return errResponse(e)
		}
		ep.APIVersion = strings.Clone(v)
	}
	if v, _ := c.f.Get(wire.ParamURL); v == "" {
		return errResponse(c.checkWebhookURL(""))
	}
	if _, found, _ := c.f.All(wire.ParamEnabledEventsItem); !found {
		return errResponse(apierr.MissingParam(wire.ParamEnabledEvents, "enabled_events is required: send one or more event types as enabled_events[]=payment.approved, or %s for every type.", wire.EventTypeAll))
	}
	if e := c.setWebhookFields(ep); e != nil {
		return errResponse(e)
	}
	wh := &c.a.wh
	if len(wh.endpoints) >= wire.MaxWebhookEndpoints {
		return errResponse(apierr.Invalid(wire.ParamURL, "This account already has %d webhook endpoints, the most it may have; delete one first, or subscribe an existing endpoint to more events.",
			wire.MaxWebhookEndpoints))

	}
	wh.ensure()
	ep.ID = newRID()
	for wh.endpoints[ep.ID] != nil {
		ep.ID = newRID()
	}
	ep.Secret = newWebhookSecret()
	wh.seq++
	ep.Seq = wh.seq
	wh.endpoints[ep.ID] = ep
	wh.endpointOrder = append(wh.endpointOrder, ep)
	c.putWebhookEndpoint(ep)
	return ok(model.WebhookEndpointJSON(nil, ep, true))
}

// pathWebhookEndpoint is the endpoint named by the path's {id}, or a 404.
func (c *call) pathWebhookEndpoint() (*model.WebhookEndpoint, *apierr.Error) {
	id := c.r.PathValue("id")
	if r, ok := parseRID(id, wire.WebhookEndpointIDPrefix); ok {
		if ep := c.a.wh.endpoints[r]; ep != nil {
			return ep, nil
		}
	}
	return nil, apierr.NotFound("webhook endpoint", id)
}

func (c *call) retrieveWebhookEndpoint() response {
	if e := c.f.Check(); e != nil {
		return errResponse(e)
	}
	ep, e := c.pathWebhookEndpoint()
	if e != nil {
		return errResponse(e)
	}
	return ok(model.WebhookEndpointJSON(nil, ep, false))
}

func (c *call) updateWebhookEndpoint() response {
	if e := c.f.Check(webhookEndpointParams...); e != nil {
		return errResponse(e)
	}
	ep, e := c.pathWebhookEndpoint()
	if e != nil {
		return errResponse(e)
	}
	// On a copy, so that a rejected update changes nothing.
	next := *ep
	if e := c.setWebhookFields(&next); e != nil {
		return errResponse(e)
	}
	*ep = next
	c.putWebhookEndpoint(ep)
	return ok(model.WebhookEndpointJSON(nil, ep, false))
}

func (c *call) deleteWebhookEndpoint() response {
	if e := c.f.Check(); e != nil {
		return errResponse(e)
	}
	ep, e := c.pathWebhookEndpoint()
	if e != nil {
		return errResponse(e)
	}
	wh := &c.a.wh
	delete(wh.endpoints, ep.ID)
	wh.endpointOrder = slices.DeleteFunc(wh.endpointOrder, func(x *model.WebhookEndpoint) bool { return x == ep })
	// Its deliveries stop: a scheduled attempt finds itself gone.
	c.cancelEndpoint(ep.ID)
	c.a.charge(-ep.Counted)
	c.deleteWebhookEndpointRecord(ep)
	return ok(deletedJSON(wire.WebhookEndpointIDPrefix, ep.ID, "webhook_endpoint"))
}

func (c *call) rollWebhookEndpointSecret() response {
	if e := c.f.Check(); e != nil {
		return errResponse(e)
	}
	ep, e := c.pathWebhookEndpoint()
	if e != nil {
		return errResponse(e)
	}
	// Deliveries read the secret when they are sent: from now on, only
	// the new one signs, retries of older events included.
	ep.Secret = newWebhookSecret()
	c.putWebhookEndpoint(ep)
	return ok(model.WebhookEndpointJSON(nil, ep, true))
}

func (c *call) listWebhookEndpoints() response {
	if e := listing.Check(c.f); e != nil {
		return errResponse(e)
	}
	l := listing.List[*model.WebhookEndpoint]{
		URL: wire.PathWebhookEndpoints, Noun: "webhook endpoint",
		Seq: func(ep *model.WebhookEndpoint) uint64 { return ep.Seq },
		Find: func(id string) (*model.WebhookEndpoint, bool) {
			r, ok := parseRID(id, wire.WebhookEndpointIDPrefix)
			ep := c.a.wh.endpoints[r]
			return ep, ok && ep != nil
		},
		Every: func() []*model.WebhookEndpoint { return c.a.wh.endpointOrder },
		Write: func(b []byte, ep *model.WebhookEndpoint) []byte { return model.WebhookEndpointJSON(b, ep, false) },
	}
	return serveList(c, &l, c.a.wh.endpointOrder, nil)
}
