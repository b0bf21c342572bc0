package sandbox

import (
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/apierr"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/model"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// resendEvent is POST /_sandbox/events/{id}/resend: a new delivery of an
// event, to the endpoint named by endpoint (even one not subscribed to the
// event's type, as long as it is enabled), or else to every enabled
// endpoint subscribed to it. A resend is a new delivery: its attempts
// count from 1 and are retried like the first ones, and it replaces a
// delivery of the same event to the same endpoint still being retried.
func (c *call) resendEvent() response {
	if e := c.f.Check(wire.ParamEndpoint); e != nil {
		return errResponse(e)
	}
	wh := &c.a.wh
	id := c.r.PathValue("id")
	r, valid := parseRID(id, wire.EventIDPrefix)
	ev := wh.event(r)
	if !valid || ev == nil || c.expired(ev) {
		return errResponse(apierr.NotFound("event", id))
	}
	var targets []*model.WebhookEndpoint
	if epID, _ := c.f.Get(wire.ParamEndpoint); epID != "" {
		er, valid := parseRID(epID, wire.WebhookEndpointIDPrefix)
		ep := wh.endpoints[er]
		switch {
		case !valid || ep == nil:
			return errResponse(apierr.MissingRef(wire.ParamEndpoint, "No such webhook endpoint: '%s'; list them with GET %s.", apierr.Clip(epID), wire.PathWebhookEndpoints))
		case ep.Disabled:
			return errResponse(apierr.Invalid(wire.ParamEndpoint, "Webhook endpoint %s is disabled, and nothing is sent to a disabled endpoint; enable it (disabled=false) or name another.", epID))
		}
		targets = append(targets, ep)
	} else {
		for _, ep := range wh.endpointOrder {
			if ep.Wants(ev.Type) {
				targets = append(targets, ep)
			}
		}
		if len(targets) == 0 {
			return errResponse(apierr.MissingParam(wire.ParamEndpoint, "No enabled webhook endpoint of the account subscribes to %s events; name one with endpoint=%s….", ev.Type, wire.WebhookEndpointIDPrefix))
		}
	}
	b := make([]byte, 0, 96+40*len(targets))
	b = append(b, `{"object":"event_resend","event":`...)
	b = appendID(b, wire.EventIDPrefix, ev.ID)
	b = append(b, `,"endpoints":[`...)
	for i, ep := range targets {
		c.addDelivery(ev.ID, ep.ID)
		if i > 0 {
			b = append(b, ',')
		}
		b = appendID(b, wire.WebhookEndpointIDPrefix, ep.ID)
	}
	return ok(append(b, "]}"...))
}
