package sandbox

import (
	"slices"
	"strconv"
	"strings"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/apierr"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/form"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/listing"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// The prices of the catalog's products (POST/GET /v1/prices, GET/POST
// /v1/prices/{id}). A price's product, currency, amount and period are
// fixed at creation, so that every invoice made from it means what it
// meant when the customer signed up; there is no delete.

type Price struct {
	ID         rid
	Seq        uint64 // creation order
	Created    int64
	Product    rid
	Currency   string // interned, one of wire.Currencies
	UnitAmount int64
	// recurring is the period; its Interval is "" for a one-time price,
	// else one of wire.Intervals (interned).
	Recurring wire.Recurring
	Nickname  string
	LookupKey string
	Active    bool
	Meta      Metadata
	Counted   int64 // bytes charged to the account, see bounds.go
}

// isRecurring reports whether the price bills every period.
func (pr *Price) IsRecurring() bool { return pr.Recurring.Interval != "" }

func (cat *Catalog) AddPrice(pr *Price) {
	cat.Ensure()
	cat.PriceSeq++
	pr.Seq = cat.PriceSeq
	cat.Prices[pr.ID] = pr
	cat.PriceOrder = append(cat.PriceOrder, pr)
	if p := cat.Products[pr.Product]; p != nil {
		p.Prices++
	}
	cat.IndexLookupKey(pr)
}

// indexLookupKey makes pr the holder of its lookup_key when it is active.
func (cat *Catalog) IndexLookupKey(pr *Price) {
	if pr.Active && pr.LookupKey != "" {
		cat.ByLookupKey[pr.LookupKey] = pr
	}
}

// unindexLookupKey forgets pr as the holder of its lookup_key.
func (cat *Catalog) UnindexLookupKey(pr *Price) {
	if pr.LookupKey != "" && cat.ByLookupKey[pr.LookupKey] == pr {
		delete(cat.ByLookupKey, pr.LookupKey)
	}
}

// findPrice is the account's price of that id, or nil. Subscriptions
// name their prices with it.
func (c *call) findPrice(id string) *Price {
	if r, ok := parseRID(id, wire.PriceIDPrefix); ok {
		return c.a.cat.Prices[r]
	}
	return nil
}

func (c *call) pathPrice() (*Price, *apierr.Error) {
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
func (c *call) setPriceMutable(dst *Price) (*Price, *apierr.Error) {
	if v, ok := c.f.Get(wire.ParamNickname); ok {
		if e := form.CheckLabel(wire.ParamNickname, v, wire.NameMaxLength); e != nil {
			return nil, e
		}
		dst.Nickname = strings.Clone(v)
	}
	if v, ok := c.f.Get(wire.ParamLookupKey); ok {
		if e := form.CheckLabel(wire.ParamLookupKey, v, wire.LookupKeyMaxLength); e != nil {
			return nil, e
		}
		dst.LookupKey = strings.Clone(v)
	}
	if e := form.Bool(c.f, wire.ParamActive, &dst.Active); e != nil {
		return nil, e
	}
	var transfer bool
	if e := form.Bool(c.f, wire.ParamTransferLookupKey, &transfer); e != nil {
		return nil, e
	}
	meta, e := applyMetadata(dst.Meta, c.f)
	if e != nil {
		return nil, e
	}
	dst.Meta = meta
	if dst.LookupKey == "" {
		return nil, nil
	}
	holder := c.a.cat.ByLookupKey[dst.LookupKey]
	switch {
	case holder == nil || holder.ID == dst.ID:
		return nil, nil
	case transfer:
		return holder, nil
	case !dst.Active:
		return nil, nil // unique among active prices only
	}
	return nil, apierr.Invalid(wire.ParamLookupKey, "lookup_key %q is held by the active price %s; send transfer_lookup_key=true to move it to this price, or choose another lookup_key.",
		apierr.Clip(dst.LookupKey), holder.ID.Format(wire.PriceIDPrefix))
}

// setPriceFixed validates what a price is of, costs and bills: the
// fields set once, at creation.
func (c *call) setPriceFixed(dst *Price) *apierr.Error {
	v, _ := c.f.Get(wire.ParamProduct)
	if v == "" {
		return apierr.MissingParam(wire.ParamProduct, "product is required: send the %s… id of the product this is a price of.", wire.ProductIDPrefix)
	}
	p := c.findProduct(v)
	if p == nil {
		return apierr.MissingRef(wire.ParamProduct, "product %q is not a product of this account; create it first with POST %s.", apierr.Clip(v), wire.PathProducts)
	}
	dst.Product = p.ID
	v, _ = c.f.Get(wire.ParamCurrency)
	if v == "" {
		return apierr.MissingParam(wire.ParamCurrency, "currency is required: send an upper-case code such as USD; use one of %s.", strings.Join(wire.Currencies, ", "))
	}
	var e *apierr.Error
	if dst.Currency, e = form.Currency(v); e != nil {
		return e
	}
	v, _ = c.f.Get(wire.ParamUnitAmount)
	if v == "" {
		return apierr.MissingParam(wire.ParamUnitAmount, "unit_amount is required: send the price of one unit in the currency's minor unit, from %d to %d.", wire.PriceAmountMin, wire.PriceAmountMax)
	}
	if dst.UnitAmount, e = form.ParseAmount(wire.ParamUnitAmount, v, wire.PriceAmountMin, wire.PriceAmountMax); e != nil {
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
	if known, ok := Intern(wire.Intervals, interval); ok {
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
	dst.Recurring = r
	return nil
}

func (c *call) createPrice() response {
	if e := c.f.Check(append(slices.Clone(priceFixed), priceMutable...)...); e != nil {
		return errResponse(e)
	}
	pr := &Price{Created: c.unix, Active: true}
	if e := c.setPriceFixed(pr); e != nil {
		return errResponse(e)
	}
	from, e := c.setPriceMutable(pr)
	if e != nil {
		return errResponse(e)
	}
	cat := &c.a.cat
	pr.ID = newRID()
	for cat.Prices[pr.ID] != nil {
		pr.ID = newRID()
	}
	c.takeLookupKey(from)
	cat.AddPrice(pr)
	c.putPrice(pr)
	b := priceJSON(nil, pr)
	c.emit(wire.EventPriceCreated, b)
	return ok(b)
}

// takeLookupKey removes the lookup_key of from, the active price that
// holds the key another price takes under transfer_lookup_key.
func (c *call) takeLookupKey(from *Price) {
	if from == nil {
		return
	}
	c.a.cat.UnindexLookupKey(from)
	from.LookupKey = ""
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
	cat.UnindexLookupKey(pr)
	*pr = next
	cat.IndexLookupKey(pr)
	c.putPrice(pr)
	b := priceJSON(nil, pr)
	c.emit(wire.EventPriceUpdated, b)
	return ok(b)
}

// listPrices is GET /v1/prices: newest first, keeping the prices that
// match every filter given.
func (c *call) listPrices() response {
	if e := listing.Check(c.f, wire.ParamProduct, wire.ParamActive, wire.ParamLookupKeysItem); e != nil {
		return errResponse(e)
	}
	var conds []func(*Price) bool
	if v, _ := c.f.Get(wire.ParamProduct); v != "" {
		p := c.findProduct(v)
		if p == nil {
			return errResponse(apierr.MissingRef(wire.ParamProduct, "product %q is not a product of this account; list the products with GET %s.", apierr.Clip(v), wire.PathProducts))
		}
		conds = append(conds, func(pr *Price) bool { return pr.Product == p.ID })
	}
	active, given, e := form.BoolFilter(c.f, wire.ParamActive)
	if e != nil {
		return errResponse(e)
	}
	if given {
		conds = append(conds, func(pr *Price) bool { return pr.Active == active })
	}
	if keys, found := c.f.All(wire.ParamLookupKeysItem); found {
		if len(keys) > wire.LookupKeysMax {
			return errResponse(apierr.Invalid(wire.ParamLookupKeys, "lookup_keys[] is given %d times; send at most %d lookup keys.", len(keys), wire.LookupKeysMax))
		}
		conds = append(conds, func(pr *Price) bool { return pr.LookupKey != "" && slices.Contains(keys, pr.LookupKey) })
	}
	var match func(*Price) bool
	if len(conds) > 0 {
		match = func(pr *Price) bool {
			for _, cond := range conds {
				if !cond(pr) {
					return false
				}
			}
			return true
		}
	}
	l := listing.List[*Price]{
		URL: wire.PathPrices, Noun: "price",
		Seq: func(pr *Price) uint64 { return pr.Seq },
		Find: func(id string) (*Price, bool) {
			pr := c.findPrice(id)
			return pr, pr != nil
		},
		Every: func() []*Price { return c.a.cat.PriceOrder },
		Write: priceJSON,
	}
	return serveList(c, &l, c.a.cat.PriceOrder, match)
}

func priceJSON(b []byte, pr *Price) []byte {
	if b == nil {
		b = make([]byte, 0, 384+len(pr.Nickname)+len(pr.LookupKey))
	}
	b = append(b, `{"id":`...)
	b = appendID(b, wire.PriceIDPrefix, pr.ID)
	b = append(b, `,"object":"price","product":`...)
	b = appendID(b, wire.ProductIDPrefix, pr.Product)
	b = append(b, `,"type":`...)
	if pr.IsRecurring() {
		b = appendString(b, wire.PriceTypeRecurring)
	} else {
		b = appendString(b, wire.PriceTypeOneTime)
	}
	b = append(b, `,"currency":`...)
	b = appendString(b, pr.Currency)
	b = append(b, `,"unit_amount":`...)
	b = appendInt(b, pr.UnitAmount)
	b = append(b, `,"recurring":`...)
	if pr.IsRecurring() {
		b = append(b, `{"interval":`...)
		b = appendString(b, pr.Recurring.Interval)
		b = append(b, `,"interval_count":`...)
		b = appendInt(b, pr.Recurring.IntervalCount)
		b = append(b, '}')
	} else {
		b = append(b, "null"...)
	}
	b = append(b, `,"nickname":`...)
	b = appendOptString(b, pr.Nickname)
	b = append(b, `,"lookup_key":`...)
	b = appendOptString(b, pr.LookupKey)
	b = append(b, `,"active":`...)
	b = appendBool(b, pr.Active)
	return appendMetadataTail(b, pr.Meta, pr.Created)
}
