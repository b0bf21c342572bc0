package client

import (
	"context"
	"net/http"
	"net/url"
	"strconv"

	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// The webhook objects are the wire's.
type (
	// WebhookEndpoint is a webhook endpoint. Secret is set only in the
	// answers of create and roll secret; the service never shows it again.
	WebhookEndpoint = wire.WebhookEndpoint
	// WebhookEndpointList is one page of webhook endpoints.
	WebhookEndpointList = wire.WebhookEndpointList
	// Event is a change of an object: Data.Object is the object right
	// after the change.
	Event = wire.Event
	// EventData holds an event's object, undecoded.
	EventData = wire.EventData
	// EventList is one page of events.
	EventList = wire.EventList
)

// WebhookEndpointParams are the fields of an endpoint create or update;
// nil fields are not sent. On update, a pointer to "" clears Description,
// a "" value in Metadata deletes that key, and ClearMetadata removes every
// key. EnabledEvents, when not nil, replaces the whole list. APIVersion
// is taken by create only.
type WebhookEndpointParams struct {
	URL           *string
	EnabledEvents []string
	Description   *string
	Disabled      *bool
	APIVersion    *string
	Metadata      map[string]string
	ClearMetadata bool
}

// ListParams page a list.
type ListParams struct {
	Limit         int
	StartingAfter string
	EndingBefore  string
}

// ListEventsParams filter and page the event list; Type "" lists every type.
type ListEventsParams struct {
	Type string
	ListParams
}

func (p *WebhookEndpointParams) form() url.Values {
	v := url.Values{}
	if p == nil {
		return v
	}
	setPtr(v, wire.ParamURL, p.URL)
	if p.EnabledEvents != nil {
		v[wire.ParamEnabledEventsItem] = append([]string(nil), p.EnabledEvents...)
	}
	setPtr(v, wire.ParamDescription, p.Description)
	if p.Disabled != nil {
		v.Set(wire.ParamDisabled, strconv.FormatBool(*p.Disabled))
	}
	setPtr(v, wire.ParamAPIVersion, p.APIVersion)
	setMetadata(v, p.Metadata, p.ClearMetadata)
	return v
}

func (p *ListParams) query(v url.Values) url.Values {
	if p == nil {
		return v
	}
	if p.Limit != 0 {
		v.Set(wire.ParamLimit, strconv.Itoa(p.Limit))
	}
	setNonEmpty(v, wire.ParamStartingAfter, p.StartingAfter)
	setNonEmpty(v, wire.ParamEndingBefore, p.EndingBefore)
	return v
}

// CreateWebhookEndpoint creates an endpoint; the answer holds its secret.
func (c *Client) CreateWebhookEndpoint(ctx context.Context, p *WebhookEndpointParams) (*WebhookEndpoint, error) {
	var out WebhookEndpoint
	return &out, c.call(ctx, http.MethodPost, wire.PathWebhookEndpoints, nil, p.form(), &out)
}

// GetWebhookEndpoint retrieves an endpoint, without its secret.
func (c *Client) GetWebhookEndpoint(ctx context.Context, id string) (*WebhookEndpoint, error) {
	var out WebhookEndpoint
	return &out, c.call(ctx, http.MethodGet, expand(wire.PathWebhookEndpoint, id), nil, nil, &out)
}

// UpdateWebhookEndpoint changes the fields p sets and leaves the others.
func (c *Client) UpdateWebhookEndpoint(ctx context.Context, id string, p *WebhookEndpointParams) (*WebhookEndpoint, error) {
	var out WebhookEndpoint
	return &out, c.call(ctx, http.MethodPost, expand(wire.PathWebhookEndpoint, id), nil, p.form(), &out)
}

// DeleteWebhookEndpoint deletes an endpoint; its pending deliveries stop.
func (c *Client) DeleteWebhookEndpoint(ctx context.Context, id string) (*Deleted, error) {
	var out Deleted
	return &out, c.call(ctx, http.MethodDelete, expand(wire.PathWebhookEndpoint, id), nil, nil, &out)
}

// RollWebhookEndpointSecret replaces an endpoint's secret; the answer holds
// the new one, which alone signs from then on.
func (c *Client) RollWebhookEndpointSecret(ctx context.Context, id string) (*WebhookEndpoint, error) {
	var out WebhookEndpoint
	return &out, c.call(ctx, http.MethodPost, expand(wire.PathWebhookEndpointRollSecret, id), nil, url.Values{}, &out)
}

// ListWebhookEndpoints lists endpoints, newest first.
func (c *Client) ListWebhookEndpoints(ctx context.Context, p *ListParams) (*WebhookEndpointList, error) {
	return listPage(ctx, c, wire.PathWebhookEndpoints, p.query(url.Values{}), "a webhook endpoint",
		func(ep *WebhookEndpoint) bool { return ep.Livemode })
}

// GetEvent retrieves an event.
func (c *Client) GetEvent(ctx context.Context, id string) (*Event, error) {
	var out Event
	return &out, c.call(ctx, http.MethodGet, expand(wire.PathEvent, id), nil, nil, &out)
}

// ListEvents lists events, newest first.
func (c *Client) ListEvents(ctx context.Context, p *ListEventsParams) (*EventList, error) {
	v := url.Values{}
	if p != nil {
		setNonEmpty(v, wire.ParamType, p.Type)
		p.query(v)
	}
	return listPage(ctx, c, wire.PathEvents, v, "an event", func(ev *Event) bool { return ev.Livemode })
}
