package dashboard

import (
	"net/http"
	"net/url"
	"strconv"

	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// invoicesPerSubscription is how many of a subscription's invoices its
// page shows, newest first; the API's largest page.
const invoicesPerSubscription = wire.ListLimitMax

type subscriptionsData struct {
	Subscriptions []*wire.Subscription
	Gone          map[string]bool
	Status        string
	Statuses      []string
	Customer      string
	Pager         pager
}

// subscriptions is GET /v1/subscriptions as a page: by default every
// subscription but the canceled ones, as the API lists them.
func (d *Dashboard) subscriptions(w http.ResponseWriter, r *http.Request, ss *session) {
	q := listQuery(r, wire.ParamStatus, wire.ParamCustomer)
	var l wire.SubscriptionList
	if err := d.get(r.Context(), ss, wire.PathSubscriptions, q, &l); err != nil {
		d.fail(w, r, ss, "subscriptions", err)
		return
	}
	gone, err := d.goneCustomerIDs(r, ss, customersOf(l.Data, func(s *wire.Subscription) string { return s.Customer }))
	if err != nil {
		d.fail(w, r, ss, "subscriptions", err)
		return
	}
	first, last := ids(l.Data, func(s *wire.Subscription) string { return s.ID })
	d.render(w, r, ss, http.StatusOK, "subscriptions.html", &view{Title: "Subscriptions", Nav: "subscriptions", Live: true, Data: subscriptionsData{
		Subscriptions: l.Data, Gone: gone, Status: q.Get(wire.ParamStatus),
		Statuses: append([]string{wire.SubscriptionStatusAll}, wire.SubscriptionStatuses...),
		Customer: q.Get(wire.ParamCustomer), Pager: pagerFor("/subscriptions", r, q, first, last, l.HasMore),
	}})
}

type subscriptionData struct {
	S        *wire.Subscription
	Gone     map[string]bool
	Meta     []kv
	Invoices []*wire.Invoice
	// More says the subscription has more invoices than shown.
	More bool
}

// subscription shows one subscription: its fields, its items and its
// invoices (GET /v1/invoices?subscription=), newest first.
func (d *Dashboard) subscription(w http.ResponseWriter, r *http.Request, ss *session) {
	id := r.PathValue("id")
	var s wire.Subscription
	if err := d.get(r.Context(), ss, expand(wire.PathSubscription, id), nil, &s); err != nil {
		d.fail(w, r, ss, "subscriptions", err)
		return
	}
	var il wire.InvoiceList
	iq := url.Values{wire.ParamSubscription: {s.ID}, wire.ParamLimit: {strconv.Itoa(invoicesPerSubscription)}}
	if err := d.get(r.Context(), ss, wire.PathInvoices, iq, &il); err != nil {
		d.fail(w, r, ss, "subscriptions", err)
		return
	}
	gone, err := d.goneCustomerIDs(r, ss, []string{s.Customer})
	if err != nil {
		d.fail(w, r, ss, "subscriptions", err)
		return
	}
	d.render(w, r, ss, http.StatusOK, "subscription.html", &view{Title: "Subscription " + s.ID, Nav: "subscriptions", Live: true,
		Data: subscriptionData{S: &s, Gone: gone, Meta: sortedMeta(s.Metadata), Invoices: il.Data, More: il.HasMore}})
}

// customersOf names the customers of a page of objects, for
// goneCustomerIDs.
func customersOf[T any](data []*T, customer func(*T) string) []string {
	out := make([]string, len(data))
	for i, o := range data {
		out[i] = customer(o)
	}
	return out
}

// itemTotal is what one item costs a period: its price's unit amount
// times its quantity.
func itemTotal(it *wire.SubscriptionItem) int64 {
	if it.Price == nil {
		return 0
	}
	return it.Price.UnitAmount * it.Quantity
}

// subscriptionTotal is what a subscription's items cost a period, in
// their currency.
func subscriptionTotal(s *wire.Subscription) string {
	var total int64
	currency := ""
	for _, it := range s.Items.Data {
		total += itemTotal(it)
		if it.Price != nil {
			currency = it.Price.Currency
		}
	}
	return formatMoney(total, currency)
}

// atPeriodEnd says what happens to s when its current period ends, as the
// sandbox's renewals do it: an ended subscription (canceled, by DELETE,
// at its period's end or with its deleted customer, or expired while
// incomplete) never renews, an unpaid one waits for its invoice to be
// paid, an incomplete one expires unless its first invoice is paid.
func atPeriodEnd(s *wire.Subscription) string {
	switch s.Status {
	case wire.SubscriptionStatusCanceled, wire.SubscriptionStatusIncompleteExpired:
		return "nothing: it has ended"
	case wire.SubscriptionStatusUnpaid:
		return "nothing until its latest invoice is paid"
	case wire.SubscriptionStatusIncomplete:
		return "nothing: it expires unless its first invoice is paid"
	}
	if s.CancelAtPeriodEnd {
		return "ends, without another invoice"
	}
	return "renews"
}
