package model

import (
	"reflect"
	"testing"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/ids"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// TestPayment_Charge: each card's outcome, and a card that declines
// later asked about its source only.
func TestPayment_Charge(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		token                  string
		chargedBefore, capture bool
		want                   string
		wantAuth               bool
	}{
		{TokenVisa, false, true, wire.PaymentStatusApproved, true},
		{TokenVisa, false, false, wire.PaymentStatusAuthorized, true},
		{TokenDeclined, false, true, wire.PaymentStatusDeclined, false},
		{Token3DS, false, true, wire.PaymentStatusPending, false},
		{TokenDeclinedLater, false, true, wire.PaymentStatusApproved, true},
		{TokenDeclinedLater, true, true, wire.PaymentStatusDeclined, false},
	} {
		t.Run(tc.token+"/"+tc.want, func(t *testing.T) {
			cd := CardByToken(tc.token)
			asked := false
			outcome := cd.Outcome(func() bool { asked = true; return tc.chargedBefore })
			if asked != (cd.Behaviour == DeclinesLater) {
				t.Fatalf("asked whether charged before: %v", asked)
			}
			p := &Payment{CaptureRequested: tc.capture}
			p.Charge(outcome, func() string { return "123456" })
			if p.Status != tc.want || (p.AuthCode != "") != tc.wantAuth || p.Captured != (tc.want == wire.PaymentStatusApproved) {
				t.Fatalf("%+v", p)
			}
		})
	}
}

// TestPayment_Moves tries capture, refund, completion and dispute from
// every status: each is allowed exactly where PaymentTransitions says,
// and a refusal changes nothing.
func TestPayment_Moves(t *testing.T) {
	t.Parallel()
	code := func() string { return "654321" }
	moves := []struct {
		name string
		to   string
		only string // the one status it may start from, if any
		do   func(p *Payment) *Refusal
	}{
		{"capture", wire.PaymentStatusApproved, wire.PaymentStatusAuthorized, func(p *Payment) *Refusal {
			if r := p.CheckCapture(); r != nil {
				return r
			}
			p.Capture(p.Amount - 1)
			return nil
		}},
		{"refund all", wire.PaymentStatusRefunded, "", func(p *Payment) *Refusal {
			if r := p.CheckRefund(); r != nil {
				return r
			}
			return p.Refund(p.Refundable())
		}},
		{"refund some", wire.PaymentStatusPartiallyRefunded, "", func(p *Payment) *Refusal {
			if r := p.CheckRefund(); r != nil {
				return r
			}
			return p.Refund(1)
		}},
		{"complete approved", wire.PaymentStatusApproved, wire.PaymentStatusPending, func(p *Payment) *Refusal { return p.Complete(wire.OutcomeApproved, code) }},
		{"complete authorized", wire.PaymentStatusAuthorized, wire.PaymentStatusPending, func(p *Payment) *Refusal { return p.Complete(wire.OutcomeAuthorized, code) }},
		{"complete declined", wire.PaymentStatusDeclined, wire.PaymentStatusPending, func(p *Payment) *Refusal { return p.Complete(wire.OutcomeDeclined, code) }},
		{"dispute", wire.PaymentStatusDisputed, "", func(p *Payment) *Refusal { return p.Dispute() }},
	}
	for _, from := range wire.PaymentStatuses {
		for _, m := range moves {
			t.Run(from+"/"+m.name, func(t *testing.T) {
				p := &Payment{ID: ids.New(), Status: from, Amount: 1000, Refunded: 10}
				before := *p
				r := m.do(p)
				allowed := CanMove(from, m.to) && (m.only == "" || m.only == from)
				switch {
				case allowed && r != nil:
					t.Fatalf("refused: %s", r.Message)
				case !allowed && r == nil:
					t.Fatalf("allowed %s -> %s", from, p.Status)
				case !allowed && (r.Code != wire.ErrorCodePaymentUnexpectedState || r.Param != "" || !reflect.DeepEqual(*p, before)):
					t.Fatalf("refusal %+v, payment %+v", r, p)
				case allowed && p.Status != m.to:
					t.Fatalf("status %s, want %s", p.Status, m.to)
				}
			})
		}
	}
}

// TestPayment_Outcome: 3-D Secure ends as asked, or as the create asked.
func TestPayment_Outcome(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		v       string
		capture bool
		want    string
	}{
		{"", true, wire.OutcomeApproved},
		{"", false, wire.OutcomeAuthorized},
		{wire.OutcomeDeclined, true, wire.OutcomeDeclined},
		{wire.OutcomeAuthorized, true, wire.OutcomeAuthorized},
		{"refunded", true, ""},
	} {
		got, r := (&Payment{CaptureRequested: tc.capture}).Outcome(tc.v)
		if got != tc.want || (r != nil) != (tc.want == "") || r != nil && r.Param != wire.ParamOutcome {
			t.Errorf("%q capture=%v: %q, %+v", tc.v, tc.capture, got, r)
		}
	}
}
