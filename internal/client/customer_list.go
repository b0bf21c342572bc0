package client

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"net/http"
	"net/url"

	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// CustomerList is one page of the customer list.
type CustomerList = wire.List[Customer]

// ListCustomersParams filter and page the customer list. Email "" lists
// every customer; otherwise only those with that address, ignoring case.
type ListCustomersParams struct {
	Email string
	ListParams
}

// ErrCustomerListUnsupported is the error (under errors.Is) of a customer
// list on a service that has none: the service publishes no customer list, and a
// service without one answers 404 unrecognized_url.
var ErrCustomerListUnsupported = errors.New("the payments service cannot list customers")

// customerListUnsupportedError is ErrCustomerListUnsupported with the
// service's answer, which errors.As still reaches.
type customerListUnsupportedError struct{ err *Error }

func (e *customerListUnsupportedError) Error() string {
	return fmt.Sprintf("%s: GET %s is not one of its endpoints (%v)", ErrCustomerListUnsupported, wire.PathCustomers, e.err)
}

func (e *customerListUnsupportedError) Is(target error) bool {
	return target == ErrCustomerListUnsupported
}
func (e *customerListUnsupportedError) Unwrap() error { return e.err }

func (p *ListCustomersParams) query() url.Values {
	v := url.Values{}
	if p == nil {
		return v
	}
	setNonEmpty(v, wire.ParamEmail, p.Email)
	return p.ListParams.query(v)
}

// ListCustomers returns one page of customers, newest first. On a service
// without a customer list the error is ErrCustomerListUnsupported.
func (c *Client) ListCustomers(ctx context.Context, p *ListCustomersParams) (*CustomerList, error) {
	out, err := listPage(ctx, c, wire.PathCustomers, p.query(), "a customer", func(cu *Customer) bool { return cu.Livemode })
	if e, ok := AsError(err); ok && e.HTTPStatus == http.StatusNotFound && e.Code == wire.ErrorCodeUnrecognizedURL {
		return nil, &customerListUnsupportedError{err: e}
	}
	return out, err
}

// AllCustomers iterates over every customer matching p, newest first,
// following the pages; p.Limit is the page size. Iteration stops at the
// first error, which is yielded with a nil customer.
func (c *Client) AllCustomers(ctx context.Context, p *ListCustomersParams) iter.Seq2[*Customer, error] {
	page := valueOf(p)
	return allPages(&page.ListParams, func() (*CustomerList, error) { return c.ListCustomers(ctx, &page) },
		func(cu *Customer) string { return cu.ID })
}
