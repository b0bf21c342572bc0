package client

import (
	"context"
	"iter"
	"net/http"
	"net/url"
	"strconv"

	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

func (p *PaymentParams) form() url.Values {
	v := url.Values{}
	v.Set(wire.ParamAmount, strconv.FormatInt(p.Amount, 10))
	v.Set(wire.ParamCurrency, p.Currency)
	setNonEmpty(v, wire.ParamSource, p.Source)
	setNonEmpty(v, wire.ParamCustomer, p.Customer)
	setNonEmpty(v, wire.ParamDescription, p.Description)
	if p.Capture != nil {
		v.Set(wire.ParamCapture, strconv.FormatBool(*p.Capture))
	}
	setMetadata(v, p.Metadata, false)
	return v
}

func (p *ListPaymentsParams) query() url.Values {
	v := url.Values{}
	if p == nil {
		return v
	}
	setNonEmpty(v, wire.ParamCustomer, p.Customer)
	setNonEmpty(v, wire.ParamStatus, p.Status)
	setNonEmpty(v, wire.ParamCreatedGTE, p.CreatedGTE)
	setNonEmpty(v, wire.ParamCreatedLTE, p.CreatedLTE)
	return p.ListParams.query(v)
}

func setNonEmpty(v url.Values, name, value string) {
	if value != "" {
		v.Set(name, value)
	}
}

// CreatePayment charges a token, a customer's default source, or one of a
// customer's sources. A declined charge returns an error for which
// IsCardError is true; the declined payment's id is in its Payment field.
func (c *Client) CreatePayment(ctx context.Context, p *PaymentParams) (*Payment, error) {
	var out Payment
	return &out, c.call(ctx, http.MethodPost, wire.PathPayments, nil, p.form(), &out)
}

// GetPayment retrieves a payment.
func (c *Client) GetPayment(ctx context.Context, id string) (*Payment, error) {
	var out Payment
	return &out, c.call(ctx, http.MethodGet, expand(wire.PathPayment, id), nil, nil, &out)
}

// ListPayments returns one page of payments, newest first.
func (c *Client) ListPayments(ctx context.Context, p *ListPaymentsParams) (*PaymentList, error) {
	return listPage(ctx, c, wire.PathPayments, p.query(), "a payment", func(pay *Payment) bool { return pay.Livemode })
}

// AllPayments iterates over every payment matching p, newest first,
// following the pages; p.Limit is the page size. Iteration stops at the
// first error, which is yielded with a nil payment.
func (c *Client) AllPayments(ctx context.Context, p *ListPaymentsParams) iter.Seq2[*Payment, error] {
	page := valueOf(p)
	return allPages(&page.ListParams, func() (*PaymentList, error) { return c.ListPayments(ctx, &page) },
		func(pay *Payment) string { return pay.ID })
}

// UpdatePayment changes a payment's description and metadata, the only
// fields of a payment that can change without a new charge. [assumed]
func (c *Client) UpdatePayment(ctx context.Context, id string, p *PaymentUpdateParams) (*Payment, error) {
	var out Payment
	return &out, c.call(ctx, http.MethodPost, expand(wire.PathPayment, id), nil, p.form(), &out)
}

func (p *PaymentUpdateParams) form() url.Values {
	v := url.Values{}
	if p == nil {
		return v
	}
	setPtr(v, wire.ParamDescription, p.Description)
	setMetadata(v, p.Metadata, p.ClearMetadata)
	return v
}

// CapturePayment captures an authorized payment; amount nil captures all
// of it, a smaller amount releases the rest.
func (c *Client) CapturePayment(ctx context.Context, id string, amount *int64) (*Payment, error) {
	var out Payment
	return &out, c.call(ctx, http.MethodPost, expand(wire.PathPaymentCapture, id), nil, amountForm(amount), &out)
}

// RefundPayment refunds a payment; amount nil refunds what is left.
func (c *Client) RefundPayment(ctx context.Context, id string, amount *int64) (*Payment, error) {
	var out Payment
	return &out, c.call(ctx, http.MethodPost, expand(wire.PathPaymentRefund, id), nil, amountForm(amount), &out)
}

func amountForm(amount *int64) url.Values {
	v := url.Values{}
	if amount != nil {
		v.Set(wire.ParamAmount, strconv.FormatInt(*amount, 10))
	}
	return v
}
