package dashboard

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// eventObject is what an event is about, read from its data.object.
type eventObject struct {
	ID       string `json:"id"`
	Object   string `json:"object"`
	Customer string `json:"customer"`
	Amount   *int64 `json:"amount"`
	Currency string `json:"currency"`
	Status   string `json:"status"`
	Refunded *int64 `json:"amount_refunded"`
}

// objectOf decodes what an event is about; a zero value when it cannot.
func objectOf(ev *wire.Event) eventObject {
	var o eventObject
	_ = json.Unmarshal(ev.Data.Object, &o)
	return o
}

// objectLink is the dashboard's page of an event's object, "" when none.
func objectLink(ev *wire.Event) string {
	o := objectOf(ev)
	if strings.HasSuffix(ev.Type, ".deleted") {
		return ""
	}
	switch o.Object {
	case "customer":
		return "/customers/" + url.PathEscape(o.ID)
	case "payment":
		return "/payments/" + url.PathEscape(o.ID)
	case "source":
		return "/customers/" + url.PathEscape(o.Customer)
	}
	return ""
}

// eventScanPages bounds how many pages of events a payment's page reads to
// find the events about it.
const eventScanPages = 10

type eventRow struct {
	E      *wire.Event
	Object eventObject
	Link   string
	// Gone is set when the event's customer has since been deleted: the
	// row names it as deleted instead of linking to "Not found".
	Gone bool
}

// rowsOf makes the rows of events, without links to customers the
// account no longer has (an event of a customer or its card outlives it).
func (d *Dashboard) rowsOf(r *http.Request, ss *session, evs []*wire.Event) ([]eventRow, error) {
	rows := make([]eventRow, len(evs))
	customers := make([]string, len(evs))
	for i, ev := range evs {
		rows[i] = eventRow{E: ev, Object: objectOf(ev), Link: objectLink(ev)}
		if strings.HasPrefix(rows[i].Link, "/customers/") {
			customers[i] = customerOf(rows[i].Object)
		}
	}
	gone, err := d.goneCustomerIDs(r, ss, customers)
	if err != nil {
		return nil, err
	}
	for i := range rows {
		if gone[customers[i]] {
			rows[i].Link, rows[i].Gone = "", true
		}
	}
	return rows, nil
}

// customerOf is the customer an event's object is or belongs to.
func customerOf(o eventObject) string {
	if o.Object == "customer" {
		return o.ID
	}
	return o.Customer
}

type eventsData struct {
	Events []eventRow
	Type   string
	Types  []string
	Pager  pager
}

func (d *Dashboard) events(w http.ResponseWriter, r *http.Request, ss *session) {
	q := listQuery(r, wire.ParamType)
	var l wire.EventList
	if err := d.get(r.Context(), ss, wire.PathEvents, q, &l); err != nil {
		d.fail(w, r, ss, "events", err)
		return
	}
	rows, err := d.rowsOf(r, ss, l.Data)
	if err != nil {
		d.fail(w, r, ss, "events", err)
		return
	}
	first, last := ids(l.Data, func(e *wire.Event) string { return e.ID })
	d.render(w, r, ss, http.StatusOK, "events.html", &view{Title: "Events", Nav: "events", Live: true, Data: eventsData{
		Events: rows, Type: q.Get(wire.ParamType), Types: wire.EventTypes,
		Pager: pagerFor("/events", r, q, first, last, l.HasMore),
	}})
}

type eventData struct {
	Row        eventRow
	JSON       string
	Deliveries []*wire.Delivery
	Endpoints  []*wire.WebhookEndpoint
}

func (d *Dashboard) event(w http.ResponseWriter, r *http.Request, ss *session) {
	id := r.PathValue("id")
	var raw json.RawMessage
	if err := d.get(r.Context(), ss, expand(wire.PathEvent, id), nil, &raw); err != nil {
		d.fail(w, r, ss, "events", err)
		return
	}
	var ev wire.Event
	if err := json.Unmarshal(raw, &ev); err != nil {
		d.fail(w, r, ss, "events", err)
		return
	}
	var pretty bytes.Buffer
	if err := json.Indent(&pretty, raw, "", "  "); err != nil {
		pretty.Write(raw)
	}
	var dl wire.List[wire.Delivery]
	if err := d.get(r.Context(), ss, wire.PathSandboxDeliveries, url.Values{wire.ParamEvent: {ev.ID}}, &dl); err != nil {
		d.fail(w, r, ss, "events", err)
		return
	}
	var el wire.WebhookEndpointList
	if err := d.get(r.Context(), ss, wire.PathWebhookEndpoints, url.Values{wire.ParamLimit: {fmt.Sprint(wire.ListLimitMax)}}, &el); err != nil {
		d.fail(w, r, ss, "events", err)
		return
	}
	rows, err := d.rowsOf(r, ss, []*wire.Event{&ev})
	if err != nil {
		d.fail(w, r, ss, "events", err)
		return
	}
	d.render(w, r, ss, http.StatusOK, "event.html", &view{Title: "Event " + ev.ID, Nav: "events", Live: true, Data: eventData{
		Row: rows[0], JSON: pretty.String(), Deliveries: dl.Data, Endpoints: el.Data,
	}})
}

func (d *Dashboard) resendEvent(w http.ResponseWriter, r *http.Request, ss *session) {
	id := r.PathValue("id")
	f := url.Values{}
	if ep := r.PostFormValue("endpoint"); ep != "" {
		f.Set(wire.ParamEndpoint, ep)
	}
	var rs wire.EventResend
	err := d.post(r.Context(), ss, expand(wire.PathSandboxEventResend, id), f, &rs)
	d.done(w, r, ss, "/events/"+url.PathEscape(id), err,
		fmt.Sprintf("Event %s resent: a new delivery to %s is on its way.", rs.Event, strings.Join(rs.Endpoints, ", ")))
}
