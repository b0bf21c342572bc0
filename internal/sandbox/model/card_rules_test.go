package model

import (
	"testing"
	"time"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/ids"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// wantCardRefusal fails unless r is nil when code is "", or else a card
// refusal of param under code.
func wantCardRefusal(t *testing.T, r *Refusal, param, code string) {
	t.Helper()
	switch {
	case code == "" && r != nil:
		t.Fatalf("refused: %s", r.Message)
	case code != "" && r == nil:
		t.Fatalf("allowed, want %s", code)
	case code != "" && (r.Code != code || r.Param != param || !r.Card):
		t.Fatalf("refusal %+v, want a card refusal of %s under %s", r, param, code)
	}
}

// TestTestCard_Numbers: only the test cards' numbers tokenize, and every
// one of them is the card of its test token.
func TestTestCard_Numbers(t *testing.T) {
	t.Parallel()
	for number, tok := range TestCardNumbers {
		cd, r := TestCard(number)
		if r != nil || cd != CardByToken(tok) {
			t.Errorf("%s: card %v, refusal %v, want %s's", number, cd, r, tok)
		}
	}
	for _, tc := range []struct{ name, number, code string }{
		{"spaces", "4242 4242 4242 4242", wire.ErrorCodeInvalidNumber},
		{"too short", "42424242", wire.ErrorCodeInvalidNumber},
		{"mistyped", "4242424242424241", wire.ErrorCodeIncorrectNumber},
		{"a real card's", "4111111111111111", wire.ErrorCodeInvalidNumber},
	} {
		_, r := TestCard(tc.number)
		wantCardRefusal(t, r, wire.ParamCardNumber, tc.code)
	}
}

// TestCardExpiry_Bounds: a month 1 to 12, a four-digit year no more than
// 50 years ahead, valid to the end of its month.
func TestCardExpiry_Bounds(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 3, 31, 23, 59, 59, 0, time.UTC)
	for _, tc := range []struct {
		name, month, year, param, code string
	}{
		{"this month", "3", "2026", "", ""},
		{"next year", "01", "2027", "", ""},
		{"last month", "2", "2026", wire.ParamCardExpYear, wire.ErrorCodeExpiredCard},
		{"month 13", "13", "2027", wire.ParamCardExpMonth, wire.ErrorCodeInvalidExpiryMonth},
		{"signed month", "+1", "2027", wire.ParamCardExpMonth, wire.ErrorCodeInvalidExpiryMonth},
		{"two-digit year", "1", "27", wire.ParamCardExpYear, wire.ErrorCodeInvalidExpiryYear},
		{"too far ahead", "1", "2077", wire.ParamCardExpYear, wire.ErrorCodeInvalidExpiryYear},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, y, r := CardExpiry(tc.month, tc.year, now)
			wantCardRefusal(t, r, tc.param, tc.code)
			if r == nil && (m < 1 || m > 12 || y < 2026) {
				t.Fatalf("expiry %d/%d", m, y)
			}
		})
	}
	if _, _, r := CardExpiry("3", "2026", now.Add(time.Second)); r == nil || r.Code != wire.ErrorCodeExpiredCard {
		t.Fatalf("a card is valid past the end of its month: %v", r)
	}
}

// TestCard_CheckCVC: three digits, four for an American Express card.
func TestCard_CheckCVC(t *testing.T) {
	t.Parallel()
	visa, amex := CardByToken(TokenVisa), CardByToken(TokenAmex)
	wantCardRefusal(t, visa.CheckCVC("123"), "", "")
	wantCardRefusal(t, amex.CheckCVC("1234"), "", "")
	wantCardRefusal(t, visa.CheckCVC("1234"), wire.ParamCardCVC, wire.ErrorCodeInvalidCVC)
	wantCardRefusal(t, amex.CheckCVC("123"), wire.ParamCardCVC, wire.ErrorCodeInvalidCVC)
	wantCardRefusal(t, visa.CheckCVC("12a"), wire.ParamCardCVC, wire.ErrorCodeInvalidCVC)
}

// TestCardToken_Use: a minted token is spent once.
func TestCardToken_Use(t *testing.T) {
	t.Parallel()
	tok := &CardToken{ID: ids.New()}
	if r := tok.Use(wire.ParamSource); r != nil || !tok.Used {
		t.Fatalf("first use: %v", r)
	}
	r := tok.Use(wire.ParamSource)
	if r == nil || r.Code != wire.ErrorCodeTokenAlreadyUsed || r.Param != wire.ParamSource || r.Card {
		t.Fatalf("second use: %+v", r)
	}
}

// TestCard_Mint: a minted token keeps the last 4 digits and the test
// card's behaviour, never the number.
func TestCard_Mint(t *testing.T) {
	t.Parallel()
	base := CardByToken(TokenDeclined)
	tok := base.Mint("4000000000000002", 4, 2031, "fp", 9)
	if tok.Card == base || tok.Card.Last4 != "0002" || tok.Card.Behaviour != Declines || tok.Card.Token != TokenDeclined ||
		tok.ExpMonth != 4 || tok.ExpYear != 2031 || tok.Fingerprint != "fp" || tok.Created != 9 || tok.ID.IsZero() || tok.Used {
		t.Fatalf("%+v card %+v", tok, tok.Card)
	}
}

// TestTestCardExpYear_Bounds: three years on, never past 9999.
func TestTestCardExpYear_Bounds(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		now  time.Time
		want int32
	}{
		{time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC), 2029},
		{time.Date(1971, 1, 1, 0, 0, 0, 0, time.UTC), 1974},
		{time.Date(9996, 12, 31, 23, 0, 0, 0, time.UTC), 9999},
		{time.Date(9997, 1, 1, 0, 0, 0, 0, time.UTC), 9999},
		{wire.MaxTime, 9999},
		{time.Date(2026, 12, 31, 23, 0, 0, 0, time.FixedZone("", -2*3600)), 2030}, // 2027 in UTC
	} {
		if got := TestCardExpYear(tc.now); got != tc.want {
			t.Errorf("TestCardExpYear(%v) = %d, want %d", tc.now, got, tc.want)
		}
	}
}
