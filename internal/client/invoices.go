package client

import (
	"context"
	"iter"
	"net/http"
	"net/url"

	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// ListInvoicesParams filter and page the invoice list: each filter given
// keeps only the invoices that match it.
type ListInvoicesParams struct {
	Customer     string
	Subscription string
	Status       string
	ListParams
}

func (p *ListInvoicesParams) query() url.Values {
	v := url.Values{}
	if p == nil {
		return v
	}
	setNonEmpty(v, wire.ParamCustomer, p.Customer)
	setNonEmpty(v, wire.ParamSubscription, p.Subscription)
	setNonEmpty(v, wire.ParamStatus, p.Status)
	return p.ListParams.query(v)
}

// GetInvoice retrieves an invoice. One that does not exist for this
// account gives an error for which IsNotFound is true.
func (c *Client) GetInvoice(ctx context.Context, id string) (*Invoice, error) {
	var out Invoice
	return &out, c.call(ctx, http.MethodGet, expand(wire.PathInvoice, id), nil, nil, &out)
}

// PayInvoice attempts an open invoice's payment now, to the
// subscription's source. A declined attempt is an error for which
// IsCardError is true, its Payment the declined payment's id; the
// attempt is kept all the same (the invoice stays open, its
// attempt_count one higher and its payment the declined one). An
// invoice that is neither open nor uncollectible, or whose payment waits
// for 3-D Secure, gives an error of code
// wire.ErrorCodeInvoiceUnexpectedState.
func (c *Client) PayInvoice(ctx context.Context, id string) (*Invoice, error) {
	var out Invoice
	return &out, c.call(ctx, http.MethodPost, expand(wire.PathInvoicePay, id), nil, url.Values{}, &out)
}

// VoidInvoice marks an open invoice never to be paid. An invoice that is
// not open, or whose payment waits for 3-D Secure, gives an error of code
// wire.ErrorCodeInvoiceUnexpectedState.
func (c *Client) VoidInvoice(ctx context.Context, id string) (*Invoice, error) {
	var out Invoice
	return &out, c.call(ctx, http.MethodPost, expand(wire.PathInvoiceVoid, id), nil, url.Values{}, &out)
}

// ListInvoices returns one page of invoices, newest first.
func (c *Client) ListInvoices(ctx context.Context, p *ListInvoicesParams) (*InvoiceList, error) {
	return listPage(ctx, c, wire.PathInvoices, p.query(), "an invoice", func(inv *Invoice) bool { return inv.Livemode })
}

// AllInvoices iterates over every invoice matching p, newest first,
// following the pages; p.Limit is the page size. Iteration stops at the
// first error, which is yielded with a nil invoice.
func (c *Client) AllInvoices(ctx context.Context, p *ListInvoicesParams) iter.Seq2[*Invoice, error] {
	page := valueOf(p)
	return allPages(&page.ListParams, func() (*InvoiceList, error) { return c.ListInvoices(ctx, &page) },
		func(inv *Invoice) string { return inv.ID })
}

// ListInvoiceLines returns one page of an invoice's lines, in the order
// of its embedded `lines`. A line carries no livemode of its own.
func (c *Client) ListInvoiceLines(ctx context.Context, id string, p *ListParams) (*InvoiceLineList, error) {
	return listPage[InvoiceLine](ctx, c, expand(wire.PathInvoiceLines, id), p.query(url.Values{}), "an invoice line", nil)
}
