package model

import (
	"slices"

	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// The payment's state machine: what a charge of a card comes to, and
// which of capture, refund, 3-D Secure's completion and a dispute a
// payment in each status allows.

// PaymentTransitions lists, for each status, the statuses it may move to. [assumed]
var PaymentTransitions = map[string][]string{
	wire.PaymentStatusPending:           {wire.PaymentStatusApproved, wire.PaymentStatusAuthorized, wire.PaymentStatusDeclined},
	wire.PaymentStatusAuthorized:        {wire.PaymentStatusApproved},
	wire.PaymentStatusApproved:          {wire.PaymentStatusPartiallyRefunded, wire.PaymentStatusRefunded, wire.PaymentStatusDisputed},
	wire.PaymentStatusPartiallyRefunded: {wire.PaymentStatusPartiallyRefunded, wire.PaymentStatusRefunded, wire.PaymentStatusDisputed},
}

// CanMove reports whether PaymentTransitions allows from -> to.
func CanMove(from, to string) bool {
	return slices.Contains(PaymentTransitions[from], to)
}

// Outcome is what a charge of the card comes to: a card that declines
// later approves the first charge of its source and declines the others.
// chargedBefore, asked only for such a card, reports whether the source
// was charged before.
func (cd *Card) Outcome(chargedBefore func() bool) CardBehaviour {
	if cd.Behaviour == DeclinesLater {
		if chargedBefore() {
			return Declines
		}
		return Approves
	}
	return cd.Behaviour
}

// Charge sets the status of a new payment by outcome, its card's:
// declined, pending (3-D Secure), or else authorized with authCode(),
// and captured too (approved) when the create asked for it.
func (p *Payment) Charge(outcome CardBehaviour, authCode func() string) {
	switch outcome {
	case Declines:
		p.Status = wire.PaymentStatusDeclined
	case Needs3DS:
		p.Status = wire.PaymentStatusPending
	default:
		p.AuthCode = authCode()
		if p.CaptureRequested {
			p.Status, p.Captured = wire.PaymentStatusApproved, true
		} else {
			p.Status = wire.PaymentStatusAuthorized
		}
	}
}

// CheckCapture refuses a capture unless p is authorized: pending ->
// approved is allowed too, but that is the bank finishing a payment, not
// a capture.
func (p *Payment) CheckCapture() *Refusal {
	if p.Status != wire.PaymentStatusAuthorized || !CanMove(p.Status, wire.PaymentStatusApproved) {
		return unexpected(wire.ErrorCodePaymentUnexpectedState, "Payment %s is %s; only an %s payment can be captured.",
			p.ID.Format(wire.PaymentIDPrefix), p.Status, wire.PaymentStatusAuthorized)
	}
	return nil
}

// Capture captures amount of p (CheckCapture allowed it, and amount is at
// most p.Amount). Capturing less releases the rest: the payment is for
// what was captured.
func (p *Payment) Capture(amount int64) {
	p.Amount, p.Status, p.Captured = amount, wire.PaymentStatusApproved, true
}

// CheckRefund refuses a refund of a payment that is neither approved nor
// partially refunded.
func (p *Payment) CheckRefund() *Refusal {
	if !CanMove(p.Status, wire.PaymentStatusRefunded) {
		return unexpected(wire.ErrorCodePaymentUnexpectedState, "Payment %s is %s; only an %s or %s payment can be refunded.",
			p.ID.Format(wire.PaymentIDPrefix), p.Status, wire.PaymentStatusApproved, wire.PaymentStatusPartiallyRefunded)
	}
	return nil
}

// Refundable is what is left of p to refund.
func (p *Payment) Refundable() int64 { return p.Amount - p.Refunded }

// Refund refunds amount of p, at most Refundable: all of what is left
// makes it refunded, less partially_refunded.
func (p *Payment) Refund(amount int64) *Refusal {
	status := wire.PaymentStatusPartiallyRefunded
	if p.Refunded+amount == p.Amount {
		status = wire.PaymentStatusRefunded
	}
	if !CanMove(p.Status, status) {
		return unexpected(wire.ErrorCodePaymentUnexpectedState, "Payment %s cannot move from %s to %s.", p.ID.Format(wire.PaymentIDPrefix), p.Status, status)
	}
	p.Refunded += amount
	p.Status = status
	return nil
}

// Outcome reads outcome v, how 3-D Secure ends for p: empty finishes as
// the create asked (capture=false leaves it authorized).
func (p *Payment) Outcome(v string) (string, *Refusal) {
	switch v {
	case "":
		if !p.CaptureRequested {
			return wire.OutcomeAuthorized, nil
		}
		return wire.OutcomeApproved, nil
	case wire.OutcomeApproved, wire.OutcomeAuthorized, wire.OutcomeDeclined:
		return v, nil
	}
	return "", invalid(wire.ParamOutcome, "outcome %q is not valid; use %s, %s or %s.", clip(v),
		wire.OutcomeApproved, wire.OutcomeAuthorized, wire.OutcomeDeclined)
}

// Complete finishes a payment waiting for 3-D Secure with outcome (also
// the status it leads to), with authCode() when it is approved or
// authorized; only a pending payment can be completed.
func (p *Payment) Complete(outcome string, authCode func() string) *Refusal {
	if p.Status != wire.PaymentStatusPending || !CanMove(p.Status, outcome) {
		return unexpected(wire.ErrorCodePaymentUnexpectedState, "Payment %s is %s; only a %s payment can be completed.",
			p.ID.Format(wire.PaymentIDPrefix), p.Status, wire.PaymentStatusPending)
	}
	p.Status = outcome
	switch outcome {
	case wire.OutcomeApproved:
		p.AuthCode, p.Captured = authCode(), true
	case wire.OutcomeAuthorized:
		p.AuthCode = authCode()
	}
	return nil
}

// Dispute marks an approved or partially refunded payment disputed.
func (p *Payment) Dispute() *Refusal {
	if !CanMove(p.Status, wire.PaymentStatusDisputed) {
		return unexpected(wire.ErrorCodePaymentUnexpectedState, "Payment %s is %s; only an %s or %s payment can be disputed.",
			p.ID.Format(wire.PaymentIDPrefix), p.Status, wire.PaymentStatusApproved, wire.PaymentStatusPartiallyRefunded)
	}
	p.Status = wire.PaymentStatusDisputed
	return nil
}
