package sandbox

import (
	"net/http"
	"strings"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/apierr"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/form"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/listing"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/model"
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
	meta, e := form.ApplyMetadata(nil, c.f)
	if e != nil {
		return errResponse(e)
	}

	var cu *model.Customer
	if v, _ := c.f.Get(wire.ParamCustomer); v != "" {
		if r, ok := parseRID(v, wire.CustomerIDPrefix); ok {
			cu = c.a.customers[r]
		}
		if cu == nil {
			return errResponse(apierr.MissingRef(wire.ParamCustomer, "customer %q does not exist; create it first, or charge a token with source alone.", apierr.Clip(v)))
		}
	}
	if cu != nil {
		c.onClock(cu.ID)
	}
	p := &model.Payment{
		Created: c.unix, Amount: amount, Currency: cur, CaptureRequested: capture,
		Description: description, Meta: meta,
	}
	if cu != nil {
		p.Customer = cu.ID
	}
	switch v, _ := c.f.Get(wire.ParamSource); {
	case strings.HasPrefix(v, wire.SourceIDPrefix):
		src, r := model.StoredSource(cu, v)
		if r != nil {
			return errResponse(refused(r))
		}
		p.SetSource(src)
	case v != "":
		// A charged token becomes a one-off source of its own.
		src, e := c.tokenSource(wire.ParamSource, v)
		if e != nil {
			return errResponse(e)
		}
		p.SetSource(src)
	case cu != nil:
		if cu.DefaultSource == nil {
			return errResponse(refused(model.NoSourceToCharge(cu.ID, wire.ParamSource)))
		}
		p.SetSource(cu.DefaultSource)
	default:
		return errResponse(apierr.MissingParam(wire.ParamSource, "Send source (a token such as %s), customer (a customer with a default source), or both.", model.TokenVisa))
	}

	c.makePayment(p)
	body := model.PaymentJSON(nil, p)
	c.emitPayment(p, body)
	if p.Status == wire.PaymentStatusDeclined {
		return errResponse(cardDeclined(p, "Use another card."))
	}
	return ok(body)
}

// cardDeclined is the 402 of a charge that made the declined payment p,
// which exists: the error names it, and fix says what to do.
func cardDeclined(p *model.Payment, fix string) *apierr.Error {
	return &apierr.Error{
		Status: http.StatusPaymentRequired, Type: wire.ErrorTypeCard, Code: wire.ErrorCodeCardDeclined,
		Message: "The card was declined (sandbox token " + p.Card.Token + "). " + fix,
		Payment: p.ID.Format(wire.PaymentIDPrefix),
	}
}

// makePayment charges p's card: the card's behaviour decides its status.
// It stores and indexes p; the caller emits its event.
func (c *call) makePayment(p *model.Payment) {
	p.ID = newRID()
	for c.a.payments[p.ID] != nil {
		p.ID = newRID()
	}
	p.Charge(p.Card.Outcome(func() bool { return c.chargedBefore(p.Customer, p.SourceID) }), newAuthorizationCode)
	c.a.seq++
	p.Seq = c.a.seq
	c.a.addPayment(p)
	c.putPayment(p)
	c.putSeq()
}

// chargedBefore reports whether the customer's stored source src was
// charged before; a token charged once is a source of its own, never
// charged before.
func (c *call) chargedBefore(cu, src rid) bool {
	for _, q := range c.a.byCustomer[cu] {
		if q.SourceID == src {
			return true
		}
	}
	return false
}

// pathPayment is the payment named by the path's {id}, or a 404.
func (c *call) pathPayment() (*model.Payment, *apierr.Error) {
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
	return ok(model.PaymentJSON(nil, p))
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
	c.onClock(p.Customer)
	// Validate on a copy of the metadata, so that a rejected update changes nothing.
	meta, e := form.ApplyMetadata(p.Meta, c.f)
	if e != nil {
		return errResponse(e)
	}
	if v, ok := c.f.Get(wire.ParamDescription); ok {
		if e := form.CheckDescription(v); e != nil {
			return errResponse(e)
		}
		// An empty description clears it; clone, v points into the body.
		p.Description = strings.Clone(v)
	}
	p.Meta = meta
	c.putPayment(p)
	body := model.PaymentJSON(nil, p)
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
	c.onClock(p.Customer)
	if e := refused(p.CheckCapture()); e != nil {
		return errResponse(e)
	}
	amount := p.Amount
	if v, _ := c.f.Get(wire.ParamAmount); v != "" {
		if amount, e = form.ParseMoney(wire.ParamAmount, v, wire.PaymentAmountMin, p.Amount, p.Currency); e != nil {
			return errResponse(e)
		}
	}
	p.Capture(amount)
	c.putPayment(p)
	body := model.PaymentJSON(nil, p)
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
	c.onClock(p.Customer)
	if e := refused(p.CheckRefund()); e != nil {
		return errResponse(e)
	}
	amount := p.Refundable()
	if v, _ := c.f.Get(wire.ParamAmount); v != "" {
		if amount, e = form.ParseMoney(wire.ParamAmount, v, wire.PaymentAmountMin, p.Refundable(), p.Currency); e != nil {
			return errResponse(e)
		}
	}
	if e := refused(p.Refund(amount)); e != nil {
		return errResponse(e)
	}
	c.putPayment(p)
	body := model.PaymentJSON(nil, p)
	c.emitPayment(p, body)
	return ok(body)
}

func (c *call) listPayments() response {
	if e := listing.Check(c.f, append(form.Created, wire.ParamCustomer, wire.ParamStatus)...); e != nil {
		return errResponse(e)
	}
	cus, e := c.customerFilter()
	if e != nil {
		return errResponse(e)
	}
	all := c.a.order
	if !cus.IsZero() {
		all = c.a.byCustomer[cus]
	}
	status, _ := c.f.Get(wire.ParamStatus)
	if e := refused(model.CheckStatusFilter(status, "a payment", wire.PaymentStatuses, "")); e != nil {
		return errResponse(e)
	}
	from, to, e := form.CreatedRange(c.f)
	if e != nil {
		return errResponse(e)
	}
	l := listing.List[*model.Payment]{
		URL: wire.PathPayments, Noun: "payment",
		Seq: func(p *model.Payment) uint64 { return p.Seq },
		Find: func(id string) (*model.Payment, bool) {
			r, ok := parseRID(id, wire.PaymentIDPrefix)
			p := c.a.payments[r]
			return p, ok && p != nil
		},
		Every: func() []*model.Payment { return c.a.order },
		Write: model.PaymentJSON,
	}
	return serveList(c, &l, all, func(p *model.Payment) bool {
		return (status == "" || p.Status == status) && p.Created >= from && p.Created <= to
	})
}
