package model

import (
	"encoding/json"
	"fmt"
	"strconv"
	"time"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/ids"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/jsonw"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// TokenBytes is what a minted token keeps, for the account's bound.
const TokenBytes = 256

// The behaviours of a card when it is charged.
const (
	Approves CardBehaviour = iota
	Declines
	Needs3DS
	// DeclinesLater approves a stored card's first charge and declines
	// every later one.
	DeclinesLater
)

// Cards are the cards behind the sandbox test tokens.
var Cards = []*Card{
	{TokenVisa, "visa", "4242", Approves},
	{TokenMastercard, "mastercard", "4444", Approves},
	{TokenAmex, "amex", "8431", Approves},
	{TokenDeclined, "visa", "0002", Declines},
	{Token3DS, "visa", "3184", Needs3DS},
	// tok_dispute approves; the dispute itself is a sandbox control.
	{TokenDispute, "visa", "0259", Approves},
	{TokenDeclinedLater, "visa", "0341", DeclinesLater},
}

// ExpMonth is the expiry month of every test token's card; the year is the
// year the card was stored or charged plus ExpYearsAhead (TestCardExpYear).
// A minted token's card keeps the expiry it was tokenized with.
const (
	ExpMonth      = 12
	ExpYearsAhead = 3
)

// TestCardExpYear is the expiry year of a test token's card stored at
// now: ExpYearsAhead years on, but never past the year of wire.MaxTime,
// so that a card stored on a test clock near it expires within the times
// the API writes.
func TestCardExpYear(now time.Time) int32 {
	return int32(min(now.UTC().Year()+ExpYearsAhead, wire.MaxTime.Year()))
}

// Sandbox test tokens. [assumed] Reusable in the sandbox; their cards and
// behaviour when charged are in Cards.
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

// CardToken is a token minted by POST /v1/tokens. It keeps what the API
// shows of the card, never its number or CVC.
type CardToken struct {
	ID                ids.RID
	Card              *Card // brand, last 4 and the test card's behaviour
	ExpMonth, ExpYear int32
	Fingerprint       string
	Used              bool
	Created           int64
	Counted           int64 // bytes charged to the account, see MemBytes
}

// CardBehaviour is what happens when a card is charged.
type CardBehaviour uint8

// Card is the profile behind a sandbox test token.
type Card struct {
	Token, Brand, Last4 string
	Behaviour           CardBehaviour
}

// CardRecord is what a record keeps of a card beyond its test token: the
// last 4 and expiry month of a minted token's card, none for a test token.
func CardRecord(cd *Card, month int32) (string, int32) {
	if base := CardByToken(cd.Token); base != nil && base.Last4 == cd.Last4 && month == ExpMonth {
		return "", 0
	}
	return cd.Last4, month
}

// CardByToken is the card behind a test token, nil for none.
func CardByToken(tok string) *Card {
	for _, c := range Cards {
		if c.Token == tok {
			return c
		}
	}
	return nil
}

// RecordKey is the card token's key in its bucket: its id.
func (t *CardToken) RecordKey() string { return t.ID.Format(wire.TokenIDPrefix) }

// RecordValue is the card token's record, as JSON.
func (t *CardToken) RecordValue() []byte {
	return Marshal(TokenRecord{
		ID: t.ID.Format(wire.TokenIDPrefix), Token: t.Card.Token, Last4: t.Card.Last4,
		ExpMonth: t.ExpMonth, ExpYear: t.ExpYear, Fingerprint: t.Fingerprint, Used: t.Used, Created: t.Created,
	})
}

// TokenFromRecord decodes a minted card token's record.
func TokenFromRecord(raw []byte) (*CardToken, error) {
	var rec TokenRecord
	if err := json.Unmarshal(raw, &rec); err != nil {
		return nil, fmt.Errorf("reading a token record from the data file: %w", err)
	}
	id, ok := ids.Parse(rec.ID, wire.TokenIDPrefix)
	cd, month := CardFromRecord(rec.Token, rec.Last4, rec.ExpMonth)
	if !ok || cd == nil {
		return nil, fmt.Errorf("data file: token %q is malformed", rec.ID)
	}
	return &CardToken{ID: id, Card: cd, ExpMonth: month, ExpYear: rec.ExpYear,
		Fingerprint: rec.Fingerprint, Used: rec.Used, Created: rec.Created}, nil
}

// TokenRecord is the stored form of a minted card token.
type TokenRecord struct {
	ID          string `json:"id"`
	Token       string `json:"token"` // the test token whose behaviour the card has
	Last4       string `json:"last4"`
	ExpMonth    int32  `json:"exp_month"`
	ExpYear     int32  `json:"exp_year"`
	Fingerprint string `json:"fingerprint"`
	Used        bool   `json:"used,omitempty"`
	Created     int64  `json:"created"`
}

// CardFromRecord is the card a record names: its test token's, with a
// minted token's own last 4 when the record has one.
func CardFromRecord(token, last4 string, month int32) (*Card, int32) {
	cd := CardByToken(token)
	if cd == nil {
		return nil, 0
	}
	if month == 0 {
		month = ExpMonth
	}
	if last4 != "" && last4 != cd.Last4 {
		cd = &Card{Token: cd.Token, Brand: cd.Brand, Last4: last4, Behaviour: cd.Behaviour}
	}
	return cd, month
}

// cardFieldsJSON appends the fields every card shows, wherever it stands
// (a token, a stored source, a payment's source), to b: its brand, last
// four digits, and the month and year it expires.
func cardFieldsJSON(b []byte, cd *Card, month, year int32) []byte {
	b = append(b, `"brand":`...)
	b = jsonw.String(b, cd.Brand)
	b = append(b, `,"last4":`...)
	b = jsonw.String(b, cd.Last4)
	b = append(b, `,"exp_month":`...)
	b = jsonw.Int(b, int64(month))
	b = append(b, `,"exp_year":`...)
	return jsonw.Int(b, int64(year))
}

// TokenJSON appends the card token's JSON, as the API answers it, to b.
func TokenJSON(b []byte, t *CardToken) []byte {
	b = append(b, `{"id":`...)
	b = ids.Append(b, wire.TokenIDPrefix, t.ID)
	b = append(b, `,"object":"token","card":{`...)
	b = cardFieldsJSON(b, t.Card, t.ExpMonth, t.ExpYear)
	b = append(b, `,"fingerprint":`...)
	b = jsonw.String(b, t.Fingerprint)
	b = append(b, `},"livemode":false,"used":`...)
	b = strconv.AppendBool(b, t.Used)
	b = append(b, `,"created_at":`...)
	b = jsonw.Time(b, t.Created)
	return append(b, '}')
}
