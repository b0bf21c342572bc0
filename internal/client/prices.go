package client

import (
	"context"
	"iter"
	"net/http"
	"net/url"
	"strconv"

	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// PriceParams are the fields of a price create. Recurring nil makes a
// one-time price. The product, currency, amount and period never change
// afterwards.
type PriceParams struct {
	Product    string
	Currency   string
	UnitAmount int64
	Recurring  *Recurring
	Nickname   string
	LookupKey  string
	// TransferLookupKey moves LookupKey from the active price holding it.
	TransferLookupKey bool
	// Active nil means the service default (true).
	Active   *bool
	Metadata map[string]string
}

// PriceUpdateParams are the fields a price update may change: a nil
// pointer is not sent, a pointer to "" clears the nickname or lookup key.
type PriceUpdateParams struct {
	Active            *bool
	Nickname          *string
	LookupKey         *string
	TransferLookupKey bool
	Metadata          map[string]string
	ClearMetadata     bool
}

// ListPricesParams filter and page the price list: each filter given
// keeps only the prices that match it. Product "" and Active nil filter
// nothing; LookupKeys keeps the prices holding one of them (at most
// wire.LookupKeysMax).
type ListPricesParams struct {
	Product    string
	Active     *bool
	LookupKeys []string
	ListParams
}

func (p *PriceParams) form() url.Values {
	v := url.Values{}
	v.Set(wire.ParamProduct, p.Product)
	v.Set(wire.ParamCurrency, p.Currency)
	v.Set(wire.ParamUnitAmount, strconv.FormatInt(p.UnitAmount, 10))
	if p.Recurring != nil {
		v.Set(wire.ParamRecurringInterval, p.Recurring.Interval)
		if p.Recurring.IntervalCount != 0 {
			v.Set(wire.ParamRecurringIntervalCount, strconv.FormatInt(p.Recurring.IntervalCount, 10))
		}
	}
	setNonEmpty(v, wire.ParamNickname, p.Nickname)
	setNonEmpty(v, wire.ParamLookupKey, p.LookupKey)
	if p.TransferLookupKey {
		v.Set(wire.ParamTransferLookupKey, "true")
	}
	setBool(v, wire.ParamActive, p.Active)
	setMetadata(v, p.Metadata, false)
	return v
}

func (p *PriceUpdateParams) form() url.Values {
	v := url.Values{}
	if p == nil {
		return v
	}
	setBool(v, wire.ParamActive, p.Active)
	setPtr(v, wire.ParamNickname, p.Nickname)
	setPtr(v, wire.ParamLookupKey, p.LookupKey)
	if p.TransferLookupKey {
		v.Set(wire.ParamTransferLookupKey, "true")
	}
	setMetadata(v, p.Metadata, p.ClearMetadata)
	return v
}

func (p *ListPricesParams) query() url.Values {
	v := url.Values{}
	if p == nil {
		return v
	}
	setNonEmpty(v, wire.ParamProduct, p.Product)
	setBool(v, wire.ParamActive, p.Active)
	if len(p.LookupKeys) > 0 {
		v[wire.ParamLookupKeysItem] = append([]string(nil), p.LookupKeys...)
	}
	return p.ListParams.query(v)
}

// CreatePrice creates a price of a product.
func (c *Client) CreatePrice(ctx context.Context, p *PriceParams) (*Price, error) {
	var out Price
	err := c.call(ctx, http.MethodPost, wire.PathPrices, nil, p.form(), &out)
	c.rememberTerms(&out, err)
	return &out, err
}

// GetPrice retrieves a price. A price that does not exist for this
// account gives an error for which IsNotFound is true.
func (c *Client) GetPrice(ctx context.Context, id string) (*Price, error) {
	var out Price
	err := c.call(ctx, http.MethodGet, expand(wire.PathPrice, id), nil, nil, &out)
	c.rememberTerms(&out, err)
	return &out, err
}

// PriceTerms is what of a price never changes once it is created: its
// product, currency, amount and period (nil for a one-time price).
type PriceTerms struct {
	ID         string
	Product    string
	Currency   string
	UnitAmount int64
	Recurring  *Recurring
}

// GetPriceTerms returns the terms of price id. Terms never change, so a
// price this client created or read before costs no request: a plan that
// checks a subscription's items against prices made in the same run sends
// nothing. Otherwise it is GetPrice.
func (c *Client) GetPriceTerms(ctx context.Context, id string) (PriceTerms, error) {
	if v, ok := c.priceTerms.Load(id); ok {
		if t, ok := v.(PriceTerms); ok {
			return t.copy(), nil
		}
	}
	p, err := c.GetPrice(ctx, id)
	if err != nil {
		return PriceTerms{}, err
	}
	return termsOf(p), nil
}

func termsOf(p *Price) PriceTerms {
	return PriceTerms{ID: p.ID, Product: p.Product, Currency: p.Currency, UnitAmount: p.UnitAmount,
		Recurring: p.Recurring}.copy()
}

// copy is t with a period of its own: terms are shared through the
// client's cache, so a caller changing the period it got must change no
// other caller's.
func (t PriceTerms) copy() PriceTerms {
	if t.Recurring != nil {
		r := *t.Recurring
		t.Recurring = &r
	}
	return t
}

// rememberTerms keeps the terms of a price an answer described.
func (c *Client) rememberTerms(p *Price, err error) {
	if err == nil && p.ID != "" {
		c.priceTerms.Store(p.ID, termsOf(p))
	}
}

// UpdatePrice changes the fields p sets and leaves the others. Prices
// have no delete: archive one with Active false.
func (c *Client) UpdatePrice(ctx context.Context, id string, p *PriceUpdateParams) (*Price, error) {
	var out Price
	return &out, c.call(ctx, http.MethodPost, expand(wire.PathPrice, id), nil, p.form(), &out)
}

// ListPrices returns one page of prices, newest first.
func (c *Client) ListPrices(ctx context.Context, p *ListPricesParams) (*PriceList, error) {
	return listPage(ctx, c, wire.PathPrices, p.query(), "a price", func(pr *Price) bool { return pr.Livemode })
}

// AllPrices iterates over every price matching p, newest first, following
// the pages; p.Limit is the page size. Iteration stops at the first
// error, which is yielded with a nil price.
func (c *Client) AllPrices(ctx context.Context, p *ListPricesParams) iter.Seq2[*Price, error] {
	page := valueOf(p)
	return allPages(&page.ListParams, func() (*PriceList, error) { return c.ListPrices(ctx, &page) },
		func(pr *Price) string { return pr.ID })
}
