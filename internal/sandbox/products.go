package sandbox

import (
	"strings"
	"unicode/utf8"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/apierr"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/form"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/listing"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/model"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// The catalog's products (POST/GET /v1/products, GET/POST/DELETE
// /v1/products/{id}). A product is deleted only while it has no prices
// (model.Catalog.DeleteProduct); a product with prices is archived
// instead.

// productParams are the parameters of a product's create and update.
var productParams = []string{wire.ParamName, wire.ParamDescription, wire.ParamActive, wire.ParamMetadata, form.MetadataKeys}

// setProductFields validates the fields of the request and writes them to
// dst, a copy, so that a refused request changes nothing.
func (c *call) setProductFields(dst *model.Product) *apierr.Error {
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
	meta, e := form.ApplyMetadata(dst.Meta, c.f)
	if e != nil {
		return e
	}
	dst.Meta = meta
	return nil
}

// pathProduct is the product named by the path's {id}, or a 404.
func (c *call) pathProduct() (*model.Product, *apierr.Error) {
	id := c.r.PathValue("id")
	if p := c.findProduct(id); p != nil {
		return p, nil
	}
	return nil, apierr.NotFound("product", id)
}

// findProduct is the account's product of that id, or nil.
func (c *call) findProduct(id string) *model.Product {
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
	p := &model.Product{Created: c.unix, Active: true}
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
	b := model.ProductJSON(nil, p)
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
	return ok(model.ProductJSON(nil, p))
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
	b := model.ProductJSON(nil, p)
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
	if e := refused(c.a.cat.DeleteProduct(p)); e != nil {
		return errResponse(e)
	}
	c.a.charge(-p.Counted)
	c.deleteProductRecord(p)
	b := deletedJSON(wire.ProductIDPrefix, p.ID, "product")
	c.emit(wire.EventProductDeleted, b)
	return ok(b)
}

// listProducts is GET /v1/products: newest first, optionally only those
// whose active flag is the filter's.
func (c *call) listProducts() response {
	if e := listing.Check(c.f, append(form.Created, wire.ParamActive)...); e != nil {
		return errResponse(e)
	}
	active, given, e := form.BoolFilter(c.f, wire.ParamActive)
	if e != nil {
		return errResponse(e)
	}
	from, to, e := form.CreatedRange(c.f)
	if e != nil {
		return errResponse(e)
	}
	match := func(p *model.Product) bool {
		return (!given || p.Active == active) && p.Created >= from && p.Created <= to
	}
	l := listing.List[*model.Product]{
		URL: wire.PathProducts, Noun: "product",
		Seq: func(p *model.Product) uint64 { return p.Seq },
		Find: func(id string) (*model.Product, bool) {
			p := c.findProduct(id)
			return p, p != nil
		},
		Every: func() []*model.Product { return c.a.cat.ProductOrder },
		Write: model.ProductJSON,
	}
	return serveList(c, &l, c.a.cat.ProductOrder, match)
}
