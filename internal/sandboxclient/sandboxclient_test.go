package sandboxclient_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/paymentsdev/terraform-provider-payments/internal/client"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/sandboxtest"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandboxclient"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// TestClient_EveryControl drives every control once through the API client.
func TestClient_EveryControl(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	sb := sandboxtest.Start(t)
	c, err := client.New(client.Config{BaseURL: sb.URL, SecretKey: sandboxtest.NewKey(t), MaxRetries: -1})
	if err != nil {
		t.Fatal(err)
	}
	s := sandboxclient.New(c)

	pending, err := c.CreatePayment(ctx, &client.PaymentParams{Amount: 100, Currency: "USD", Source: sandbox.Token3DS})
	if err != nil || pending.Status != wire.PaymentStatusPending {
		t.Fatalf("create: %+v %v", pending, err)
	}
	tests := []struct {
		outcome, want string
	}{
		{"", wire.PaymentStatusApproved},
		{wire.OutcomeAuthorized, wire.PaymentStatusAuthorized},
		{wire.OutcomeDeclined, wire.PaymentStatusDeclined},
	}
	for _, tc := range tests {
		p, err := c.CreatePayment(ctx, &client.PaymentParams{Amount: 100, Currency: "USD", Source: sandbox.Token3DS})
		if err != nil {
			t.Fatal(err)
		}
		if got, err := s.CompletePayment(ctx, p.ID, tc.outcome); err != nil || got.Status != tc.want {
			t.Errorf("complete %q: %+v %v, want %s", tc.outcome, got, err, tc.want)
		}
	}
	approved, err := s.CompletePayment(ctx, pending.ID, wire.OutcomeApproved)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := s.DisputePayment(ctx, approved.ID); err != nil || got.Status != wire.PaymentStatusDisputed {
		t.Errorf("dispute: %+v %v", got, err)
	}
	if _, err := s.CompletePayment(ctx, "", ""); err == nil || client.IsNotFound(err) {
		t.Errorf("complete with an empty id: %v, want a refusal", err)
	}

	f, err := s.SetFaults(ctx, sandboxclient.FaultsParams{LatencyMS: new(int64(1)), RateLimit: new(int64(1000))})
	if err != nil || f.LatencyMS != 1 || f.RateLimit != 1000 || f.ErrorRate != 0 {
		t.Errorf("set faults: %+v %v", f, err)
	}
	if f, err := s.Faults(ctx); err != nil || f.Object != "faults" || f.LatencyMS != 1 {
		t.Errorf("faults: %+v %v", f, err)
	}
	for _, tc := range []struct{ set, want string }{
		{wire.SubscriptionStatusUnpaid, wire.SubscriptionStatusUnpaid},
		{"", wire.SubscriptionStatusCanceled},
	} {
		if b, err := s.SetDunningEnd(ctx, tc.set); err != nil || b.DunningEnd != tc.want {
			t.Errorf("set dunning_end %q: %+v %v, want %s", tc.set, b, err, tc.want)
		}
		if b, err := s.Billing(ctx); err != nil || b.Object != "sandbox_billing" || b.DunningEnd != tc.want || b.DunningEndDefault != wire.SubscriptionStatusCanceled {
			t.Errorf("billing after %q: %+v %v, want %s", tc.set, b, err, tc.want)
		}
	}
	var apiErr *client.Error
	if _, err := s.SetDunningEnd(ctx, wire.SubscriptionStatusActive); !errors.As(err, &apiErr) || apiErr.Param != wire.ParamDunningEnd {
		t.Errorf("set dunning_end active: %v, want a refusal naming %s", err, wire.ParamDunningEnd)
	}
	if a, err := s.Account(ctx); err != nil || a.Object != "sandbox_account" || wire.ClassifyKey(a.PublishableKey) != wire.KeyPublicSandbox {
		t.Errorf("account: %+v %v", a, err)
	}
	st, err := s.Stats(ctx)
	if err != nil || st.Payments != 4 || st.Requests.ByRoute["POST /v1/payments"] != 4 {
		t.Errorf("stats: %+v %v", st, err)
	}
	sum, err := s.Summary(ctx, 7)
	if err != nil || fmt.Sprint(sum.Counts.PaymentsByStatus) != "map[approved:1 authorized:1 declined:1 disputed:1]" || len(sum.Days) != 1 {
		t.Errorf("summary: %+v %v", sum, err)
	}
	if err := s.Reset(ctx); err != nil {
		t.Fatal(err)
	}
	if st, err := s.Stats(ctx); err != nil || st.Payments != 0 {
		t.Errorf("stats after reset: %+v %v", st, err)
	}
	if sum, err := s.Summary(ctx, 0); err != nil || len(sum.Counts.PaymentsByStatus) != 0 || len(sum.Days) != 0 {
		t.Errorf("summary after reset: %+v %v", sum, err)
	}
}
