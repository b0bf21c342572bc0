package sandbox

import (
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/billing"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/model"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// The /_sandbox/ controls of the contract. They act on the calling account
// only, are not counted in stats and are not subject to faults.

func (c *call) completePayment() response {
	if e := c.f.Check(wire.ParamOutcome); e != nil {
		return errResponse(e)
	}
	p, e := c.pathPayment()
	if e != nil {
		return errResponse(e)
	}
	v, _ := c.f.Get(wire.ParamOutcome)
	outcome, r := p.Outcome(v)
	if r != nil {
		return errResponse(refused(r))
	}
	c.onClock(p.Customer)
	if inv := c.a.bill.Invoices[p.Invoice]; p.Status == wire.PaymentStatusPending && !p.Invoice.IsZero() && inv != nil && inv.Payment == p.ID {
		if at, ok := billing.RetryAt(c.unix, inv.Attempts); ok {
			if e := refused(inv.CheckRetry(outcome, at)); e != nil {
				return errResponse(e)
			}
		}
	}
	if e := refused(p.Complete(outcome, newAuthorizationCode)); e != nil {
		return errResponse(e)
	}
	c.putPayment(p)
	body := model.PaymentJSON(nil, p)
	c.emitPayment(p, body)
	c.paymentSettled(p)
	return ok(body)
}

func (c *call) disputePayment() response {
	if e := c.f.Check(); e != nil {
		return errResponse(e)
	}
	p, e := c.pathPayment()
	if e != nil {
		return errResponse(e)
	}
	c.onClock(p.Customer)
	if e := refused(p.Dispute()); e != nil {
		return errResponse(e)
	}
	c.putPayment(p)
	body := model.PaymentJSON(nil, p)
	c.emitPayment(p, body)
	return ok(body)
}

func (c *call) reset() response {
	if e := c.f.Check(); e != nil {
		return errResponse(e)
	}
	c.a.clear(c)
	c.dropAccount()
	c.putSeq()
	c.putBillingSettings() // settings stay
	return ok([]byte(`{"object":"reset","deleted":true}`))
}

// account answers GET /_sandbox/account. Only a secret key gets here (the
// route is not public): a publishable key never learns anything more.
func (c *call) account() response {
	if e := c.f.Check(); e != nil {
		return errResponse(e)
	}
	b := make([]byte, 0, 96)
	b = append(b, `{"object":"sandbox_account","publishable_key":`...)
	b = appendString(b, c.a.publishable)
	return ok(append(b, '}'))
}

func (c *call) stats() response {
	if e := c.f.Check(); e != nil {
		return errResponse(e)
	}
	a := c.a
	b := make([]byte, 0, 256)
	b = append(b, `{"object":"stats","customers":`...)
	b = appendInt(b, int64(len(a.customers)))
	b = append(b, `,"sources":`...)
	b = appendInt(b, int64(a.sources))
	b = append(b, `,"payments":`...)
	b = appendInt(b, int64(len(a.payments)))
	b = append(b, `,"requests":{"total":`...)
	b = appendInt(b, a.requests.Load())
	b = append(b, `,"by_route":{`...)
	first := true
	for i := range routes {
		n := a.byRoute[i].Load()
		if n == 0 {
			continue
		}
		if !first {
			b = append(b, ',')
		}
		first = false
		b = appendString(b, routes[i].name)
		b = append(b, ':')
		b = appendInt(b, n)
	}
	b = append(b, `}},"faults":{"errors":`...)
	b = appendInt(b, a.faultErrors.Load())
	b = append(b, `,"drops":`...)
	b = appendInt(b, a.faultDrops.Load())
	b = append(b, `,"rate_limited":`...)
	b = appendInt(b, a.faultRateLimited.Load())
	b = append(b, `},"connections":`...)
	b = appendInt(b, c.s.connections.Load())
	return ok(append(b, '}'))
}
