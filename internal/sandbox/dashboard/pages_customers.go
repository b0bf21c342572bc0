package dashboard

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"time"

	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

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
		var ae *apiError
		if errors.As(err, &ae) && ae.status == http.StatusNotFound {
			if ev, ferr := d.deletion(r, ss, id); ferr == nil && ev != nil {
				at := ev.CreatedAt
				if t, perr := time.Parse(time.RFC3339Nano, at); perr == nil {
					at = t.UTC().Format(timeLayout)
				}
				d.render(w, r, ss, http.StatusGone, "error.html", &view{Title: "Customer deleted", Nav: "customers",
					Data: fmt.Sprintf("Customer %s was deleted at %s (event %s). Its payments and events keep its id.", id, at, ev.ID)})
				return
			}
		}
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

// deletion finds the customer.deleted event of a customer among the
// account's newest events, so that a link to a customer deleted since it
// was followed says so instead of "Not found"; nil when none is found.
func (d *Dashboard) deletion(r *http.Request, ss *session, id string) (*wire.Event, error) {
	q := url.Values{wire.ParamType: {wire.EventCustomerDeleted}, wire.ParamLimit: {fmt.Sprint(wire.ListLimitMax)}}
	for range eventScanPages {
		var l wire.EventList
		if err := d.get(r.Context(), ss, wire.PathEvents, q, &l); err != nil {
			return nil, err
		}
		for _, ev := range l.Data {
			if objectOf(ev).ID == id {
				return ev, nil
			}
		}
		if !l.HasMore || len(l.Data) == 0 {
			return nil, nil
		}
		q.Set(wire.ParamStartingAfter, l.Data[len(l.Data)-1].ID)
	}
	return nil, nil
}
