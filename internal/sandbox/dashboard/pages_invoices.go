package dashboard

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"

	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// paymentScanPages bounds how many pages of a customer's payments an
// invoice's page reads to find the invoice's attempts, newest first.
const paymentScanPages = 10

type invoicesData struct {
	Invoices     []*wire.Invoice
	Gone         map[string]bool
	Status       string
	Statuses     []string
	Subscription string
	Created      createdRange
	Pager        pager
}

// invoices is GET /v1/invoices as a page.
func (d *Dashboard) invoices(w http.ResponseWriter, r *http.Request, ss *session) {
	q := listQuery(r, wire.ParamStatus, wire.ParamSubscription, wire.ParamCustomer, wire.ParamCreatedGTE, wire.ParamCreatedLT)
	var l wire.InvoiceList
	if err := d.get(r.Context(), ss, wire.PathInvoices, q, &l); err != nil {
		d.fail(w, r, ss, "invoices", err)
		return
	}
	gone, err := d.goneCustomerIDs(r, ss, customersOf(l.Data, func(inv *wire.Invoice) string { return inv.Customer }))
	if err != nil {
		d.fail(w, r, ss, "invoices", err)
		return
	}
	first, last := ids(l.Data, func(inv *wire.Invoice) string { return inv.ID })
	d.render(w, r, ss, http.StatusOK, "invoices.html", &view{Title: "Invoices", Nav: "invoices", Live: true, Data: invoicesData{
		Invoices: l.Data, Gone: gone, Status: q.Get(wire.ParamStatus), Statuses: wire.InvoiceStatuses,
		Subscription: q.Get(wire.ParamSubscription), Created: createdRangeOf("/invoices", q),
		Pager: pagerFor("/invoices", r, q, first, last, l.HasMore),
	}})
}

type invoiceData struct {
	I    *wire.Invoice
	Gone map[string]bool
	// Attempts are the invoice's payments, oldest first.
	Attempts []*wire.Payment
	// Partial says the scan stopped before the customer's oldest payment.
	Partial bool
	// CanPay and CanVoid say which of its forms the invoice's page shows:
	// an open invoice can be paid or voided, an uncollectible one paid.
	CanPay, CanVoid bool
}

// invoice shows one invoice: its fields, its lines, and every attempt to
// pay it, each a payment of the API whose invoice field names it, found
// among the customer's latest payments.
func (d *Dashboard) invoice(w http.ResponseWriter, r *http.Request, ss *session) {
	id := r.PathValue("id")
	var inv wire.Invoice
	if err := d.get(r.Context(), ss, expand(wire.PathInvoice, id), nil, &inv); err != nil {
		d.fail(w, r, ss, "invoices", err)
		return
	}
	open := inv.Status == wire.InvoiceStatusOpen
	data := invoiceData{I: &inv, CanPay: open || inv.Status == wire.InvoiceStatusUncollectible, CanVoid: open}
	q := url.Values{wire.ParamCustomer: {inv.Customer}, wire.ParamLimit: {strconv.Itoa(wire.ListLimitMax)}}
	for page := range paymentScanPages {
		var l wire.PaymentList
		if err := d.get(r.Context(), ss, wire.PathPayments, q, &l); err != nil {
			d.fail(w, r, ss, "invoices", err)
			return
		}
		for _, p := range l.Data {
			if p.Invoice == inv.ID {
				data.Attempts = append(data.Attempts, p)
			}
		}
		if !l.HasMore || len(l.Data) == 0 {
			break
		}
		data.Partial = page == paymentScanPages-1
		q.Set(wire.ParamStartingAfter, l.Data[len(l.Data)-1].ID)
	}
	slices.Reverse(data.Attempts)
	var err error
	if data.Gone, err = d.goneCustomerIDs(r, ss, []string{inv.Customer}); err != nil {
		d.fail(w, r, ss, "invoices", err)
		return
	}
	d.render(w, r, ss, http.StatusOK, "invoice.html", &view{Title: "Invoice " + inv.ID, Nav: "invoices", Live: true, Data: data})
}

// payInvoice is the invoice page's Pay now form: POST /v1/invoices/{id}/pay.
// A declined attempt is answered 402, but made and kept: the page says so
// with the invoice as the attempt left it, whose attempts list shows the
// declined payment.
func (d *Dashboard) payInvoice(w http.ResponseWriter, r *http.Request, ss *session) {
	id := r.PathValue("id")
	var inv wire.Invoice
	err := d.post(r.Context(), ss, expand(wire.PathInvoicePay, id), nil, &inv)
	msg := "Attempt %d made: invoice %s is now %s."
	var ae *apiError
	if errors.As(err, &ae) && ae.status == http.StatusPaymentRequired {
		if err = d.get(r.Context(), ss, expand(wire.PathInvoice, id), nil, &inv); err == nil {
			msg = "Attempt %d made and declined: invoice %s is still %s."
		}
	}
	d.done(w, r, ss, "/invoices/"+url.PathEscape(id), err, fmt.Sprintf(msg, inv.AttemptCount, inv.ID, inv.Status))
}

// voidInvoice is the invoice page's Void form: POST /v1/invoices/{id}/void.
func (d *Dashboard) voidInvoice(w http.ResponseWriter, r *http.Request, ss *session) {
	id := r.PathValue("id")
	var inv wire.Invoice
	err := d.post(r.Context(), ss, expand(wire.PathInvoiceVoid, id), nil, &inv)
	d.done(w, r, ss, "/invoices/"+url.PathEscape(id), err, fmt.Sprintf("Invoice %s is void: it will never be paid.", inv.ID))
}
