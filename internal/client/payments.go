package client

import (
	"context"
	"fmt"
	"iter"
	"net/http"
	"net/url"
	"strconv"
)

// Payment paths. [spec] paths; the methods of list, capture and refund are [assumed].
const pathPayments = APIVersionPrefix + "/payments"

func paymentPath(id string) string { return pathPayments + "/" + pathID(id) }

// Payment and list parameter names. [assumed]
const (
	paramAmount        = "amount"
	paramCurrency      = "currency"
	paramCustomer      = "customer"
	paramDescription   = "description"
	paramCapture       = "capture"
	paramStatus        = "status"
	paramCreatedGTE    = "created[gte]"
	paramCreatedLTE    = "created[lte]"
	paramLimit         = "limit"
	paramStartingAfter = "starting_after"
	paramEndingBefore  = "ending_before"
)

func (p *PaymentParams) form() url.Values {
	v := url.Values{}
	v.Set(paramAmount, strconv.FormatInt(p.Amount, 10))
	v.Set(paramCurrency, p.Currency)
	setNonEmpty(v, paramSource, p.Source)
	setNonEmpty(v, paramCustomer, p.Customer)
	setNonEmpty(v, paramDescription, p.Description)
	if p.Capture != nil {
		v.Set(paramCapture, strconv.FormatBool(*p.Capture))
	}
	setMetadata(v, p.Metadata, false)
	return v
}

func (p *ListPaymentsParams) query() url.Values {
	v := url.Values{}
	if p == nil {
		return v
	}
	setNonEmpty(v, paramCustomer, p.Customer)
	setNonEmpty(v, paramStatus, p.Status)
	setNonEmpty(v, paramCreatedGTE, p.CreatedGTE)
	setNonEmpty(v, paramCreatedLTE, p.CreatedLTE)
	if p.Limit != 0 {
		v.Set(paramLimit, strconv.Itoa(p.Limit))
	}
	setNonEmpty(v, paramStartingAfter, p.StartingAfter)
	setNonEmpty(v, paramEndingBefore, p.EndingBefore)
	return v
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
	return &out, c.call(ctx, http.MethodPost, pathPayments, nil, p.form(), &out)
}

// GetPayment retrieves a payment.
func (c *Client) GetPayment(ctx context.Context, id string) (*Payment, error) {
	var out Payment
	return &out, c.call(ctx, http.MethodGet, paymentPath(id), nil, nil, &out)
}

// ListPayments returns one page of payments, newest first.
func (c *Client) ListPayments(ctx context.Context, p *ListPaymentsParams) (*PaymentList, error) {
	var out PaymentList
	if err := c.call(ctx, http.MethodGet, pathPayments, p.query(), nil, &out); err != nil {
		return nil, err
	}
	for i, pay := range out.Data {
		if pay == nil {
			// A null entry would crash every caller that reads the page.
			return nil, fmt.Errorf("GET %s: decoding answer: entry %d of the list is null, not a payment", pathPayments, i)
		}
		if pay.Livemode != c.livemode {
			return nil, &LivemodeMismatchError{Path: pathPayments, KeyLivemode: c.livemode}
		}
	}
	return &out, nil
}

// AllPayments iterates over every payment matching p, newest first,
// following the pages; p.Limit is the page size. Iteration stops at the
// first error, which is yielded with a nil payment.
func (c *Client) AllPayments(ctx context.Context, p *ListPaymentsParams) iter.Seq2[*Payment, error] {
	return func(yield func(*Payment, error) bool) {
		page := ListPaymentsParams{}
		if p != nil {
			page = *p
		}
		page.EndingBefore = ""
		for {
			list, err := c.ListPayments(ctx, &page)
			if err != nil {
				yield(nil, err)
				return
			}
			for _, pay := range list.Data {
				if !yield(pay, nil) {
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

// UpdatePayment changes a payment's description and metadata, the only
// fields of a payment that can change without a new charge. [assumed]
func (c *Client) UpdatePayment(ctx context.Context, id string, p *PaymentUpdateParams) (*Payment, error) {
	var out Payment
	return &out, c.call(ctx, http.MethodPost, paymentPath(id), nil, p.form(), &out)
}

func (p *PaymentUpdateParams) form() url.Values {
	v := url.Values{}
	if p == nil {
		return v
	}
	setPtr(v, paramDescription, p.Description)
	setMetadata(v, p.Metadata, p.ClearMetadata)
	return v
}

// CapturePayment captures an authorized payment; amount nil captures all
// of it, a smaller amount releases the rest.
func (c *Client) CapturePayment(ctx context.Context, id string, amount *int64) (*Payment, error) {
	var out Payment
	return &out, c.call(ctx, http.MethodPost, paymentPath(id)+"/capture", nil, amountForm(amount), &out)
}

// RefundPayment refunds a payment; amount nil refunds what is left.
func (c *Client) RefundPayment(ctx context.Context, id string, amount *int64) (*Payment, error) {
	var out Payment
	return &out, c.call(ctx, http.MethodPost, paymentPath(id)+"/refund", nil, amountForm(amount), &out)
}

func amountForm(amount *int64) url.Values {
	v := url.Values{}
	if amount != nil {
		v.Set(paramAmount, strconv.FormatInt(*amount, 10))
	}
	return v
}
