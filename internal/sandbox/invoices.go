package sandbox

import (
	"slices"
	"strings"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/apierr"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// Invoices (GET /v1/invoices, GET /v1/invoices/{id}, POST
// /v1/invoices/{id}/pay and /void): what a subscription bills for a
// period. An invoice is finalized (open) as it is made and charged at
// once; every charge is a payment of the payments API with its invoice
// field set, so that 3-D Secure, declines and disputes work as for any
// payment.

type invoiceLine struct {
	item     rid
	price    rid
	quantity int64
	amount   int64
}

type invoice struct {
	id            rid
	seq           uint64 // creation order
	created       int64
	customer      rid
	subscription  rid
	status        string // interned, one of wire.InvoiceStatuses
	billingReason string // interned
	lines         []invoiceLine
	amountDue     int64
	amountPaid    int64
	currency      string
	attempts      int64
	// nextAttempt is when the invoice is charged again, 0 for never.
	nextAttempt            int64
	payment                rid // the latest attempt
	periodStart, periodEnd int64
	counted                int64 // bytes charged to the account, see bounds.go
}

func (b *subBook) addInvoice(inv *invoice) {
	b.ensure()
	b.invoiceSeq++
	inv.seq = b.invoiceSeq
	b.invoices[inv.id] = inv
	b.invoiceOrder = append(b.invoiceOrder, inv)
}

// newInvoice invoices the current period of s, open; free (a trial) bills
// nothing.
func (c *call) newInvoice(s *subscription, reason string, free bool) *invoice {
	inv := &invoice{
		created: c.unix, customer: s.customer, subscription: s.id, status: wire.InvoiceStatusOpen,
		billingReason: reason, currency: s.currency(), periodStart: s.periodStart, periodEnd: s.periodEnd,
	}
	inv.lines = make([]invoiceLine, len(s.items))
	for i, it := range s.items {
		inv.lines[i] = invoiceLine{item: it.id, price: it.price.id, quantity: it.quantity}
		if !free {
			inv.lines[i].amount = it.price.unitAmount * it.quantity
			inv.amountDue += inv.lines[i].amount
		}
	}
	inv.id = periodInvoiceID(s)
	for c.a.bill.invoices[inv.id] != nil {
		inv.id = newRID()
	}
	c.a.bill.addInvoice(inv)
	s.latestInvoice = inv.id
	// Created and finalized at once: one JSON serves both events.
	b := c.invoiceScratch(inv)
	c.emit(wire.EventInvoiceCreated, b)
	c.emit(wire.EventInvoiceFinalized, b)
	return inv
}

// collect charges an open invoice once to src, or marks it paid when it
// is for nothing, and moves s by the outcome. src is nil when the
// customer has no card: the attempt then fails without a payment.
func (c *call) collect(inv *invoice, s *subscription, src *source) {
	if inv.amountDue == 0 {
		c.invoicePaid(inv, s)
		return
	}
	inv.attempts++
	if src == nil {
		c.putInvoice(inv)
		c.emit(wire.EventInvoicePaymentFailed, c.invoiceScratch(inv))
		c.invoiceUnpaid(s, inv)
		return
	}
	p := &payment{
		created: c.unix, amount: inv.amountDue, currency: inv.currency, captureRequested: true,
		customer: inv.customer, invoice: inv.id,
		description: "Invoice " + inv.id.format(wire.InvoiceIDPrefix),
	}
	p.setSource(src)
	c.makePayment(p)
	inv.payment = p.id
	c.emitPayment(p, c.paymentScratch(p))
	c.settle(inv, s, p)
}

// settle moves inv and s by the status of p, the invoice's latest
// payment: approved pays it, declined fails it, pending waits for 3-D
// Secure.
func (c *call) settle(inv *invoice, s *subscription, p *payment) {
	switch p.status {
	case wire.PaymentStatusApproved:
		c.invoicePaid(inv, s)
	case wire.PaymentStatusPending:
		c.putInvoice(inv)
		c.emit(wire.EventInvoicePaymentActionNeeded, c.invoiceScratch(inv))
		c.invoiceUnpaid(s, inv)
	default:
		c.putInvoice(inv)
		c.emit(wire.EventInvoicePaymentFailed, c.invoiceScratch(inv))
		c.invoiceUnpaid(s, inv)
	}
}

func (c *call) invoicePaid(inv *invoice, s *subscription) {
	inv.status, inv.amountPaid, inv.nextAttempt = wire.InvoiceStatusPaid, inv.amountDue, 0
	c.putInvoice(inv)
	c.emit(wire.EventInvoicePaid, c.invoiceScratch(inv))
	if s != nil && s.latestInvoice == inv.id {
		switch s.status {
		case wire.SubscriptionStatusIncomplete, wire.SubscriptionStatusPastDue, wire.SubscriptionStatusUnpaid:
			c.setSubscriptionStatus(s, wire.SubscriptionStatusActive)
		case wire.SubscriptionStatusTrialing:
			if inv.billingReason == wire.BillingReasonSubscriptionCycle {
				c.setSubscriptionStatus(s, wire.SubscriptionStatusActive)
			}
		}
	}
}

// invoiceUnpaid moves s after a failed or waiting charge of inv: a first
// invoice leaves it incomplete, a later one past_due.
func (c *call) invoiceUnpaid(s *subscription, inv *invoice) {
	if s == nil || s.latestInvoice != inv.id || s.ended() || inv.status == wire.InvoiceStatusUncollectible {
		// An uncollectible invoice's attempt leaves s in the state its
		// dunning ended it in.
		return
	}
	if inv.billingReason == wire.BillingReasonSubscriptionCreate {
		c.setSubscriptionStatus(s, wire.SubscriptionStatusIncomplete)
	} else {
		c.setSubscriptionStatus(s, wire.SubscriptionStatusPastDue)
	}
}

// setSubscriptionStatus moves s to status. The subscription the request
// creates is announced once, as a whole, by its create.
func (c *call) setSubscriptionStatus(s *subscription, status string) {
	if s.status == status {
		return
	}
	s.status = status
	if c.newSub == s {
		return
	}
	c.putSubscription(s)
	c.emit(wire.EventSubscriptionUpdated, c.subscriptionScratch(s))
}

// paymentSettled follows a payment of an invoice that left pending (3-D
// Secure completed or failed) to its invoice, while the invoice is open.
func (c *call) paymentSettled(p *payment) {
	inv := c.a.bill.invoices[p.invoice]
	if p.invoice.isZero() || inv == nil || !payable(inv) || inv.payment != p.id {
		return
	}
	s := c.a.bill.subs[inv.subscription]
	c.settle(inv, s, p)
	c.dun(inv, s)
}

// source is the card s charges: its default_source, else its customer's
// default; nil when there is none.
func (c *call) subscriptionSource(s *subscription) *source {
	cu := c.a.customers[s.customer]
	if cu == nil {
		return nil
	}
	if !s.defaultSource.isZero() {
		if _, src := cu.source(s.defaultSource); src != nil {
			return src
		}
	}
	return cu.defaultSource
}

func (c *call) pathInvoice() (*invoice, *apierr.Error) {
	id := c.r.PathValue("id")
	if inv := c.findInvoice(id); inv != nil {
		return inv, nil
	}
	return nil, apierr.NotFound("invoice", id)
}

func (c *call) findInvoice(id string) *invoice {
	if r, ok := parseRID(id, wire.InvoiceIDPrefix); ok {
		return c.a.bill.invoices[r]
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
	return ok(invoiceJSON(nil, inv))
}

// openOnly refuses to act on an invoice that is not open.
func openOnly(inv *invoice, verb string) *apierr.Error {
	e := apierr.Invalid("", "Invoice %s is %s; only an open invoice can be %s.", inv.id.format(wire.InvoiceIDPrefix), inv.status, verb)
	e.Code = wire.ErrorCodeInvoiceUnexpectedState
	return e
}

// payable reports whether inv can still be paid: open, or uncollectible
// after its dunning ran out, as Stripe's invoices are.
func payable(inv *invoice) bool {
	return inv.status == wire.InvoiceStatusOpen || inv.status == wire.InvoiceStatusUncollectible
}

// payInvoice is POST /v1/invoices/{id}/pay: one more attempt, now, of an
// open or uncollectible invoice; paying the latest invoice of an unpaid
// or past_due subscription makes it active again. A payment still
// waiting for 3-D Secure must finish first, so that an invoice is never
// paid twice.
func (c *call) payInvoice() response {
	if e := c.f.Check(); e != nil {
		return errResponse(e)
	}
	inv, e := c.pathInvoice()
	if e != nil {
		return errResponse(e)
	}
	if !payable(inv) {
		e := openOnly(inv, "paid")
		e.Message = "Invoice " + inv.id.format(wire.InvoiceIDPrefix) + " is " + inv.status + "; only an open or uncollectible invoice can be paid."
		return errResponse(e)
	}
	c.onClock(inv.customer)
	if p := c.a.payments[inv.payment]; p != nil && p.status == wire.PaymentStatusPending {
		e := openOnly(inv, "paid")
		e.Message = "Invoice " + inv.id.format(wire.InvoiceIDPrefix) + "'s payment " + p.id.format(wire.PaymentIDPrefix) +
			" is waiting for 3-D Secure; complete it (POST /_sandbox/payments/{id}/complete) before another attempt."
		return errResponse(e)
	}
	s := c.a.bill.subs[inv.subscription]
	src := c.subscriptionSource(s)
	if src == nil {
		e := apierr.Invalid("", "Customer %s has no default source to charge; attach one with POST /v1/customers/%s/sources.",
			inv.customer.format(wire.CustomerIDPrefix), inv.customer.format(wire.CustomerIDPrefix))
		e.Code = wire.ErrorCodeMissingSource
		return errResponse(e)
	}
	c.collect(inv, s, src)
	return ok(invoiceJSON(nil, inv))
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
	if inv.status != wire.InvoiceStatusOpen {
		return errResponse(openOnly(inv, "voided"))
	}
	if p := c.a.payments[inv.payment]; p != nil && p.status == wire.PaymentStatusPending {
		e := openOnly(inv, "voided")
		e.Message = "Invoice " + inv.id.format(wire.InvoiceIDPrefix) + "'s payment " + p.id.format(wire.PaymentIDPrefix) +
			" is waiting for 3-D Secure; complete it (POST /_sandbox/payments/{id}/complete) first."
		return errResponse(e)
	}
	c.onClock(inv.customer)
	inv.status, inv.nextAttempt = wire.InvoiceStatusVoid, 0
	c.putInvoice(inv)
	b := invoiceJSON(nil, inv)
	c.emit(wire.EventInvoiceVoided, b)
	return ok(b)
}

// listInvoices is GET /v1/invoices: newest first, keeping those that
// match every filter given.
func (c *call) listInvoices() response {
	if e := c.checkList(wire.ParamCustomer, wire.ParamSubscription, wire.ParamStatus); e != nil {
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
		sub = s.id
	}
	status, _ := c.f.Get(wire.ParamStatus)
	if status != "" && !slices.Contains(wire.InvoiceStatuses, status) {
		return errResponse(apierr.Invalid(wire.ParamStatus, "status %q is not an invoice status; use one of %s.", apierr.Clip(status), strings.Join(wire.InvoiceStatuses, ", ")))
	}
	match := func(inv *invoice) bool {
		return (cus.isZero() || inv.customer == cus) && (sub.isZero() || inv.subscription == sub) && (status == "" || inv.status == status)
	}
	l := listOf[*invoice]{
		url: wire.PathInvoices, noun: "invoice",
		seq: func(inv *invoice) uint64 { return inv.seq },
		find: func(id string) (*invoice, bool) {
			inv := c.findInvoice(id)
			return inv, inv != nil
		},
		every: func() []*invoice { return c.a.bill.invoiceOrder },
		write: invoiceJSON,
	}
	return l.serve(c, c.a.bill.invoiceOrder, match)
}
