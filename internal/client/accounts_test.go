package client_test

import (
	"context"
	"testing"

	"github.com/paymentsdev/terraform-provider-payments/internal/client"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/sandboxtest"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandboxclient"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// TestClient_AccountIsolation: another account gets 404 (never 403) for
// every verb on an account's objects, sees none of them in lists, cannot
// name them in parameters, and changes nothing.
func TestClient_AccountIsolation(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := newEnv(t)
	owner := e.c
	cus := mustCustomer(t, owner, &client.CustomerParams{Name: new("Owner"), Source: new(sandbox.TokenVisa)})
	src := mustSource(t, owner, cus.ID, sandbox.TokenMastercard)
	authorized := mustPayment(t, owner, &client.PaymentParams{Amount: mediumAmount, Currency: "USD", Customer: cus.ID, Capture: new(false)})
	approved := mustPayment(t, owner, &client.PaymentParams{Amount: mediumAmount, Currency: "USD", Customer: cus.ID})
	pending := mustPayment(t, owner, &client.PaymentParams{Amount: mediumAmount, Currency: "USD", Source: sandbox.Token3DS})

	otherKey := sandboxtest.NewKey(t)
	other := newClient(t, e.sb.URL, otherKey)
	notFound := wantErr{status: 404, typ: wire.ErrorTypeInvalidRequest, code: wire.ErrorCodeResourceMissing}
	missingParam := func(p string) wantErr {
		return wantErr{status: 400, typ: wire.ErrorTypeInvalidRequest, code: wire.ErrorCodeResourceMissing, param: p}
	}
	calls := []struct {
		name string
		call func() error
		want wantErr
	}{
		{"GET customer", func() error { _, err := other.GetCustomer(ctx, cus.ID); return err }, notFound},
		{"POST update customer", func() error {
			_, err := other.UpdateCustomer(ctx, cus.ID, &client.CustomerParams{Name: new("Thief")})
			return err
		}, notFound},
		{"DELETE customer", func() error { _, err := other.DeleteCustomer(ctx, cus.ID); return err }, notFound},
		{"POST add source", func() error { _, err := other.AddSource(ctx, cus.ID, sandbox.TokenAmex); return err }, notFound},
		{"GET source", func() error { _, err := other.GetSource(ctx, cus.ID, src.ID); return err }, notFound},
		{"DELETE source", func() error { _, err := other.DeleteSource(ctx, cus.ID, src.ID); return err }, notFound},
		{"POST set default source", func() error { _, err := other.SetDefaultSource(ctx, cus.ID, src.ID); return err }, notFound},
		{"GET payment", func() error { _, err := other.GetPayment(ctx, approved.ID); return err }, notFound},
		{"POST capture", func() error { _, err := other.CapturePayment(ctx, authorized.ID, nil); return err }, notFound},
		{"POST refund", func() error { _, err := other.RefundPayment(ctx, approved.ID, nil); return err }, notFound},
		{"sandbox complete", func() error { _, err := sandboxclient.New(other).CompletePayment(ctx, pending.ID, ""); return err }, notFound},
		{"sandbox dispute", func() error { _, err := sandboxclient.New(other).DisputePayment(ctx, approved.ID); return err }, notFound},
		{"list by customer", func() error {
			_, err := other.ListPayments(ctx, &client.ListPaymentsParams{Customer: cus.ID})
			return err
		}, missingParam("customer")},
		{"list starting_after", func() error {
			_, err := other.ListPayments(ctx, &client.ListPaymentsParams{ListParams: client.ListParams{StartingAfter: approved.ID}})
			return err
		}, missingParam("starting_after")},
		{"charge customer", func() error {
			_, err := other.CreatePayment(ctx, &client.PaymentParams{Amount: 1, Currency: "USD", Customer: cus.ID})
			return err
		}, missingParam("customer")},
	}
	for _, tc := range calls {
		t.Run(tc.name, func(t *testing.T) {
			checkAPIError(t, tc.call(), otherKey, tc.want)
		})
	}

	list, err := other.ListPayments(ctx, nil)
	if err != nil {
		t.Fatalf("other account's list: %v", err)
	}
	if len(list.Data) != 0 || list.HasMore {
		t.Errorf("other account's list = %d payments (has_more %v), want none", len(list.Data), list.HasMore)
	}
	if s := stats(t, other); s.Customers != 0 || s.Sources != 0 || s.Payments != 0 {
		t.Errorf("other account's stats = %+v, want no objects", s)
	}

	// Nothing changed for the owner.
	got, err := owner.GetCustomer(ctx, cus.ID)
	if err != nil || got.Name != "Owner" || got.DefaultSource == src.ID || len(got.Sources.Data) != 2 {
		t.Errorf("owner's customer after the other account's calls: %+v, %v", got, err)
	}
	for id, status := range map[string]string{authorized.ID: wire.PaymentStatusAuthorized, approved.ID: wire.PaymentStatusApproved, pending.ID: wire.PaymentStatusPending} {
		p, err := owner.GetPayment(ctx, id)
		if err != nil || p.Status != status {
			t.Errorf("owner's payment %s: %+v, %v; want status %s", id, p, err, status)
		}
	}
	if s := stats(t, owner); s.Customers != 1 || s.Sources != 2 || s.Payments != 3 {
		t.Errorf("owner's stats = %+v, want 1 customer, 2 sources, 3 payments", s)
	}
	ownList, err := owner.ListPayments(ctx, nil)
	if err != nil || len(ownList.Data) != 3 {
		t.Errorf("owner's list: %+v, %v; want 3 payments", ownList, err)
	}
}
