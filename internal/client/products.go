package client

import (
	"context"
	"iter"
	"net/http"
	"net/url"
	"strconv"

	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// ProductParams are the fields of a product create or update. A nil
// pointer is not sent; on update a pointer to "" clears the description.
// In Metadata, a "" value deletes that key; ClearMetadata removes every key.
type ProductParams struct {
	// Name is required on create and cannot be cleared.
	Name          *string
	Description   *string
	Active        *bool
	Metadata      map[string]string
	ClearMetadata bool
}

// ListProductsParams filter and page the product list. Active nil lists
// every product; otherwise only the active, or only the archived, ones.
type ListProductsParams struct {
	Active *bool
	ListParams
}

func (p *ProductParams) form() url.Values {
	v := url.Values{}
	if p == nil {
		return v
	}
	setPtr(v, wire.ParamName, p.Name)
	setPtr(v, wire.ParamDescription, p.Description)
	setBool(v, wire.ParamActive, p.Active)
	setMetadata(v, p.Metadata, p.ClearMetadata)
	return v
}

func setBool(v url.Values, name string, b *bool) {
	if b != nil {
		v.Set(name, strconv.FormatBool(*b))
	}
}

func (p *ListProductsParams) query() url.Values {
	v := url.Values{}
	if p == nil {
		return v
	}
	setBool(v, wire.ParamActive, p.Active)
	return p.ListParams.query(v)
}

// CreateProduct creates a product of the catalog.
func (c *Client) CreateProduct(ctx context.Context, p *ProductParams) (*Product, error) {
	var out Product
	return &out, c.call(ctx, http.MethodPost, wire.PathProducts, nil, p.form(), &out)
}

// GetProduct retrieves a product. A product that does not exist for this
// account gives an error for which IsNotFound is true.
func (c *Client) GetProduct(ctx context.Context, id string) (*Product, error) {
	var out Product
	return &out, c.call(ctx, http.MethodGet, expand(wire.PathProduct, id), nil, nil, &out)
}

// UpdateProduct changes the fields p sets and leaves the others.
func (c *Client) UpdateProduct(ctx context.Context, id string, p *ProductParams) (*Product, error) {
	var out Product
	return &out, c.call(ctx, http.MethodPost, expand(wire.PathProduct, id), nil, p.form(), &out)
}

// DeleteProduct deletes a product that has no prices; one that has any
// gives an error of code wire.ErrorCodeProductHasPrices, and is archived
// instead with UpdateProduct (Active false).
func (c *Client) DeleteProduct(ctx context.Context, id string) (*Deleted, error) {
	var out Deleted
	return &out, c.call(ctx, http.MethodDelete, expand(wire.PathProduct, id), nil, nil, &out)
}

// ListProducts returns one page of products, newest first.
func (c *Client) ListProducts(ctx context.Context, p *ListProductsParams) (*ProductList, error) {
	return listPage(ctx, c, wire.PathProducts, p.query(), "a product", func(pr *Product) bool { return pr.Livemode })
}

// AllProducts iterates over every product matching p, newest first,
// following the pages; p.Limit is the page size. Iteration stops at the
// first error, which is yielded with a nil product.
func (c *Client) AllProducts(ctx context.Context, p *ListProductsParams) iter.Seq2[*Product, error] {
	page := valueOf(p)
	return allPages(&page.ListParams, func() (*ProductList, error) { return c.ListProducts(ctx, &page) },
		func(pr *Product) string { return pr.ID })
}
