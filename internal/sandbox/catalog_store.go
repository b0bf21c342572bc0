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
	BucketProducts = "products"
	BucketPrices   = "prices"
)

// catalogBuckets are read into storedAccount.catalog (storedFrom).
var CatalogBuckets = []string{BucketProducts, BucketPrices}

type (
	ProductRecord struct {
		ID          string      `json:"id"`
		Seq         uint64      `json:"seq"`
		Created     int64       `json:"created"`
		Name        string      `json:"name"`
		Description string      `json:"description,omitempty"`
		Active      bool        `json:"active"`
		Meta        [][2]string `json:"meta,omitempty"`
	}
	PriceRecord struct {
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

func (c *call) putProduct(p *Product) {
	c.a.recount(&p.Counted, p.MemBytes())
	c.addOp(storage.PutRecord(BucketProducts, p))
}

func (p *Product) RecordKey() string { return p.ID.Format(wire.ProductIDPrefix) }

func (p *Product) RecordValue() []byte {
	return Marshal(ProductRecord{
		ID: p.ID.Format(wire.ProductIDPrefix), Seq: p.Seq, Created: p.Created,
		Name: p.Name, Description: p.Description, Active: p.Active, Meta: MetaRecord(p.Meta),
	})
}

func (c *call) deleteProductRecord(p *Product) {
	c.addOp(storage.DeleteRecord(BucketProducts, p))
}

func (c *call) putPrice(pr *Price) {
	c.a.recount(&pr.Counted, pr.MemBytes())
	c.addOp(storage.PutRecord(BucketPrices, pr))
}

func (pr *Price) RecordKey() string { return pr.ID.Format(wire.PriceIDPrefix) }

func (pr *Price) RecordValue() []byte {
	return Marshal(PriceRecord{
		ID: pr.ID.Format(wire.PriceIDPrefix), Seq: pr.Seq, Created: pr.Created,
		Product: pr.Product.Format(wire.ProductIDPrefix), Currency: pr.Currency, UnitAmount: pr.UnitAmount,
		Interval: pr.Recurring.Interval, IntervalCount: pr.Recurring.IntervalCount,
		Nickname: pr.Nickname, LookupKey: pr.LookupKey, Active: pr.Active, Meta: MetaRecord(pr.Meta),
	})
}

// load rebuilds an account's catalog from its records, by bucket name; a
// record that does not decode, or a price of a product the file lacks,
// fails the load.
func (cat *Catalog) Load(buckets map[string][][]byte) error {
	var products []*Product
	for _, raw := range buckets[BucketProducts] {
		var rec ProductRecord
		if err := json.Unmarshal(raw, &rec); err != nil {
			return fmt.Errorf("reading a product record from the data file: %w", err)
		}
		id, ok := parseRID(rec.ID, wire.ProductIDPrefix)
		if !ok || rec.Seq == 0 {
			return fmt.Errorf("data file: product %q is malformed", rec.ID)
		}
		products = append(products, &Product{ID: id, Seq: rec.Seq, Created: rec.Created, Name: rec.Name,
			Description: rec.Description, Active: rec.Active, Meta: MetaFromRecord(rec.Meta)})
	}
	var prices []*Price
	for _, raw := range buckets[BucketPrices] {
		var rec PriceRecord
		if err := json.Unmarshal(raw, &rec); err != nil {
			return fmt.Errorf("reading a price record from the data file: %w", err)
		}
		pr, err := PriceFromRecord(rec)
		if err != nil {
			return err
		}
		prices = append(prices, pr)
	}
	if len(products) == 0 && len(prices) == 0 {
		return nil
	}
	cat.Ensure()
	slices.SortFunc(products, func(x, y *Product) int { return cmp.Compare(x.Seq, y.Seq) })
	for _, p := range products {
		cat.Products[p.ID] = p
		cat.ProductOrder = append(cat.ProductOrder, p)
		cat.ProductSeq = max(cat.ProductSeq, p.Seq)
	}
	slices.SortFunc(prices, func(x, y *Price) int { return cmp.Compare(x.Seq, y.Seq) })
	for _, pr := range prices {
		p := cat.Products[pr.Product]
		if p == nil {
			return fmt.Errorf("data file: price %s names product %s, which the file lacks",
				pr.ID.Format(wire.PriceIDPrefix), pr.Product.Format(wire.ProductIDPrefix))
		}
		p.Prices++
		cat.Prices[pr.ID] = pr
		cat.PriceOrder = append(cat.PriceOrder, pr)
		cat.PriceSeq = max(cat.PriceSeq, pr.Seq)
		cat.IndexLookupKey(pr)
	}
	return nil
}

func PriceFromRecord(rec PriceRecord) (*Price, error) {
	id, ok1 := parseRID(rec.ID, wire.PriceIDPrefix)
	prod, ok2 := parseRID(rec.Product, wire.ProductIDPrefix)
	cur, okCur := Intern(wire.Currencies, rec.Currency)
	if !ok1 || !ok2 || !okCur || rec.Seq == 0 {
		return nil, fmt.Errorf("data file: price %q is malformed", rec.ID)
	}
	pr := &Price{ID: id, Seq: rec.Seq, Created: rec.Created, Product: prod, Currency: cur, UnitAmount: rec.UnitAmount,
		Nickname: rec.Nickname, LookupKey: rec.LookupKey, Active: rec.Active, Meta: MetaFromRecord(rec.Meta)}
	if rec.Interval != "" {
		r := wire.Recurring{Interval: rec.Interval, IntervalCount: rec.IntervalCount}
		if _, err := r.Check(); err != nil {
			return nil, fmt.Errorf("data file: price %s: %w", rec.ID, err)
		}
		r.Interval, _ = Intern(wire.Intervals, r.Interval)
		pr.Recurring = r
	}
	return pr, nil
}
