package wire

// Card tokenization: POST /v1/tokens turns card details into a single-use
// token (tok_…) that a source or a payment can name instead of the card.
// It is the one endpoint a publishable key (pk_…) may call: tokens are
// made in browsers and apps, where a secret key must never be. [assumed]
const (
	PathTokens    = APIVersionPrefix + "/tokens"
	TokenIDPrefix = "tok_"
)

// Parameters of POST /v1/tokens. [assumed]
const (
	ParamCardNumber   = "card[number]"
	ParamCardExpMonth = "card[exp_month]"
	ParamCardExpYear  = "card[exp_year]"
	ParamCardCVC      = "card[cvc]"
)

// Card number and CVC rules checked when a card is tokenized. [assumed]
const (
	CardNumberMinDigits = 12
	CardNumberMaxDigits = 19
	// CardCVCDigits is the length of a CVC; American Express cards have
	// CardCVCDigitsAmex.
	CardCVCDigits     = 3
	CardCVCDigitsAmex = 4
)

// Error codes of tokenization and of using a token (card_error, 402, for
// the card's own details, as card errors are). [assumed]
const (
	ErrorCodeInvalidNumber      = "invalid_number"   // not digits, wrong length, or not a sandbox test card
	ErrorCodeIncorrectNumber    = "incorrect_number" // fails the Luhn check
	ErrorCodeInvalidExpiryMonth = "invalid_expiry_month"
	ErrorCodeInvalidExpiryYear  = "invalid_expiry_year"
	ErrorCodeExpiredCard        = "expired_card"
	ErrorCodeInvalidCVC         = "invalid_cvc"
	// ErrorCodeTokenAlreadyUsed (400) refuses a second use of a minted
	// token: attaching or charging it uses it up.
	ErrorCodeTokenAlreadyUsed = "token_already_used"
)

// Token is a card token.
type Token struct {
	ID        string    `json:"id"`
	Object    string    `json:"object"`
	Card      TokenCard `json:"card"`
	Livemode  bool      `json:"livemode"`
	Used      bool      `json:"used"`
	CreatedAt string    `json:"created_at"`
}

// TokenCard is what a token shows of its card: never the number or CVC.
type TokenCard struct {
	Brand       string `json:"brand"`
	Last4       string `json:"last4"`
	ExpMonth    int64  `json:"exp_month"`
	ExpYear     int64  `json:"exp_year"`
	Fingerprint string `json:"fingerprint"`
}

// LuhnValid tells whether number, all digits, passes the Luhn check that
// every card number's last digit makes.
func LuhnValid(number string) bool {
	sum, double := 0, false
	for i := len(number) - 1; i >= 0; i-- {
		d := int(number[i] - '0')
		if double {
			if d *= 2; d > 9 {
				d -= 9
			}
		}
		sum, double = sum+d, !double
	}
	return sum%10 == 0
}
