package sandbox

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/apierr"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/model"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// TestCardNumbers maps each card number the sandbox tokenizes to the test
// token whose behaviour its card has (package model keeps the card's
// rules). [assumed]
var TestCardNumbers = model.TestCardNumbers

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
	base, r := model.TestCard(number)
	if r != nil {
		return errResponse(refused(r))
	}
	month, year, e := c.cardExpiry()
	if e != nil {
		return errResponse(e)
	}
	cvc, _ := c.f.Get(wire.ParamCardCVC)
	if e := refused(base.CheckCVC(cvc)); e != nil {
		return errResponse(e)
	}
	if e := c.canGrow(); e != nil {
		return errResponse(e)
	}
	t := base.Mint(number, month, year, c.fingerprint(number), c.unix)
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

// cardExpiry reads card[exp_month] and card[exp_year] (model.CardExpiry).
func (c *call) cardExpiry() (month, year int32, e *apierr.Error) {
	mv, _ := c.f.Get(wire.ParamCardExpMonth)
	yv, _ := c.f.Get(wire.ParamCardExpYear)
	month, year, r := model.CardExpiry(mv, yv, c.now)
	return month, year, refused(r)
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
	if e := refused(t.Use(param)); e != nil {
		return nil, e
	}
	c.putToken(t)
	return &model.Source{ID: newRID(), Card: t.Card, ExpMonth: t.ExpMonth, ExpYear: t.ExpYear}, nil
}
