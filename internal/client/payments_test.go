package client_test

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/paymentsdev/terraform-provider-payments/internal/client"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandboxclient"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// paymentAction is one way to move a payment: it returns the new payment.
type paymentAction struct {
	name string
	// from lists the statuses the action applies to; target is the status
	// it leads to from each of them.
	from   []string
	target func(from string) string
	do     func(ctx context.Context, c *client.Client, id string) (*client.Payment, error)
}

const partialRefund = 100

var paymentActions = []paymentAction{
	{
		name: "complete approved", from: []string{wire.PaymentStatusPending},
		target: func(string) string { return wire.PaymentStatusApproved },
		do: func(ctx context.Context, c *client.Client, id string) (*client.Payment, error) {
			return sandboxclient.New(c).CompletePayment(ctx, id, wire.OutcomeApproved)
		},
	},
	{
		name: "complete authorized", from: []string{wire.PaymentStatusPending},
		target: func(string) string { return wire.PaymentStatusAuthorized },
		do: func(ctx context.Context, c *client.Client, id string) (*client.Payment, error) {
			return sandboxclient.New(c).CompletePayment(ctx, id, wire.OutcomeAuthorized)
		},
	},
	{
		name: "complete declined", from: []string{wire.PaymentStatusPending},
		target: func(string) string { return wire.PaymentStatusDeclined },
		do: func(ctx context.Context, c *client.Client, id string) (*client.Payment, error) {
			return sandboxclient.New(c).CompletePayment(ctx, id, wire.OutcomeDeclined)
		},
	},
	{
		name: "capture", from: []string{wire.PaymentStatusAuthorized},
		target: func(string) string { return wire.PaymentStatusApproved },
		do: func(ctx context.Context, c *client.Client, id string) (*client.Payment, error) {
			return c.CapturePayment(ctx, id, nil)
		},
	},
	{
		name: "partial refund", from: []string{wire.PaymentStatusApproved, wire.PaymentStatusPartiallyRefunded},
		target: func(string) string { return wire.PaymentStatusPartiallyRefunded },
		do: func(ctx context.Context, c *client.Client, id string) (*client.Payment, error) {
			return c.RefundPayment(ctx, id, new(int64(partialRefund)))
		},
	},
	{
		name: "full refund", from: []string{wire.PaymentStatusApproved, wire.PaymentStatusPartiallyRefunded},
		target: func(string) string { return wire.PaymentStatusRefunded },
		do: func(ctx context.Context, c *client.Client, id string) (*client.Payment, error) {
			return c.RefundPayment(ctx, id, nil)
		},
	},
	{
		name: "dispute", from: []string{wire.PaymentStatusApproved, wire.PaymentStatusPartiallyRefunded},
		target: func(string) string { return wire.PaymentStatusDisputed },
		do: func(ctx context.Context, c *client.Client, id string) (*client.Payment, error) {
			return sandboxclient.New(c).DisputePayment(ctx, id)
		},
	},
}

// paymentIn makes a payment of mediumAmount in the given status.
func paymentIn(t *testing.T, c *client.Client, status string) *client.Payment {
	t.Helper()
	ctx := context.Background()
	create := func(token string, capture *bool) *client.Payment {
		return mustPayment(t, c, &client.PaymentParams{Amount: mediumAmount, Currency: "USD", Source: token, Capture: capture})
	}
	step := func(p *client.Payment, err error) *client.Payment {
		t.Helper()
		if err != nil {
			t.Fatalf("reaching %s: %v", status, err)
		}
		return p
	}
	var p *client.Payment
	switch status {
	case wire.PaymentStatusPending:
		p = create(sandbox.Token3DS, nil)
	case wire.PaymentStatusAuthorized:
		p = create(sandbox.TokenVisa, new(false))
	case wire.PaymentStatusApproved:
		p = create(sandbox.TokenVisa, nil)
	case wire.PaymentStatusDeclined:
		_, err := c.CreatePayment(ctx, &client.PaymentParams{Amount: mediumAmount, Currency: "USD", Source: sandbox.TokenDeclined})
		ae, ok := client.AsError(err)
		if !ok || ae.Payment == "" {
			t.Fatalf("tok_declined: %v", err)
		}
		p = step(c.GetPayment(ctx, ae.Payment))
	case wire.PaymentStatusPartiallyRefunded:
		p = step(c.RefundPayment(ctx, create(sandbox.TokenVisa, nil).ID, new(int64(partialRefund))))
	case wire.PaymentStatusRefunded:
		p = step(c.RefundPayment(ctx, create(sandbox.TokenVisa, nil).ID, nil))
	case wire.PaymentStatusDisputed:
		p = step(sandboxclient.New(c).DisputePayment(ctx, create(sandbox.TokenDispute, nil).ID))
	default:
		t.Fatalf("no recipe for status %q", status)
	}
	if p.Status != status {
		t.Fatalf("recipe for %s gave %s", status, p.Status)
	}
	return p
}

// TestClient_PaymentTransitions runs every action from every status: the moves
// sandbox.PaymentTransitions allows succeed, every other one is 400
// payment_unexpected_state and leaves the payment as it was.
func TestClient_PaymentTransitions(t *testing.T) {
	t.Parallel()
	// The table above must agree with the transitions of api/openapi.yaml.
	covered := map[[2]string]bool{}
	for _, a := range paymentActions {
		for _, from := range a.from {
			to := a.target(from)
			if !slices.Contains(sandbox.PaymentTransitions[from], to) {
				t.Fatalf("action %q moves %s to %s, which PaymentTransitions does not allow", a.name, from, to)
			}
			covered[[2]string{from, to}] = true
		}
	}
	for from, tos := range sandbox.PaymentTransitions {
		for _, to := range tos {
			if !covered[[2]string{from, to}] {
				t.Errorf("no action exercises the transition %s -> %s", from, to)
			}
		}
	}

	e := newEnv(t)
	rejected := map[string]int{}
	for _, from := range wire.PaymentStatuses {
		for _, a := range paymentActions {
			allowed := slices.Contains(a.from, from)
			if !allowed {
				rejected[from]++
			}
			t.Run(from+"/"+strings.ReplaceAll(a.name, " ", "_"), func(t *testing.T) {
				t.Parallel()
				ctx := context.Background()
				before := paymentIn(t, e.c, from)
				got, err := a.do(ctx, e.c, before.ID)
				if !allowed {
					checkAPIError(t, err, e.key, wantErr{status: 400, typ: wire.ErrorTypeInvalidRequest, code: wire.ErrorCodePaymentUnexpectedState})
					after, err := e.c.GetPayment(ctx, before.ID)
					if err != nil || after.Status != before.Status || after.Amount != before.Amount || refunded(after) != refunded(before) {
						t.Errorf("a rejected %s changed the payment: %+v -> %+v (%v)", a.name, before, after, err)
					}
					return
				}
				if err != nil {
					t.Fatalf("%s from %s: %v", a.name, from, err)
				}
				if want := a.target(from); got.Status != want {
					t.Errorf("%s from %s gave %s, want %s", a.name, from, got.Status, want)
				}
				checkPaymentShape(t, got)
			})
		}
	}
	for _, s := range wire.PaymentStatuses {
		if rejected[s] == 0 {
			t.Errorf("no rejected action from %s", s)
		}
	}
}

var (
	idRE        = regexp.MustCompile(`^[A-Za-z0-9]{` + fmt.Sprint(wire.IDRandomLength) + `}$`)
	timestampRE = regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$`)
)

func refunded(p *client.Payment) int64 {
	if p.AmountRefunded == nil {
		return -1
	}
	return *p.AmountRefunded
}

// checkID asserts prefix + IDRandomLength alphanumerics.
func checkID(t *testing.T, id, prefix string) {
	t.Helper()
	rest, ok := strings.CutPrefix(id, prefix)
	if !ok || !idRE.MatchString(rest) {
		t.Errorf("id %q is not %s + %d of [A-Za-z0-9]", id, prefix, wire.IDRandomLength)
	}
}

func checkTimestamp(t *testing.T, ts string) {
	t.Helper()
	if !timestampRE.MatchString(ts) {
		t.Errorf("timestamp %q is not RFC 3339 UTC, second precision, Z", ts)
		return
	}
	if tm, err := time.Parse(time.RFC3339, ts); err != nil || time.Since(tm) > time.Hour || time.Until(tm) > time.Minute {
		t.Errorf("timestamp %q is not about now (%v)", ts, err)
	}
}

// checkPaymentShape asserts the fields the service promises on every payment.
func checkPaymentShape(t *testing.T, p *client.Payment) {
	t.Helper()
	checkID(t, p.ID, wire.PaymentIDPrefix)
	checkTimestamp(t, p.CreatedAt)
	if p.Object != "payment" || p.Livemode || p.Amount <= 0 || !slices.Contains(wire.Currencies, p.Currency) || !slices.Contains(wire.PaymentStatuses, p.Status) {
		t.Errorf("payment shape: %+v", p)
	}
	noCode := p.Status == wire.PaymentStatusPending || p.Status == wire.PaymentStatusDeclined
	if noCode != (p.AuthorizationCode == "") {
		t.Errorf("status %s with authorization_code %q: want null exactly while pending or declined", p.Status, p.AuthorizationCode)
	}
}

// TestClient_PaymentAmounts: partial capture, partial and full refunds, their
// arithmetic and bounds.
func TestClient_PaymentAmounts(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := newEnv(t)

	auth := paymentIn(t, e.c, wire.PaymentStatusAuthorized)
	if auth.Captured != nil && *auth.Captured {
		t.Errorf("authorized payment has captured=true")
	}
	checkAPIError(t, func() error { _, err := e.c.CapturePayment(ctx, auth.ID, new(int64(mediumAmount+1))); return err }(),
		e.key, wantErr{status: 400, typ: wire.ErrorTypeInvalidRequest, param: "amount"})
	cap, err := e.c.CapturePayment(ctx, auth.ID, new(int64(600)))
	if err != nil {
		t.Fatal(err)
	}
	if cap.Status != wire.PaymentStatusApproved || cap.Amount != 600 || (cap.Captured != nil && !*cap.Captured) {
		t.Errorf("partial capture: %+v, want approved, amount 600, captured", cap)
	}

	p := paymentIn(t, e.c, wire.PaymentStatusApproved)
	steps := []struct {
		amount       *int64
		wantStatus   string
		wantRefunded int64
		wantErrParam string
	}{
		{amount: new(int64(0)), wantErrParam: "amount"},
		{amount: new(int64(mediumAmount + 1)), wantErrParam: "amount"},
		{amount: new(int64(300)), wantStatus: wire.PaymentStatusPartiallyRefunded, wantRefunded: 300},
		{amount: new(int64(mediumAmount - 300 + 1)), wantErrParam: "amount"},
		{amount: new(int64(200)), wantStatus: wire.PaymentStatusPartiallyRefunded, wantRefunded: 500},
		{amount: nil, wantStatus: wire.PaymentStatusRefunded, wantRefunded: mediumAmount},
	}
	for i, s := range steps {
		got, err := e.c.RefundPayment(ctx, p.ID, s.amount)
		if s.wantErrParam != "" {
			checkAPIError(t, err, e.key, wantErr{status: 400, typ: wire.ErrorTypeInvalidRequest, param: s.wantErrParam})
			continue
		}
		if err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
		if got.Status != s.wantStatus || got.AmountRefunded == nil || *got.AmountRefunded != s.wantRefunded || got.Amount != mediumAmount {
			t.Errorf("step %d: status %s refunded %v amount %d; want %s %d %d", i, got.Status, got.AmountRefunded, got.Amount, s.wantStatus, s.wantRefunded, mediumAmount)
		}
	}
}

// TestCreatePayment_Sources: what a payment may charge, and what it records.
func TestCreatePayment_Sources(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := newEnv(t)
	cus := mustCustomer(t, e.c, &client.CustomerParams{Source: new(sandbox.TokenVisa)})
	amex := mustSource(t, e.c, cus.ID, sandbox.TokenAmex)
	other := mustCustomer(t, e.c, &client.CustomerParams{Source: new(sandbox.TokenMastercard)})

	tests := []struct {
		name      string
		p         client.PaymentParams
		wantBrand string
		wantCus   string
		wantSrc   string
	}{
		{"token", client.PaymentParams{Source: sandbox.TokenMastercard}, "mastercard", "", ""},
		{"customer default", client.PaymentParams{Customer: cus.ID}, "visa", cus.ID, cus.DefaultSource},
		{"customer's source id", client.PaymentParams{Customer: cus.ID, Source: amex.ID}, "amex", cus.ID, amex.ID},
		{"customer with a token", client.PaymentParams{Customer: cus.ID, Source: sandbox.TokenDispute}, "visa", cus.ID, ""},
	}
	for _, tc := range tests {
		tc.p.Amount, tc.p.Currency, tc.p.Description = 1234, "GBP", "order "+tc.name
		tc.p.Metadata = map[string]string{"case": tc.name}
		got, err := e.c.CreatePayment(ctx, &tc.p)
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		checkPaymentShape(t, got)
		if got.Status != wire.PaymentStatusApproved || got.Amount != 1234 || got.Currency != "GBP" || got.Description != tc.p.Description || got.Metadata["case"] != tc.name {
			t.Errorf("%s: %+v", tc.name, got)
		}
		if got.Source == nil || got.Source.Brand != tc.wantBrand || got.Customer != tc.wantCus || (tc.wantSrc != "" && got.Source.ID != tc.wantSrc) {
			t.Errorf("%s: source %+v customer %q; want brand %s, source %q, customer %q", tc.name, got.Source, got.Customer, tc.wantBrand, tc.wantSrc, tc.wantCus)
		}
	}
	// Another customer's source is not this customer's.
	checkAPIError(t, func() error {
		_, err := e.c.CreatePayment(ctx, &client.PaymentParams{Amount: 1, Currency: "USD", Customer: cus.ID, Source: other.DefaultSource})
		return err
	}(), e.key, wantErr{status: 400, typ: wire.ErrorTypeInvalidRequest, code: wire.ErrorCodeResourceMissing, param: "source"})
	checkAPIError(t, func() error {
		_, err := e.c.CreatePayment(ctx, &client.PaymentParams{Amount: 1, Currency: "USD", Source: "tok_nope"})
		return err
	}(), e.key, wantErr{status: 400, typ: wire.ErrorTypeInvalidRequest, code: wire.ErrorCodeTokenInvalid, param: "source"})

	pending := paymentIn(t, e.c, wire.PaymentStatusPending)
	checkPaymentShape(t, pending)
}

// TestCreatePayment_Limits: amount range and currency case.
func TestCreatePayment_Limits(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	tests := []struct {
		amount    int64
		currency  string
		wantParam string
	}{
		{wire.PaymentAmountMin, "USD", ""},
		{wire.PaymentAmountMax, "EUR", ""},
		{wire.PaymentAmountMin - 1, "USD", "amount"},
		{-5, "USD", "amount"},
		{wire.PaymentAmountMax + 1, "USD", "amount"},
		{100, "usd", "currency"},
		{100, "Usd", "currency"},
		{100, "XXX", "currency"},
		{100, "", "currency"},
	}
	for _, c := range wire.Currencies {
		tests = append(tests, struct {
			amount    int64
			currency  string
			wantParam string
		}{100, c, ""})
	}
	for _, tc := range tests {
		p, err := e.c.CreatePayment(context.Background(), &client.PaymentParams{Amount: tc.amount, Currency: tc.currency, Source: sandbox.TokenVisa})
		if tc.wantParam == "" {
			if err != nil || p.Amount != tc.amount || p.Currency != tc.currency {
				t.Errorf("amount %d %s: %+v, %v; want accepted", tc.amount, tc.currency, p, err)
			}
			continue
		}
		t.Run(fmt.Sprintf("%d_%s", tc.amount, tc.currency), func(t *testing.T) {
			checkAPIError(t, err, e.key, wantErr{status: 400, typ: wire.ErrorTypeInvalidRequest, param: tc.wantParam})
		})
	}
}
