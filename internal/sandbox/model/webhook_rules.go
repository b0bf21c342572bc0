package model

import (
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// The rules of a webhook endpoint's fields: an absolute http or https URL
// the events can be posted to, and event types it subscribes to. Which
// hosts the sandbox calls is the delivery engine's policy, asked after.

// ParseWebhookURL reads an endpoint's url v: its host and the port it is
// called on, or the refusal of v.
func ParseWebhookURL(v string) (host string, port uint16, r *Refusal) {
	if v == "" {
		return "", 0, &Refusal{Param: wire.ParamURL, Code: wire.ErrorCodeParameterMissing,
			Message: "url is required: the absolute https or http URL the events are posted to, such as http://127.0.0.1:4242/webhooks."}
	}
	if len(v) > wire.WebhookURLMaxLength {
		return "", 0, invalid(wire.ParamURL, "url is %d bytes long; use at most %d.", len(v), wire.WebhookURLMaxLength)
	}
	u, err := url.Parse(v)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Hostname() == "" || u.Opaque != "" {
		return "", 0, invalid(wire.ParamURL, "url %q is not an absolute https or http URL; use one such as https://example.com/webhooks.", clip(v))
	}
	if u.Fragment != "" || strings.Contains(v, "#") {
		return "", 0, invalid(wire.ParamURL, "url %q has a fragment (#...), which is never sent to a server; remove it.", clip(v))
	}
	if port = urlPort(u); port == 0 {
		return "", 0, invalid(wire.ParamURL, "url %q has port %q; use a port from 1 to 65535, or none.", clip(v), clip(u.Port()))
	}
	return u.Hostname(), port, nil
}

// urlPort is the port a URL is called on; 0 when it is not a valid one.
func urlPort(u *url.URL) uint16 {
	ps := u.Port()
	if ps == "" {
		if u.Scheme == "https" {
			return 443
		}
		return 80
	}
	n, err := strconv.ParseUint(ps, 10, 16)
	if err != nil {
		return 0
	}
	return uint16(n)
}

// apiVersionRE is the form of an api_version (wire.APIVersionPattern).
var apiVersionRE = regexp.MustCompile(wire.APIVersionPattern)

// CheckAPIVersion refuses v, a webhook endpoint's api_version, unless it
// is written as wire.APIVersionPattern says, its date one of the
// calendar. The sandbox writes one shape of every object whatever the
// version: it is a label its receivers check, as stripe-go's
// ConstructEvent checks it against its own.
func CheckAPIVersion(v string) *Refusal {
	date, _, _ := strings.Cut(v, ".")
	if _, err := time.Parse(time.DateOnly, date); err != nil || !apiVersionRE.MatchString(v) {
		return invalid(wire.ParamAPIVersion, "api_version %q is not an API version; write a date and optionally a dot and a release name in lower-case letters, as in %s or 2025-03-31.basil. Stripe's libraries pin theirs (stripe-go: stripe.APIVersion).",
			clip(v), wire.APIVersion)
	}
	return nil
}

// EnabledEvents is the event types an endpoint subscribes to, from the
// values of enabled_events[]: each once, empty values skipped, at least
// one; wire.EventTypeAll stands for every type.
func EnabledEvents(vals []string) ([]string, *Refusal) {
	var out []string
	for _, v := range vals {
		if v == "" {
			continue
		}
		if v != wire.EventTypeAll && !wire.IsEventType(v) {
			return nil, invalid(wire.ParamEnabledEvents, "enabled_events has %q, which is not an event type; use %s, or %s for every type.",
				clip(v), strings.Join(wire.EventTypes, ", "), wire.EventTypeAll)
		}
		if !slices.Contains(out, v) {
			out = append(out, strings.Clone(v))
		}
	}
	if len(out) == 0 {
		return nil, invalid(wire.ParamEnabledEvents, "enabled_events is empty; send at least one event type as enabled_events[]=payment.approved, or %s for every type.", wire.EventTypeAll)
	}
	return out, nil
}
