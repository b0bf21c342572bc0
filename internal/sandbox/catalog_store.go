package sandbox

import (
	"cmp"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/storage"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// The store records of the catalog, one bucket per kind of the account:
// products and prices, each record keyed by the object's id.

const (
	bucketProducts = "products"
	bucketPrices   = "prices"
)

// catalogBuckets are read into storedAccount.catalog (storedFrom).
var catalogBuckets = []string{bucketProducts, bucketPrices}

type (
	productRecord struct {
		ID          string      `json:"id"`
		Seq         uint64      `json:"seq"`
		Created     int64       `json:"created"`
		Name        string      `json:"name"`
		Description string      `json:"description,omitempty"`
		Active      bool        `json:"active"`
		Meta        [][2]string `json:"meta,omitempty"`
	}
	priceRecord struct {
		ID            string      `json:"id"`
		Seq           uint64      `json:"seq"`
		Created       int64       `json:"created"`
		Product       string      `json:"product"`
		Currency      string      `json:"currency"`
		UnitAmount    int64       `json:"unit_amount"`
		Interval      string      `json:"interval,omitempty"`
		IntervalCount int64       `json:"interval_count,omitempty"`
		Nickname      string      `json:"nickname,omitempty"`
		LookupKey     string      `json:"lookup_key,omitempty"`
		Active        bool        `json:"active"`
		Meta          [][2]string `json:"meta,omitempty"`
	}
)

func (c *call) putProduct(p *product) {
	c.a.recount(&p.counted, p.memBytes())
	c.addOp(storage.PutRecord(bucketProducts, p))
}

func (p *product) RecordKey() string { return p.id.format(wire.ProductIDPrefix) }

func (p *product) RecordValue() []byte {
	return marshal(productRecord{
		ID: p.id.format(wire.ProductIDPrefix), Seq: p.seq, Created: p.created,
		Name: p.name, Description: p.description, Active: p.active, Meta: metaRecord(p.meta),
	})
}

func (c *call) deleteProductRecord(p *product) {
	c.addOp(storage.DeleteRecord(bucketProducts, p))
}

func (c *call) putPrice(pr *price) {
	c.a.recount(&pr.counted, pr.memBytes())
	c.addOp(storage.PutRecord(bucketPrices, pr))
}

func (pr *price) RecordKey() string { return pr.id.format(wire.PriceIDPrefix) }

func (pr *price) RecordValue() []byte {
	return marshal(priceRecord{
		ID: pr.id.format(wire.PriceIDPrefix), Seq: pr.seq, Created: pr.created,
		Product: pr.product.format(wire.ProductIDPrefix), Currency: pr.currency, UnitAmount: pr.unitAmount,
		Interval: pr.recurring.Interval, IntervalCount: pr.recurring.IntervalCount,
		Nickname: pr.nickname, LookupKey: pr.lookupKey, Active: pr.active, Meta: metaRecord(pr.meta),
	})
}

// load rebuilds an account's catalog from its records, by bucket name; a
// record that does not decode, or a price of a product the file lacks,
// fails the load.
func (cat *catalog) load(buckets map[string][][]byte) error {
	var products []*product
	for _, raw := range buckets[bucketProducts] {
		var rec productRecord
		if err := json.Unmarshal(raw, &rec); err != nil {
			return fmt.Errorf("reading a product record from the data file: %w", err)
		}
		id, ok := parseRID(rec.ID, wire.ProductIDPrefix)
		if !ok || rec.Seq == 0 {
			return fmt.Errorf("data file: product %q is malformed", rec.ID)
		}
		products = append(products, &product{id: id, seq: rec.Seq, created: rec.Created, name: rec.Name,
			description: rec.Description, active: rec.Active, meta: metaFromRecord(rec.Meta)})
	}
	var prices []*price
	for _, raw := range buckets[bucketPrices] {
		var rec priceRecord
		if err := json.Unmarshal(raw, &rec); err != nil {
			return fmt.Errorf("reading a price record from the data file: %w", err)
		}
		pr, err := priceFromRecord(rec)
		if err != nil {
			return err
		}
		prices = append(prices, pr)
	}
	if len(products) == 0 && len(prices) == 0 {
		return nil
	}
	cat.ensure()
	slices.SortFunc(products, func(x, y *product) int { return cmp.Compare(x.seq, y.seq) })
	for _, p := range products {
		cat.products[p.id] = p
		cat.productOrder = append(cat.productOrder, p)
		cat.productSeq = max(cat.productSeq, p.seq)
	}
	slices.SortFunc(prices, func(x, y *price) int { return cmp.Compare(x.seq, y.seq) })
	for _, pr := range prices {
		p := cat.products[pr.product]
		if p == nil {
			return fmt.Errorf("data file: price %s names product %s, which the file lacks",
				pr.id.format(wire.PriceIDPrefix), pr.product.format(wire.ProductIDPrefix))
		}
		p.prices++
		cat.prices[pr.id] = pr
		cat.priceOrder = append(cat.priceOrder, pr)
		cat.priceSeq = max(cat.priceSeq, pr.seq)
		cat.indexLookupKey(pr)
	}
	return nil
}

func priceFromRecord(rec priceRecord) (*price, error) {
	id, ok1 := parseRID(rec.ID, wire.PriceIDPrefix)
	prod, ok2 := parseRID(rec.Product, wire.ProductIDPrefix)
	cur, okCur := intern(wire.Currencies, rec.Currency)
	if !ok1 || !ok2 || !okCur || rec.Seq == 0 {
		return nil, fmt.Errorf("data file: price %q is malformed", rec.ID)
	}
	pr := &price{id: id, seq: rec.Seq, created: rec.Created, product: prod, currency: cur, unitAmount: rec.UnitAmount,
		nickname: rec.Nickname, lookupKey: rec.LookupKey, active: rec.Active, meta: metaFromRecord(rec.Meta)}
	if rec.Interval != "" {
		r := wire.Recurring{Interval: rec.Interval, IntervalCount: rec.IntervalCount}
		if _, err := r.Check(); err != nil {
			return nil, fmt.Errorf("data file: price %s: %w", rec.ID, err)
		}
		r.Interval, _ = intern(wire.Intervals, r.Interval)
		pr.recurring = r
	}
	return pr, nil
}
