package sandbox

import (
	"fmt"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/apierr"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/form"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/listing"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/model"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// Invoices (GET /v1/invoices, GET /v1/invoices/{id}, POST
// /v1/invoices/{id}/pay and /void): what a subscription bills for a
// period. An invoice is finalized (open) as it is made and charged at
// once; every charge is a payment of the payments API with its invoice
// field set, so that 3-D Secure, declines and disputes work as for any
// payment.

// newInvoice invoices the current period of s, open; free (a trial) bills
// nothing. Its id is s's periodInvoiceID, or a random one when that is
// taken.
func (c *call) newInvoice(s *model.Subscription, reason string, free bool) *model.Invoice {
	id := periodInvoiceID(s)
	for c.a.bill.Invoices[id] != nil {
		id = newRID()
	}
	return c.newInvoiceAs(id, s, reason, free)
}

// newInvoiceAs is newInvoice under id, a free one that the caller has at
// hand: a renewal looked for its period's invoice already, and a second
// lookup was a hundredth of a renewal.
func (c *call) newInvoiceAs(id rid, s *model.Subscription, reason string, free bool) *model.Invoice {
	inv := model.NewInvoice(s, c.unix, reason, free)
	inv.ID = id
	c.a.bill.AddInvoice(inv)
	s.LatestInvoice = inv.ID
	// Created and finalized at once: one JSON serves both events.
	b := c.invoiceScratch(inv)
	c.emit(wire.EventInvoiceCreated, b)
	c.emit(wire.EventInvoiceFinalized, b)
	return inv
}

// collect charges an open invoice once to src, or marks it paid when it
// is for nothing, and moves s by the outcome. src is nil when the
// customer has no card: the attempt then fails without a payment.
func (c *call) collect(inv *model.Invoice, s *model.Subscription, src *model.Source) {
	if inv.AmountDue == 0 {
		c.invoicePaid(inv, s)
		return
	}
	inv.Attempts++
	if src == nil {
		c.sumRenewal(inv, false)
		c.putInvoice(inv, s)
		c.emit(wire.EventInvoicePaymentFailed, c.invoiceScratch(inv))
		c.invoiceUnpaid(s, inv)
		return
	}
	p := inv.NewPayment(c.unix, src)
	c.makePayment(p)
	inv.Payment = p.ID
	c.emitPayment(p, c.paymentScratch(p))
	c.settle(inv, s, p)
}

// settle moves inv and s by the status of p, the invoice's latest
// payment: approved pays it, declined fails it, pending waits for 3-D
// Secure.
func (c *call) settle(inv *model.Invoice, s *model.Subscription, p *model.Payment) {
	switch p.Status {
	case wire.PaymentStatusApproved:
		c.invoicePaid(inv, s)
	case wire.PaymentStatusPending:
		c.putInvoice(inv, s)
		c.emit(wire.EventInvoicePaymentActionNeeded, c.invoiceScratch(inv))
		c.invoiceUnpaid(s, inv)
	default:
		c.sumRenewal(inv, false)
		c.putInvoice(inv, s)
		c.emit(wire.EventInvoicePaymentFailed, c.invoiceScratch(inv))
		c.invoiceUnpaid(s, inv)
	}
}

func (c *call) invoicePaid(inv *model.Invoice, s *model.Subscription) {
	inv.MarkPaid()
	c.sumRenewal(inv, true)
	c.putInvoice(inv, s)
	c.emit(wire.EventInvoicePaid, c.invoiceScratch(inv))
	if s != nil {
		c.setSubscriptionStatus(s, s.StatusAfterPaid(inv))
	}
}

// invoiceUnpaid moves s after a failed or waiting charge of inv
// (Subscription.StatusAfterUnpaid).
func (c *call) invoiceUnpaid(s *model.Subscription, inv *model.Invoice) {
	if s != nil {
		c.setSubscriptionStatus(s, s.StatusAfterUnpaid(inv))
	}
}

// setSubscriptionStatus moves s to status. The subscription the request
// creates is announced once, as a whole, by its create.
func (c *call) setSubscriptionStatus(s *model.Subscription, status string) {
	if s.Status == status {
		return
	}
	s.Status = status
	if c.newSub == s {
		return
	}
	c.putSubscription(s)
	c.emit(wire.EventSubscriptionUpdated, c.subscriptionScratch(s))
}

// paymentSettled follows a payment of an invoice that left pending (3-D
// Secure completed or failed) to its invoice, while the invoice is open.
func (c *call) paymentSettled(p *model.Payment) {
	inv := c.a.bill.Invoices[p.Invoice]
	if p.Invoice.IsZero() || inv == nil || !inv.Payable() || inv.Payment != p.ID {
		return
	}
	s := c.a.bill.Subs[inv.Subscription]
	c.settle(inv, s, p)
	c.dun(inv, s)
}

// source is the card s charges: its default_source, else its customer's
// default; nil when there is none.
func (c *call) subscriptionSource(s *model.Subscription) *model.Source {
	if cu := c.a.customers[s.Customer]; cu != nil {
		return cu.ChargeSource(s.DefaultSource)
	}
	return nil
}

func (c *call) pathInvoice() (*model.Invoice, *apierr.Error) {
	id := c.r.PathValue("id")
	if inv := c.findInvoice(id); inv != nil {
		return inv, nil
	}
	return nil, apierr.NotFound("invoice", id)
}

func (c *call) findInvoice(id string) *model.Invoice {
	if r, ok := parseRID(id, wire.InvoiceIDPrefix); ok {
		return c.a.bill.Invoices[r]
	}
	return nil
}

func (c *call) retrieveInvoice() response {
	if e := c.f.Check(); e != nil {
		return errResponse(e)
	}
	inv, e := c.pathInvoice()
	if e != nil {
		return errResponse(e)
	}
	return ok(model.InvoiceJSON(nil, inv))
}

// payInvoice is POST /v1/invoices/{id}/pay: one more attempt, now, of an
// open or uncollectible invoice; paying the latest invoice of an unpaid
// or past_due subscription makes it active again. A payment still
// waiting for 3-D Secure must finish first, so that an invoice is never
// paid twice. A declined attempt is answered 402 naming its payment, as
// Stripe's clients expect of a declined charge; the attempt, its payment
// and their events are kept all the same.
func (c *call) payInvoice() response {
	if e := c.f.Check(); e != nil {
		return errResponse(e)
	}
	inv, e := c.pathInvoice()
	if e != nil {
		return errResponse(e)
	}
	if e := refused(inv.CheckPay(c.a.payments[inv.Payment])); e != nil {
		return errResponse(e)
	}
	c.onClock(inv.Customer)
	s := c.a.bill.Subs[inv.Subscription]
	src := c.subscriptionSource(s)
	if src == nil {
		return errResponse(refused(model.NoSourceToCharge(inv.Customer, "")))
	}
	attempts := inv.Attempts
	c.collect(inv, s, src)
	if p := c.a.payments[inv.Payment]; inv.Attempts > attempts && p != nil && p.Status == wire.PaymentStatusDeclined {
		return errResponse(cardDeclined(p, fmt.Sprintf("Invoice %s stays %s after attempt %d, whose payment %s is declined: store another card for its customer, then pay it again.",
			inv.ID.Format(wire.InvoiceIDPrefix), inv.Status, inv.Attempts, p.ID.Format(wire.PaymentIDPrefix))))
	}
	return ok(model.InvoiceJSON(nil, inv))
}

// voidInvoice is POST /v1/invoices/{id}/void: an open invoice is never to
// be paid. One whose payment waits for 3-D Secure is refused, so that a
// void invoice cannot be paid after all.
func (c *call) voidInvoice() response {
	if e := c.f.Check(); e != nil {
		return errResponse(e)
	}
	inv, e := c.pathInvoice()
	if e != nil {
		return errResponse(e)
	}
	if e := refused(inv.Void(c.a.payments[inv.Payment])); e != nil {
		return errResponse(e)
	}
	c.onClock(inv.Customer)
	c.putInvoice(inv, nil)
	b := model.InvoiceJSON(nil, inv)
	c.emit(wire.EventInvoiceVoided, b)
	return ok(b)
}

// listInvoices is GET /v1/invoices: newest first, keeping those that
// match every filter given.
func (c *call) listInvoices() response {
	if e := listing.Check(c.f, append(form.Created, wire.ParamCustomer, wire.ParamSubscription, wire.ParamStatus)...); e != nil {
		return errResponse(e)
	}
	from, to, e := form.CreatedRange(c.f)
	if e != nil {
		return errResponse(e)
	}
	cus, e := c.customerFilter()
	if e != nil {
		return errResponse(e)
	}
	var sub rid
	if v, _ := c.f.Get(wire.ParamSubscription); v != "" {
		s := c.findSubscription(v)
		if s == nil {
			return errResponse(apierr.MissingRef(wire.ParamSubscription, "subscription %q does not exist.", apierr.Clip(v)))
		}
		sub = s.ID
	}
	status, _ := c.f.Get(wire.ParamStatus)
	if e := refused(model.CheckStatusFilter(status, "an invoice", wire.InvoiceStatuses, "")); e != nil {
		return errResponse(e)
	}
	match := func(inv *model.Invoice) bool {
		return (cus.IsZero() || inv.Customer == cus) && (sub.IsZero() || inv.Subscription == sub) && (status == "" || inv.Status == status) &&
			inv.Created >= from && inv.Created <= to
	}
	l := listing.List[*model.Invoice]{
		URL: wire.PathInvoices, Noun: "invoice",
		Seq: func(inv *model.Invoice) uint64 { return inv.Seq },
		Find: func(id string) (*model.Invoice, bool) {
			inv := c.findInvoice(id)
			return inv, inv != nil
		},
		Every: func() []*model.Invoice { return c.a.bill.InvoiceOrder },
		Write: model.InvoiceJSON,
	}
	return serveList(c, &l, c.a.bill.InvoiceOrder, match)
}

// listInvoiceLines is GET /v1/invoices/{id}/lines: the invoice's lines
// in their order, paged like every list. The lines have no sequence of
// their own: the list runs over their positions backwards, so that the
// list's newest first is the invoice's first line first, as embedded.
func (c *call) listInvoiceLines() response {
	if e := listing.Check(c.f); e != nil {
		return errResponse(e)
	}
	inv, e := c.pathInvoice()
	if e != nil {
		return errResponse(e)
	}
	n := len(inv.Lines)
	l := listing.List[int]{
		URL: wire.PathInvoices + "/" + inv.ID.Format(wire.InvoiceIDPrefix) + "/lines", Noun: "line of invoice " + inv.ID.Format(wire.InvoiceIDPrefix),
		Seq: func(i int) uint64 { return uint64(n - i) },
		Find: func(id string) (int, bool) {
			for i := range inv.Lines {
				if model.LineID(inv.ID, inv.Lines[i].Item).Format(wire.InvoiceLineIDPrefix) == id {
					return i, true
				}
			}
			return 0, false
		},
		Every: func() []int { return backwards(n) },
		Write: func(b []byte, i int) []byte { return model.InvoiceLineJSON(b, inv, &inv.Lines[i]) },
	}
	return serveList(c, &l, backwards(n), nil)
}

// backwards is the positions n-1 … 0: a list kept in order served with
// the list machinery, which serves the highest sequence first.
func backwards(n int) []int {
	p := make([]int, n)
	for i := range p {
		p[i] = n - 1 - i
	}
	return p
}
