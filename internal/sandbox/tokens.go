package sandbox

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"net/http"
	"strconv"
	"time"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/apierr"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/model"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// TestCardNumbers maps each card number the sandbox tokenizes to the test
// token whose behaviour its card has. Any other number is refused: the
// sandbox never takes a real card. [assumed]
var TestCardNumbers = map[string]string{
	"4242424242424242": model.TokenVisa,
	"5555555555554444": model.TokenMastercard,
	"378282246310005":  model.TokenAmex,
	"4000000000000002": model.TokenDeclined,
	"4000000000003220": model.Token3DS,
	"4000000000000259": model.TokenDispute,
	"4000000000000341": model.TokenDeclinedLater,
}

// createToken is POST /v1/tokens: the card's details in, a single-use
// token out. Each detail is checked in the order a form shows them, and
// an error names the parameter; no error quotes the number or the CVC.
func (c *call) createToken() response {
	if e := c.f.Check(wire.ParamCardNumber, wire.ParamCardExpMonth, wire.ParamCardExpYear, wire.ParamCardCVC); e != nil {
		return errResponse(e)
	}
	for _, p := range []string{wire.ParamCardNumber, wire.ParamCardExpMonth, wire.ParamCardExpYear, wire.ParamCardCVC} {
		if v, _ := c.f.Get(p); v == "" {
			return errResponse(apierr.MissingParam(p, "%s is required.", p))
		}
	}
	number, _ := c.f.Get(wire.ParamCardNumber)
	base, e := testCard(number)
	if e != nil {
		return errResponse(e)
	}
	month, year, e := c.cardExpiry()
	if e != nil {
		return errResponse(e)
	}
	cvc, _ := c.f.Get(wire.ParamCardCVC)
	want := wire.CardCVCDigits
	if base.Brand == "amex" {
		want = wire.CardCVCDigitsAmex
	}
	if len(cvc) != want || !wire.AllDigits(cvc) {
		return errResponse(cardError(wire.ParamCardCVC, wire.ErrorCodeInvalidCVC,
			"card[cvc] must be %d digits for a %s card.", want, base.Brand))

	}
	if e := c.canGrow(); e != nil {
		return errResponse(e)
	}
	t := &model.CardToken{
		ID:       newRID(),
		Card:     &model.Card{Token: base.Token, Brand: base.Brand, Last4: number[len(number)-4:], Behaviour: base.Behaviour},
		ExpMonth: month, ExpYear: year,
		Fingerprint: c.fingerprint(number),
		Created:     c.unix,
	}
	if c.a.tokens == nil {
		c.a.tokens = make(map[rid]*model.CardToken)
	}
	for c.a.tokens[t.ID] != nil {
		t.ID = newRID()
	}
	c.a.tokens[t.ID] = t
	c.putToken(t)
	return ok(model.TokenJSON(nil, t))
}

// testCard checks a card number and returns the test card it is.
func testCard(number string) (*model.Card, *apierr.Error) {
	if !wire.AllDigits(number) || len(number) < wire.CardNumberMinDigits || len(number) > wire.CardNumberMaxDigits {
		return nil, cardError(wire.ParamCardNumber, wire.ErrorCodeInvalidNumber,
			"card[number] must be %d to %d digits, without spaces or dashes.", wire.CardNumberMinDigits, wire.CardNumberMaxDigits)
	}
	if !wire.LuhnValid(number) {
		return nil, cardError(wire.ParamCardNumber, wire.ErrorCodeIncorrectNumber,
			"card[number] fails the Luhn check: a digit is mistyped.")
	}
	tok, ok := TestCardNumbers[number]
	if !ok {
		return nil, cardError(wire.ParamCardNumber, wire.ErrorCodeInvalidNumber,
			"card[number] is not a sandbox test card, and the sandbox never takes a real one. Use 4242424242424242 (Visa), 5555555555554444 (Mastercard), 378282246310005 (American Express), 4000000000000002 (declined), 4000000000003220 (3-D Secure), 4000000000000259 (disputed) or 4000000000000341 (declined after its first charge).")
	}
	return model.CardByToken(tok), nil
}

// cardExpiry reads card[exp_month] and card[exp_year]: a month 1 to 12
// and a four-digit year, the end of that month not yet past.
func (c *call) cardExpiry() (month, year int32, e *apierr.Error) {
	mv, _ := c.f.Get(wire.ParamCardExpMonth)
	m, err := strconv.Atoi(mv)
	if err != nil || !wire.AllDigits(mv) || m < 1 || m > 12 {
		return 0, 0, cardError(wire.ParamCardExpMonth, wire.ErrorCodeInvalidExpiryMonth,
			"card[exp_month] must be a month from 1 to 12.")
	}
	yv, _ := c.f.Get(wire.ParamCardExpYear)
	y, err := strconv.Atoi(yv)
	now := c.now.UTC()
	if err != nil || len(yv) != 4 || !wire.AllDigits(yv) || y > now.Year()+50 {
		return 0, 0, cardError(wire.ParamCardExpYear, wire.ErrorCodeInvalidExpiryYear,
			"card[exp_year] must be a four-digit year, such as %d.", now.Year()+3)
	}
	// A card is valid to the end of its expiry month.
	if !now.Before(time.Date(y, time.Month(m)+1, 1, 0, 0, 0, 0, time.UTC)) {
		return 0, 0, cardError(wire.ParamCardExpYear, wire.ErrorCodeExpiredCard,
			"The card expired at the end of %02d/%d; use an expiry month that has not passed.", m, y)
	}
	return int32(m), int32(y), nil
}

// fingerprint identifies a card number within the account, the same for
// every token of the same card, without being the number: an HMAC keyed
// by the account, so that two accounts' fingerprints of one card differ.
func (c *call) fingerprint(number string) string {
	h := hmac.New(sha256.New, c.a.hash[:])
	h.Write([]byte(number))
	return base64.RawURLEncoding.EncodeToString(h.Sum(nil))[:16]
}

// tokenSource returns a new source made from the token v named by param:
// a test token (tok_visa, …), reusable, or a minted token, which it uses
// up. The caller must not fail after it: the token is then spent.
func (c *call) tokenSource(param, v string) (*model.Source, *apierr.Error) {
	if cd := model.CardByToken(v); cd != nil {
		return c.newSource(cd), nil
	}
	var t *model.CardToken
	if r, ok := parseRID(v, wire.TokenIDPrefix); ok {
		t = c.a.tokens[r]
	}
	if t == nil {
		e := apierr.Invalid(param, "%s %q is not a valid token; mint one with POST %s or use a sandbox test token such as %s.",
			param, apierr.Clip(v), wire.PathTokens, model.TokenVisa)
		e.Code = wire.ErrorCodeTokenInvalid
		return nil, e
	}
	if t.Used {
		e := apierr.Invalid(param, "token %s was already used: a minted token attaches or charges one card once. Mint a new token with POST %s.",
			apierr.Clip(v), wire.PathTokens)
		e.Code = wire.ErrorCodeTokenAlreadyUsed
		return nil, e
	}
	t.Used = true
	c.putToken(t)
	return &model.Source{ID: newRID(), Card: t.Card, ExpMonth: t.ExpMonth, ExpYear: t.ExpYear}, nil
}

// cardError is a 402 card_error about one of the card's details.
func cardError(param, code, format string, args ...any) *apierr.Error {
	e := apierr.Invalid(param, format, args...)
	e.Status, e.Type, e.Code = http.StatusPaymentRequired, wire.ErrorTypeCard, code
	return e
}
