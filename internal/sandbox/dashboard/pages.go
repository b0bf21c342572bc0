package dashboard

import (
	"bytes"
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
	"signin.html", "home.html", "customers.html", "customer.html", "payments.html", "payment.html", "products.html",
	"subscriptions.html", "subscription.html", "invoices.html", "invoice.html",
	"test_clocks.html", "test_clock.html",
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
	Title   string
	Nav     string
	Account string
	// Publishable is the account's publishable key, safe to show: it
	// gives the secret key away to no one.
	Publishable string
	Flash       string
	FlashError  bool
	SignedIn    bool
	Live        bool
	Data        any
}

func (d *Dashboard) render(w http.ResponseWriter, r *http.Request, ss *session, status int, page string, v *view) {
	if ss != nil {
		v.SignedIn, v.Account, v.Publishable = true, ss.account, ss.publishable
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

// createdRange is a list page's created[gte] and created[lt] filter, the
// one the home page's charts link with: its bounds, kept by the page's
// filter form, and the same list of any time.
type createdRange struct{ From, Until, AnyTime string }

// createdRangeOf reads the range of the list at path from its query q.
func createdRangeOf(path string, q url.Values) createdRange {
	c := createdRange{From: q.Get(wire.ParamCreatedGTE), Until: q.Get(wire.ParamCreatedLT), AnyTime: path}
	rest := url.Values{}
	for k, v := range q {
		switch k {
		case wire.ParamCreatedGTE, wire.ParamCreatedLT, wire.ParamLimit, wire.ParamStartingAfter, wire.ParamEndingBefore:
		default:
			rest[k] = v
		}
	}
	if len(rest) > 0 {
		c.AnyTime += "?" + rest.Encode()
	}
	return c
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

type kv struct{ Key, Value string }

func sortedMeta(m map[string]string) []kv {
	out := make([]kv, 0, len(m))
	for k, v := range m {
		out = append(out, kv{k, v})
	}
	slices.SortFunc(out, func(a, b kv) int { return strings.Compare(a.Key, b.Key) })
	return out
}
