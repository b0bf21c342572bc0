package dashboard

import (
	"fmt"
	"net/http"
	"net/url"

	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// deliveriesPerEndpoint bounds the attempts the webhooks page shows for
// each endpoint.
const deliveriesPerEndpoint = 50

type endpointRow struct {
	E          *wire.WebhookEndpoint
	Deliveries []*wire.Delivery
	More       int
}

func (d *Dashboard) webhooks(w http.ResponseWriter, r *http.Request, ss *session) {
	var el wire.WebhookEndpointList
	if err := d.get(r.Context(), ss, wire.PathWebhookEndpoints, url.Values{wire.ParamLimit: {fmt.Sprint(wire.ListLimitMax)}}, &el); err != nil {
		d.fail(w, r, ss, "webhooks", err)
		return
	}
	rows := make([]endpointRow, 0, len(el.Data))
	for _, ep := range el.Data {
		var dl wire.List[wire.Delivery]
		if err := d.get(r.Context(), ss, wire.PathSandboxDeliveries, url.Values{wire.ParamEndpoint: {ep.ID}}, &dl); err != nil {
			d.fail(w, r, ss, "webhooks", err)
			return
		}
		row := endpointRow{E: ep, Deliveries: dl.Data}
		if n := len(dl.Data) - deliveriesPerEndpoint; n > 0 {
			row.Deliveries, row.More = dl.Data[:deliveriesPerEndpoint], n
		}
		rows = append(rows, row)
	}
	d.render(w, r, ss, http.StatusOK, "webhooks.html", &view{Title: "Webhooks", Nav: "webhooks", Live: true, Data: rows})
}

type requestsData struct {
	Requests []*wire.LoggedRequest
	Class    string
	Classes  []string
	Size     int
}

func (d *Dashboard) requests(w http.ResponseWriter, r *http.Request, ss *session) {
	q := url.Values{}
	class := r.URL.Query().Get(wire.ParamStatusClass)
	if class != "" {
		q.Set(wire.ParamStatusClass, class)
	}
	var l wire.List[wire.LoggedRequest]
	if err := d.get(r.Context(), ss, wire.PathSandboxRequests, q, &l); err != nil {
		d.fail(w, r, ss, "requests", err)
		return
	}
	d.render(w, r, ss, http.StatusOK, "requests.html", &view{Title: "Requests", Nav: "requests", Live: true, Data: requestsData{
		Requests: l.Data, Class: class, Classes: []string{"2xx", "3xx", "4xx", "5xx"}, Size: wire.RequestLogSize,
	}})
}

func (d *Dashboard) resetForm(w http.ResponseWriter, r *http.Request, ss *session) {
	d.render(w, r, ss, http.StatusOK, "reset.html", &view{Title: "Reset account"})
}

func (d *Dashboard) reset(w http.ResponseWriter, r *http.Request, ss *session) {
	if r.PostFormValue("confirm") != "yes" {
		d.sessions.setFlash(ss, "Tick the box to confirm that every object of the account is to be deleted.", true)
		http.Redirect(w, r, "/reset", http.StatusSeeOther)
		return
	}
	err := d.post(r.Context(), ss, wire.PathSandboxReset, nil, nil)
	d.done(w, r, ss, "/customers", err, "Account reset: every customer, card, payment, webhook endpoint and event was deleted.")
}
