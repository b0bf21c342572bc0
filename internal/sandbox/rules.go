package sandbox

import (
	"slices"
	"time"

	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// The rules below are the server's alone: a client never needs them, so
// they live here rather than in package wire. Tests and tools read them.

// Sandbox test tokens. [assumed] Reusable in the sandbox; their cards and
// behaviour when charged are in cards.
const (
	TokenVisa       = "tok_visa"
	TokenMastercard = "tok_mastercard"
	TokenAmex       = "tok_amex"
	TokenDeclined   = "tok_declined"
	Token3DS        = "tok_3ds"
	TokenDispute    = "tok_dispute"
	// TokenDeclinedLater attaches and approves its first charge, then
	// declines every later one: a subscription that starts and whose
	// renewals fail.
	TokenDeclinedLater = "tok_declined_later"
)

// IdempotencyKeyRetention is how long an Idempotency-Key is kept per account. [assumed]
const IdempotencyKeyRetention = 24 * time.Hour

// PaymentTransitions lists, for each status, the statuses it may move to. [assumed]
var PaymentTransitions = map[string][]string{
	wire.PaymentStatusPending:           {wire.PaymentStatusApproved, wire.PaymentStatusAuthorized, wire.PaymentStatusDeclined},
	wire.PaymentStatusAuthorized:        {wire.PaymentStatusApproved},
	wire.PaymentStatusApproved:          {wire.PaymentStatusPartiallyRefunded, wire.PaymentStatusRefunded, wire.PaymentStatusDisputed},
	wire.PaymentStatusPartiallyRefunded: {wire.PaymentStatusPartiallyRefunded, wire.PaymentStatusRefunded, wire.PaymentStatusDisputed},
}

// canMove reports whether PaymentTransitions allows from -> to.
func canMove(from, to string) bool {
	return slices.Contains(PaymentTransitions[from], to)
}
