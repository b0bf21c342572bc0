package model

import (
	"strconv"
	"time"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/ids"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// The rules of a card's details, as POST /v1/tokens takes them: a test
// card's number, an expiry not yet past, a CVC of its brand's length;
// and a minted token is used once. No refusal quotes the number or the
// CVC.

// TestCardNumbers maps each card number the sandbox tokenizes to the test
// token whose behaviour its card has. Any other number is refused: the
// sandbox never takes a real card. [assumed]
var TestCardNumbers = map[string]string{
	"4242424242424242": TokenVisa,
	"5555555555554444": TokenMastercard,
	"378282246310005":  TokenAmex,
	"4000000000000002": TokenDeclined,
	"4000000000003220": Token3DS,
	"4000000000000259": TokenDispute,
	"4000000000000341": TokenDeclinedLater,
}

// TestCard is the test card of a card number, or the refusal of it.
func TestCard(number string) (*Card, *Refusal) {
	if !wire.AllDigits(number) || len(number) < wire.CardNumberMinDigits || len(number) > wire.CardNumberMaxDigits {
		return nil, cardRefusal(wire.ParamCardNumber, wire.ErrorCodeInvalidNumber,
			"card[number] must be %d to %d digits, without spaces or dashes.", wire.CardNumberMinDigits, wire.CardNumberMaxDigits)
	}
	if !wire.LuhnValid(number) {
		return nil, cardRefusal(wire.ParamCardNumber, wire.ErrorCodeIncorrectNumber,
			"card[number] fails the Luhn check: a digit is mistyped.")
	}
	tok, ok := TestCardNumbers[number]
	if !ok {
		return nil, cardRefusal(wire.ParamCardNumber, wire.ErrorCodeInvalidNumber,
			"card[number] is not a sandbox test card, and the sandbox never takes a real one. Use 4242424242424242 (Visa), 5555555555554444 (Mastercard), 378282246310005 (American Express), 4000000000000002 (declined), 4000000000003220 (3-D Secure), 4000000000000259 (disputed) or 4000000000000341 (declined after its first charge).")
	}
	return CardByToken(tok), nil
}

// CardExpiry reads a card's expiry month mv and year yv at now: a month
// 1 to 12 and a four-digit year at most 50 years ahead, the end of that
// month not yet past.
func CardExpiry(mv, yv string, now time.Time) (month, year int32, r *Refusal) {
	m, err := strconv.Atoi(mv)
	if err != nil || !wire.AllDigits(mv) || m < 1 || m > 12 {
		return 0, 0, cardRefusal(wire.ParamCardExpMonth, wire.ErrorCodeInvalidExpiryMonth,
			"card[exp_month] must be a month from 1 to 12.")
	}
	y, err := strconv.Atoi(yv)
	now = now.UTC()
	if err != nil || len(yv) != 4 || !wire.AllDigits(yv) || y > now.Year()+50 {
		return 0, 0, cardRefusal(wire.ParamCardExpYear, wire.ErrorCodeInvalidExpiryYear,
			"card[exp_year] must be a four-digit year, such as %d.", now.Year()+3)
	}
	// A card is valid to the end of its expiry month.
	if !now.Before(time.Date(y, time.Month(m)+1, 1, 0, 0, 0, 0, time.UTC)) {
		return 0, 0, cardRefusal(wire.ParamCardExpYear, wire.ErrorCodeExpiredCard,
			"The card expired at the end of %02d/%d; use an expiry month that has not passed.", m, y)
	}
	return int32(m), int32(y), nil
}

// CheckCVC refuses a CVC that is not as many digits as the card's brand
// has.
func (cd *Card) CheckCVC(cvc string) *Refusal {
	want := wire.CardCVCDigits
	if cd.Brand == "amex" {
		want = wire.CardCVCDigitsAmex
	}
	if len(cvc) != want || !wire.AllDigits(cvc) {
		return cardRefusal(wire.ParamCardCVC, wire.ErrorCodeInvalidCVC, "card[cvc] must be %d digits for a %s card.", want, cd.Brand)
	}
	return nil
}

// Mint is a new token of the card number, a test card of base's (TestCard),
// with its expiry and fingerprint, made at created: it keeps the card's
// last 4 digits, never its number.
func (base *Card) Mint(number string, month, year int32, fingerprint string, created int64) *CardToken {
	return &CardToken{
		ID:       ids.New(),
		Card:     &Card{Token: base.Token, Brand: base.Brand, Last4: number[len(number)-4:], Behaviour: base.Behaviour},
		ExpMonth: month, ExpYear: year,
		Fingerprint: fingerprint,
		Created:     created,
	}
}

// Use spends a minted token on one card, sent as parameter param, or
// refuses a token already used.
func (t *CardToken) Use(param string) *Refusal {
	if t.Used {
		return &Refusal{Param: param, Code: wire.ErrorCodeTokenAlreadyUsed,
			Message: "token " + t.ID.Format(wire.TokenIDPrefix) + " was already used: a minted token attaches or charges one card once. Mint a new token with POST " + wire.PathTokens + "."}
	}
	t.Used = true
	return nil
}
