package client

import (
	"context"
	"iter"
	"net/http"
	"net/url"
	"strconv"

	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// SubscriptionItemParams is one item of a subscription: a recurring
// price and how many of it. Quantity 0 means the service default (1).
type SubscriptionItemParams struct {
	Price    string
	Quantity int64
}

// SubscriptionParams are the fields of a subscription create. Every item
// bills in one currency and one period.
type SubscriptionParams struct {
	Customer string
	Items    []SubscriptionItemParams
	// DefaultSource "" charges the customer's default source.
	DefaultSource string
	// PaymentBehavior "" means wire.PaymentBehaviorAllowIncomplete.
	PaymentBehavior string
	// TrialPeriodDays 0 starts without a trial.
	TrialPeriodDays   int64
	CancelAtPeriodEnd *bool
	Metadata          map[string]string
}

// SubscriptionUpdateParams are the fields a subscription update may
// change; the changes bill from the next period, without proration. Items
// nil keeps the items; otherwise they replace them, and an entry of a
// price the subscription has keeps that item's id. Quantity 0 is not
// sent; otherwise it sets the quantity of a subscription's only item. A
// nil pointer is not sent; DefaultSource pointing to "" goes back to the
// customer's default source.
type SubscriptionUpdateParams struct {
	Items             []SubscriptionItemParams
	Quantity          int64
	DefaultSource     *string
	CancelAtPeriodEnd *bool
	Metadata          map[string]string
	ClearMetadata     bool
}

// ListSubscriptionsParams filter and page the subscription list. Status
// "" lists every status but canceled, as the service does;
// wire.SubscriptionStatusAll lists every one.
type ListSubscriptionsParams struct {
	Customer string
	Status   string
	Price    string
	ListParams
}

func setItems(v url.Values, items []SubscriptionItemParams) {
	for i, it := range items {
		v.Set(wire.ItemParam(i, wire.ParamPrice), it.Price)
		if it.Quantity != 0 {
			v.Set(wire.ItemParam(i, wire.ParamQuantity), strconv.FormatInt(it.Quantity, 10))
		}
	}
}

func (p *SubscriptionParams) form() url.Values {
	v := url.Values{}
	if p == nil {
		return v
	}
	setNonEmpty(v, wire.ParamCustomer, p.Customer)
	setItems(v, p.Items)
	setNonEmpty(v, wire.ParamDefaultSource, p.DefaultSource)
	setNonEmpty(v, wire.ParamPaymentBehavior, p.PaymentBehavior)
	if p.TrialPeriodDays != 0 {
		v.Set(wire.ParamTrialPeriodDays, strconv.FormatInt(p.TrialPeriodDays, 10))
	}
	setBool(v, wire.ParamCancelAtPeriodEnd, p.CancelAtPeriodEnd)
	setMetadata(v, p.Metadata, false)
	return v
}

func (p *SubscriptionUpdateParams) form() url.Values {
	v := url.Values{}
	if p == nil {
		return v
	}
	setItems(v, p.Items)
	if p.Quantity != 0 {
		v.Set(wire.ParamQuantity, strconv.FormatInt(p.Quantity, 10))
	}
	setPtr(v, wire.ParamDefaultSource, p.DefaultSource)
	setBool(v, wire.ParamCancelAtPeriodEnd, p.CancelAtPeriodEnd)
	setMetadata(v, p.Metadata, p.ClearMetadata)
	return v
}

func (p *ListSubscriptionsParams) query() url.Values {
	v := url.Values{}
	if p == nil {
		return v
	}
	setNonEmpty(v, wire.ParamCustomer, p.Customer)
	setNonEmpty(v, wire.ParamStatus, p.Status)
	setNonEmpty(v, wire.ParamPrice, p.Price)
	return p.ListParams.query(v)
}

// CreateSubscription subscribes a customer to recurring prices and
// charges the first period (unless a trial comes first). With
// wire.PaymentBehaviorErrorIfIncomplete a declined first charge is a card
// error and nothing is created; otherwise the subscription is incomplete.
func (c *Client) CreateSubscription(ctx context.Context, p *SubscriptionParams) (*Subscription, error) {
	var out Subscription
	return &out, c.call(ctx, http.MethodPost, wire.PathSubscriptions, nil, p.form(), &out)
}

// GetSubscription retrieves a subscription, canceled ones included. One
// that does not exist for this account gives an error for which
// IsNotFound is true.
func (c *Client) GetSubscription(ctx context.Context, id string) (*Subscription, error) {
	var out Subscription
	return &out, c.call(ctx, http.MethodGet, expand(wire.PathSubscription, id), nil, nil, &out)
}

// UpdateSubscription changes the fields p sets and leaves the others. A
// subscription that has ended gives an error of code
// wire.ErrorCodeSubscriptionUnexpectedState.
func (c *Client) UpdateSubscription(ctx context.Context, id string, p *SubscriptionUpdateParams) (*Subscription, error) {
	var out Subscription
	return &out, c.call(ctx, http.MethodPost, expand(wire.PathSubscription, id), nil, p.form(), &out)
}

// CancelSubscription cancels a subscription at once; it stays
// retrievable, canceled. To end it at the period's end instead, update
// CancelAtPeriodEnd.
func (c *Client) CancelSubscription(ctx context.Context, id string) (*Subscription, error) {
	var out Subscription
	return &out, c.call(ctx, http.MethodDelete, expand(wire.PathSubscription, id), nil, nil, &out)
}

// ListSubscriptions returns one page of subscriptions, newest first.
func (c *Client) ListSubscriptions(ctx context.Context, p *ListSubscriptionsParams) (*SubscriptionList, error) {
	return listPage(ctx, c, wire.PathSubscriptions, p.query(), "a subscription", func(s *Subscription) bool { return s.Livemode })
}

// AllSubscriptions iterates over every subscription matching p, newest
// first, following the pages; p.Limit is the page size. Iteration stops
// at the first error, which is yielded with a nil subscription.
func (c *Client) AllSubscriptions(ctx context.Context, p *ListSubscriptionsParams) iter.Seq2[*Subscription, error] {
	page := valueOf(p)
	return allPages(&page.ListParams, func() (*SubscriptionList, error) { return c.ListSubscriptions(ctx, &page) },
		func(s *Subscription) string { return s.ID })
}

// ListSubscriptionItems returns one page of a subscription's items, in
// the order of its embedded `items`. An item carries no livemode of its
// own.
func (c *Client) ListSubscriptionItems(ctx context.Context, subscription string, p *ListParams) (*SubscriptionItemList, error) {
	q := p.query(url.Values{})
	q.Set(wire.ParamSubscription, subscription)
	return listPage[SubscriptionItem](ctx, c, wire.PathSubscriptionItems, q, "a subscription item", nil)
}
