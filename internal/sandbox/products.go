package sandbox

import (
	"cmp"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/apierr"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/form"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/listing"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// The catalog's products (POST/GET /v1/products, GET/POST/DELETE
// /v1/products/{id}). A product is deleted only while it has no prices:
// prices cannot be deleted, so that the subscriptions and invoices that
// name one always find it; a product with prices is archived instead.

type Product struct {
	ID          rid
	Seq         uint64 // creation order
	Created     int64
	Name        string
	Description string
	Active      bool
	Meta        Metadata
	// prices counts the product's prices, active or not.
	Prices  int
	Counted int64 // bytes charged to the account, see bounds.go
}

// catalog is an account's products and prices, each kind in creation
// order with a sequence number of its own (as customers, see
// customer_list.go), kept in the data file.
type Catalog struct {
	Products     map[rid]*Product
	ProductOrder []*Product
	ProductSeq   uint64
	Prices       map[rid]*Price
	PriceOrder   []*Price
	PriceSeq     uint64
	// byLookupKey holds the active prices that have a lookup_key: the
	// key is unique among them.
	ByLookupKey map[string]*Price
}

// ensure makes the maps of an account that had no catalog.
func (cat *Catalog) Ensure() {
	if cat.Products == nil {
		cat.Products = make(map[rid]*Product)
		cat.Prices = make(map[rid]*Price)
		cat.ByLookupKey = make(map[string]*Price)
	}
}

// reset forgets every product and price; the sequences go on, so that a
// cursor taken before never matches an object made after.
func (cat *Catalog) Reset() {
	*cat = Catalog{ProductSeq: cat.ProductSeq, PriceSeq: cat.PriceSeq}
}

// bySeq finds the position of seq in an order kept by seq.
func BySeq[T any](order []T, seq uint64, seqOf func(T) uint64) (int, bool) {
	return slices.BinarySearchFunc(order, seq, func(x T, s uint64) int { return cmp.Compare(seqOf(x), s) })
}

func (cat *Catalog) AddProduct(p *Product) {
	cat.Ensure()
	cat.ProductSeq++
	p.Seq = cat.ProductSeq
	cat.Products[p.ID] = p
	cat.ProductOrder = append(cat.ProductOrder, p)
}

func (cat *Catalog) RemoveProduct(p *Product) {
	delete(cat.Products, p.ID)
	if i, found := BySeq(cat.ProductOrder, p.Seq, func(x *Product) uint64 { return x.Seq }); found {
		cat.ProductOrder = slices.Delete(cat.ProductOrder, i, i+1)
	}
}

// productParams are the parameters of a product's create and update.
var productParams = []string{wire.ParamName, wire.ParamDescription, wire.ParamActive, wire.ParamMetadata, form.MetadataKeys}

// setProductFields validates the fields of the request and writes them to
// dst, a copy, so that a refused request changes nothing.
func (c *call) setProductFields(dst *Product) *apierr.Error {
	if v, ok := c.f.Get(wire.ParamName); ok {
		if v == "" {
			return apierr.MissingParam(wire.ParamName, "name cannot be empty: a product needs a name people recognise, as in name=Gold plan.")
		}
		if e := form.CheckName(v); e != nil {
			return e
		}
		dst.Name = strings.Clone(v)
	}
	if v, ok := c.f.Get(wire.ParamDescription); ok {
		if n := utf8.RuneCountInString(v); n > wire.ProductDescriptionMaxLength {
			return apierr.Invalid(wire.ParamDescription, "description is %d characters long; use at most %d.", n, wire.ProductDescriptionMaxLength)
		}
		if e := form.RefuseBidi(wire.ParamDescription, "description", v); e != nil {
			return e
		}
		dst.Description = strings.Clone(v)
	}
	if e := form.Bool(c.f, wire.ParamActive, &dst.Active); e != nil {
		return e
	}
	meta, e := applyMetadata(dst.Meta, c.f)
	if e != nil {
		return e
	}
	dst.Meta = meta
	return nil
}

// pathProduct is the product named by the path's {id}, or a 404.
func (c *call) pathProduct() (*Product, *apierr.Error) {
	id := c.r.PathValue("id")
	if p := c.findProduct(id); p != nil {
		return p, nil
	}
	return nil, apierr.NotFound("product", id)
}

// findProduct is the account's product of that id, or nil.
func (c *call) findProduct(id string) *Product {
	if r, ok := parseRID(id, wire.ProductIDPrefix); ok {
		return c.a.cat.Products[r]
	}
	return nil
}

func (c *call) createProduct() response {
	if e := c.f.Check(productParams...); e != nil {
		return errResponse(e)
	}
	if _, ok := c.f.Get(wire.ParamName); !ok {
		return errResponse(apierr.MissingParam(wire.ParamName, "name is required: send the product's name, as in name=Gold plan."))
	}
	p := &Product{Created: c.unix, Active: true}
	if e := c.setProductFields(p); e != nil {
		return errResponse(e)
	}
	c.a.cat.Ensure()
	p.ID = newRID()
	for c.a.cat.Products[p.ID] != nil {
		p.ID = newRID()
	}
	c.a.cat.AddProduct(p)
	c.putProduct(p)
	b := productJSON(nil, p)
	c.emit(wire.EventProductCreated, b)
	return ok(b)
}

func (c *call) retrieveProduct() response {
	if e := c.f.Check(); e != nil {
		return errResponse(e)
	}
	p, e := c.pathProduct()
	if e != nil {
		return errResponse(e)
	}
	return ok(productJSON(nil, p))
}

func (c *call) updateProduct() response {
	if e := c.f.Check(productParams...); e != nil {
		return errResponse(e)
	}
	p, e := c.pathProduct()
	if e != nil {
		return errResponse(e)
	}
	next := *p
	if e := c.setProductFields(&next); e != nil {
		return errResponse(e)
	}
	*p = next
	c.putProduct(p)
	b := productJSON(nil, p)
	c.emit(wire.EventProductUpdated, b)
	return ok(b)
}

func (c *call) deleteProduct() response {
	if e := c.f.Check(); e != nil {
		return errResponse(e)
	}
	p, e := c.pathProduct()
	if e != nil {
		return errResponse(e)
	}
	if p.Prices > 0 {
		e := apierr.Invalid("", "Product %s has %d price(s), and prices cannot be deleted, so neither can it; archive it instead with POST %s/%s active=false.",
			p.ID.Format(wire.ProductIDPrefix), p.Prices, wire.PathProducts, p.ID.Format(wire.ProductIDPrefix))
		e.Code = wire.ErrorCodeProductHasPrices
		return errResponse(e)
	}
	c.a.cat.RemoveProduct(p)
	c.a.charge(-p.Counted)
	c.deleteProductRecord(p)
	b := deletedJSON(wire.ProductIDPrefix, p.ID, "product")
	c.emit(wire.EventProductDeleted, b)
	return ok(b)
}

// listProducts is GET /v1/products: newest first, optionally only those
// whose active flag is the filter's.
func (c *call) listProducts() response {
	if e := listing.Check(c.f, wire.ParamActive); e != nil {
		return errResponse(e)
	}
	var match func(*Product) bool
	active, given, e := form.BoolFilter(c.f, wire.ParamActive)
	if e != nil {
		return errResponse(e)
	}
	if given {
		match = func(p *Product) bool { return p.Active == active }
	}
	l := listing.List[*Product]{
		URL: wire.PathProducts, Noun: "product",
		Seq: func(p *Product) uint64 { return p.Seq },
		Find: func(id string) (*Product, bool) {
			p := c.findProduct(id)
			return p, p != nil
		},
		Every: func() []*Product { return c.a.cat.ProductOrder },
		Write: productJSON,
	}
	return serveList(c, &l, c.a.cat.ProductOrder, match)
}

func productJSON(b []byte, p *Product) []byte {
	if b == nil {
		b = make([]byte, 0, 256+len(p.Name)+len(p.Description))
	}
	b = append(b, `{"id":`...)
	b = appendID(b, wire.ProductIDPrefix, p.ID)
	b = append(b, `,"object":"product","name":`...)
	b = appendString(b, p.Name)
	b = append(b, `,"description":`...)
	b = appendOptString(b, p.Description)
	b = append(b, `,"active":`...)
	b = appendBool(b, p.Active)
	return appendMetadataTail(b, p.Meta, p.Created)
}
