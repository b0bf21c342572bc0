package sandbox

import (
	"net/http"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/apierr"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/idem"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/model"
)

// The rules below are the server's alone: a client never needs them, so
// they live here rather than in package wire. Tests and tools read them.

// Sandbox test tokens (package model holds their cards and behaviour).
const (
	TokenVisa          = model.TokenVisa
	TokenMastercard    = model.TokenMastercard
	TokenAmex          = model.TokenAmex
	TokenDeclined      = model.TokenDeclined
	Token3DS           = model.Token3DS
	TokenDispute       = model.TokenDispute
	TokenDeclinedLater = model.TokenDeclinedLater
)

// IdempotencyKeyRetention is how long an Idempotency-Key is kept per account. [assumed]
const IdempotencyKeyRetention = idem.Retention

// PaymentTransitions lists, for each status, the statuses it may move to
// (package model keeps the payment's state machine). [assumed]
var PaymentTransitions = model.PaymentTransitions

// refused is the answer to a rule's refusal (package model): a 400
// naming its parameter, under its code, or a 402 card_error; nil for
// none.
func refused(r *model.Refusal) *apierr.Error {
	if r == nil {
		return nil
	}
	e := apierr.Invalid(r.Param, "%s", r.Message)
	e.Code = r.Code
	if r.Card {
		e.Status, e.Type = http.StatusPaymentRequired, wire.ErrorTypeCard
	}
	return e
}
