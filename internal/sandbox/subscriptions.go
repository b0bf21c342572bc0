package sandbox

import (
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/apierr"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/form"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/listing"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/model"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// Subscriptions (POST/GET /v1/subscriptions, GET/POST/DELETE
// /v1/subscriptions/{id}): a customer on recurring prices of one currency
// and one period. A create invoices and charges the first period at once
// (invoices.go); a change takes effect from the next period, without
// proration.

var (
	subscriptionCreateParams = []string{wire.ParamCustomer, itemPriceParam, itemQuantityParam, wire.ParamDefaultSource,
		wire.ParamPaymentBehavior, wire.ParamTrialPeriodDays, wire.ParamCancelAtPeriodEnd, wire.ParamMetadata, form.MetadataKeys}
	subscriptionUpdateParams = []string{itemPriceParam, itemQuantityParam, wire.ParamQuantity, wire.ParamDefaultSource,
		wire.ParamCancelAtPeriodEnd, wire.ParamMetadata, form.MetadataKeys}
	itemPriceParam    = wire.ParamItems + "[#][" + wire.ParamPrice + "]"
	itemQuantityParam = wire.ParamItems + "[#][" + wire.ParamQuantity + "]"
)

// parseItems reads items[N][price] and items[N][quantity]. Entries keep
// the id of the item of prev with the same price, so that an update that
// only changes a quantity keeps the item. like, when set, is a price
// whose currency and period every item must share.
func (c *call) parseItems(prev []model.SubItem, like *model.Price) ([]model.SubItem, bool, *apierr.Error) {
	n := 0
	for i := range c.f {
		if p := &c.f[i]; p.Indexed && p.Base == wire.ParamItems {
			n = max(n, p.Index+1)
		}
	}
	if n == 0 {
		return nil, false, nil
	}
	if r := model.CheckItemCount(n); r != nil {
		return nil, true, refused(r)
	}
	items := make([]model.SubItem, n)
	for i := range items {
		name := wire.ItemParam(i, wire.ParamPrice)
		v, _ := c.f.Get(name)
		if v == "" {
			return nil, true, apierr.MissingParam(name, "%s is required: number the items 0, 1, 2… and give each the price_ id of a recurring price.", name)
		}
		pr := c.findPrice(v)
		if pr == nil {
			return nil, true, apierr.MissingRef(name, "%s %q is not a price of this account; create it first with POST %s.", name, apierr.Clip(v), wire.PathPrices)
		}
		if like == nil {
			like = pr
		}
		if r := model.CheckItem(name, pr, like, items[:i]); r != nil {
			return nil, true, refused(r)
		}
		q := int64(1)
		qname := wire.ItemParam(i, wire.ParamQuantity)
		if v, ok := c.f.Get(qname); ok {
			var e *apierr.Error
			if q, e = form.ParseCount(qname, v, 1, wire.QuantityMax); e != nil {
				return nil, true, e
			}
		}
		items[i] = model.NewSubItem(prev, pr, q)
	}
	return items, true, refused(model.CheckItemsCost(items))
}

// customerSource is the customer's source named by the parameter
// default_source, or nil when it is not given.
func (c *call) customerSource(cu *model.Customer) (*model.Source, *apierr.Error) {
	v, _ := c.f.Get(wire.ParamDefaultSource)
	src, r := cu.SubscriptionSource(v)
	return src, refused(r)
}

func (c *call) createSubscription() response {
	if e := c.f.Check(subscriptionCreateParams...); e != nil {
		return errResponse(e)
	}
	v, _ := c.f.Get(wire.ParamCustomer)
	if v == "" {
		return errResponse(apierr.MissingParam(wire.ParamCustomer, "customer is required: send the %s… id of the customer to bill.", wire.CustomerIDPrefix))
	}
	var cu *model.Customer
	if r, ok := parseRID(v, wire.CustomerIDPrefix); ok {
		cu = c.a.customers[r]
	}
	if cu == nil {
		return errResponse(apierr.MissingRef(wire.ParamCustomer, "customer %q does not exist; create it first with POST %s.", apierr.Clip(v), wire.PathCustomers))
	}
	c.onClock(cu.ID)
	items, given, e := c.parseItems(nil, nil)
	if e != nil {
		return errResponse(e)
	}
	if !given {
		return errResponse(apierr.MissingParam(wire.ItemParam(0, wire.ParamPrice), "items[0][price] is required: send the price_ id of a recurring price."))
	}
	src, e := c.customerSource(cu)
	if e != nil {
		return errResponse(e)
	}
	v, _ = c.f.Get(wire.ParamPaymentBehavior)
	behavior, r := model.PaymentBehavior(v)
	if r != nil {
		return errResponse(refused(r))
	}
	var trialDays int64
	if v, _ := c.f.Get(wire.ParamTrialPeriodDays); v != "" {
		if trialDays, e = form.ParseCount(wire.ParamTrialPeriodDays, v, 1, wire.TrialPeriodDaysMax); e != nil {
			return errResponse(e)
		}
	}
	sub := &model.Subscription{Created: c.unix, Customer: cu.ID, Items: items, Status: wire.SubscriptionStatusIncomplete, Clock: cu.Clock}
	if e := form.Bool(c.f, wire.ParamCancelAtPeriodEnd, &sub.CancelAtPeriodEnd); e != nil {
		return errResponse(e)
	}
	if sub.Meta, e = form.ApplyMetadata(nil, c.f); e != nil {
		return errResponse(e)
	}
	if src != nil {
		sub.DefaultSource = src.ID
	} else {
		src = cu.DefaultSource
	}
	if e := refused(sub.CheckStart(c.unix, trialDays)); e != nil {
		return errResponse(e)
	}
	if e := refused(sub.CheckFirstCharge(src, trialDays, behavior, func() bool { return c.chargedBefore(cu.ID, src.ID) })); e != nil {
		return errResponse(e) // nothing is created: not the subscription, its invoice or a payment
	}

	c.a.bill.Ensure()
	sub.ID = newRID()
	for c.a.bill.Subs[sub.ID] != nil {
		sub.ID = newRID()
	}
	sub.Start(c.unix, trialDays)
	c.a.bill.AddSubscription(sub)
	c.newSub = sub
	inv := c.newInvoice(sub, wire.BillingReasonSubscriptionCreate, trialDays > 0)
	c.collect(inv, sub, src)
	c.putSubscription(sub)
	b := model.SubscriptionJSON(nil, sub)
	c.emit(wire.EventSubscriptionCreated, b)
	return ok(b)
}

// pathSubscription is the subscription named by the path's {id}, or a 404.
func (c *call) pathSubscription() (*model.Subscription, *apierr.Error) {
	id := c.r.PathValue("id")
	if s := c.findSubscription(id); s != nil {
		return s, nil
	}
	return nil, apierr.NotFound("subscription", id)
}

func (c *call) findSubscription(id string) *model.Subscription {
	if r, ok := parseRID(id, wire.SubscriptionIDPrefix); ok {
		return c.a.bill.Subs[r]
	}
	return nil
}

func (c *call) retrieveSubscription() response {
	if e := c.f.Check(); e != nil {
		return errResponse(e)
	}
	s, e := c.pathSubscription()
	if e != nil {
		return errResponse(e)
	}
	return ok(model.SubscriptionJSON(nil, s))
}

func (c *call) updateSubscription() response {
	if e := c.f.Check(subscriptionUpdateParams...); e != nil {
		return errResponse(e)
	}
	s, e := c.pathSubscription()
	if e != nil {
		return errResponse(e)
	}
	if e := refused(s.CheckChange()); e != nil {
		return errResponse(e)
	}
	c.onClock(s.Customer)
	next := *s
	items, given, e := c.parseItems(s.Items, s.Items[0].Price)
	if e != nil {
		return errResponse(e)
	}
	if given {
		next.Items = items
	}
	if v, ok := c.f.Get(wire.ParamQuantity); ok {
		if e := refused(next.CheckQuantity(given)); e != nil {
			return errResponse(e)
		}
		q, e := form.ParseCount(wire.ParamQuantity, v, 1, wire.QuantityMax)
		if e != nil {
			return errResponse(e)
		}
		if e := refused(next.SetQuantity(q)); e != nil {
			return errResponse(e)
		}
	}
	cu := c.a.customers[s.Customer]
	if _, ok := c.f.Get(wire.ParamDefaultSource); ok && cu != nil {
		src, e := c.customerSource(cu)
		if e != nil {
			return errResponse(e)
		}
		next.DefaultSource = rid{}
		if src != nil {
			next.DefaultSource = src.ID
		}
	}
	if e := form.Bool(c.f, wire.ParamCancelAtPeriodEnd, &next.CancelAtPeriodEnd); e != nil {
		return errResponse(e)
	}
	if next.Meta, e = form.ApplyMetadata(s.Meta, c.f); e != nil {
		return errResponse(e)
	}
	*s = next
	c.putSubscription(s)
	b := model.SubscriptionJSON(nil, s)
	c.emit(wire.EventSubscriptionUpdated, b)
	return ok(b)
}

// cancelSubscription is DELETE /v1/subscriptions/{id}: canceled at once,
// and kept, retrievable.
func (c *call) cancelSubscription() response {
	if e := c.f.Check(); e != nil {
		return errResponse(e)
	}
	s, e := c.pathSubscription()
	if e != nil {
		return errResponse(e)
	}
	if e := refused(s.CheckChange()); e != nil {
		return errResponse(e)
	}
	c.onClock(s.Customer)
	c.endSubscription(s)
	return ok(model.SubscriptionJSON(nil, s))
}

// endSubscription cancels s now. Its open first invoice, when s is
// incomplete, is voided; a later open invoice stays open, to be paid by
// POST /v1/invoices/{id}/pay, but is no longer retried.
func (c *call) endSubscription(s *model.Subscription) {
	if s.Status == wire.SubscriptionStatusIncomplete {
		c.voidFirstInvoice(s)
	} else if inv := c.a.bill.Invoices[s.LatestInvoice]; inv != nil && inv.NextAttempt != 0 {
		inv.NextAttempt = 0
		c.putInvoice(inv, s)
	}
	s.Cancel(c.unix)
	c.putSubscription(s)
	c.emit(wire.EventSubscriptionDeleted, model.SubscriptionJSON(nil, s))
}

// cancelCustomerSubscriptions cancels the subscriptions of a customer
// being deleted: nobody is left to bill.
func (c *call) cancelCustomerSubscriptions(cu rid) {
	for _, s := range c.a.bill.SubOrder {
		if s.Customer == cu && !s.Ended() {
			c.endSubscription(s)
		}
	}
}

// listSubscriptions is GET /v1/subscriptions: newest first; without a
// status filter, every status but canceled.
func (c *call) listSubscriptions() response {
	if e := listing.Check(c.f, append(form.Created, wire.ParamCustomer, wire.ParamStatus, wire.ParamPrice)...); e != nil {
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
	f := model.SubscriptionFilter{Customer: cus}
	if v, _ := c.f.Get(wire.ParamPrice); v != "" {
		if f.Price = c.findPrice(v); f.Price == nil {
			return errResponse(apierr.MissingRef(wire.ParamPrice, "price %q is not a price of this account; list the prices with GET %s.", apierr.Clip(v), wire.PathPrices))
		}
	}
	f.Status, _ = c.f.Get(wire.ParamStatus)
	if e := refused(model.CheckStatusFilter(f.Status, "a subscription", wire.SubscriptionStatuses, wire.SubscriptionStatusAll)); e != nil {
		return errResponse(e)
	}
	l := listing.List[*model.Subscription]{
		URL: wire.PathSubscriptions, Noun: "subscription",
		Seq: func(s *model.Subscription) uint64 { return s.Seq },
		Find: func(id string) (*model.Subscription, bool) {
			s := c.findSubscription(id)
			return s, s != nil
		},
		Every: func() []*model.Subscription { return c.a.bill.SubOrder },
		Write: model.SubscriptionJSON,
	}
	return serveList(c, &l, c.a.bill.SubOrder, func(s *model.Subscription) bool {
		return f.Match(s) && s.Created >= from && s.Created <= to
	})
}

// listSubscriptionItems is GET /v1/subscription_items: the items of the
// subscription its required `subscription` names, in their order, paged
// like every list (see listInvoiceLines).
func (c *call) listSubscriptionItems() response {
	if e := listing.Check(c.f, wire.ParamSubscription); e != nil {
		return errResponse(e)
	}
	v, _ := c.f.Get(wire.ParamSubscription)
	if v == "" {
		return errResponse(apierr.MissingParam(wire.ParamSubscription, "subscription is required: the id of the subscription whose items to list."))
	}
	s := c.findSubscription(v)
	if s == nil {
		return errResponse(apierr.MissingRef(wire.ParamSubscription, "subscription %q does not exist.", apierr.Clip(v)))
	}
	n := len(s.Items)
	l := listing.List[int]{
		URL: wire.PathSubscriptionItems, Noun: "item of subscription " + s.ID.Format(wire.SubscriptionIDPrefix),
		Seq: func(i int) uint64 { return uint64(n - i) },
		Find: func(id string) (int, bool) {
			for i := range s.Items {
				if s.Items[i].ID.Format(wire.SubscriptionItemIDPrefix) == id {
					return i, true
				}
			}
			return 0, false
		},
		// An update between the parts of a long answer may drop items.
		Every: func() []int { return backwards(min(n, len(s.Items))) },
		Write: func(b []byte, i int) []byte { return model.SubItemJSON(b, &s.Items[i]) },
	}
	return serveList(c, &l, backwards(n), nil)
}
