package provider

import (
	"context"
	"testing"
	"time"

	"github.com/paymentsdev/terraform-provider-payments/internal/client"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// testAccBilling is a customer on a test clock, with a card of token, on
// a monthly plan of 10.00 USD, made behind Terraform's back.
type testAccBilling struct {
	Clock        *client.TestClock
	Customer     *client.Customer
	Price        *client.Price
	Subscription *client.Subscription
}

// mustBilling makes a testAccBilling starting on 1 January 2026.
func (a *testAccAccount) mustBilling(t *testing.T, token string) *testAccBilling {
	t.Helper()
	ctx := context.Background()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatalf("making the billing of the test: %v", err)
		}
	}
	var b testAccBilling
	var err error
	b.Clock, err = a.Client.CreateTestClock(ctx, &client.TestClockParams{FrozenTime: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)})
	must(err)
	b.Customer, err = a.Client.CreateCustomer(ctx, &client.CustomerParams{TestClock: &b.Clock.ID})
	must(err)
	_, err = a.Client.AddSource(ctx, b.Customer.ID, token)
	must(err)
	prod, err := a.Client.CreateProduct(ctx, &client.ProductParams{Name: new("Plan")})
	must(err)
	b.Price, err = a.Client.CreatePrice(ctx, &client.PriceParams{Product: prod.ID, Currency: "USD", UnitAmount: 1000,
		Recurring: &client.Recurring{Interval: wire.IntervalMonth, IntervalCount: 1}})
	must(err)
	b.Subscription, err = a.Client.CreateSubscription(ctx, &client.SubscriptionParams{Customer: b.Customer.ID,
		Items: []client.SubscriptionItemParams{{Price: b.Price.ID, Quantity: 1}}})
	must(err)
	return &b
}

// advance moves the billing's clock to the given day of 2026.
func (b *testAccBilling) advance(t *testing.T, a *testAccAccount, month time.Month, day int) {
	t.Helper()
	if _, err := a.Client.AdvanceTestClock(context.Background(), b.Clock.ID, time.Date(2026, month, day, 12, 0, 0, 0, time.UTC)); err != nil {
		t.Fatalf("advancing the clock: %v", err)
	}
}
