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
type CustomerList struct {
	Object  string      `json:"object"`
	Data    []*Customer `json:"data"`
	HasMore bool        `json:"has_more"`
	URL     string      `json:"url"`
}

// ListCustomersParams filter and page the customer list. Email "" lists
// every customer; otherwise only those with that address, ignoring case.
type ListCustomersParams struct {
	Email string
	ListParams
}

// ErrCustomerListUnsupported is the error (under errors.Is) of a customer
// list on a service that has none: SPEC.md shows no customer list, and a
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
	var out CustomerList
	if err := c.call(ctx, http.MethodGet, wire.PathCustomers, p.query(), nil, &out); err != nil {
		if e, ok := AsError(err); ok && e.HTTPStatus == http.StatusNotFound && e.Code == wire.ErrorCodeUnrecognizedURL {
			return nil, &customerListUnsupportedError{err: e}
		}
		return nil, err
	}
	for i, cu := range out.Data {
		if cu == nil {
			// A null entry would crash every caller that reads the page.
			return nil, fmt.Errorf("GET %s: decoding answer: entry %d of the list is null, not a customer", wire.PathCustomers, i)
		}
		if cu.Livemode != c.livemode {
			return nil, &LivemodeMismatchError{Path: wire.PathCustomers, KeyLivemode: c.livemode}
		}
	}
	return &out, nil
}

// AllCustomers iterates over every customer matching p, newest first,
// following the pages; p.Limit is the page size. Iteration stops at the
// first error, which is yielded with a nil customer.
func (c *Client) AllCustomers(ctx context.Context, p *ListCustomersParams) iter.Seq2[*Customer, error] {
	return func(yield func(*Customer, error) bool) {
		page := ListCustomersParams{}
		if p != nil {
			page = *p
		}
		page.EndingBefore = ""
		for {
			list, err := c.ListCustomers(ctx, &page)
			if err != nil {
				yield(nil, err)
				return
			}
			for _, cu := range list.Data {
				if !yield(cu, nil) {
					return
				}
			}
			if !list.HasMore || len(list.Data) == 0 {
				return
			}
			page.StartingAfter = list.Data[len(list.Data)-1].ID
		}
	}
}
