package client_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/paymentsdev/terraform-provider-payments/internal/client"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

func clockID(k *client.TestClock) string { return k.ID }

// TestClient_TestClockLifecycle: a customer on a clock, its renewal run
// by an advance, the list, the refusals naming frozen_time, and the
// delete that takes the customer with it.
func TestClient_TestClockLifecycle(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := newEnv(t)
	cat := newBillingCatalog(t, e.c)
	start := time.Date(2026, 1, 31, 12, 0, 0, 0, time.UTC)
	k, err := e.c.CreateTestClock(ctx, &client.TestClockParams{FrozenTime: start, Name: "January"})
	if err != nil {
		t.Fatal(err)
	}
	if k.FrozenTime != "2026-01-31T12:00:00Z" || k.Status != wire.TestClockStatusReady || k.Name != "January" {
		t.Fatalf("clock = %+v", k)
	}
	other, err := e.c.CreateTestClock(ctx, &client.TestClockParams{FrozenTime: start})
	if err != nil {
		t.Fatal(err)
	}
	cus := mustCustomer(t, e.c, &client.CustomerParams{Source: new(sandbox.TokenVisa), TestClock: &k.ID})
	if cus.TestClock != k.ID {
		t.Fatalf("customer's test_clock = %q, want %s", cus.TestClock, k.ID)
	}
	sub := mustSubscription(t, e.c, &client.SubscriptionParams{Customer: cus.ID, Items: []client.SubscriptionItemParams{{Price: cat.monthly.ID}}})
	moved, err := e.c.AdvanceTestClock(ctx, k.ID, time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	if moved.FrozenTime != "2026-03-01T00:00:00Z" || moved.Status != wire.TestClockStatusReady {
		t.Errorf("after advance = %+v", moved)
	}
	if got := ids(t, e.c.AllInvoices(ctx, &client.ListInvoicesParams{Subscription: sub.ID}), invID); len(got) != 2 {
		t.Errorf("invoices after the advance = %v, want the first and one renewal", got)
	}
	if got := ids(t, e.c.AllTestClocks(ctx, &client.ListParams{Limit: 1}), clockID); !slices.Equal(got, []string{other.ID, k.ID}) {
		t.Errorf("AllTestClocks = %v", got)
	}
	for _, tc := range []struct {
		name string
		call func() error
		want wantErr
	}{
		{"backwards", func() error { _, err := e.c.AdvanceTestClock(ctx, k.ID, start); return err },
			wantErr{status: 400, code: wire.ErrorCodeParameterInvalid, param: wire.ParamFrozenTime}},
		{"over two periods", func() error {
			_, err := e.c.AdvanceTestClock(ctx, k.ID, time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC))
			return err
		}, wantErr{status: 400, code: wire.ErrorCodeParameterInvalid, param: wire.ParamFrozenTime}},
		{"no frozen time", func() error { _, err := e.c.CreateTestClock(ctx, &client.TestClockParams{}); return err },
			wantErr{status: 400, code: wire.ErrorCodeParameterMissing, param: wire.ParamFrozenTime}},
		{"clock after creation", func() error {
			_, err := e.c.UpdateCustomer(ctx, cus.ID, &client.CustomerParams{TestClock: &other.ID})
			return err
		}, wantErr{status: 400, code: wire.ErrorCodeParameterInvalid, param: wire.ParamTestClock}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.want.typ = wire.ErrorTypeInvalidRequest
			checkAPIError(t, tc.call(), e.key, tc.want)
		})
	}
	if _, err := e.c.DeleteTestClock(ctx, k.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := e.c.GetTestClock(ctx, k.ID); !client.IsNotFound(err) {
		t.Errorf("GetTestClock after delete: %v, want not found", err)
	}
	if _, err := e.c.GetCustomer(ctx, cus.ID); !client.IsNotFound(err) {
		t.Errorf("GetCustomer of the deleted clock's customer: %v, want not found", err)
	}
}
