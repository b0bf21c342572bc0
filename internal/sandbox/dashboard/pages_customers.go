package dashboard

import (
	"net/http"
	"net/url"

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
