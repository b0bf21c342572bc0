package sandbox

import (
	"slices"
	"strings"
	"time"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/apierr"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/form"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// Subscriptions (POST/GET /v1/subscriptions, GET/POST/DELETE
// /v1/subscriptions/{id}): a customer on recurring prices of one currency
// and one period. A create invoices and charges the first period at once
// (invoices.go); a change takes effect from the next period, without
// proration.

type subItem struct {
	id       rid
	price    *price // prices are never deleted; a reset drops both
	quantity int64
}

type subscription struct {
	id       rid
	seq      uint64 // creation order
	created  int64
	customer rid
	items    []subItem
	// defaultSource is the card charged; zero charges the customer's
	// default source.
	defaultSource          rid
	status                 string // interned, one of wire.SubscriptionStatuses
	periodStart, periodEnd int64
	cancelAtPeriodEnd      bool
	canceledAt             int64 // 0 while not canceled
	trialStart, trialEnd   int64 // 0 without a trial
	// trialNoticeSent is set once customer.subscription.trial_will_end is.
	trialNoticeSent bool
	// anchor is where periods are counted from (the creation, or the
	// trial's end) and cycle the current period's number from it: 0 for
	// a trial.
	anchor, cycle int64
	// clock is the test clock of the customer, zero on real time.
	clock         rid
	latestInvoice rid
	meta          metadata
	counted       int64 // bytes charged to the account, see bounds.go
}

// ended reports whether the subscription can no longer change.
func (s *subscription) ended() bool {
	return s.status == wire.SubscriptionStatusCanceled || s.status == wire.SubscriptionStatusIncompleteExpired
}

// recurring is the subscription's period, the same for all its items.
func (s *subscription) recurring() wire.Recurring { return s.items[0].price.recurring }

// currency is the subscription's currency, the same for all its items.
func (s *subscription) currency() string { return s.items[0].price.currency }

// subBook is an account's subscriptions and invoices, each kind in
// creation order with a sequence of its own, as the catalog's.
type subBook struct {
	subs         map[rid]*subscription
	subOrder     []*subscription
	subSeq       uint64
	invoices     map[rid]*invoice
	invoiceOrder []*invoice
	invoiceSeq   uint64
}

func (b *subBook) ensure() {
	if b.subs == nil {
		b.subs = make(map[rid]*subscription)
		b.invoices = make(map[rid]*invoice)
	}
}

// reset forgets every subscription and invoice; the sequences go on.
func (b *subBook) reset() { *b = subBook{subSeq: b.subSeq, invoiceSeq: b.invoiceSeq} }

func (b *subBook) addSubscription(s *subscription) {
	b.ensure()
	b.subSeq++
	s.seq = b.subSeq
	b.subs[s.id] = s
	b.subOrder = append(b.subOrder, s)
}

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
func (c *call) parseItems(prev []subItem, like *price) ([]subItem, bool, *apierr.Error) {
	n := 0
	for i := range c.f {
		if p := &c.f[i]; p.Indexed && p.Base == wire.ParamItems {
			n = max(n, p.Index+1)
		}
	}
	if n == 0 {
		return nil, false, nil
	}
	if n > wire.SubscriptionItemsMax {
		return nil, true, apierr.Invalid(wire.ParamItems, "items has %d entries; a subscription has at most %d.", n, wire.SubscriptionItemsMax)
	}
	items := make([]subItem, n)
	var total int64
	for i := range items {
		name := wire.ItemParam(i, wire.ParamPrice)
		v, _ := c.f.Get(name)
		if v == "" {
			return nil, true, apierr.MissingParam(name, "%s is required: number the items 0, 1, 2… and give each the price_ id of a recurring price.", name)
		}
		pr := c.findPrice(v)
		switch {
		case pr == nil:
			return nil, true, apierr.MissingRef(name, "%s %q is not a price of this account; create it first with POST %s.", name, apierr.Clip(v), wire.PathPrices)
		case !pr.isRecurring():
			return nil, true, apierr.Invalid(name, "%s %s is a one-time price; a subscription needs recurring prices (recurring[interval]).", name, apierr.Clip(v))
		case !pr.active:
			return nil, true, apierr.Invalid(name, "%s %s is archived (active=false); subscribe to an active price.", name, apierr.Clip(v))
		}
		if like == nil {
			like = pr
		}
		if pr.currency != like.currency || pr.recurring != like.recurring {
			return nil, true, apierr.Invalid(name, "%s %s bills %s every %d %s, but the subscription bills %s every %d %s; one subscription has one currency and one period.",
				name, apierr.Clip(v), pr.currency, pr.recurring.IntervalCount, pr.recurring.Interval, like.currency, like.recurring.IntervalCount, like.recurring.Interval)
		}
		for _, it := range items[:i] {
			if it.price == pr {
				return nil, true, apierr.Invalid(name, "%s %s is already an item of the subscription; raise that item's quantity instead.", name, apierr.Clip(v))
			}
		}
		q := int64(1)
		qname := wire.ItemParam(i, wire.ParamQuantity)
		if v, ok := c.f.Get(qname); ok {
			var e *apierr.Error
			if q, e = form.ParseCount(qname, v, 1, wire.QuantityMax); e != nil {
				return nil, true, e
			}
		}
		items[i] = subItem{id: newRID(), price: pr, quantity: q}
		for _, old := range prev {
			if old.price == pr {
				items[i].id = old.id
			}
		}
		total += pr.unitAmount * q
	}
	if total > wire.PaymentAmountMax {
		return nil, true, apierr.Invalid(wire.ParamItems, "items cost %d a period, over the largest payment, %d; lower a quantity.", total, wire.PaymentAmountMax)
	}
	return items, true, nil
}

// amount is what one period of items costs.
func amount(items []subItem) int64 {
	var n int64
	for _, it := range items {
		n += it.price.unitAmount * it.quantity
	}
	return n
}

// customerSource is the customer's source named by the parameter
// default_source, or nil when it is not given.
func (c *call) customerSource(cu *customer) (*source, *apierr.Error) {
	v, _ := c.f.Get(wire.ParamDefaultSource)
	if v == "" {
		return nil, nil
	}
	if r, ok := parseRID(v, wire.SourceIDPrefix); ok {
		if _, src := cu.source(r); src != nil {
			return src, nil
		}
	}
	return nil, apierr.MissingRef(wire.ParamDefaultSource, "default_source %q is not a source of customer %s; attach it first with POST /v1/customers/%s/sources.",
		apierr.Clip(v), cu.id.format(wire.CustomerIDPrefix), cu.id.format(wire.CustomerIDPrefix))
}

func (c *call) createSubscription() response {
	if e := c.f.Check(subscriptionCreateParams...); e != nil {
		return errResponse(e)
	}
	v, _ := c.f.Get(wire.ParamCustomer)
	if v == "" {
		return errResponse(apierr.MissingParam(wire.ParamCustomer, "customer is required: send the %s… id of the customer to bill.", wire.CustomerIDPrefix))
	}
	var cu *customer
	if r, ok := parseRID(v, wire.CustomerIDPrefix); ok {
		cu = c.a.customers[r]
	}
	if cu == nil {
		return errResponse(apierr.MissingRef(wire.ParamCustomer, "customer %q does not exist; create it first with POST %s.", apierr.Clip(v), wire.PathCustomers))
	}
	c.onClock(cu.id)
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
	behavior, _ := c.f.Get(wire.ParamPaymentBehavior)
	switch behavior {
	case "":
		behavior = wire.PaymentBehaviorAllowIncomplete
	case wire.PaymentBehaviorAllowIncomplete, wire.PaymentBehaviorErrorIfIncomplete:
	default:
		return errResponse(apierr.Invalid(wire.ParamPaymentBehavior, "payment_behavior %q is not valid; use %s or %s.", apierr.Clip(behavior),
			wire.PaymentBehaviorAllowIncomplete, wire.PaymentBehaviorErrorIfIncomplete))

	}
	var trialDays int64
	if v, _ := c.f.Get(wire.ParamTrialPeriodDays); v != "" {
		if trialDays, e = form.ParseCount(wire.ParamTrialPeriodDays, v, 1, wire.TrialPeriodDaysMax); e != nil {
			return errResponse(e)
		}
	}
	sub := &subscription{created: c.unix, customer: cu.id, items: items, status: wire.SubscriptionStatusIncomplete, clock: cu.clock}
	if e := form.Bool(c.f, wire.ParamCancelAtPeriodEnd, &sub.cancelAtPeriodEnd); e != nil {
		return errResponse(e)
	}
	if sub.meta, e = applyMetadata(nil, c.f); e != nil {
		return errResponse(e)
	}
	if src != nil {
		sub.defaultSource = src.id
	} else {
		src = cu.defaultSource
	}
	charged := trialDays == 0 && amount(items) > 0
	if charged && src == nil {
		e := apierr.Invalid(wire.ParamDefaultSource, "customer %s has no default source to charge; attach one with POST /v1/customers/%s/sources, or send default_source.",
			cu.id.format(wire.CustomerIDPrefix), cu.id.format(wire.CustomerIDPrefix))
		e.Code = wire.ErrorCodeMissingSource
		return errResponse(e)
	}
	firstApproves := src != nil && (src.card.behaviour == approves || src.card.behaviour == declinesLater && !c.chargedBefore(cu.id, src.id))
	if charged && behavior == wire.PaymentBehaviorErrorIfIncomplete && !firstApproves {
		// Nothing is created: not the subscription, its invoice or a payment.
		return errResponse((&apierr.Error{
			Status: 402, Type: wire.ErrorTypeCard, Code: wire.ErrorCodeCardDeclined,
			Message: "The first payment would not succeed at once (sandbox token " + src.card.token + "), and payment_behavior is " +
				wire.PaymentBehaviorErrorIfIncomplete + "; nothing was created. Use another card, or allow_incomplete.",
		}))

	}

	c.a.bill.ensure()
	sub.id = newRID()
	for c.a.bill.subs[sub.id] != nil {
		sub.id = newRID()
	}
	start := time.Unix(c.unix, 0).UTC()
	end := sub.recurring().PeriodEnd(start, 1)
	if trialDays > 0 {
		end = start.AddDate(0, 0, int(trialDays))
		sub.trialStart, sub.trialEnd = start.Unix(), end.Unix()
		sub.status = wire.SubscriptionStatusTrialing
		sub.anchor = end.Unix()
	} else {
		sub.anchor, sub.cycle = start.Unix(), 1
	}
	sub.periodStart, sub.periodEnd = start.Unix(), end.Unix()
	c.a.bill.addSubscription(sub)
	c.newSub = sub
	inv := c.newInvoice(sub, wire.BillingReasonSubscriptionCreate, trialDays > 0)
	c.collect(inv, sub, src)
	c.putSubscription(sub)
	b := subscriptionJSON(nil, sub)
	c.emit(wire.EventSubscriptionCreated, b)
	return ok(b)
}

// pathSubscription is the subscription named by the path's {id}, or a 404.
func (c *call) pathSubscription() (*subscription, *apierr.Error) {
	id := c.r.PathValue("id")
	if s := c.findSubscription(id); s != nil {
		return s, nil
	}
	return nil, apierr.NotFound("subscription", id)
}

func (c *call) findSubscription(id string) *subscription {
	if r, ok := parseRID(id, wire.SubscriptionIDPrefix); ok {
		return c.a.bill.subs[r]
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
	return ok(subscriptionJSON(nil, s))
}

// endedError refuses to change a subscription that has ended.
func endedError(s *subscription) *apierr.Error {
	e := apierr.Invalid("", "Subscription %s is %s and can no longer change; create a new subscription instead.",
		s.id.format(wire.SubscriptionIDPrefix), s.status)
	e.Code = wire.ErrorCodeSubscriptionUnexpectedState
	return e
}

func (c *call) updateSubscription() response {
	if e := c.f.Check(subscriptionUpdateParams...); e != nil {
		return errResponse(e)
	}
	s, e := c.pathSubscription()
	if e != nil {
		return errResponse(e)
	}
	if s.ended() {
		return errResponse(endedError(s))
	}
	c.onClock(s.customer)
	next := *s
	items, given, e := c.parseItems(s.items, s.items[0].price)
	if e != nil {
		return errResponse(e)
	}
	if given {
		next.items = items
	}
	if v, ok := c.f.Get(wire.ParamQuantity); ok {
		if given || len(next.items) != 1 {
			return errResponse(apierr.Invalid(wire.ParamQuantity, "quantity sets the quantity of a subscription's only item; with several items, or with items, send items[N][quantity]."))
		}
		q, e := form.ParseCount(wire.ParamQuantity, v, 1, wire.QuantityMax)
		if e != nil {
			return errResponse(e)
		}
		next.items = []subItem{{id: s.items[0].id, price: s.items[0].price, quantity: q}}
		if amount(next.items) > wire.PaymentAmountMax {
			return errResponse(apierr.Invalid(wire.ParamQuantity, "quantity %d costs %d a period, over the largest payment, %d.", q, amount(next.items), wire.PaymentAmountMax))
		}
	}
	cu := c.a.customers[s.customer]
	if _, ok := c.f.Get(wire.ParamDefaultSource); ok && cu != nil {
		src, e := c.customerSource(cu)
		if e != nil {
			return errResponse(e)
		}
		next.defaultSource = rid{}
		if src != nil {
			next.defaultSource = src.id
		}
	}
	if e := form.Bool(c.f, wire.ParamCancelAtPeriodEnd, &next.cancelAtPeriodEnd); e != nil {
		return errResponse(e)
	}
	if next.meta, e = applyMetadata(s.meta, c.f); e != nil {
		return errResponse(e)
	}
	*s = next
	c.putSubscription(s)
	b := subscriptionJSON(nil, s)
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
	if s.ended() {
		return errResponse(endedError(s))
	}
	c.onClock(s.customer)
	c.endSubscription(s)
	return ok(subscriptionJSON(nil, s))
}

// endSubscription cancels s now.
func (c *call) endSubscription(s *subscription) {
	s.status, s.canceledAt = wire.SubscriptionStatusCanceled, c.unix
	c.putSubscription(s)
	c.emit(wire.EventSubscriptionDeleted, subscriptionJSON(nil, s))
}

// cancelCustomerSubscriptions cancels the subscriptions of a customer
// being deleted: nobody is left to bill.
func (c *call) cancelCustomerSubscriptions(cu rid) {
	for _, s := range c.a.bill.subOrder {
		if s.customer == cu && !s.ended() {
			c.endSubscription(s)
		}
	}
}

// listSubscriptions is GET /v1/subscriptions: newest first; without a
// status filter, every status but canceled.
func (c *call) listSubscriptions() response {
	if e := c.checkList(wire.ParamCustomer, wire.ParamStatus, wire.ParamPrice); e != nil {
		return errResponse(e)
	}
	cus, e := c.customerFilter()
	if e != nil {
		return errResponse(e)
	}
	var pr *price
	if v, _ := c.f.Get(wire.ParamPrice); v != "" {
		if pr = c.findPrice(v); pr == nil {
			return errResponse(apierr.MissingRef(wire.ParamPrice, "price %q is not a price of this account; list the prices with GET %s.", apierr.Clip(v), wire.PathPrices))
		}
	}
	status, _ := c.f.Get(wire.ParamStatus)
	if status != "" && status != wire.SubscriptionStatusAll && !slices.Contains(wire.SubscriptionStatuses, status) {
		return errResponse(apierr.Invalid(wire.ParamStatus, "status %q is not a subscription status; use one of %s, or %s.", apierr.Clip(status),
			strings.Join(wire.SubscriptionStatuses, ", "), wire.SubscriptionStatusAll))

	}
	match := func(s *subscription) bool {
		switch {
		case !cus.isZero() && s.customer != cus:
			return false
		case status == "" && s.status == wire.SubscriptionStatusCanceled:
			return false
		case status != "" && status != wire.SubscriptionStatusAll && s.status != status:
			return false
		case pr != nil && !slices.ContainsFunc(s.items, func(it subItem) bool { return it.price == pr }):
			return false
		}
		return true
	}
	l := listOf[*subscription]{
		url: wire.PathSubscriptions, noun: "subscription",
		seq: func(s *subscription) uint64 { return s.seq },
		find: func(id string) (*subscription, bool) {
			s := c.findSubscription(id)
			return s, s != nil
		},
		every: func() []*subscription { return c.a.bill.subOrder },
		write: subscriptionJSON,
	}
	return l.serve(c, c.a.bill.subOrder, match)
}
