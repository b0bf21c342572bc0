package sandbox

import (
	"slices"
	"strings"
	"time"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/apierr"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/form"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

func (c *call) createPayment() response {
	if e := c.f.Check(wire.ParamAmount, wire.ParamCurrency, wire.ParamSource, wire.ParamCustomer, wire.ParamDescription, wire.ParamMetadata, form.MetadataKeys, wire.ParamCapture); e != nil {
		return errResponse(e)
	}
	v, _ := c.f.Get(wire.ParamAmount)
	if v == "" {
		return errResponse(apierr.MissingParam(wire.ParamAmount, "amount is required: a whole number of minor units from %d to %d, e.g. 1000 for 10.00 USD.",
			wire.PaymentAmountMin, wire.PaymentAmountMax))

	}
	amount, e := form.ParseAmount(wire.ParamAmount, v, wire.PaymentAmountMin, wire.PaymentAmountMax)
	if e != nil {
		return errResponse(e)
	}
	v, _ = c.f.Get(wire.ParamCurrency)
	if v == "" {
		return errResponse(apierr.MissingParam(wire.ParamCurrency, "currency is required: one of %s.", strings.Join(wire.Currencies, ", ")))
	}
	cur, e := form.Currency(v)
	if e != nil {
		return errResponse(e)
	}
	capture, given, e := form.BoolFilter(c.f, wire.ParamCapture)
	if e != nil {
		return errResponse(e)
	}
	capture = capture || !given // empty or absent: capture at once
	description, _ := c.f.Get(wire.ParamDescription)
	if e := form.CheckDescription(description); e != nil {
		return errResponse(e)
	}
	description = strings.Clone(description) // not a view into the body
	meta, e := applyMetadata(nil, c.f)
	if e != nil {
		return errResponse(e)
	}

	var cu *customer
	if v, _ := c.f.Get(wire.ParamCustomer); v != "" {
		if r, ok := parseRID(v, wire.CustomerIDPrefix); ok {
			cu = c.a.customers[r]
		}
		if cu == nil {
			return errResponse(apierr.MissingRef(wire.ParamCustomer, "customer %q does not exist; create it first, or charge a token with source alone.", apierr.Clip(v)))
		}
	}
	if cu != nil {
		c.onClock(cu.id)
	}
	p := &payment{
		created: c.unix, amount: amount, currency: cur, captureRequested: capture,
		description: description, meta: meta,
	}
	if cu != nil {
		p.customer = cu.id
	}
	switch v, _ := c.f.Get(wire.ParamSource); {
	case strings.HasPrefix(v, wire.SourceIDPrefix):
		if cu == nil {
			return errResponse(apierr.MissingParam(wire.ParamCustomer, "source %s is a stored source; send it together with customer, the customer it is attached to.", apierr.Clip(v)))
		}
		var src *source
		if r, ok := parseRID(v, wire.SourceIDPrefix); ok {
			_, src = cu.source(r)
		}
		if src == nil {
			return errResponse(apierr.MissingRef(wire.ParamSource, "source %q is not attached to customer %s; send one of its sources, or a token.",
				apierr.Clip(v), cu.id.format(wire.CustomerIDPrefix)))

		}
		p.setSource(src)
	case v != "":
		// A charged token becomes a one-off source of its own.
		src, e := c.tokenSource(wire.ParamSource, v)
		if e != nil {
			return errResponse(e)
		}
		p.setSource(src)
	case cu != nil:
		src := cu.defaultSource
		if src == nil {
			e := apierr.Invalid(wire.ParamSource, "customer %s has no default source to charge; attach one with POST /v1/customers/%s/sources, or send source.",
				cu.id.format(wire.CustomerIDPrefix), cu.id.format(wire.CustomerIDPrefix))
			e.Code = wire.ErrorCodeMissingSource
			return errResponse(e)
		}
		p.setSource(src)
	default:
		return errResponse(apierr.MissingParam(wire.ParamSource, "Send source (a token such as %s), customer (a customer with a default source), or both.", TokenVisa))
	}

	c.makePayment(p)
	body := paymentJSON(nil, p)
	c.emitPayment(p, body)
	if p.status == wire.PaymentStatusDeclined {
		// The declined payment exists; the 402 names it.
		return errResponse((&apierr.Error{
			Status: 402, Type: wire.ErrorTypeCard, Code: wire.ErrorCodeCardDeclined,
			Message: "The card was declined (sandbox token " + p.card.token + "). Use another card.",
			Payment: p.id.format(wire.PaymentIDPrefix),
		}))

	}
	return ok(body)
}

// makePayment charges p's card: the card's behaviour decides its status.
// It stores and indexes p; the caller emits its event.
func (c *call) makePayment(p *payment) {
	p.id = newRID()
	for c.a.payments[p.id] != nil {
		p.id = newRID()
	}
	behaviour := p.card.behaviour
	if behaviour == declinesLater {
		behaviour = approves
		if c.chargedBefore(p.customer, p.sourceID) {
			behaviour = declines
		}
	}
	switch behaviour {
	case declines:
		p.status = wire.PaymentStatusDeclined
	case needs3DS:
		p.status = wire.PaymentStatusPending
	default:
		p.authCode = newAuthorizationCode()
		if p.captureRequested {
			p.status, p.captured = wire.PaymentStatusApproved, true
		} else {
			p.status = wire.PaymentStatusAuthorized
		}
	}
	c.a.seq++
	p.seq = c.a.seq
	c.a.addPayment(p)
	c.putPayment(p)
	c.putSeq()
}

// chargedBefore reports whether the customer's stored source src was
// charged before; a token charged once is a source of its own, never
// charged before.
func (c *call) chargedBefore(cu, src rid) bool {
	for _, q := range c.a.byCustomer[cu] {
		if q.sourceID == src {
			return true
		}
	}
	return false
}

// setSource records the card a payment is charged to.
func (p *payment) setSource(src *source) {
	p.sourceID, p.card, p.expMonth, p.expYear = src.id, src.card, src.expMonth, src.expYear
}

// pathPayment is the payment named by the path's {id}, or a 404.
func (c *call) pathPayment() (*payment, *apierr.Error) {
	id := c.r.PathValue("id")
	if r, ok := parseRID(id, wire.PaymentIDPrefix); ok {
		if p := c.a.payments[r]; p != nil {
			return p, nil
		}
	}
	return nil, apierr.NotFound("payment", id)
}

func (c *call) retrievePayment() response {
	if e := c.f.Check(); e != nil {
		return errResponse(e)
	}
	p, e := c.pathPayment()
	if e != nil {
		return errResponse(e)
	}
	return ok(paymentJSON(nil, p))
}

// updatePayment changes a payment's description and metadata, with the
// customers' metadata rules; nothing else of a payment can change this way
// (amount, currency and source are the charge itself).
func (c *call) updatePayment() response {
	if e := c.f.Check(wire.ParamDescription, wire.ParamMetadata, form.MetadataKeys); e != nil {
		return errResponse(e)
	}
	p, e := c.pathPayment()
	if e != nil {
		return errResponse(e)
	}
	// Validate on a copy of the metadata, so that a rejected update changes nothing.
	meta, e := applyMetadata(p.meta, c.f)
	if e != nil {
		return errResponse(e)
	}
	if v, ok := c.f.Get(wire.ParamDescription); ok {
		if e := form.CheckDescription(v); e != nil {
			return errResponse(e)
		}
		// An empty description clears it; clone, v points into the body.
		p.description = strings.Clone(v)
	}
	p.meta = meta
	c.putPayment(p)
	body := paymentJSON(nil, p)
	c.emit(wire.EventPaymentUpdated, body)
	return ok(body)
}

func (c *call) capturePayment() response {
	if e := c.f.Check(wire.ParamAmount); e != nil {
		return errResponse(e)
	}
	p, e := c.pathPayment()
	if e != nil {
		return errResponse(e)
	}
	// pending -> approved is allowed too, but that is the bank finishing a
	// payment, not a capture: only an authorized payment can be captured.
	if p.status != wire.PaymentStatusAuthorized || !canMove(p.status, wire.PaymentStatusApproved) {
		return errResponse(apierr.UnexpectedState("Payment %s is %s; only an %s payment can be captured.",
			p.id.format(wire.PaymentIDPrefix), p.status, wire.PaymentStatusAuthorized))

	}
	amount := p.amount
	if v, _ := c.f.Get(wire.ParamAmount); v != "" {
		if amount, e = form.ParseMoney(wire.ParamAmount, v, wire.PaymentAmountMin, p.amount, p.currency); e != nil {
			return errResponse(e)
		}
	}
	// Capturing less releases the rest: the payment is for what was captured.
	p.amount, p.status, p.captured = amount, wire.PaymentStatusApproved, true
	c.putPayment(p)
	body := paymentJSON(nil, p)
	c.emitPayment(p, body)
	return ok(body)
}

func (c *call) refundPayment() response {
	if e := c.f.Check(wire.ParamAmount); e != nil {
		return errResponse(e)
	}
	p, e := c.pathPayment()
	if e != nil {
		return errResponse(e)
	}
	if !canMove(p.status, wire.PaymentStatusRefunded) {
		return errResponse(apierr.UnexpectedState("Payment %s is %s; only an %s or %s payment can be refunded.",
			p.id.format(wire.PaymentIDPrefix), p.status, wire.PaymentStatusApproved, wire.PaymentStatusPartiallyRefunded))

	}
	left := p.amount - p.refunded
	amount := left
	if v, _ := c.f.Get(wire.ParamAmount); v != "" {
		if amount, e = form.ParseMoney(wire.ParamAmount, v, wire.PaymentAmountMin, left, p.currency); e != nil {
			return errResponse(e)
		}
	}
	status := wire.PaymentStatusPartiallyRefunded
	if p.refunded+amount == p.amount {
		status = wire.PaymentStatusRefunded
	}
	if !canMove(p.status, status) {
		return errResponse(apierr.UnexpectedState("Payment %s cannot move from %s to %s.", p.id.format(wire.PaymentIDPrefix), p.status, status))
	}
	p.refunded += amount
	p.status = status
	c.putPayment(p)
	body := paymentJSON(nil, p)
	c.emitPayment(p, body)
	return ok(body)
}

func (c *call) listPayments() response {
	if e := c.checkList(wire.ParamCustomer, wire.ParamStatus, wire.ParamCreatedGTE, wire.ParamCreatedLTE); e != nil {
		return errResponse(e)
	}
	cus, e := c.customerFilter()
	if e != nil {
		return errResponse(e)
	}
	all := c.a.order
	if !cus.isZero() {
		all = c.a.byCustomer[cus]
	}
	status, _ := c.f.Get(wire.ParamStatus)
	if status != "" && !slices.Contains(wire.PaymentStatuses, status) {
		return errResponse(apierr.Invalid(wire.ParamStatus, "status %q is not a payment status; use one of %s.", apierr.Clip(status), strings.Join(wire.PaymentStatuses, ", ")))
	}
	var bounds [2]int64
	for i, name := range []string{wire.ParamCreatedGTE, wire.ParamCreatedLTE} {
		bounds[i] = [2]int64{-1 << 63, 1<<63 - 1}[i]
		v, _ := c.f.Get(name)
		if v == "" {
			continue
		}
		t, err := time.Parse(time.RFC3339, v)
		if err != nil {
			return errResponse(apierr.Invalid(name, "%s %q is not an RFC 3339 time; use the form 2024-01-31T23:59:59Z.", name, apierr.Clip(v)))
		}
		// created_at has whole seconds: round the bound inwards.
		bounds[i] = t.Unix()
		if i == 0 && t.Nanosecond() > 0 {
			bounds[i]++
		}
	}
	l := listOf[*payment]{
		url: wire.PathPayments, noun: "payment",
		seq: func(p *payment) uint64 { return p.seq },
		find: func(id string) (*payment, bool) {
			r, ok := parseRID(id, wire.PaymentIDPrefix)
			p := c.a.payments[r]
			return p, ok && p != nil
		},
		every: func() []*payment { return c.a.order },
		write: paymentJSON,
	}
	return l.serve(c, all, func(p *payment) bool {
		return (status == "" || p.status == status) && p.created >= bounds[0] && p.created <= bounds[1]
	})
}

func paymentJSON(b []byte, p *payment) []byte {
	if b == nil {
		b = make([]byte, 0, 512+len(p.description))
	}
	b = append(b, `{"id":`...)
	b = appendID(b, wire.PaymentIDPrefix, p.id)
	b = append(b, `,"object":"payment","amount":`...)
	b = appendInt(b, p.amount)
	b = append(b, `,"amount_refunded":`...)
	b = appendInt(b, p.refunded)
	b = append(b, `,"currency":`...)
	b = appendString(b, p.currency)
	b = append(b, `,"status":`...)
	b = appendString(b, p.status)
	b = append(b, `,"captured":`...)
	b = appendBool(b, p.captured)
	b = append(b, `,"authorization_code":`...)
	b = appendOptString(b, p.authCode)
	b = append(b, `,"source":{"id":`...)
	b = appendID(b, wire.SourceIDPrefix, p.sourceID)
	b = append(b, `,"brand":`...)
	b = appendString(b, p.card.brand)
	b = append(b, `,"last4":`...)
	b = appendString(b, p.card.last4)
	b = append(b, `,"exp_month":`...)
	b = appendInt(b, int64(p.expMonth))
	b = append(b, `,"exp_year":`...)
	b = appendInt(b, int64(p.expYear))
	b = append(b, `},"customer":`...)
	if p.customer.isZero() {
		b = append(b, "null"...)
	} else {
		b = appendID(b, wire.CustomerIDPrefix, p.customer)
	}
	b = append(b, `,"description":`...)
	b = appendOptString(b, p.description)
	b = append(b, `,"invoice":`...)
	b = appendOptID(b, wire.InvoiceIDPrefix, p.invoice)
	return appendMetadataTail(b, p.meta, p.created)
}
