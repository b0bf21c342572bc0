package client_test

import (
	"context"
	"maps"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/paymentsdev/terraform-provider-payments/internal/client"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandboxclient"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// billingCatalog is a product with two monthly USD prices and a yearly one.
type billingCatalog struct{ monthly, addon, yearly *client.Price }

func newBillingCatalog(tb testing.TB, c *client.Client) billingCatalog {
	tb.Helper()
	p := mustProduct(tb, c, "Plan")
	month := &client.Recurring{Interval: wire.IntervalMonth}
	return billingCatalog{
		monthly: mustPrice(tb, c, &client.PriceParams{Product: p.ID, Currency: "USD", UnitAmount: 1500, Recurring: month}),
		addon:   mustPrice(tb, c, &client.PriceParams{Product: p.ID, Currency: "USD", UnitAmount: 500, Recurring: month}),
		yearly: mustPrice(tb, c, &client.PriceParams{Product: p.ID, Currency: "USD", UnitAmount: 15000,
			Recurring: &client.Recurring{Interval: wire.IntervalYear}}),
	}
}

func mustSubscription(tb testing.TB, c *client.Client, p *client.SubscriptionParams) *client.Subscription {
	tb.Helper()
	s, err := c.CreateSubscription(context.Background(), p)
	if err != nil {
		tb.Fatalf("CreateSubscription: %v", err)
	}
	return s
}

func mustInvoice(tb testing.TB, c *client.Client, id string) *client.Invoice {
	tb.Helper()
	inv, err := c.GetInvoice(context.Background(), id)
	if err != nil {
		tb.Fatalf("GetInvoice(%s): %v", id, err)
	}
	return inv
}

func subID(s *client.Subscription) string { return s.ID }
func invID(inv *client.Invoice) string    { return inv.ID }

// TestClient_SubscriptionLifecycle: create (paid, in trial), read, update
// items and flags, cancel at once, and the list's filters.
func TestClient_SubscriptionLifecycle(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := newEnv(t)
	cat := newBillingCatalog(t, e.c)
	cus := mustCustomer(t, e.c, &client.CustomerParams{Source: new(sandbox.TokenVisa)})
	sub := mustSubscription(t, e.c, &client.SubscriptionParams{
		Customer: cus.ID, Items: []client.SubscriptionItemParams{{Price: cat.monthly.ID, Quantity: 2}},
		Metadata: map[string]string{"plan": "pro"},
	})
	checkID(t, sub.ID, wire.SubscriptionIDPrefix)
	checkTimestamp(t, sub.CreatedAt)
	checkTimestamp(t, sub.CurrentPeriodStart)
	if sub.CurrentPeriodEnd <= sub.CurrentPeriodStart {
		t.Errorf("period %s to %s", sub.CurrentPeriodStart, sub.CurrentPeriodEnd)
	}
	if sub.Object != "subscription" || sub.Status != wire.SubscriptionStatusActive || sub.Customer != cus.ID || len(sub.Items.Data) != 1 ||
		sub.Items.Data[0].Quantity != 2 || sub.Items.Data[0].Price.ID != cat.monthly.ID || sub.CancelAtPeriodEnd || sub.CanceledAt != "" ||
		!maps.Equal(sub.Metadata, map[string]string{"plan": "pro"}) || sub.Livemode {
		t.Errorf("created subscription: %+v", sub)
	}
	checkID(t, sub.Items.Data[0].ID, wire.SubscriptionItemIDPrefix)
	if got, err := e.c.GetSubscription(ctx, sub.ID); err != nil || !reflect.DeepEqual(got, sub) {
		t.Errorf("GetSubscription = %+v, %v; want %+v", got, err, sub)
	}
	first := mustInvoice(t, e.c, sub.LatestInvoice)
	checkID(t, first.ID, wire.InvoiceIDPrefix)
	if first.Status != wire.InvoiceStatusPaid || first.BillingReason != wire.BillingReasonSubscriptionCreate || first.AmountDue != 3000 ||
		first.AmountPaid != 3000 || first.AttemptCount != 1 || first.Subscription != sub.ID || len(first.Lines.Data) != 1 ||
		first.Lines.Data[0].Amount != 3000 || first.Lines.Data[0].SubscriptionItem != sub.Items.Data[0].ID || first.PeriodStart != sub.CurrentPeriodStart {
		t.Errorf("first invoice: %+v", first)
	}
	if pay, err := e.c.GetPayment(ctx, first.Payment); err != nil || pay.Invoice != first.ID || pay.Amount != 3000 {
		t.Errorf("the first invoice's payment: %+v, %v", pay, err)
	}

	upd, err := e.c.UpdateSubscription(ctx, sub.ID, &client.SubscriptionUpdateParams{
		Items:             []client.SubscriptionItemParams{{Price: cat.monthly.ID}, {Price: cat.addon.ID, Quantity: 3}},
		CancelAtPeriodEnd: new(true), ClearMetadata: true,
	})
	if err != nil || len(upd.Items.Data) != 2 || upd.Items.Data[0].ID != sub.Items.Data[0].ID || upd.Items.Data[0].Quantity != 1 || upd.Items.Data[1].Quantity != 3 ||
		!upd.CancelAtPeriodEnd || len(upd.Metadata) != 0 || upd.Status != wire.SubscriptionStatusActive || upd.LatestInvoice != first.ID {
		t.Errorf("UpdateSubscription = %+v, %v", upd, err)
	}
	upd, err = e.c.UpdateSubscription(ctx, sub.ID, &client.SubscriptionUpdateParams{
		Items: []client.SubscriptionItemParams{{Price: cat.addon.ID}}, CancelAtPeriodEnd: new(false),
	})
	if err != nil || len(upd.Items.Data) != 1 || upd.CancelAtPeriodEnd {
		t.Errorf("UpdateSubscription back to one item = %+v, %v", upd, err)
	}
	if upd, err = e.c.UpdateSubscription(ctx, sub.ID, &client.SubscriptionUpdateParams{Quantity: 4}); err != nil || upd.Items.Data[0].Quantity != 4 {
		t.Errorf("UpdateSubscription quantity = %+v, %v", upd, err)
	}

	trial := mustSubscription(t, e.c, &client.SubscriptionParams{
		Customer: cus.ID, Items: []client.SubscriptionItemParams{{Price: cat.yearly.ID}}, TrialPeriodDays: 7,
	})
	if trial.Status != wire.SubscriptionStatusTrialing || trial.TrialStart == "" || trial.TrialEnd != trial.CurrentPeriodEnd {
		t.Errorf("trial subscription: %+v", trial)
	}
	other := mustCustomer(t, e.c, &client.CustomerParams{Source: new(sandbox.TokenMastercard)})
	gone := mustSubscription(t, e.c, &client.SubscriptionParams{Customer: other.ID, Items: []client.SubscriptionItemParams{{Price: cat.monthly.ID}}})
	canceled, err := e.c.CancelSubscription(ctx, gone.ID)
	if err != nil || canceled.Status != wire.SubscriptionStatusCanceled || canceled.CanceledAt == "" {
		t.Errorf("CancelSubscription = %+v, %v", canceled, err)
	}
	if got, err := e.c.GetSubscription(ctx, gone.ID); err != nil || !reflect.DeepEqual(got, canceled) {
		t.Errorf("GetSubscription after the cancel = %+v, %v; want %+v", got, err, canceled)
	}

	for _, tc := range []struct {
		name string
		p    *client.ListSubscriptionsParams
		want []string
	}{
		{"all but canceled", nil, []string{trial.ID, sub.ID}},
		{"every status, one a page", &client.ListSubscriptionsParams{Status: wire.SubscriptionStatusAll, ListParams: client.ListParams{Limit: 1}},
			[]string{gone.ID, trial.ID, sub.ID}},
		{"canceled", &client.ListSubscriptionsParams{Status: wire.SubscriptionStatusCanceled}, []string{gone.ID}},
		{"trialing", &client.ListSubscriptionsParams{Status: wire.SubscriptionStatusTrialing}, []string{trial.ID}},
		{"by customer", &client.ListSubscriptionsParams{Customer: other.ID, Status: wire.SubscriptionStatusAll}, []string{gone.ID}},
		{"by price", &client.ListSubscriptionsParams{Price: cat.addon.ID}, []string{sub.ID}},
	} {
		if got := ids(t, e.c.AllSubscriptions(ctx, tc.p), subID); !slices.Equal(got, tc.want) {
			t.Errorf("AllSubscriptions %s = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestClient_InvoicePayAndVoid: a first charge declined leaves an open
// invoice and an incomplete subscription; paying it again is no error,
// paying it to a good card settles both, and voiding ends another.
func TestClient_InvoicePayAndVoid(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := newEnv(t)
	cat := newBillingCatalog(t, e.c)
	cus := mustCustomer(t, e.c, &client.CustomerParams{Source: new(sandbox.TokenDeclinedLater)})
	items := []client.SubscriptionItemParams{{Price: cat.monthly.ID}}
	paid := mustSubscription(t, e.c, &client.SubscriptionParams{Customer: cus.ID, Items: items})
	late := mustSubscription(t, e.c, &client.SubscriptionParams{Customer: cus.ID, Items: items})
	if paid.Status != wire.SubscriptionStatusActive || late.Status != wire.SubscriptionStatusIncomplete {
		t.Fatalf("statuses %s and %s, want active and incomplete", paid.Status, late.Status)
	}
	open := mustInvoice(t, e.c, late.LatestInvoice)
	if open.Status != wire.InvoiceStatusOpen || open.AttemptCount != 1 || open.AmountPaid != 0 {
		t.Errorf("open invoice: %+v", open)
	}
	// Declined again: a card error naming the attempt's payment, the
	// attempt kept.
	_, err := e.c.PayInvoice(ctx, open.ID)
	ce, ok := client.AsError(err)
	if !ok || !client.IsCardError(err) || ce.Payment == "" || ce.Payment == open.Payment || !strings.Contains(ce.Message, open.ID) {
		t.Errorf("PayInvoice, declined again: %v; want a card error naming the invoice and its new payment", err)
	}
	again := mustInvoice(t, e.c, open.ID)
	if again.Status != wire.InvoiceStatusOpen || again.AttemptCount != 2 || ce == nil || again.Payment != ce.Payment {
		t.Errorf("after the declined attempt: %+v, the error %v", again, err)
	}
	good := mustSource(t, e.c, cus.ID, sandbox.TokenVisa)
	if _, err := e.c.UpdateSubscription(ctx, late.ID, &client.SubscriptionUpdateParams{DefaultSource: &good.ID}); err != nil {
		t.Fatal(err)
	}
	settled, err := e.c.PayInvoice(ctx, open.ID)
	if err != nil || settled.Status != wire.InvoiceStatusPaid || settled.AttemptCount != 3 || settled.AmountPaid != settled.AmountDue {
		t.Errorf("PayInvoice to a good card = %+v, %v", settled, err)
	}
	if s, err := e.c.GetSubscription(ctx, late.ID); err != nil || s.Status != wire.SubscriptionStatusActive || s.DefaultSource != good.ID {
		t.Errorf("subscription after its invoice was paid: %+v, %v", s, err)
	}

	void := mustSubscription(t, e.c, &client.SubscriptionParams{Customer: cus.ID, Items: items, DefaultSource: paid.DefaultSource})
	if void.Status == wire.SubscriptionStatusIncomplete {
		voided, err := e.c.VoidInvoice(ctx, void.LatestInvoice)
		if err != nil || voided.Status != wire.InvoiceStatusVoid || voided.NextPaymentAttempt != "" {
			t.Errorf("VoidInvoice = %+v, %v", voided, err)
		}
	} else {
		t.Fatalf("third subscription %s, want incomplete", void.Status)
	}
	for _, tc := range []struct {
		name string
		p    *client.ListInvoicesParams
		want []string
	}{
		{"all, one a page", &client.ListInvoicesParams{ListParams: client.ListParams{Limit: 1}}, []string{void.LatestInvoice, open.ID, paid.LatestInvoice}},
		{"by subscription", &client.ListInvoicesParams{Subscription: late.ID}, []string{open.ID}},
		{"by customer and status", &client.ListInvoicesParams{Customer: cus.ID, Status: wire.InvoiceStatusPaid}, []string{open.ID, paid.LatestInvoice}},
		{"void", &client.ListInvoicesParams{Status: wire.InvoiceStatusVoid}, []string{void.LatestInvoice}},
		{"open", &client.ListInvoicesParams{Status: wire.InvoiceStatusOpen}, nil},
	} {
		if got := ids(t, e.c.AllInvoices(ctx, tc.p), invID); !slices.Equal(got, tc.want) {
			t.Errorf("AllInvoices %s = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestClient_SubscriptionErrors: bad input gets a 400 naming the
// parameter, and a state that forbids a call its code, through each call.
func TestClient_SubscriptionErrors(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := newEnv(t)
	cat := newBillingCatalog(t, e.c)
	cus := mustCustomer(t, e.c, &client.CustomerParams{Source: new(sandbox.TokenVisa)})
	declining := mustCustomer(t, e.c, &client.CustomerParams{Source: new(sandbox.TokenDeclined)})
	bare := mustCustomer(t, e.c, nil)
	two := mustSubscription(t, e.c, &client.SubscriptionParams{Customer: cus.ID,
		Items: []client.SubscriptionItemParams{{Price: cat.monthly.ID}, {Price: cat.addon.ID}}})
	ended := mustSubscription(t, e.c, &client.SubscriptionParams{Customer: cus.ID, Items: []client.SubscriptionItemParams{{Price: cat.monthly.ID}}})
	if _, err := e.c.CancelSubscription(ctx, ended.ID); err != nil {
		t.Fatal(err)
	}
	create := func(p client.SubscriptionParams) func() error {
		return func() error { _, err := e.c.CreateSubscription(ctx, &p); return err }
	}
	monthly := []client.SubscriptionItemParams{{Price: cat.monthly.ID}}
	badState := wantErr{status: 400, code: wire.ErrorCodeSubscriptionUnexpectedState}
	for _, tc := range []struct {
		name string
		call func() error
		want wantErr
	}{
		{"no customer", create(client.SubscriptionParams{Items: monthly}),
			wantErr{status: 400, code: wire.ErrorCodeParameterMissing, param: wire.ParamCustomer}},
		{"unknown customer", create(client.SubscriptionParams{Customer: fakeID(wire.CustomerIDPrefix), Items: monthly}),
			wantErr{status: 400, code: wire.ErrorCodeResourceMissing, param: wire.ParamCustomer}},
		{"no items", create(client.SubscriptionParams{Customer: cus.ID}),
			wantErr{status: 400, code: wire.ErrorCodeParameterMissing, param: wire.ItemParam(0, wire.ParamPrice)}},
		{"two periods", create(client.SubscriptionParams{Customer: cus.ID,
			Items: []client.SubscriptionItemParams{{Price: cat.monthly.ID}, {Price: cat.yearly.ID}}}),
			wantErr{status: 400, code: wire.ErrorCodeParameterInvalid, param: wire.ItemParam(1, wire.ParamPrice)}},
		{"negative quantity", create(client.SubscriptionParams{Customer: cus.ID,
			Items: []client.SubscriptionItemParams{{Price: cat.monthly.ID, Quantity: -1}}}),
			wantErr{status: 400, code: wire.ErrorCodeParameterInvalid, param: wire.ItemParam(0, wire.ParamQuantity)}},
		{"unknown payment behavior", create(client.SubscriptionParams{Customer: cus.ID, Items: monthly, PaymentBehavior: "maybe"}),
			wantErr{status: 400, code: wire.ErrorCodeParameterInvalid, param: wire.ParamPaymentBehavior}},
		{"no card to charge", create(client.SubscriptionParams{Customer: bare.ID, Items: monthly}),
			wantErr{status: 400, code: wire.ErrorCodeMissingSource, param: wire.ParamDefaultSource}},
		{"declined, error if incomplete", create(client.SubscriptionParams{Customer: declining.ID, Items: monthly,
			PaymentBehavior: wire.PaymentBehaviorErrorIfIncomplete}),
			wantErr{status: 402, code: wire.ErrorCodeCardDeclined}},
		{"quantity of two items", func() error {
			_, err := e.c.UpdateSubscription(ctx, two.ID, &client.SubscriptionUpdateParams{Quantity: 2})
			return err
		}, wantErr{status: 400, code: wire.ErrorCodeParameterInvalid, param: wire.ParamQuantity}},
		{"update an ended one", func() error {
			_, err := e.c.UpdateSubscription(ctx, ended.ID, &client.SubscriptionUpdateParams{CancelAtPeriodEnd: new(true)})
			return err
		}, badState},
		{"cancel an ended one", func() error { _, err := e.c.CancelSubscription(ctx, ended.ID); return err }, badState},
		{"unknown subscription", func() error { _, err := e.c.GetSubscription(ctx, fakeID(wire.SubscriptionIDPrefix)); return err },
			wantErr{status: 404, code: wire.ErrorCodeResourceMissing}},
		{"list by unknown status", func() error {
			_, err := e.c.ListSubscriptions(ctx, &client.ListSubscriptionsParams{Status: "sleeping"})
			return err
		}, wantErr{status: 400, code: wire.ErrorCodeParameterInvalid, param: wire.ParamStatus}},
		{"unknown invoice", func() error { _, err := e.c.GetInvoice(ctx, fakeID(wire.InvoiceIDPrefix)); return err },
			wantErr{status: 404, code: wire.ErrorCodeResourceMissing}},
		{"pay a paid invoice", func() error { _, err := e.c.PayInvoice(ctx, two.LatestInvoice); return err },
			wantErr{status: 400, code: wire.ErrorCodeInvoiceUnexpectedState}},
		{"void a paid invoice", func() error { _, err := e.c.VoidInvoice(ctx, two.LatestInvoice); return err },
			wantErr{status: 400, code: wire.ErrorCodeInvoiceUnexpectedState}},
		{"list invoices of an unknown subscription", func() error {
			_, err := e.c.ListInvoices(ctx, &client.ListInvoicesParams{Subscription: fakeID(wire.SubscriptionIDPrefix)})
			return err
		}, wantErr{status: 400, code: wire.ErrorCodeResourceMissing, param: wire.ParamSubscription}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.want.typ == "" && tc.want.status == 400 {
				tc.want.typ = wire.ErrorTypeInvalidRequest
			}
			checkAPIError(t, tc.call(), e.key, tc.want)
		})
	}
}

// TestClient_SubscriptionWritesExactlyOnce: every subscription and
// invoice write keeps one Idempotency-Key across its retries, so that
// answers lost to faults neither fail the call nor subscribe, charge or
// attempt twice.
func TestClient_SubscriptionWritesExactlyOnce(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := newEnv(t)
	cat := newBillingCatalog(t, e.c)
	cus := mustCustomer(t, e.c, &client.CustomerParams{Source: new(sandbox.TokenVisa)})
	declining := mustCustomer(t, e.c, &client.CustomerParams{Source: new(sandbox.TokenDeclined)})
	setFaults(t, e.c, sandboxclient.FaultsParams{ErrorRate: new(0.3), DropRate: new(0.3)})
	rec := newRecorder()
	c := e.client(t, withTransport(rec), withRetries(20))
	const n = 6
	items := []client.SubscriptionItemParams{{Price: cat.monthly.ID}}
	var open []string
	for i := range n {
		s, err := c.CreateSubscription(ctx, &client.SubscriptionParams{Customer: cus.ID, Items: items})
		if err != nil {
			t.Fatalf("CreateSubscription %d: %v", i, err)
		}
		if _, err := c.UpdateSubscription(ctx, s.ID, &client.SubscriptionUpdateParams{Quantity: 2}); err != nil {
			t.Fatalf("UpdateSubscription %d: %v", i, err)
		}
		d, err := c.CreateSubscription(ctx, &client.SubscriptionParams{Customer: declining.ID, Items: items})
		if err != nil {
			t.Fatalf("CreateSubscription (declined) %d: %v", i, err)
		}
		if _, err := c.PayInvoice(ctx, d.LatestInvoice); !client.IsCardError(err) {
			t.Fatalf("PayInvoice %d: %v, want the card's decline", i, err)
		}
		if i%2 == 0 {
			if _, err := c.VoidInvoice(ctx, d.LatestInvoice); err != nil {
				t.Fatalf("VoidInvoice %d: %v", i, err)
			}
		} else {
			open = append(open, d.LatestInvoice)
		}
	}
	setFaults(t, e.c, sandboxclient.FaultsParams{ErrorRate: new(0.0), DropRate: new(0.0)})
	keys := map[string]string{}
	for _, x := range rec.exchanges() {
		if x.Method != "POST" {
			continue
		}
		k := x.IdemKey()
		if k == "" {
			t.Fatalf("POST %s without an Idempotency-Key", x.Path)
		}
		if body, seen := keys[k]; seen && body != x.ReqBody {
			t.Errorf("key %s sent with %q and %q", k, body, x.ReqBody)
		}
		keys[k] = x.ReqBody
	}
	if want := 4*n + n/2; len(keys) != want {
		t.Errorf("%d idempotency keys, want one per write (%d)", len(keys), want)
	}
	all := &client.ListSubscriptionsParams{Status: wire.SubscriptionStatusAll}
	if subs := ids(t, e.c.AllSubscriptions(ctx, all), subID); len(subs) != 2*n {
		t.Errorf("%d subscriptions, want %d", len(subs), 2*n)
	}
	for inv, err := range e.c.AllInvoices(ctx, &client.ListInvoicesParams{Customer: declining.ID}) {
		if err != nil {
			t.Fatal(err)
		}
		want := int64(2)
		if inv.Status == wire.InvoiceStatusOpen && !slices.Contains(open, inv.ID) || inv.AttemptCount != want {
			t.Errorf("invoice %s: %s after %d attempts, want %d attempts", inv.ID, inv.Status, inv.AttemptCount, want)
		}
	}
	pays, err := e.c.ListPayments(ctx, &client.ListPaymentsParams{Customer: cus.ID, ListParams: client.ListParams{Limit: 100}})
	if err != nil || len(pays.Data) != n {
		t.Errorf("the good card was charged %d times (%v), want %d: one per subscription", len(pays.Data), err, n)
	}
}

// TestClient_ListItemsAndLines: a subscription's items and its invoice's
// lines page at their lists' urls in the order they are embedded.
func TestClient_ListItemsAndLines(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := newEnv(t)
	cat := newBillingCatalog(t, e.c)
	cus := mustCustomer(t, e.c, &client.CustomerParams{Source: new(sandbox.TokenVisa)})
	sub := mustSubscription(t, e.c, &client.SubscriptionParams{
		Customer: cus.ID, Items: []client.SubscriptionItemParams{{Price: cat.monthly.ID}, {Price: cat.addon.ID, Quantity: 3}},
	})
	first, err := e.c.ListSubscriptionItems(ctx, sub.ID, &client.ListParams{Limit: 1})
	if err != nil || len(first.Data) != 1 || !first.HasMore || !reflect.DeepEqual(first.Data[0], sub.Items.Data[0]) {
		t.Fatalf("ListSubscriptionItems limit 1 = %+v, %v; want the first item, more to come", first, err)
	}
	rest, err := e.c.ListSubscriptionItems(ctx, sub.ID, &client.ListParams{StartingAfter: first.Data[0].ID})
	if err != nil || len(rest.Data) != 1 || rest.HasMore || !reflect.DeepEqual(rest.Data[0], sub.Items.Data[1]) {
		t.Errorf("ListSubscriptionItems after the first = %+v, %v; want the second item only", rest, err)
	}
	inv := mustInvoice(t, e.c, sub.LatestInvoice)
	lines, err := e.c.ListInvoiceLines(ctx, inv.ID, nil)
	if err != nil || lines.HasMore || !reflect.DeepEqual(lines.Data, inv.Lines.Data) {
		t.Errorf("ListInvoiceLines = %+v, %v; want the invoice's lines %+v", lines, err, inv.Lines.Data)
	}
	checkID(t, lines.Data[0].ID, wire.InvoiceLineIDPrefix)
	if _, err := e.c.ListInvoiceLines(ctx, "in_"+strings.Repeat("A", wire.IDRandomLength), nil); !client.IsNotFound(err) {
		t.Errorf("ListInvoiceLines of an absent invoice: %v; want not found", err)
	}
}
