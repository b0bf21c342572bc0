package model

import (
	"bytes"
	"encoding/json"
	"fmt"
	"time"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/ids"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/jsonw"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// eventHeadBytes is about what an event's body holds besides its object.
const eventHeadBytes = 160

// WebhookEndpoint is where the account's events are sent, and which.
type WebhookEndpoint struct {
	ID          ids.RID
	Seq         uint64
	Created     int64
	URL         string
	Events      []string // as sent, without duplicates
	Description string
	Disabled    bool
	// APIVersion is the api_version its deliveries carry: as given at
	// its create (CheckAPIVersion), else wire.APIVersion.
	APIVersion string
	Meta       Metadata
	Secret     string
	Counted    int64 // bytes charged to the account, see MemBytes
}

// Wants reports whether the endpoint is sent events of type typ.
func (ep *WebhookEndpoint) Wants(typ string) bool {
	if ep.Disabled {
		return false
	}
	for _, e := range ep.Events {
		if e == typ || e == wire.EventTypeAll {
			return true
		}
	}
	return false
}

// Event is a change the account's webhook endpoints are told of.
type Event struct {
	ID   ids.RID
	Seq  uint64
	Type string
	// Created is when the event was recorded, on the sandbox's clock,
	// whatever test clock its object is on: its retention counts from it.
	Created int64
	// At is the change's time, the body's created_at.
	At int64
	// Obj is the object's JSON, from which the body (the event as sent
	// and as answered) is written when it is read (JSON): most events
	// are never read, and their bodies cost a renewal five allocations
	// and copies. Events of one object alike in a row (an invoice
	// created and finalized at once) share it; it never changes once
	// made.
	Obj []byte
	// Body is the whole body of an event read from the data file; Obj is
	// then nil.
	Body    []byte
	Counted int64 // bytes charged to the account, see MemBytes
}

// RecordKey is the webhook endpoint's key in its bucket: its id.
func (ep *WebhookEndpoint) RecordKey() string { return ep.ID.Format(wire.WebhookEndpointIDPrefix) }

// RecordValue is the webhook endpoint's record, as JSON.
func (ep *WebhookEndpoint) RecordValue() []byte {
	return Marshal(WebhookEndpointRecord{
		ID: ep.ID.Format(wire.WebhookEndpointIDPrefix), Seq: ep.Seq, Created: ep.Created, URL: ep.URL,
		Events: ep.Events, Description: ep.Description, Disabled: ep.Disabled, Meta: MetaRecord(ep.Meta), Secret: ep.Secret,
		APIVersion: ep.APIVersion,
	})
}

// WebhookEndpointRecord is the stored form of a webhook endpoint, its secret with it: the sandbox signs with
// it after a restart.
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
		// APIVersion is absent from the records of endpoints made before
		// endpoints had one: they are of wire.APIVersion.
		APIVersion string `json:"api_version,omitempty"`
	}
	EventRecord struct {
		ID      string `json:"id"`
		Seq     uint64 `json:"seq"`
		Type    string `json:"type"`
		Created int64  `json:"created"`
		// At is Event's, which records written before it was kept lack:
		// it is then read from the body's created_at.
		At   int64  `json:"at,omitempty"`
		Body []byte `json:"body"` // at the default version, as listed
	}
)

// EndpointFromRecord decodes a webhook endpoint's record.
func EndpointFromRecord(raw []byte) (*WebhookEndpoint, error) {
	var rec WebhookEndpointRecord
	if err := json.Unmarshal(raw, &rec); err != nil {
		return nil, fmt.Errorf("reading a webhook endpoint record from the data file: %w", err)
	}
	id, ok := ids.Parse(rec.ID, wire.WebhookEndpointIDPrefix)
	if !ok {
		return nil, fmt.Errorf("data file: webhook endpoint id %q is malformed", rec.ID)
	}
	version := wire.APIVersion
	if rec.APIVersion != "" {
		if r := CheckAPIVersion(rec.APIVersion); r != nil {
			return nil, fmt.Errorf("data file: webhook endpoint %s: %s", rec.ID, r.Message)
		}
		version = rec.APIVersion
	}
	return &WebhookEndpoint{
		ID: id, Seq: rec.Seq, Created: rec.Created, URL: rec.URL, Events: rec.Events,
		Description: rec.Description, Disabled: rec.Disabled, Meta: MetaFromRecord(rec.Meta), Secret: rec.Secret,
		APIVersion: version,
	}, nil
}

// EventFromRecord decodes an event's record.
func EventFromRecord(raw []byte) (*Event, error) {
	var rec EventRecord
	if err := json.Unmarshal(raw, &rec); err != nil {
		return nil, fmt.Errorf("reading an event record from the data file: %w", err)
	}
	id, ok := ids.Parse(rec.ID, wire.EventIDPrefix)
	if !ok {
		return nil, fmt.Errorf("data file: event id %q is malformed", rec.ID)
	}
	at := rec.At
	if at == 0 {
		var body struct {
			CreatedAt time.Time `json:"created_at"`
		}
		if err := json.Unmarshal(rec.Body, &body); err != nil {
			return nil, fmt.Errorf("data file: event %s: reading its created_at: %w", rec.ID, err)
		}
		at = body.CreatedAt.Unix()
	}
	// A body stored before events had an api_version gets the default
	// once, here, so that every read shows it.
	return &Event{ID: id, Seq: rec.Seq, Type: rec.Type, Created: rec.Created, At: at, Body: withAPIVersion(rec.Body, wire.APIVersion)}, nil
}

// RecordKey is the event's key in its bucket: its id.
func (ev *Event) RecordKey() string { return ev.ID.Format(wire.EventIDPrefix) }

// RecordValue is the event's record, as JSON.
func (ev *Event) RecordValue() []byte {
	return Marshal(EventRecord{ID: ev.ID.Format(wire.EventIDPrefix), Seq: ev.Seq, Type: ev.Type, Created: ev.Created, At: ev.At, Body: ev.JSON()})
}

// MemBytes is what the webhook endpoint costs its account (sizes.go).
func (ep *WebhookEndpoint) MemBytes() int64 {
	n := EndpointBytes + RidMapEntry + OrderSlot + StrBytes(ep.URL) + StrBytes(ep.Description) +
		StrBytes(ep.Secret) + StrBytes(ep.APIVersion) + MetaBytes(ep.Meta) + SliceBytes(len(ep.Events), 16) + AllocOverhead
	for _, e := range ep.Events {
		n += StrBytes(e)
	}
	return n
}

// MemBytes is what the event costs its account (sizes.go). Obj is a part
// of a block shared with other events' (the sandbox's eventObjects):
// the parts of blocks no event holds are charged to the events, a
// quarter more than their objects. A shared Obj is charged to each of its
// events: a bound errs high. The charge is of the body's length, the
// same whether the event holds its object (made here) or its body (read
// from the data file), so that an account rolled back to the file's state
// counts what it counted before.
func (ev *Event) MemBytes() int64 {
	return EventBytes + RidMapEntry + OrderSlot + int64(ev.bodyLen())*5/4 + AllocOverhead
}

// bodyLen is the length of the event's body, JSON writes without writing
// it.
func (ev *Event) bodyLen() int {
	if ev.Obj == nil {
		return len(ev.Body)
	}
	var at [32]byte
	return len(`{"id":"`+wire.EventIDPrefix) + wire.IDRandomLength + len(`","object":"event","api_version":"`) + len(wire.APIVersion) + len(`","type":`) + jsonw.Len(ev.Type) + 2 +
		len(`,"created_at":`) + len(jsonw.Time(at[:0], ev.At)) + len(`,"livemode":false,"data":{"object":`) + len(ev.Obj) + len("}}")
}

// WebhookEndpointJSON appends the endpoint's JSON to b, its secret only
// when withSecret (the answers of create and roll_secret).
func WebhookEndpointJSON(b []byte, ep *WebhookEndpoint, withSecret bool) []byte {
	if b == nil {
		b = make([]byte, 0, 384+len(ep.URL)+len(ep.Description))
	}
	b = append(b, `{"id":`...)
	b = ids.Append(b, wire.WebhookEndpointIDPrefix, ep.ID)
	b = append(b, `,"object":"webhook_endpoint","url":`...)
	b = jsonw.String(b, ep.URL)
	b = append(b, `,"enabled_events":[`...)
	for i, e := range ep.Events {
		if i > 0 {
			b = append(b, ',')
		}
		b = jsonw.String(b, e)
	}
	b = append(b, `],"description":`...)
	b = jsonw.OptString(b, ep.Description)
	b = append(b, `,"disabled":`...)
	b = jsonw.Bool(b, ep.Disabled)
	b = append(b, `,"api_version":`...)
	b = jsonw.String(b, ep.APIVersion)
	if withSecret {
		b = append(b, `,"secret":`...)
		b = jsonw.String(b, ep.Secret)
	}
	return AppendMetadataTail(b, ep.Meta, ep.Created)
}

// JSON is the event's body at the account's default version
// (wire.APIVersion): the same bytes at every read, so that a retrieve
// and a list agree.
func (ev *Event) JSON() []byte {
	if ev.Obj == nil {
		return ev.Body
	}
	return ev.AppendJSON(make([]byte, 0, eventHeadBytes+len(ev.Obj)))
}

// JSONFor is the event's body as delivered to an endpoint of api_version
// v: JSON with v in api_version, the same bytes at every attempt, so
// that each is signed alike. Versions differ in that field only.
func (ev *Event) JSONFor(v string) []byte {
	switch {
	case v == wire.APIVersion:
		return ev.JSON()
	case ev.Obj != nil:
		return ev.appendJSON(make([]byte, 0, eventHeadBytes+len(ev.Obj)), v)
	}
	return withAPIVersion(ev.Body, v)
}

// eventHead is what every event's body starts with up to its id's end;
// eventObject follows the id, then the api_version field, which bodies
// stored before events had one lack.
const (
	eventHead       = `{"id":"` + wire.EventIDPrefix
	eventObject     = `","object":"event",`
	eventAPIVersion = `"api_version":"`
)

// withAPIVersion is a body read from the data file (written by
// appendJSON) with v in its api_version field, added when it has none;
// body itself when it says v already.
func withAPIVersion(body []byte, v string) []byte {
	at := len(eventHead) + wire.IDRandomLength
	if !bytes.HasPrefix(body, []byte(eventHead)) || !bytes.HasPrefix(body[at:], []byte(eventObject)) {
		return body // not a body this package wrote
	}
	at += len(eventObject)
	rest := body[at:]
	if r, ok := bytes.CutPrefix(rest, []byte(eventAPIVersion)); ok {
		if end := bytes.IndexByte(r, '"'); end >= 0 && len(r) > end+1 && r[end+1] == ',' {
			if string(r[:end]) == v {
				return body
			}
			rest = r[end+2:]
		}
	}
	b := make([]byte, 0, len(body)+len(v)+len(eventAPIVersion)+2)
	b = append(b, body[:at]...)
	b = append(b, eventAPIVersion...)
	b = append(b, v...)
	b = append(b, `",`...)
	return append(b, rest...)
}

// AppendJSON writes the event's body at the account's default version.
func (ev *Event) AppendJSON(b []byte) []byte {
	if ev.Obj == nil {
		return append(b, ev.Body...)
	}
	return ev.appendJSON(b, wire.APIVersion)
}

// appendJSON writes the event's body with api_version v, a version
// CheckAPIVersion accepts, which needs no escaping.
func (ev *Event) appendJSON(b []byte, v string) []byte {
	b = append(b, `{"id":`...)
	b = ids.Append(b, wire.EventIDPrefix, ev.ID)
	b = append(b, `,"object":"event","api_version":"`...)
	b = append(b, v...)
	b = append(b, `","type":`...)
	b = jsonw.String(b, ev.Type)
	b = append(b, `,"created_at":`...)
	b = jsonw.Time(b, ev.At)
	b = append(b, `,"livemode":false,"data":{"object":`...)
	b = append(b, ev.Obj...)
	return append(b, "}}"...)
}
