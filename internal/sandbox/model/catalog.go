package model

import (
	"fmt"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/ids"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/jsonw"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// Product is an item of the catalog, which prices bill for.
type Product struct {
	ID          ids.RID
	Seq         uint64 // creation order
	Created     int64
	Name        string
	Description string
	Active      bool
	Meta        Metadata
	// Prices counts the product's prices, active or not.
	Prices  int
	Counted int64 // bytes charged to the account, see MemBytes
}

// Catalog is an account's products and prices, each kind in creation
// order with a sequence number of its own (as the sandbox keeps
// customers), kept in the data file.
type Catalog struct {
	Products     map[ids.RID]*Product
	ProductOrder []*Product
	ProductSeq   uint64
	Prices       map[ids.RID]*Price
	PriceOrder   []*Price
	PriceSeq     uint64
	// ByLookupKey holds the active prices that have a lookup_key: the
	// key is unique among them.
	ByLookupKey map[string]*Price
}

// Ensure makes the maps of an account that had no catalog.
func (cat *Catalog) Ensure() {
	if cat.Products == nil {
		cat.Products = make(map[ids.RID]*Product)
		cat.Prices = make(map[ids.RID]*Price)
		cat.ByLookupKey = make(map[string]*Price)
	}
}

// Restore makes cat from, a copy read back from the store, keeping the
// higher sequences: an id or cursor given out never comes back.
func (cat *Catalog) Restore(from Catalog) {
	productSeq, priceSeq := max(cat.ProductSeq, from.ProductSeq), max(cat.PriceSeq, from.PriceSeq)
	*cat = from
	cat.ProductSeq, cat.PriceSeq = productSeq, priceSeq
}

// Reset forgets every product and price; the sequences go on, so that a
// cursor taken before never matches an object made after.
func (cat *Catalog) Reset() {
	*cat = Catalog{ProductSeq: cat.ProductSeq, PriceSeq: cat.PriceSeq}
}

// AddProduct adds a new product, giving it the next sequence number.
func (cat *Catalog) AddProduct(p *Product) {
	cat.Ensure()
	cat.ProductSeq++
	p.Seq = cat.ProductSeq
	cat.Products[p.ID] = p
	cat.ProductOrder = append(cat.ProductOrder, p)
}

// AddPrice adds a new price, giving it the next sequence number, and
// counts it on its product.
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

// IndexLookupKey makes pr the holder of its lookup_key when it is active.
func (cat *Catalog) IndexLookupKey(pr *Price) {
	if pr.Active && pr.LookupKey != "" {
		cat.ByLookupKey[pr.LookupKey] = pr
	}
}

// unindexLookupKey forgets pr as the holder of its lookup_key.
func (cat *Catalog) unindexLookupKey(pr *Price) {
	if pr.LookupKey != "" && cat.ByLookupKey[pr.LookupKey] == pr {
		delete(cat.ByLookupKey, pr.LookupKey)
	}
}

// Price is what a product costs, once or every period.
type Price struct {
	ID         ids.RID
	Seq        uint64 // creation order
	Created    int64
	Product    ids.RID
	Currency   string // interned, one of wire.Currencies
	UnitAmount int64
	// Recurring is the period; its Interval is "" for a one-time price,
	// else one of wire.Intervals (interned).
	Recurring wire.Recurring
	Nickname  string
	LookupKey string
	Active    bool
	Meta      Metadata
	Counted   int64 // bytes charged to the account, see MemBytes
}

// IsRecurring reports whether the price bills every period.
func (pr *Price) IsRecurring() bool { return pr.Recurring.Interval != "" }

// RecordKey is the product's key in its bucket: its id.
func (p *Product) RecordKey() string { return p.ID.Format(wire.ProductIDPrefix) }

// RecordValue is the product's record, as JSON.
func (p *Product) RecordValue() []byte {
	return Marshal(ProductRecord{
		ID: p.ID.Format(wire.ProductIDPrefix), Seq: p.Seq, Created: p.Created,
		Name: p.Name, Description: p.Description, Active: p.Active, Meta: MetaRecord(p.Meta),
	})
}

// Load rebuilds an account's catalog from its records, by bucket name; a
// record that does not decode, or a price of a product the file lacks,
// fails the load.
func (cat *Catalog) Load(buckets map[string][][]byte) error {
	products, err := decodeBucket(buckets[BucketProducts], "a product", ProductFromRecord, func(p *Product) uint64 { return p.Seq })
	if err != nil {
		return err
	}
	prices, err := decodeBucket(buckets[BucketPrices], "a price", PriceFromRecord, func(pr *Price) uint64 { return pr.Seq })
	if err != nil {
		return err
	}
	if len(products) == 0 && len(prices) == 0 {
		return nil
	}
	cat.Ensure()
	for _, p := range products {
		cat.Products[p.ID] = p
		cat.ProductOrder = append(cat.ProductOrder, p)
		cat.ProductSeq = max(cat.ProductSeq, p.Seq)
	}
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

// ProductRecord is the stored form of a product.
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

// ProductFromRecord is the product of a decoded record, checked.
func ProductFromRecord(rec ProductRecord) (*Product, error) {
	id, ok := ids.Parse(rec.ID, wire.ProductIDPrefix)
	if !ok || rec.Seq == 0 {
		return nil, fmt.Errorf("data file: product %q is malformed", rec.ID)
	}
	return &Product{ID: id, Seq: rec.Seq, Created: rec.Created, Name: rec.Name,
		Description: rec.Description, Active: rec.Active, Meta: MetaFromRecord(rec.Meta)}, nil
}

// PriceFromRecord is the price of a decoded record, checked.
func PriceFromRecord(rec PriceRecord) (*Price, error) {
	id, ok1 := ids.Parse(rec.ID, wire.PriceIDPrefix)
	prod, ok2 := ids.Parse(rec.Product, wire.ProductIDPrefix)
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

// RecordKey is the price's key in its bucket: its id.
func (pr *Price) RecordKey() string { return pr.ID.Format(wire.PriceIDPrefix) }

// RecordValue is the price's record, as JSON.
func (pr *Price) RecordValue() []byte {
	return Marshal(PriceRecord{
		ID: pr.ID.Format(wire.PriceIDPrefix), Seq: pr.Seq, Created: pr.Created,
		Product: pr.Product.Format(wire.ProductIDPrefix), Currency: pr.Currency, UnitAmount: pr.UnitAmount,
		Interval: pr.Recurring.Interval, IntervalCount: pr.Recurring.IntervalCount,
		Nickname: pr.Nickname, LookupKey: pr.LookupKey, Active: pr.Active, Meta: MetaRecord(pr.Meta),
	})
}

// MemBytes is what the product costs its account (sizes.go).
func (p *Product) MemBytes() int64 {
	return ProductBytes + RidMapEntry + OrderSlot + StrBytes(p.Name) + StrBytes(p.Description) + MetaBytes(p.Meta)
}

// MemBytes of a price counts its place in the index of lookup keys while
// it holds one.
func (pr *Price) MemBytes() int64 {
	n := PriceBytes + RidMapEntry + OrderSlot + StrBytes(pr.Nickname) + StrBytes(pr.LookupKey) + MetaBytes(pr.Meta)
	if pr.Active && pr.LookupKey != "" {
		n += (16 + PtrBytes + 1) * 8 / 5
	}
	return n
}

// ProductJSON appends the product's JSON, as the API answers it, to b.
func ProductJSON(b []byte, p *Product) []byte {
	if b == nil {
		b = make([]byte, 0, 256+len(p.Name)+len(p.Description))
	}
	b = append(b, `{"id":`...)
	b = ids.Append(b, wire.ProductIDPrefix, p.ID)
	b = append(b, `,"object":"product","name":`...)
	b = jsonw.String(b, p.Name)
	b = append(b, `,"description":`...)
	b = jsonw.OptString(b, p.Description)
	b = append(b, `,"active":`...)
	b = jsonw.Bool(b, p.Active)
	return AppendMetadataTail(b, p.Meta, p.Created)
}

// PriceJSON appends the price's JSON, as the API answers it, to b.
func PriceJSON(b []byte, pr *Price) []byte {
	if b == nil {
		b = make([]byte, 0, 384+len(pr.Nickname)+len(pr.LookupKey))
	}
	b = priceHead(b, pr)
	return AppendMetadataTail(b, pr.Meta, pr.Created)
}

// ItemPriceJSON appends the price as a subscription's item embeds it: every
// field but its metadata, so that the size of a subscription's JSON, and
// of each event that carries it, does not grow with its prices' metadata
// (twenty items of prices with the most metadata made one event 2.4 MB).
// The price's own answer and its events have the metadata.
func ItemPriceJSON(b []byte, pr *Price) []byte {
	b = priceHead(b, pr)
	b = append(b, `,"created_at":`...)
	b = jsonw.Time(b, pr.Created)
	return append(b, `,"livemode":false}`...)
}

// priceHead appends a price's JSON up to its metadata, unclosed.
func priceHead(b []byte, pr *Price) []byte {
	b = append(b, `{"id":`...)
	b = ids.Append(b, wire.PriceIDPrefix, pr.ID)
	b = append(b, `,"object":"price","product":`...)
	b = ids.Append(b, wire.ProductIDPrefix, pr.Product)
	b = append(b, `,"type":`...)
	if pr.IsRecurring() {
		b = jsonw.String(b, wire.PriceTypeRecurring)
	} else {
		b = jsonw.String(b, wire.PriceTypeOneTime)
	}
	b = append(b, `,"currency":`...)
	b = jsonw.String(b, pr.Currency)
	b = append(b, `,"unit_amount":`...)
	b = jsonw.Int(b, pr.UnitAmount)
	b = append(b, `,"recurring":`...)
	if pr.IsRecurring() {
		b = append(b, `{"interval":`...)
		b = jsonw.String(b, pr.Recurring.Interval)
		b = append(b, `,"interval_count":`...)
		b = jsonw.Int(b, pr.Recurring.IntervalCount)
		b = append(b, '}')
	} else {
		b = append(b, "null"...)
	}
	b = append(b, `,"nickname":`...)
	b = jsonw.OptString(b, pr.Nickname)
	b = append(b, `,"lookup_key":`...)
	b = jsonw.OptString(b, pr.LookupKey)
	b = append(b, `,"active":`...)
	return jsonw.Bool(b, pr.Active)
}
