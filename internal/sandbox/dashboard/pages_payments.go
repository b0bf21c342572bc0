package dashboard

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"

	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

type paymentsData struct {
	Payments []*wire.Payment
	Gone     map[string]bool
	Status   string
	Statuses []string
	Created  createdRange
	Pager    pager
}

func (d *Dashboard) payments(w http.ResponseWriter, r *http.Request, ss *session) {
	q := listQuery(r, wire.ParamStatus, wire.ParamCreatedGTE, wire.ParamCreatedLT)
	var l wire.PaymentList
	if err := d.get(r.Context(), ss, wire.PathPayments, q, &l); err != nil {
		d.fail(w, r, ss, "payments", err)
		return
	}
	gone, err := d.goneCustomers(r, ss, l.Data)
	if err != nil {
		d.fail(w, r, ss, "payments", err)
		return
	}
	first, last := ids(l.Data, func(p *wire.Payment) string { return p.ID })
	d.render(w, r, ss, http.StatusOK, "payments.html", &view{Title: "Payments", Nav: "payments", Live: true, Data: paymentsData{
		Payments: l.Data, Gone: gone, Status: q.Get(wire.ParamStatus), Statuses: wire.PaymentStatuses,
		Created: createdRangeOf("/payments", q),
		Pager:   pagerFor("/payments", r, q, first, last, l.HasMore),
	}})
}

type paymentData struct {
	P          *wire.Payment
	Gone       map[string]bool
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
	var err error
	if data.Gone, err = d.goneCustomers(r, ss, []*wire.Payment{&p}); err != nil {
		d.fail(w, r, ss, "payments", err)
		return
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
	if data.Events, err = d.rowsOf(r, ss, about); err != nil {
		d.fail(w, r, ss, "payments", err)
		return
	}
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

// goneCustomers reports the customers of payments that the account no
// longer has: a payment keeps its customer's id after the customer is
// deleted, and the pages show it as deleted rather than as a link to
// "Not found".
func (d *Dashboard) goneCustomers(r *http.Request, ss *session, pays []*wire.Payment) (map[string]bool, error) {
	ids := make([]string, len(pays))
	for i, p := range pays {
		ids[i] = p.Customer
	}
	return d.goneCustomerIDs(r, ss, ids)
}

// goneCustomerIDs reports which of the customers named ("" for none) the
// account no longer has.
func (d *Dashboard) goneCustomerIDs(r *http.Request, ss *session, ids []string) (map[string]bool, error) {
	gone := map[string]bool{}
	seen := map[string]bool{}
	for _, id := range ids {
		if id == "" || seen[id] {
			continue
		}
		seen[id] = true
		var c wire.Customer
		err := d.get(r.Context(), ss, expand(wire.PathCustomer, id), nil, &c)
		var ae *apiError
		switch {
		case errors.As(err, &ae) && ae.status == http.StatusNotFound:
			gone[id] = true
		case err != nil:
			return nil, err
		}
	}
	return gone, nil
}
