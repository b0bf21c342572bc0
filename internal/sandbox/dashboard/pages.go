package dashboard

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// pageSize is how many objects a list page shows.
const pageSize = 20

// liveHeader marks the requests static/live.js makes to refresh a page:
// they must not consume the page's one-time message.
const liveHeader = "Dashboard-Live"

// pageFiles are the pages, each rendered inside layout.html.
var pageFiles = []string{
	"signin.html", "customers.html", "customer.html", "payments.html", "payment.html",
	"events.html", "event.html", "webhooks.html", "requests.html", "reset.html", "error.html",
}

func parsePages() (map[string]*template.Template, error) {
	pages := make(map[string]*template.Template, len(pageFiles))
	for _, f := range pageFiles {
		t, err := template.New(f).Funcs(funcs).ParseFS(templateFS, "templates/layout.html", "templates/"+f)
		if err != nil {
			return nil, fmt.Errorf("dashboard: %w", err)
		}
		pages[f] = t
	}
	return pages, nil
}

// view is what every page gets: its own data in Data.
type view struct {
	Title      string
	Nav        string
	Account    string
	Flash      string
	FlashError bool
	SignedIn   bool
	Live       bool
	Data       any
}

func (d *Dashboard) render(w http.ResponseWriter, r *http.Request, ss *session, status int, page string, v *view) {
	if ss != nil {
		v.SignedIn, v.Account = true, ss.account
		if r.Header.Get(liveHeader) == "" {
			v.Flash, v.FlashError = d.sessions.takeFlash(ss)
		}
	}
	var buf bytes.Buffer
	if err := d.pages[page].ExecuteTemplate(&buf, "layout", v); err != nil {
		d.log.Error("dashboard: rendering a page failed", "page", page, "error", err)
		http.Error(w, "The page could not be rendered.", http.StatusInternalServerError)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_, _ = w.Write(buf.Bytes())
}

// fail shows an API error as a page: 404 for an object the account does
// not have (another account's included), the API's message otherwise.
func (d *Dashboard) fail(w http.ResponseWriter, r *http.Request, ss *session, nav string, err error) {
	status, msg := http.StatusInternalServerError, err.Error()
	var ae *apiError
	if errors.As(err, &ae) {
		status = ae.status
		if status != http.StatusNotFound && status != http.StatusBadRequest {
			status = http.StatusBadGateway
		}
	} else {
		d.log.Error("dashboard: reading the account failed", "error", err)
	}
	title := "Error"
	if status == http.StatusNotFound {
		title = "Not found"
	}
	d.render(w, r, ss, status, "error.html", &view{Title: title, Nav: nav, Data: msg})
}

// accountLabel names an account on pages without showing its key: the
// first hex digits of the key's SHA-256.
func accountLabel(key string) string {
	sum := sha256.Sum256([]byte(key))
	return "account " + hex.EncodeToString(sum[:4])
}

// home is GET /: the sign-in form, or the customers when signed in.
func (d *Dashboard) home(w http.ResponseWriter, r *http.Request) {
	if ss := d.sessions.current(r); ss != nil {
		http.Redirect(w, r, "/customers", http.StatusSeeOther)
		return
	}
	d.render(w, r, nil, http.StatusOK, "signin.html", d.signinView("", false))
}

func (d *Dashboard) signIn(w http.ResponseWriter, r *http.Request) {
	r.Body = http.MaxBytesReader(w, r.Body, 4096)
	key := strings.TrimSpace(r.PostFormValue("key"))
	again := func(status int, msg string) {
		d.render(w, r, nil, status, "signin.html", d.signinView(msg, true))
	}
	if key == "" {
		again(http.StatusBadRequest, "Enter a secret key ("+wire.SecretKeySandboxPrefix+"…).")
		return
	}
	err := d.call(r.Context(), key, http.MethodGet, wire.PathSandboxStats, nil, nil)
	var ae *apiError
	switch {
	case errors.As(err, &ae) && (ae.status == http.StatusUnauthorized || ae.status == http.StatusForbidden):
		again(http.StatusUnauthorized, "That key was not accepted. "+ae.message)
		return
	case err != nil:
		again(http.StatusBadGateway, "The sandbox could not check the key: "+err.Error())
		return
	}
	if old := d.sessions.current(r); old != nil {
		d.sessions.end(old.id)
	}
	ss := d.sessions.start(key, accountLabel(key))
	d.sessions.setCookie(w, r, ss)
	d.log.Info("dashboard: signed in", "account", ss.account)
	http.Redirect(w, r, "/customers", http.StatusSeeOther)
}

// signinView is the sign-in form with a message.
func (d *Dashboard) signinView(msg string, isError bool) *view {
	return &view{Title: "Sign in", Flash: msg, FlashError: isError, Data: d.sessions.idle.String()}
}

// signedIn runs h with the request's session, or sends the browser to the
// sign-in form.
func (d *Dashboard) signedIn(h func(http.ResponseWriter, *http.Request, *session)) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ss := d.sessions.current(r)
		if ss == nil {
			if r.Header.Get(liveHeader) != "" {
				w.WriteHeader(http.StatusUnauthorized)
				return
			}
			clearCookie(w, r)
			d.render(w, r, nil, http.StatusUnauthorized, "signin.html", d.signinView("Sign in to see this page: there is no session, or it ended.", true))
			return
		}
		if r.Method == http.MethodGet {
			// A page left open keeps its session, and its cookie, alive.
			d.sessions.setCookie(w, r, ss)
		}
		h(w, r, ss)
	})
}

func (d *Dashboard) signOut(w http.ResponseWriter, r *http.Request, ss *session) {
	d.sessions.end(ss.id)
	clearCookie(w, r)
	d.log.Info("dashboard: signed out", "account", ss.account)
	http.Redirect(w, r, "/", http.StatusSeeOther)
}

// done ends an action: the message for the next page, and back to where.
func (d *Dashboard) done(w http.ResponseWriter, r *http.Request, ss *session, where string, err error, msg string) {
	if err != nil {
		d.sessions.setFlash(ss, err.Error(), true)
	} else {
		d.sessions.setFlash(ss, msg, false)
	}
	http.Redirect(w, r, where, http.StatusSeeOther)
}

// pager is a list page's links to the pages before and after it.
type pager struct{ Prev, Next string }

// pagerFor builds the links of a page of ids from first to last, keeping
// the filters in q, with the API's cursors.
func pagerFor(path string, r *http.Request, q url.Values, first, last string, hasMore bool) pager {
	link := func(k, v string) string {
		u := url.Values{}
		for name, vals := range q {
			if name != wire.ParamStartingAfter && name != wire.ParamEndingBefore && name != wire.ParamLimit {
				u[name] = vals
			}
		}
		u.Set(k, v)
		return path + "?" + u.Encode()
	}
	var p pager
	if first == "" {
		return p
	}
	back := r.URL.Query().Get(wire.ParamEndingBefore) != ""
	if (back && hasMore) || (!back && r.URL.Query().Get(wire.ParamStartingAfter) != "") {
		p.Prev = link(wire.ParamEndingBefore, first)
	}
	if back || hasMore {
		p.Next = link(wire.ParamStartingAfter, last)
	}
	return p
}

// listQuery is the API query of a list page: its cursor and filters.
func listQuery(r *http.Request, filters ...string) url.Values {
	in := r.URL.Query()
	q := url.Values{wire.ParamLimit: {fmt.Sprint(pageSize)}}
	for _, k := range append(filters, wire.ParamStartingAfter, wire.ParamEndingBefore) {
		if v := strings.TrimSpace(in.Get(k)); v != "" {
			q.Set(k, v)
		}
	}
	return q
}

func ids[T any](data []*T, id func(*T) string) (first, last string) {
	if len(data) == 0 {
		return "", ""
	}
	return id(data[0]), id(data[len(data)-1])
}

type customersData struct {
	Customers []*wire.Customer
	Email     string
	Pager     pager
}

func (d *Dashboard) customers(w http.ResponseWriter, r *http.Request, ss *session) {
	q := listQuery(r, wire.ParamEmail)
	var l wire.List[wire.Customer]
	if err := d.get(r.Context(), ss, wire.PathCustomers, q, &l); err != nil {
		d.fail(w, r, ss, "customers", err)
		return
	}
	first, last := ids(l.Data, func(c *wire.Customer) string { return c.ID })
	d.render(w, r, ss, http.StatusOK, "customers.html", &view{Title: "Customers", Nav: "customers", Live: true, Data: customersData{
		Customers: l.Data, Email: q.Get(wire.ParamEmail), Pager: pagerFor("/customers", r, q, first, last, l.HasMore),
	}})
}

type kv struct{ Key, Value string }

func sortedMeta(m map[string]string) []kv {
	out := make([]kv, 0, len(m))
	for k, v := range m {
		out = append(out, kv{k, v})
	}
	slices.SortFunc(out, func(a, b kv) int { return strings.Compare(a.Key, b.Key) })
	return out
}

type customerData struct {
	C        *wire.Customer
	Meta     []kv
	Cards    []*wire.Source
	Payments []*wire.Payment
}

func (d *Dashboard) customer(w http.ResponseWriter, r *http.Request, ss *session) {
	id := r.PathValue("id")
	var c wire.Customer
	if err := d.get(r.Context(), ss, expand(wire.PathCustomer, id), nil, &c); err != nil {
		d.fail(w, r, ss, "customers", err)
		return
	}
	data := customerData{C: &c, Meta: sortedMeta(c.Metadata)}
	for _, s := range c.Sources.Data {
		var src wire.Source
		if err := d.get(r.Context(), ss, expand(wire.PathCustomerSource, c.ID, s.ID), nil, &src); err != nil {
			src = wire.Source{ID: s.ID, Brand: s.Brand, Last4: s.Last4}
		}
		data.Cards = append(data.Cards, &src)
	}
	var pl wire.PaymentList
	if err := d.get(r.Context(), ss, wire.PathPayments, url.Values{wire.ParamCustomer: {c.ID}, wire.ParamLimit: {"100"}}, &pl); err != nil {
		d.fail(w, r, ss, "customers", err)
		return
	}
	data.Payments = pl.Data
	d.render(w, r, ss, http.StatusOK, "customer.html", &view{Title: "Customer " + c.ID, Nav: "customers", Live: true, Data: data})
}

type paymentsData struct {
	Payments []*wire.Payment
	Status   string
	Statuses []string
	Pager    pager
}

func (d *Dashboard) payments(w http.ResponseWriter, r *http.Request, ss *session) {
	q := listQuery(r, wire.ParamStatus)
	var l wire.PaymentList
	if err := d.get(r.Context(), ss, wire.PathPayments, q, &l); err != nil {
		d.fail(w, r, ss, "payments", err)
		return
	}
	first, last := ids(l.Data, func(p *wire.Payment) string { return p.ID })
	d.render(w, r, ss, http.StatusOK, "payments.html", &view{Title: "Payments", Nav: "payments", Live: true, Data: paymentsData{
		Payments: l.Data, Status: q.Get(wire.ParamStatus), Statuses: wire.PaymentStatuses,
		Pager: pagerFor("/payments", r, q, first, last, l.HasMore),
	}})
}

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
}

func rowsOf(evs []*wire.Event) []eventRow {
	rows := make([]eventRow, len(evs))
	for i, ev := range evs {
		rows[i] = eventRow{E: ev, Object: objectOf(ev), Link: objectLink(ev)}
	}
	return rows
}

type paymentData struct {
	P          *wire.Payment
	Meta       []kv
	Refunded   int64
	Refunds    []eventRow
	Events     []eventRow
	Outcomes   []string
	CanFinish  bool
	CanDispute bool
}

func (d *Dashboard) payment(w http.ResponseWriter, r *http.Request, ss *session) {
	id := r.PathValue("id")
	var p wire.Payment
	if err := d.get(r.Context(), ss, expand(wire.PathPayment, id), nil, &p); err != nil {
		d.fail(w, r, ss, "payments", err)
		return
	}
	data := paymentData{
		P: &p, Meta: sortedMeta(p.Metadata),
		Outcomes:   []string{wire.OutcomeApproved, wire.OutcomeAuthorized, wire.OutcomeDeclined},
		CanFinish:  p.Status == wire.PaymentStatusPending,
		CanDispute: p.Status == wire.PaymentStatusApproved || p.Status == wire.PaymentStatusPartiallyRefunded,
	}
	if p.AmountRefunded != nil {
		data.Refunded = *p.AmountRefunded
	}
	// The events about the payment, oldest first, from the newest pages.
	var about []*wire.Event
	q := url.Values{wire.ParamLimit: {fmt.Sprint(wire.ListLimitMax)}}
	for range eventScanPages {
		var l wire.EventList
		if err := d.get(r.Context(), ss, wire.PathEvents, q, &l); err != nil {
			d.fail(w, r, ss, "payments", err)
			return
		}
		for _, ev := range l.Data {
			if o := objectOf(ev); o.Object == "payment" && o.ID == p.ID {
				about = append(about, ev)
			}
		}
		if !l.HasMore || len(l.Data) == 0 {
			break
		}
		q.Set(wire.ParamStartingAfter, l.Data[len(l.Data)-1].ID)
	}
	slices.Reverse(about)
	data.Events = rowsOf(about)
	for _, row := range data.Events {
		if row.E.Type == wire.EventPaymentRefunded || row.E.Type == wire.EventPaymentPartiallyRefunded {
			data.Refunds = append(data.Refunds, row)
		}
	}
	d.render(w, r, ss, http.StatusOK, "payment.html", &view{Title: "Payment " + p.ID, Nav: "payments", Live: true, Data: data})
}

func (d *Dashboard) completePayment(w http.ResponseWriter, r *http.Request, ss *session) {
	id := r.PathValue("id")
	outcome := r.PostFormValue("outcome")
	var p wire.Payment
	err := d.post(r.Context(), ss, expand(wire.PathSandboxPaymentComplete, id), url.Values{wire.ParamOutcome: {outcome}}, &p)
	d.done(w, r, ss, "/payments/"+url.PathEscape(id), err,
		fmt.Sprintf("3-D Secure completed: payment %s is now %s.", p.ID, p.Status))
}

func (d *Dashboard) disputePayment(w http.ResponseWriter, r *http.Request, ss *session) {
	id := r.PathValue("id")
	var p wire.Payment
	err := d.post(r.Context(), ss, expand(wire.PathSandboxPaymentDispute, id), nil, &p)
	d.done(w, r, ss, "/payments/"+url.PathEscape(id), err,
		fmt.Sprintf("Dispute opened: payment %s is now %s.", p.ID, p.Status))
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
	first, last := ids(l.Data, func(e *wire.Event) string { return e.ID })
	d.render(w, r, ss, http.StatusOK, "events.html", &view{Title: "Events", Nav: "events", Live: true, Data: eventsData{
		Events: rowsOf(l.Data), Type: q.Get(wire.ParamType), Types: wire.EventTypes,
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
	d.render(w, r, ss, http.StatusOK, "event.html", &view{Title: "Event " + ev.ID, Nav: "events", Live: true, Data: eventData{
		Row: rowsOf([]*wire.Event{&ev})[0], JSON: pretty.String(), Deliveries: dl.Data, Endpoints: el.Data,
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
