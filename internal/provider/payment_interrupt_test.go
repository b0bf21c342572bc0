package provider

import (
	"context"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandboxclient"
	"math/big"
	"os"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// TestAccPayment_InterruptedCreate interrupts payments_payment's Create
// while a write is at the service (Terraform's Ctrl-C): the client
// finishes the write with the same Idempotency-Key, the payment is in the
// returned state, and the service holds exactly one payment, refunded at
// most once.
func TestAccPayment_InterruptedCreate(t *testing.T) {
	if os.Getenv("TF_ACC") == "" {
		t.Skip("acceptance test: set TF_ACC=1")
	}
	t.Parallel()
	payment := func(refunded int64) map[string]tftypes.Value {
		v := map[string]tftypes.Value{
			"amount":   tftypes.NewValue(tftypes.Number, big.NewFloat(1000)),
			"currency": tftypes.NewValue(tftypes.String, "USD"),
			"source":   tftypes.NewValue(tftypes.String, sandbox.TokenVisa),
			"capture":  tftypes.NewValue(tftypes.Bool, true),
		}
		if refunded > 0 {
			v["amount_refunded"] = tftypes.NewValue(tftypes.Number, big.NewFloat(float64(refunded)))
		}
		return v
	}
	check := func(env *interruptEnv, state *createResult, wantRefunded int64) {
		t := env.t
		t.Helper()
		id := state.attr("id")
		if id == "" {
			t.Fatalf("Create returned no id after the interrupt, so the payment would be orphaned; diagnostics: %v", state.diags)
		}
		st, err := sandboxclient.New(env.acct.Client).Stats(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		// The recovery sends the create again with the same key: two
		// requests, one payment.
		if st.Payments != 1 {
			t.Errorf("the service holds %d payments after %d create requests, want 1", st.Payments, st.Requests.ByRoute["POST /v1/payments"])
		}
		p, err := env.acct.Client.GetPayment(context.Background(), id)
		if err != nil {
			t.Fatalf("payment %s of the returned state is not at the service: %v", id, err)
		}
		if *p.AmountRefunded != wantRefunded {
			t.Errorf("payment %s has %d refunded, want %d", id, *p.AmountRefunded, wantRefunded)
		}
		var got big.Float
		if err := state.values["amount_refunded"].As(&got); err != nil || got.Cmp(big.NewFloat(float64(wantRefunded))) != 0 {
			t.Errorf("state has amount_refunded %v (%v), the service %d", &got, err, wantRefunded)
		}
		env.checkRecovered()
	}

	for _, tc := range []struct {
		name string
		at   string // the request during which the run is interrupted
		// refund is amount_refunded in the configuration, refunded what
		// the service holds after the interrupt.
		refund, refunded int64
		// wantErr is whether Create reports an error, and why.
		wantErr bool
		why     string
	}{
		{name: "during the charge", at: "POST /v1/payments",
			why: "Create reported an error although the payment was made"},
		// The refund cannot run after the interrupt: an error, and the
		// payment in state with nothing refunded.
		{name: "during the charge, before the refund", at: "POST /v1/payments", refund: 300, wantErr: true,
			why: "Create reported no error although it could not refund"},
		{name: "during the refund", at: "POST /v1/payments/:id/refund", refund: 300, refunded: 300,
			why: "Create reported an error although the refund was made"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			env := newInterruptEnv(t)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			env.cancelWhenAtService(ctx, tc.at, cancel)
			state := env.create(ctx, NewPaymentResource(), payment(tc.refund))
			if state.hasError != tc.wantErr {
				t.Errorf("%s: %v", tc.why, state.diags)
			}
			check(env, state, tc.refunded)
		})
	}
}
