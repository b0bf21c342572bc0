package sandbox

import (
	"slices"
	"strings"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/apierr"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/form"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/listing"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/model"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// The prices of the catalog's products (POST/GET /v1/prices, GET/POST
// /v1/prices/{id}). A price's product, currency, amount and period are
// fixed at creation, so that every invoice made from it means what it
// meant when the customer signed up; there is no delete.

// findPrice is the account's price of that id, or nil. Subscriptions
// name their prices with it.
func (c *call) findPrice(id string) *model.Price {
	if r, ok := parseRID(id, wire.PriceIDPrefix); ok {
		return c.a.cat.Prices[r]
	}
	return nil
}

func (c *call) pathPrice() (*model.Price, *apierr.Error) {
	id := c.r.PathValue("id")
	if pr := c.findPrice(id); pr != nil {
		return pr, nil
	}
	return nil, apierr.NotFound("price", id)
}

// priceMutable are the parameters of a price's update; create takes them
// and model.PriceFixed.
var priceMutable = []string{wire.ParamNickname, wire.ParamLookupKey, wire.ParamTransferLookupKey, wire.ParamActive, wire.ParamMetadata, form.MetadataKeys}

// setPriceMutable validates the fields an update may change and writes
// them to dst, a copy. It returns the active price whose lookup_key dst
// takes under transfer_lookup_key, if any.
func (c *call) setPriceMutable(dst *model.Price) (*model.Price, *apierr.Error) {
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
	meta, e := form.ApplyMetadata(dst.Meta, c.f)
	if e != nil {
		return nil, e
	}
	dst.Meta = meta
	from, r := c.a.cat.LookupKeyHolder(dst, transfer)
	return from, refused(r)
}

// setPriceFixed validates what a price is of, costs and bills: the
// fields set once, at creation.
func (c *call) setPriceFixed(dst *model.Price) *apierr.Error {
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
	var r *model.Refusal
	dst.Recurring, r = model.ParseRecurring(interval, hasInterval, count, hasCount)
	return refused(r)
}

func (c *call) createPrice() response {
	if e := c.f.Check(append(slices.Clone(model.PriceFixed), priceMutable...)...); e != nil {
		return errResponse(e)
	}
	pr := &model.Price{Created: c.unix, Active: true}
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
	b := model.PriceJSON(nil, pr)
	c.emit(wire.EventPriceCreated, b)
	return ok(b)
}

// takeLookupKey removes the lookup_key of from, the active price that
// holds the key another price takes under transfer_lookup_key.
func (c *call) takeLookupKey(from *model.Price) {
	if from == nil {
		return
	}
	c.a.cat.TakeLookupKey(from)
	c.putPrice(from)
	c.emit(wire.EventPriceUpdated, model.PriceJSON(nil, from))
}

func (c *call) retrievePrice() response {
	if e := c.f.Check(); e != nil {
		return errResponse(e)
	}
	pr, e := c.pathPrice()
	if e != nil {
		return errResponse(e)
	}
	return ok(model.PriceJSON(nil, pr))
}

func (c *call) updatePrice() response {
	if e := refused(model.CheckPriceChange(func(name string) bool { _, ok := c.f.Get(name); return ok })); e != nil {
		return errResponse(e)
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
	c.takeLookupKey(from)
	c.a.cat.UpdatePrice(pr, next)
	c.putPrice(pr)
	b := model.PriceJSON(nil, pr)
	c.emit(wire.EventPriceUpdated, b)
	return ok(b)
}

// listPrices is GET /v1/prices: newest first, keeping the prices that
// match every filter given.
func (c *call) listPrices() response {
	if e := listing.Check(c.f, append(form.Created, wire.ParamProduct, wire.ParamActive, wire.ParamLookupKeysItem)...); e != nil {
		return errResponse(e)
	}
	from, to, e := form.CreatedRange(c.f)
	if e != nil {
		return errResponse(e)
	}
	conds := []func(*model.Price) bool{func(pr *model.Price) bool { return pr.Created >= from && pr.Created <= to }}
	if v, _ := c.f.Get(wire.ParamProduct); v != "" {
		p := c.findProduct(v)
		if p == nil {
			return errResponse(apierr.MissingRef(wire.ParamProduct, "product %q is not a product of this account; list the products with GET %s.", apierr.Clip(v), wire.PathProducts))
		}
		conds = append(conds, func(pr *model.Price) bool { return pr.Product == p.ID })
	}
	active, given, e := form.BoolFilter(c.f, wire.ParamActive)
	if e != nil {
		return errResponse(e)
	}
	if given {
		conds = append(conds, func(pr *model.Price) bool { return pr.Active == active })
	}
	keys, found, e := c.f.All(wire.ParamLookupKeysItem)
	if e != nil {
		return errResponse(e)
	}
	if found {
		if len(keys) > wire.LookupKeysMax {
			return errResponse(apierr.Invalid(wire.ParamLookupKeys, "lookup_keys has %d entries; send at most %d lookup keys.", len(keys), wire.LookupKeysMax))
		}
		conds = append(conds, func(pr *model.Price) bool { return pr.LookupKey != "" && slices.Contains(keys, pr.LookupKey) })
	}
	match := func(pr *model.Price) bool {
		for _, cond := range conds {
			if !cond(pr) {
				return false
			}
		}
		return true
	}
	l := listing.List[*model.Price]{
		URL: wire.PathPrices, Noun: "price",
		Seq: func(pr *model.Price) uint64 { return pr.Seq },
		Find: func(id string) (*model.Price, bool) {
			pr := c.findPrice(id)
			return pr, pr != nil
		},
		Every: func() []*model.Price { return c.a.cat.PriceOrder },
		Write: model.PriceJSON,
	}
	return serveList(c, &l, c.a.cat.PriceOrder, match)
}
