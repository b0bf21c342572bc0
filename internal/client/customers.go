package client

import (
	"context"
	"net/http"
	"net/url"
)

// Customer paths. [spec] for customers and adding a source; the source
// retrieve and remove paths are [assumed].
const (
	pathCustomers = APIVersionPrefix + "/customers"
)

func customerPath(id string) string { return pathCustomers + "/" + pathID(id) }
func sourcesPath(customerID string) string {
	return customerPath(customerID) + "/sources"
}
func sourcePath(customerID, sourceID string) string {
	return sourcesPath(customerID) + "/" + pathID(sourceID)
}

// Form parameter names of customers. [assumed]
const (
	paramEmail         = "email"
	paramName          = "name"
	paramPhone         = "phone"
	paramMetadata      = "metadata"
	paramSource        = "source"
	paramDefaultSource = "default_source"
)

// MetadataParam is the form name of one metadata key: metadata[key]. [spec]
func MetadataParam(key string) string { return paramMetadata + "[" + key + "]" }

func (p *CustomerParams) form() url.Values {
	v := url.Values{}
	if p == nil {
		return v
	}
	setPtr(v, paramEmail, p.Email)
	setPtr(v, paramName, p.Name)
	setPtr(v, paramPhone, p.Phone)
	setPtr(v, paramSource, p.Source)
	setPtr(v, paramDefaultSource, p.DefaultSource)
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
		v.Set(paramMetadata, "")
	}
	for k, val := range md {
		v.Set(MetadataParam(k), val)
	}
}

// CreateCustomer creates a customer.
func (c *Client) CreateCustomer(ctx context.Context, p *CustomerParams) (*Customer, error) {
	var out Customer
	return &out, c.call(ctx, http.MethodPost, pathCustomers, nil, p.form(), &out)
}

// GetCustomer retrieves a customer. A customer that does not exist for this
// account gives an error for which IsNotFound is true.
func (c *Client) GetCustomer(ctx context.Context, id string) (*Customer, error) {
	var out Customer
	return &out, c.call(ctx, http.MethodGet, customerPath(id), nil, nil, &out)
}

// UpdateCustomer changes the fields p sets and leaves the others.
func (c *Client) UpdateCustomer(ctx context.Context, id string, p *CustomerParams) (*Customer, error) {
	var out Customer
	return &out, c.call(ctx, http.MethodPost, customerPath(id), nil, p.form(), &out)
}

// DeleteCustomer deletes a customer and its sources.
func (c *Client) DeleteCustomer(ctx context.Context, id string) (*Deleted, error) {
	var out Deleted
	return &out, c.call(ctx, http.MethodDelete, customerPath(id), nil, nil, &out)
}

// AddSource stores a tokenized payment method on a customer. The first one
// stored becomes the customer's default.
func (c *Client) AddSource(ctx context.Context, customerID, token string) (*Source, error) {
	var out Source
	return &out, c.call(ctx, http.MethodPost, sourcesPath(customerID), nil, url.Values{paramSource: {token}}, &out)
}

// GetSource retrieves one of a customer's sources.
func (c *Client) GetSource(ctx context.Context, customerID, sourceID string) (*Source, error) {
	var out Source
	return &out, c.call(ctx, http.MethodGet, sourcePath(customerID, sourceID), nil, nil, &out)
}

// DeleteSource detaches a source from its customer.
func (c *Client) DeleteSource(ctx context.Context, customerID, sourceID string) (*Deleted, error) {
	var out Deleted
	return &out, c.call(ctx, http.MethodDelete, sourcePath(customerID, sourceID), nil, nil, &out)
}

// SetDefaultSource makes an attached source the customer's default.
func (c *Client) SetDefaultSource(ctx context.Context, customerID, sourceID string) (*Customer, error) {
	return c.UpdateCustomer(ctx, customerID, &CustomerParams{DefaultSource: &sourceID})
}
