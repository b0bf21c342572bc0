package model

import (
	"strconv"

	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// The catalog's rules: a product is deleted only while it has no prices
// (prices cannot be deleted, so that the subscriptions and invoices that
// name one always find it); what a price is of, costs and bills is fixed
// at its creation; and a lookup_key is held by one active price at most,
// moved to another only when asked.

// PriceFixed are the parameters of what a price is of, costs and bills:
// set at its creation, never changed.
var PriceFixed = []string{wire.ParamProduct, wire.ParamCurrency, wire.ParamUnitAmount, wire.ParamRecurringInterval, wire.ParamRecurringIntervalCount}

// CheckPriceChange refuses an update of a price that sends one of
// PriceFixed; given reports whether the request sends a parameter.
func CheckPriceChange(given func(name string) bool) *Refusal {
	for _, name := range PriceFixed {
		if given(name) {
			return &Refusal{Param: name, Code: wire.ErrorCodeParameterUnknown,
				Message: name + " cannot change after a price is created: create another price with the new value and archive this one with active=false."}
		}
	}
	return nil
}

// ParseRecurring reads what a price bills every period from
// recurring[interval] and recurring[interval_count], each with whether
// it was sent: neither for a one-time price (the zero Recurring); a count
// alone is refused, and a count defaults to 1.
func ParseRecurring(interval string, hasInterval bool, count string, hasCount bool) (wire.Recurring, *Refusal) {
	if !hasInterval {
		if hasCount {
			return wire.Recurring{}, &Refusal{Param: wire.ParamRecurringInterval, Code: wire.ErrorCodeParameterMissing,
				Message: "recurring[interval_count] needs recurring[interval]: send day, week, month or year, or neither for a one-time price."}
		}
		return wire.Recurring{}, nil
	}
	r := wire.Recurring{Interval: interval, IntervalCount: 1}
	if known, ok := Intern(wire.Intervals, interval); ok {
		r.Interval = known
	}
	if hasCount {
		n, err := strconv.ParseInt(count, 10, 64)
		if err != nil || count[0] == '+' {
			return wire.Recurring{}, invalid(wire.ParamRecurringIntervalCount, "recurring[interval_count] %q is not a whole number; send how many intervals make one period, 1 or more.", clip(count))
		}
		r.IntervalCount = n
	}
	if param, err := r.Check(); err != nil {
		return wire.Recurring{}, invalid(param, "%s.", err.Error())
	}
	return r, nil
}

// DeleteProduct forgets p, or refuses while it has prices.
func (cat *Catalog) DeleteProduct(p *Product) *Refusal {
	if p.Prices > 0 {
		id := p.ID.Format(wire.ProductIDPrefix)
		return unexpected(wire.ErrorCodeProductHasPrices, "Product %s has %d price(s), and prices cannot be deleted, so neither can it; archive it instead with POST %s/%s active=false.",
			id, p.Prices, wire.PathProducts, id)
	}
	delete(cat.Products, p.ID)
	cat.ProductOrder = RemoveBySeq(cat.ProductOrder, p.Seq, func(x *Product) uint64 { return x.Seq })
	return nil
}

// LookupKeyHolder is the active price whose lookup_key pr, a new price or
// an update's copy of one, takes from it under transfer
// (transfer_lookup_key), or nil when no other active price holds it. It
// refuses a key another active price holds, unless transfer, or pr is
// archived (the key is unique among active prices only).
func (cat *Catalog) LookupKeyHolder(pr *Price, transfer bool) (*Price, *Refusal) {
	if pr.LookupKey == "" {
		return nil, nil
	}
	holder := cat.ByLookupKey[pr.LookupKey]
	switch {
	case holder == nil || holder.ID == pr.ID:
		return nil, nil
	case transfer:
		return holder, nil
	case !pr.Active:
		return nil, nil
	}
	return nil, invalid(wire.ParamLookupKey, "lookup_key %q is held by the active price %s; send transfer_lookup_key=true to move it to this price, or choose another lookup_key.",
		clip(pr.LookupKey), holder.ID.Format(wire.PriceIDPrefix))
}

// TakeLookupKey removes the lookup_key of from, the price that held the
// key another takes under transfer_lookup_key.
func (cat *Catalog) TakeLookupKey(from *Price) {
	cat.unindexLookupKey(from)
	from.LookupKey = ""
}

// UpdatePrice makes pr next, an update's copy of it, moving its place in
// the index of lookup keys.
func (cat *Catalog) UpdatePrice(pr *Price, next Price) {
	cat.unindexLookupKey(pr)
	*pr = next
	cat.IndexLookupKey(pr)
}
