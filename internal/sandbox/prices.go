package sandbox

import (
	"slices"
	"strconv"
	"strings"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/apierr"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/form"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// The prices of the catalog's products (POST/GET /v1/prices, GET/POST
// /v1/prices/{id}). A price's product, currency, amount and period are
// fixed at creation, so that every invoice made from it means what it
// meant when the customer signed up; there is no delete.

type price struct {
	id         rid
	seq        uint64 // creation order
	created    int64
	product    rid
	currency   string // interned, one of wire.Currencies
	unitAmount int64
	// recurring is the period; its Interval is "" for a one-time price,
	// else one of wire.Intervals (interned).
	recurring wire.Recurring
	nickname  string
	lookupKey string
	active    bool
	meta      metadata
	counted   int64 // bytes charged to the account, see bounds.go
}

// isRecurring reports whether the price bills every period.
func (pr *price) isRecurring() bool { return pr.recurring.Interval != "" }

func (cat *catalog) addPrice(pr *price) {
	cat.ensure()
	cat.priceSeq++
	pr.seq = cat.priceSeq
	cat.prices[pr.id] = pr
	cat.priceOrder = append(cat.priceOrder, pr)
	if p := cat.products[pr.product]; p != nil {
		p.prices++
	}
	cat.indexLookupKey(pr)
}

// indexLookupKey makes pr the holder of its lookup_key when it is active.
func (cat *catalog) indexLookupKey(pr *price) {
	if pr.active && pr.lookupKey != "" {
		cat.byLookupKey[pr.lookupKey] = pr
	}
}

// unindexLookupKey forgets pr as the holder of its lookup_key.
func (cat *catalog) unindexLookupKey(pr *price) {
	if pr.lookupKey != "" && cat.byLookupKey[pr.lookupKey] == pr {
		delete(cat.byLookupKey, pr.lookupKey)
	}
}

// findPrice is the account's price of that id, or nil. Subscriptions
// name their prices with it.
func (c *call) findPrice(id string) *price {
	if r, ok := parseRID(id, wire.PriceIDPrefix); ok {
		return c.a.cat.prices[r]
	}
	return nil
}

func (c *call) pathPrice() (*price, *apierr.Error) {
	id := c.r.PathValue("id")
	if pr := c.findPrice(id); pr != nil {
		return pr, nil
	}
	return nil, apierr.NotFound("price", id)
}

// priceMutable are the parameters of a price's update; create takes them
// and the fixed ones.
var (
	priceMutable = []string{wire.ParamNickname, wire.ParamLookupKey, wire.ParamTransferLookupKey, wire.ParamActive, wire.ParamMetadata, form.MetadataKeys}
	priceFixed   = []string{wire.ParamProduct, wire.ParamCurrency, wire.ParamUnitAmount, wire.ParamRecurringInterval, wire.ParamRecurringIntervalCount}
)

// setPriceMutable validates the fields an update may change and writes
// them to dst, a copy. It returns the active price whose lookup_key dst
// takes under transfer_lookup_key, if any.
func (c *call) setPriceMutable(dst *price) (*price, *apierr.Error) {
	if v, ok := c.f.Get(wire.ParamNickname); ok {
		if e := form.CheckLabel(wire.ParamNickname, v, wire.NameMaxLength); e != nil {
			return nil, e
		}
		dst.nickname = strings.Clone(v)
	}
	if v, ok := c.f.Get(wire.ParamLookupKey); ok {
		if e := form.CheckLabel(wire.ParamLookupKey, v, wire.LookupKeyMaxLength); e != nil {
			return nil, e
		}
		dst.lookupKey = strings.Clone(v)
	}
	if e := form.Bool(c.f, wire.ParamActive, &dst.active); e != nil {
		return nil, e
	}
	var transfer bool
	if e := form.Bool(c.f, wire.ParamTransferLookupKey, &transfer); e != nil {
		return nil, e
	}
	meta, e := applyMetadata(dst.meta, c.f)
	if e != nil {
		return nil, e
	}
	dst.meta = meta
	if dst.lookupKey == "" {
		return nil, nil
	}
	holder := c.a.cat.byLookupKey[dst.lookupKey]
	switch {
	case holder == nil || holder.id == dst.id:
		return nil, nil
	case transfer:
		return holder, nil
	case !dst.active:
		return nil, nil // unique among active prices only
	}
	return nil, apierr.Invalid(wire.ParamLookupKey, "lookup_key %q is held by the active price %s; send transfer_lookup_key=true to move it to this price, or choose another lookup_key.",
		apierr.Clip(dst.lookupKey), holder.id.format(wire.PriceIDPrefix))
}

// setPriceFixed validates what a price is of, costs and bills: the
// fields set once, at creation.
func (c *call) setPriceFixed(dst *price) *apierr.Error {
	v, _ := c.f.Get(wire.ParamProduct)
	if v == "" {
		return apierr.MissingParam(wire.ParamProduct, "product is required: send the %s… id of the product this is a price of.", wire.ProductIDPrefix)
	}
	p := c.findProduct(v)
	if p == nil {
		return apierr.MissingRef(wire.ParamProduct, "product %q is not a product of this account; create it first with POST %s.", apierr.Clip(v), wire.PathProducts)
	}
	dst.product = p.id
	v, _ = c.f.Get(wire.ParamCurrency)
	if v == "" {
		return apierr.MissingParam(wire.ParamCurrency, "currency is required: send an upper-case code such as USD; use one of %s.", strings.Join(wire.Currencies, ", "))
	}
	var e *apierr.Error
	if dst.currency, e = form.Currency(v); e != nil {
		return e
	}
	v, _ = c.f.Get(wire.ParamUnitAmount)
	if v == "" {
		return apierr.MissingParam(wire.ParamUnitAmount, "unit_amount is required: send the price of one unit in the currency's minor unit, from %d to %d.", wire.PriceAmountMin, wire.PriceAmountMax)
	}
	if dst.unitAmount, e = form.ParseAmount(wire.ParamUnitAmount, v, wire.PriceAmountMin, wire.PriceAmountMax); e != nil {
		return e
	}
	interval, hasInterval := c.f.Get(wire.ParamRecurringInterval)
	count, hasCount := c.f.Get(wire.ParamRecurringIntervalCount)
	if !hasInterval {
		if hasCount {
			return apierr.MissingParam(wire.ParamRecurringInterval, "recurring[interval_count] needs recurring[interval]: send day, week, month or year, or neither for a one-time price.")
		}
		return nil
	}
	r := wire.Recurring{Interval: interval, IntervalCount: 1}
	if known, ok := intern(wire.Intervals, interval); ok {
		r.Interval = known
	}
	if hasCount {
		n, err := strconv.ParseInt(count, 10, 64)
		if err != nil || count[0] == '+' {
			return apierr.Invalid(wire.ParamRecurringIntervalCount, "recurring[interval_count] %q is not a whole number; send how many intervals make one period, 1 or more.", apierr.Clip(count))
		}
		r.IntervalCount = n
	}
	if param, err := r.Check(); err != nil {
		return apierr.Invalid(param, "%s.", err.Error())
	}
	dst.recurring = r
	return nil
}

func (c *call) createPrice() response {
	if e := c.f.Check(append(slices.Clone(priceFixed), priceMutable...)...); e != nil {
		return errResponse(e)
	}
	pr := &price{created: c.unix, active: true}
	if e := c.setPriceFixed(pr); e != nil {
		return errResponse(e)
	}
	from, e := c.setPriceMutable(pr)
	if e != nil {
		return errResponse(e)
	}
	cat := &c.a.cat
	pr.id = newRID()
	for cat.prices[pr.id] != nil {
		pr.id = newRID()
	}
	c.takeLookupKey(from)
	cat.addPrice(pr)
	c.putPrice(pr)
	b := priceJSON(nil, pr)
	c.emit(wire.EventPriceCreated, b)
	return ok(b)
}

// takeLookupKey removes the lookup_key of from, the active price that
// holds the key another price takes under transfer_lookup_key.
func (c *call) takeLookupKey(from *price) {
	if from == nil {
		return
	}
	c.a.cat.unindexLookupKey(from)
	from.lookupKey = ""
	c.putPrice(from)
	c.emit(wire.EventPriceUpdated, priceJSON(nil, from))
}

func (c *call) retrievePrice() response {
	if e := c.f.Check(); e != nil {
		return errResponse(e)
	}
	pr, e := c.pathPrice()
	if e != nil {
		return errResponse(e)
	}
	return ok(priceJSON(nil, pr))
}

func (c *call) updatePrice() response {
	for _, name := range priceFixed {
		if _, ok := c.f.Get(name); ok {
			e := apierr.UnknownParam(name)
			e.Message = name + " cannot change after a price is created: create another price with the new value and archive this one with active=false."
			return errResponse(e)
		}
	}
	if e := c.f.Check(priceMutable...); e != nil {
		return errResponse(e)
	}
	pr, e := c.pathPrice()
	if e != nil {
		return errResponse(e)
	}
	next := *pr
	from, e := c.setPriceMutable(&next)
	if e != nil {
		return errResponse(e)
	}
	cat := &c.a.cat
	c.takeLookupKey(from)
	cat.unindexLookupKey(pr)
	*pr = next
	cat.indexLookupKey(pr)
	c.putPrice(pr)
	b := priceJSON(nil, pr)
	c.emit(wire.EventPriceUpdated, b)
	return ok(b)
}

// listPrices is GET /v1/prices: newest first, keeping the prices that
// match every filter given.
func (c *call) listPrices() response {
	if e := c.checkList(wire.ParamProduct, wire.ParamActive, wire.ParamLookupKeysItem); e != nil {
		return errResponse(e)
	}
	var conds []func(*price) bool
	if v, _ := c.f.Get(wire.ParamProduct); v != "" {
		p := c.findProduct(v)
		if p == nil {
			return errResponse(apierr.MissingRef(wire.ParamProduct, "product %q is not a product of this account; list the products with GET %s.", apierr.Clip(v), wire.PathProducts))
		}
		conds = append(conds, func(pr *price) bool { return pr.product == p.id })
	}
	active, given, e := form.BoolFilter(c.f, wire.ParamActive)
	if e != nil {
		return errResponse(e)
	}
	if given {
		conds = append(conds, func(pr *price) bool { return pr.active == active })
	}
	if keys, found := c.f.All(wire.ParamLookupKeysItem); found {
		if len(keys) > wire.LookupKeysMax {
			return errResponse(apierr.Invalid(wire.ParamLookupKeys, "lookup_keys[] is given %d times; send at most %d lookup keys.", len(keys), wire.LookupKeysMax))
		}
		conds = append(conds, func(pr *price) bool { return pr.lookupKey != "" && slices.Contains(keys, pr.lookupKey) })
	}
	var match func(*price) bool
	if len(conds) > 0 {
		match = func(pr *price) bool {
			for _, cond := range conds {
				if !cond(pr) {
					return false
				}
			}
			return true
		}
	}
	l := listOf[*price]{
		url: wire.PathPrices, noun: "price",
		seq: func(pr *price) uint64 { return pr.seq },
		find: func(id string) (*price, bool) {
			pr := c.findPrice(id)
			return pr, pr != nil
		},
		every: func() []*price { return c.a.cat.priceOrder },
		write: priceJSON,
	}
	return l.serve(c, c.a.cat.priceOrder, match)
}

func priceJSON(b []byte, pr *price) []byte {
	if b == nil {
		b = make([]byte, 0, 384+len(pr.nickname)+len(pr.lookupKey))
	}
	b = append(b, `{"id":`...)
	b = appendID(b, wire.PriceIDPrefix, pr.id)
	b = append(b, `,"object":"price","product":`...)
	b = appendID(b, wire.ProductIDPrefix, pr.product)
	b = append(b, `,"type":`...)
	if pr.isRecurring() {
		b = appendString(b, wire.PriceTypeRecurring)
	} else {
		b = appendString(b, wire.PriceTypeOneTime)
	}
	b = append(b, `,"currency":`...)
	b = appendString(b, pr.currency)
	b = append(b, `,"unit_amount":`...)
	b = appendInt(b, pr.unitAmount)
	b = append(b, `,"recurring":`...)
	if pr.isRecurring() {
		b = append(b, `{"interval":`...)
		b = appendString(b, pr.recurring.Interval)
		b = append(b, `,"interval_count":`...)
		b = appendInt(b, pr.recurring.IntervalCount)
		b = append(b, '}')
	} else {
		b = append(b, "null"...)
	}
	b = append(b, `,"nickname":`...)
	b = appendOptString(b, pr.nickname)
	b = append(b, `,"lookup_key":`...)
	b = appendOptString(b, pr.lookupKey)
	b = append(b, `,"active":`...)
	b = appendBool(b, pr.active)
	return appendMetadataTail(b, pr.meta, pr.created)
}
