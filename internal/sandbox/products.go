package sandbox

import (
	"cmp"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/apierr"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/form"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// The catalog's products (POST/GET /v1/products, GET/POST/DELETE
// /v1/products/{id}). A product is deleted only while it has no prices:
// prices cannot be deleted, so that the subscriptions and invoices that
// name one always find it; a product with prices is archived instead.

type product struct {
	id          rid
	seq         uint64 // creation order
	created     int64
	name        string
	description string
	active      bool
	meta        metadata
	// prices counts the product's prices, active or not.
	prices  int
	counted int64 // bytes charged to the account, see bounds.go
}

// catalog is an account's products and prices, each kind in creation
// order with a sequence number of its own (as customers, see
// customer_list.go), kept in the data file.
type catalog struct {
	products     map[rid]*product
	productOrder []*product
	productSeq   uint64
	prices       map[rid]*price
	priceOrder   []*price
	priceSeq     uint64
	// byLookupKey holds the active prices that have a lookup_key: the
	// key is unique among them.
	byLookupKey map[string]*price
}

// ensure makes the maps of an account that had no catalog.
func (cat *catalog) ensure() {
	if cat.products == nil {
		cat.products = make(map[rid]*product)
		cat.prices = make(map[rid]*price)
		cat.byLookupKey = make(map[string]*price)
	}
}

// reset forgets every product and price; the sequences go on, so that a
// cursor taken before never matches an object made after.
func (cat *catalog) reset() {
	*cat = catalog{productSeq: cat.productSeq, priceSeq: cat.priceSeq}
}

// bySeq finds the position of seq in an order kept by seq.
func bySeq[T any](order []T, seq uint64, seqOf func(T) uint64) (int, bool) {
	return slices.BinarySearchFunc(order, seq, func(x T, s uint64) int { return cmp.Compare(seqOf(x), s) })
}

func (cat *catalog) addProduct(p *product) {
	cat.ensure()
	cat.productSeq++
	p.seq = cat.productSeq
	cat.products[p.id] = p
	cat.productOrder = append(cat.productOrder, p)
}

func (cat *catalog) removeProduct(p *product) {
	delete(cat.products, p.id)
	if i, found := bySeq(cat.productOrder, p.seq, func(x *product) uint64 { return x.seq }); found {
		cat.productOrder = slices.Delete(cat.productOrder, i, i+1)
	}
}

// productParams are the parameters of a product's create and update.
var productParams = []string{wire.ParamName, wire.ParamDescription, wire.ParamActive, wire.ParamMetadata, form.MetadataKeys}

// setProductFields validates the fields of the request and writes them to
// dst, a copy, so that a refused request changes nothing.
func (c *call) setProductFields(dst *product) *apierr.Error {
	if v, ok := c.f.Get(wire.ParamName); ok {
		if v == "" {
			return apierr.MissingParam(wire.ParamName, "name cannot be empty: a product needs a name people recognise, as in name=Gold plan.")
		}
		if e := form.CheckName(v); e != nil {
			return e
		}
		dst.name = strings.Clone(v)
	}
	if v, ok := c.f.Get(wire.ParamDescription); ok {
		if n := utf8.RuneCountInString(v); n > wire.ProductDescriptionMaxLength {
			return apierr.Invalid(wire.ParamDescription, "description is %d characters long; use at most %d.", n, wire.ProductDescriptionMaxLength)
		}
		if e := form.RefuseBidi(wire.ParamDescription, "description", v); e != nil {
			return e
		}
		dst.description = strings.Clone(v)
	}
	if e := form.Bool(c.f, wire.ParamActive, &dst.active); e != nil {
		return e
	}
	meta, e := applyMetadata(dst.meta, c.f)
	if e != nil {
		return e
	}
	dst.meta = meta
	return nil
}

// pathProduct is the product named by the path's {id}, or a 404.
func (c *call) pathProduct() (*product, *apierr.Error) {
	id := c.r.PathValue("id")
	if p := c.findProduct(id); p != nil {
		return p, nil
	}
	return nil, apierr.NotFound("product", id)
}

// findProduct is the account's product of that id, or nil.
func (c *call) findProduct(id string) *product {
	if r, ok := parseRID(id, wire.ProductIDPrefix); ok {
		return c.a.cat.products[r]
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
	p := &product{created: c.unix, active: true}
	if e := c.setProductFields(p); e != nil {
		return errResponse(e)
	}
	c.a.cat.ensure()
	p.id = newRID()
	for c.a.cat.products[p.id] != nil {
		p.id = newRID()
	}
	c.a.cat.addProduct(p)
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
	if p.prices > 0 {
		e := apierr.Invalid("", "Product %s has %d price(s), and prices cannot be deleted, so neither can it; archive it instead with POST %s/%s active=false.",
			p.id.format(wire.ProductIDPrefix), p.prices, wire.PathProducts, p.id.format(wire.ProductIDPrefix))
		e.Code = wire.ErrorCodeProductHasPrices
		return errResponse(e)
	}
	c.a.cat.removeProduct(p)
	c.a.charge(-p.counted)
	c.deleteProductRecord(p)
	b := deletedJSON(wire.ProductIDPrefix, p.id, "product")
	c.emit(wire.EventProductDeleted, b)
	return ok(b)
}

// listProducts is GET /v1/products: newest first, optionally only those
// whose active flag is the filter's.
func (c *call) listProducts() response {
	if e := c.checkList(wire.ParamActive); e != nil {
		return errResponse(e)
	}
	var match func(*product) bool
	active, given, e := form.BoolFilter(c.f, wire.ParamActive)
	if e != nil {
		return errResponse(e)
	}
	if given {
		match = func(p *product) bool { return p.active == active }
	}
	l := listOf[*product]{
		url: wire.PathProducts, noun: "product",
		seq: func(p *product) uint64 { return p.seq },
		find: func(id string) (*product, bool) {
			p := c.findProduct(id)
			return p, p != nil
		},
		every: func() []*product { return c.a.cat.productOrder },
		write: productJSON,
	}
	return l.serve(c, c.a.cat.productOrder, match)
}

func productJSON(b []byte, p *product) []byte {
	if b == nil {
		b = make([]byte, 0, 256+len(p.name)+len(p.description))
	}
	b = append(b, `{"id":`...)
	b = appendID(b, wire.ProductIDPrefix, p.id)
	b = append(b, `,"object":"product","name":`...)
	b = appendString(b, p.name)
	b = append(b, `,"description":`...)
	b = appendOptString(b, p.description)
	b = append(b, `,"active":`...)
	b = appendBool(b, p.active)
	return appendMetadataTail(b, p.meta, p.created)
}
