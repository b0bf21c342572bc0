package client_test

import (
	"context"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandboxclient"
	"maps"
	"net/http"
	"net/url"
	"testing"

	"github.com/paymentsdev/terraform-provider-payments/internal/client"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// TestUpdatePayment_Form pins what UpdatePayment puts on the wire.
func TestUpdatePayment_Form(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	p := mustPayment(t, e.c, &client.PaymentParams{Amount: mediumAmount, Currency: "USD", Source: sandbox.TokenVisa,
		Description: "d", Metadata: map[string]string{"a": "1"}})
	for _, tc := range []struct {
		name   string
		params *client.PaymentUpdateParams
		want   url.Values
	}{
		{"nil params send nothing", nil, url.Values{}},
		{"description", &client.PaymentUpdateParams{Description: new("new")}, url.Values{"description": {"new"}}},
		{"cleared description", &client.PaymentUpdateParams{Description: new("")}, url.Values{"description": {""}}},
		{"metadata keys", &client.PaymentUpdateParams{Metadata: map[string]string{"a": "2", "b": ""}},
			url.Values{"metadata[a]": {"2"}, "metadata[b]": {""}}},
		{"clear metadata", &client.PaymentUpdateParams{ClearMetadata: true}, url.Values{"metadata": {""}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := newRecorder()
			c := e.client(t, withTransport(rec))
			if _, err := c.UpdatePayment(context.Background(), p.ID, tc.params); err != nil {
				t.Fatalf("UpdatePayment: %v", err)
			}
			x := rec.exchanges()
			if len(x) != 1 || x[0].Method != http.MethodPost || x[0].Path != "/v1/payments/"+p.ID || x[0].IdemKey() == "" {
				t.Fatalf("exchanges = %+v, want one POST /v1/payments/%s with an Idempotency-Key", x, p.ID)
			}
			got, err := url.ParseQuery(x[0].ReqBody)
			if err != nil || !maps.EqualFunc(got, tc.want, func(a, b []string) bool { return len(a) == 1 && len(b) == 1 && a[0] == b[0] }) {
				t.Errorf("body %q, want %v", x[0].ReqBody, tc.want)
			}
		})
	}
}

// TestUpdatePayment_AgainstSandbox changes description and metadata through
// the client against the sandbox; everything else of the payment stays.
func TestUpdatePayment_AgainstSandbox(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	for _, tc := range []struct {
		name     string
		create   client.PaymentParams
		update   client.PaymentUpdateParams
		wantDesc string
		wantMeta map[string]string
	}{
		{"set description and a key", client.PaymentParams{}, client.PaymentUpdateParams{Description: new("order 9"), Metadata: map[string]string{"k": "v"}},
			"order 9", map[string]string{"k": "v"}},
		{"clear description", client.PaymentParams{Description: "old"}, client.PaymentUpdateParams{Description: new("")}, "", nil},
		{"description untouched when nil", client.PaymentParams{Description: "old"}, client.PaymentUpdateParams{Metadata: map[string]string{"k": "v"}},
			"old", map[string]string{"k": "v"}},
		{"delete one key", client.PaymentParams{Metadata: map[string]string{"a": "1", "b": "2"}}, client.PaymentUpdateParams{Metadata: map[string]string{"a": ""}},
			"", map[string]string{"b": "2"}},
		{"clear all keys", client.PaymentParams{Metadata: map[string]string{"a": "1", "b": "2"}}, client.PaymentUpdateParams{ClearMetadata: true}, "", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t)
			cp := tc.create
			cp.Amount, cp.Currency, cp.Source = mediumAmount, "GBP", sandbox.TokenVisa
			p := mustPayment(t, e.c, &cp)
			got, err := e.c.UpdatePayment(ctx, p.ID, &tc.update)
			if err != nil {
				t.Fatalf("UpdatePayment: %v", err)
			}
			if got.Description != tc.wantDesc || !maps.Equal(got.Metadata, tc.wantMeta) {
				t.Errorf("description %q metadata %v, want %q %v", got.Description, got.Metadata, tc.wantDesc, tc.wantMeta)
			}
			if got.Amount != p.Amount || got.Status != p.Status || got.Source.ID != p.Source.ID {
				t.Errorf("update changed the charge: %+v, was %+v", got, p)
			}
			if s := stats(t, e.c); s.Payments != 1 {
				t.Errorf("stats.payments = %d after an update, want 1", s.Payments)
			}
		})
	}
}

func TestUpdatePayment_Errors(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	p := mustPayment(t, e.c, &client.PaymentParams{Amount: mediumAmount, Currency: "USD", Source: sandbox.TokenVisa})
	long := make(map[string]string)
	for i := range wire.MetadataMaxKeys + 1 {
		long[string(rune('A'+i%26))+string(rune('a'+i/26))] = "v"
	}
	for _, tc := range []struct {
		name   string
		id     string
		params *client.PaymentUpdateParams
		want   wantErr
	}{
		{"missing payment", fakeID(wire.PaymentIDPrefix), &client.PaymentUpdateParams{Description: new("x")},
			wantErr{status: 404, typ: wire.ErrorTypeInvalidRequest, code: wire.ErrorCodeResourceMissing}},
		{"too many keys", p.ID, &client.PaymentUpdateParams{Metadata: long},
			wantErr{status: 400, typ: wire.ErrorTypeInvalidRequest, code: wire.ErrorCodeParameterInvalid, param: "metadata"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := e.c.UpdatePayment(ctx, tc.id, tc.params)
			checkAPIError(t, err, e.key, tc.want)
		})
	}
}

// TestClient_PaymentWritesKeepOneIdempotencyKey: every payment write (create,
// update, capture, refund) sends one Idempotency-Key across its retries:
// its first attempt acts and loses its answer (a drop), the second gets a
// 503, and the third replays the stored answer; the write acted once.
func TestClient_PaymentWritesKeepOneIdempotencyKey(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	for _, tc := range []struct {
		name string
		do   func(c *client.Client, id string) (*client.Payment, error)
		path func(id string) string
		// check reads the payment after the write: it acted exactly once.
		check func(t *testing.T, p *client.Payment)
	}{
		{
			name: "create",
			do: func(c *client.Client, _ string) (*client.Payment, error) {
				return c.CreatePayment(ctx, &client.PaymentParams{Amount: 300, Currency: "USD", Source: sandbox.TokenVisa})
			},
			path:  func(string) string { return "/v1/payments" },
			check: func(*testing.T, *client.Payment) {},
		},
		{
			name: "update",
			do: func(c *client.Client, id string) (*client.Payment, error) {
				return c.UpdatePayment(ctx, id, &client.PaymentUpdateParams{Description: new("retried")})
			},
			path: func(id string) string { return "/v1/payments/" + id },
			check: func(t *testing.T, p *client.Payment) {
				if p.Description != "retried" {
					t.Errorf("description %q", p.Description)
				}
			},
		},
		{
			name: "capture",
			do: func(c *client.Client, id string) (*client.Payment, error) {
				return c.CapturePayment(ctx, id, nil)
			},
			path: func(id string) string { return "/v1/payments/" + id + "/capture" },
			check: func(t *testing.T, p *client.Payment) {
				if p.Status != wire.PaymentStatusApproved {
					t.Errorf("status %s", p.Status)
				}
			},
		},
		{
			name: "refund",
			do: func(c *client.Client, id string) (*client.Payment, error) {
				return c.RefundPayment(ctx, id, new(int64(100)))
			},
			path: func(id string) string { return "/v1/payments/" + id + "/refund" },
			check: func(t *testing.T, p *client.Payment) {
				// Two refunds of 100 would show 200.
				if p.AmountRefunded == nil || *p.AmountRefunded != 100 {
					t.Errorf("amount_refunded %v, want 100", p.AmountRefunded)
				}
			},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t)
			capture := tc.name == "refund" || tc.name == "update"
			p := mustPayment(t, e.c, &client.PaymentParams{Amount: mediumAmount, Currency: "USD", Source: sandbox.TokenVisa, Capture: &capture})
			rec := newRecorder()
			n := 0
			rec.after = func(exchange) {
				// Faults for the next attempt: a 503, then none.
				n++
				switch n {
				case 1:
					setFaults(t, e.c, sandboxclient.FaultsParams{DropRate: new(0.0), ErrorRate: new(1.0)})
				case 2:
					setFaults(t, e.c, sandboxclient.FaultsParams{ErrorRate: new(0.0)})
				}
			}
			c := e.client(t, withTransport(rec))
			setFaults(t, e.c, sandboxclient.FaultsParams{DropRate: new(1.0)})
			got, err := tc.do(c, p.ID)
			if err != nil {
				t.Fatalf("%s under faults: %v", tc.name, err)
			}
			keys := map[string]bool{}
			attempts := 0
			for _, x := range rec.exchanges() {
				if x.Method == http.MethodPost && x.Path == tc.path(p.ID) {
					keys[x.IdemKey()] = true
					attempts++
				}
			}
			if attempts != 3 || len(keys) != 1 || keys[""] {
				t.Errorf("%d attempts used Idempotency-Keys %v, want one non-empty key", attempts, keys)
			}
			after, err := e.c.GetPayment(ctx, got.ID)
			if err != nil {
				t.Fatal(err)
			}
			tc.check(t, after)
			want := int64(1)
			if tc.name == "create" {
				want = 2 // the setup's payment and the one created here
			}
			s := stats(t, e.c)
			if s.Payments != want || s.Faults.Drops != 1 || s.Faults.Errors != 1 {
				t.Errorf("stats: %d payments (want %d), faults %+v (want one drop, one error) after one %s", s.Payments, want, s.Faults, tc.name)
			}
		})
	}
}
