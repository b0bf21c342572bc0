package dashboard

import (
	"fmt"
	"net/http"
	"net/url"
	"strconv"

	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// pricesPerProduct is how many of a product's prices the products page
// shows, newest first; the API's largest page.
const pricesPerProduct = wire.ListLimitMax

// productRow is a product with its prices.
type productRow struct {
	P      *wire.Product
	Prices []*wire.Price
	// More says the product has more prices than shown.
	More bool
}

type productsData struct {
	Products []productRow
	Active   string // the filter: "", "true" or "false"
	Pager    pager
}

// products is the catalog: a page of products, each with its prices, as
// GET /v1/products and GET /v1/prices?product= answer them.
func (d *Dashboard) products(w http.ResponseWriter, r *http.Request, ss *session) {
	q := listQuery(r, wire.ParamActive)
	var l wire.ProductList
	if err := d.get(r.Context(), ss, wire.PathProducts, q, &l); err != nil {
		d.fail(w, r, ss, "products", err)
		return
	}
	rows := make([]productRow, 0, len(l.Data))
	for _, p := range l.Data {
		var pl wire.PriceList
		pq := url.Values{wire.ParamProduct: {p.ID}, wire.ParamLimit: {strconv.Itoa(pricesPerProduct)}}
		if err := d.get(r.Context(), ss, wire.PathPrices, pq, &pl); err != nil {
			d.fail(w, r, ss, "products", err)
			return
		}
		rows = append(rows, productRow{P: p, Prices: pl.Data, More: pl.HasMore})
	}
	first, last := ids(l.Data, func(p *wire.Product) string { return p.ID })
	d.render(w, r, ss, http.StatusOK, "products.html", &view{Title: "Products", Nav: "products", Live: true, Data: productsData{
		Products: rows, Active: q.Get(wire.ParamActive), Pager: pagerFor("/products", r, q, first, last, l.HasMore),
	}})
}

// formatPeriod says how often a recurring price bills: "every month",
// "every 3 months".
func formatPeriod(r *wire.Recurring) string {
	if r == nil {
		return "once"
	}
	if r.IntervalCount == 1 {
		return "every " + r.Interval
	}
	return fmt.Sprintf("every %d %ss", r.IntervalCount, r.Interval)
}
