package client

import (
	"context"
	"net/http"
	"net/url"

	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

func (p *CustomerParams) form() url.Values {
	v := url.Values{}
	if p == nil {
		return v
	}
	setPtr(v, wire.ParamEmail, p.Email)
	setPtr(v, wire.ParamName, p.Name)
	setPtr(v, wire.ParamPhone, p.Phone)
	setPtr(v, wire.ParamSource, p.Source)
	setPtr(v, wire.ParamDefaultSource, p.DefaultSource)
	setPtr(v, wire.ParamTestClock, p.TestClock)
	setMetadata(v, p.Metadata, p.ClearMetadata)
	return v
}

func setPtr(v url.Values, name string, p *string) {
	if p != nil {
		v.Set(name, *p)
	}
}

// setMetadata encodes metadata with brackets; an empty value deletes the
// key at the service, and clear sends metadata= to remove every key. [assumed]
func setMetadata(v url.Values, md map[string]string, clear bool) {
	if clear {
		v.Set(wire.ParamMetadata, "")
	}
	for k, val := range md {
		v.Set(wire.MetadataParam(k), val)
	}
}

// CreateCustomer creates a customer.
func (c *Client) CreateCustomer(ctx context.Context, p *CustomerParams) (*Customer, error) {
	var out Customer
	return &out, c.call(ctx, http.MethodPost, wire.PathCustomers, nil, p.form(), &out)
}

// GetCustomer retrieves a customer. A customer that does not exist for this
// account gives an error for which IsNotFound is true.
func (c *Client) GetCustomer(ctx context.Context, id string) (*Customer, error) {
	var out Customer
	return &out, c.call(ctx, http.MethodGet, expand(wire.PathCustomer, id), nil, nil, &out)
}

// UpdateCustomer changes the fields p sets and leaves the others.
func (c *Client) UpdateCustomer(ctx context.Context, id string, p *CustomerParams) (*Customer, error) {
	var out Customer
	return &out, c.call(ctx, http.MethodPost, expand(wire.PathCustomer, id), nil, p.form(), &out)
}

// DeleteCustomer deletes a customer and its sources.
func (c *Client) DeleteCustomer(ctx context.Context, id string) (*Deleted, error) {
	var out Deleted
	return &out, c.call(ctx, http.MethodDelete, expand(wire.PathCustomer, id), nil, nil, &out)
}

// AddSource stores a tokenized payment method on a customer. The first one
// stored becomes the customer's default.
func (c *Client) AddSource(ctx context.Context, customerID, token string) (*Source, error) {
	var out Source
	return &out, c.call(ctx, http.MethodPost, expand(wire.PathCustomerSources, customerID), nil, url.Values{wire.ParamSource: {token}}, &out)
}

// GetSource retrieves one of a customer's sources.
func (c *Client) GetSource(ctx context.Context, customerID, sourceID string) (*Source, error) {
	var out Source
	return &out, c.call(ctx, http.MethodGet, expand(wire.PathCustomerSource, customerID, sourceID), nil, nil, &out)
}

// DeleteSource detaches a source from its customer.
func (c *Client) DeleteSource(ctx context.Context, customerID, sourceID string) (*Deleted, error) {
	var out Deleted
	return &out, c.call(ctx, http.MethodDelete, expand(wire.PathCustomerSource, customerID, sourceID), nil, nil, &out)
}

// SetDefaultSource makes an attached source the customer's default.
func (c *Client) SetDefaultSource(ctx context.Context, customerID, sourceID string) (*Customer, error) {
	return c.UpdateCustomer(ctx, customerID, &CustomerParams{DefaultSource: &sourceID})
}
