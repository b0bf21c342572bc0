package sandbox_test

import (
	"bytes"
	"net/http"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/sandboxtest"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// card is the form of a card to tokenize, valid unless changed.
func card(kv ...string) map[string]string {
	c := map[string]string{
		wire.ParamCardNumber:   "4242424242424242",
		wire.ParamCardExpMonth: "7",
		wire.ParamCardExpYear:  strconv.Itoa(time.Now().Year() + 2),
		wire.ParamCardCVC:      "123",
	}
	for i := 0; i+1 < len(kv); i += 2 {
		if kv[i+1] == "<absent>" {
			delete(c, kv[i])
			continue
		}
		c[kv[i]] = kv[i+1]
	}
	return c
}

func (e *env) mint(c map[string]string) *result {
	e.t.Helper()
	f := vals()
	for k, v := range c {
		f.Set(k, v)
	}
	return e.post(wire.PathTokens, f)
}

// publishable is the account's publishable key, as GET /_sandbox/account
// tells its secret key.
func (e *env) publishable() *env {
	e.t.Helper()
	var acct wire.SandboxAccount
	e.get(wire.PathSandboxAccount, nil).ok(&acct)
	p := *e
	p.key = acct.PublishableKey
	return &p
}

func TestTokens_Create(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	year := time.Now().Year() + 2
	for name, who := range map[string]*env{"secret key": e, "publishable key": e.publishable()} {
		var tok wire.Token
		res := who.mint(card()).ok(&tok)
		if strings.Contains(string(res.body), "4242424242424242") || strings.Contains(string(res.body), `"123"`) {
			t.Errorf("%s: the answer echoes the number or the cvc: %s", name, res.body)
		}
		if !strings.HasPrefix(tok.ID, wire.TokenIDPrefix) || tok.Object != "token" || tok.Used || tok.Livemode ||
			tok.Card.Brand != "visa" || tok.Card.Last4 != "4242" || tok.Card.ExpMonth != 7 || tok.Card.ExpYear != int64(year) ||
			len(tok.Card.Fingerprint) != 16 || !reTimestamp.MatchString(tok.CreatedAt) {
			t.Errorf("%s: token = %+v", name, tok)
		}
	}
	// One card, one fingerprint in an account; another account's differs.
	var a, b, c wire.Token
	e.mint(card()).ok(&a)
	e.mint(card(wire.ParamCardExpMonth, "9")).ok(&b)
	e.other().mint(card()).ok(&c)
	if a.Card.Fingerprint != b.Card.Fingerprint || a.Card.Fingerprint == c.Card.Fingerprint || a.ID == b.ID {
		t.Errorf("fingerprints %q %q (same card), %q (other account); ids %s %s", a.Card.Fingerprint, b.Card.Fingerprint, c.Card.Fingerprint, a.ID, b.ID)
	}
}

func TestTokens_Validation(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	past := time.Now().AddDate(0, -1, 0)
	cases := []struct {
		name  string
		card  map[string]string
		code  string
		param string
	}{
		{"number missing", card(wire.ParamCardNumber, "<absent>"), wire.ErrorCodeParameterMissing, wire.ParamCardNumber},
		{"number with spaces", card(wire.ParamCardNumber, "4242 4242 4242 4242"), wire.ErrorCodeInvalidNumber, wire.ParamCardNumber},
		{"number too short", card(wire.ParamCardNumber, "42424242424"), wire.ErrorCodeInvalidNumber, wire.ParamCardNumber},
		{"number too long", card(wire.ParamCardNumber, "42424242424242424242"), wire.ErrorCodeInvalidNumber, wire.ParamCardNumber},
		{"Luhn", card(wire.ParamCardNumber, "4242424242424241"), wire.ErrorCodeIncorrectNumber, wire.ParamCardNumber},
		{"a real card", card(wire.ParamCardNumber, "4111111111111111"), wire.ErrorCodeInvalidNumber, wire.ParamCardNumber},
		{"month 0", card(wire.ParamCardExpMonth, "0"), wire.ErrorCodeInvalidExpiryMonth, wire.ParamCardExpMonth},
		{"month 13", card(wire.ParamCardExpMonth, "13"), wire.ErrorCodeInvalidExpiryMonth, wire.ParamCardExpMonth},
		{"month +1", card(wire.ParamCardExpMonth, "+1"), wire.ErrorCodeInvalidExpiryMonth, wire.ParamCardExpMonth},
		{"year 2 digits", card(wire.ParamCardExpYear, "30"), wire.ErrorCodeInvalidExpiryYear, wire.ParamCardExpYear},
		{"year far", card(wire.ParamCardExpYear, strconv.Itoa(time.Now().Year()+51)), wire.ErrorCodeInvalidExpiryYear, wire.ParamCardExpYear},
		{"expired", card(wire.ParamCardExpMonth, strconv.Itoa(int(past.Month())), wire.ParamCardExpYear, strconv.Itoa(past.Year())), wire.ErrorCodeExpiredCard, wire.ParamCardExpYear},
		{"cvc short", card(wire.ParamCardCVC, "12"), wire.ErrorCodeInvalidCVC, wire.ParamCardCVC},
		{"cvc letters", card(wire.ParamCardCVC, "12a"), wire.ErrorCodeInvalidCVC, wire.ParamCardCVC},
		{"amex cvc 3", card(wire.ParamCardNumber, "378282246310005"), wire.ErrorCodeInvalidCVC, wire.ParamCardCVC},
		{"cvc missing", card(wire.ParamCardCVC, "<absent>"), wire.ErrorCodeParameterMissing, wire.ParamCardCVC},
		{"unknown parameter", card("card[name]", "Jo"), wire.ErrorCodeParameterUnknown, "card[name]"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			typ, status := wire.ErrorTypeCard, http.StatusPaymentRequired
			if strings.HasPrefix(tc.code, "parameter_") {
				typ, status = wire.ErrorTypeInvalidRequest, http.StatusBadRequest
			}
			res := e.mint(tc.card)
			eb := res.fails(status, typ, tc.code, tc.param)
			if n := tc.card[wire.ParamCardNumber]; n != "" && strings.Contains(eb.Error.Message, n) {
				t.Errorf("the error echoes the card number: %s", eb.Error.Message)
			}
		})
	}
	// Amex takes four digits.
	var tok wire.Token
	e.mint(card(wire.ParamCardNumber, "378282246310005", wire.ParamCardCVC, "1234")).ok(&tok)
	if tok.Card.Brand != "amex" || tok.Card.Last4 != "0005" {
		t.Errorf("amex token = %+v", tok)
	}
}

func TestTokens_SingleUse(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	cu := e.customer(vals("email", "jo@example.com"))
	var tok wire.Token
	e.mint(card(wire.ParamCardNumber, "5555555555554444", wire.ParamCardExpMonth, "3")).ok(&tok)

	var src wire.Source
	e.post("/v1/customers/"+cu.ID+"/sources", vals("source", tok.ID)).ok(&src)
	if src.Brand != "mastercard" || src.Last4 != "4444" || src.ExpMonth != 3 || src.ExpYear != tok.Card.ExpYear {
		t.Errorf("source from a minted token = %+v, token card %+v", src, tok.Card)
	}
	for _, path := range []string{"/v1/customers/" + cu.ID + "/sources", "/v1/payments"} {
		f := vals("source", tok.ID)
		if path == "/v1/payments" {
			f = pay("100", "USD", tok.ID)
		}
		e.post(path, f).fails(http.StatusBadRequest, wire.ErrorTypeInvalidRequest, wire.ErrorCodeTokenAlreadyUsed, "source")
	}

	// A payment from a minted token carries its card; the magic tokens stay reusable.
	var tok2 wire.Token
	e.mint(card(wire.ParamCardNumber, "378282246310005", wire.ParamCardCVC, "1234", wire.ParamCardExpMonth, "11")).ok(&tok2)
	p := e.payment(pay("2500", "USD", tok2.ID))
	if p.Source == nil || p.Source.Brand != "amex" || p.Source.Last4 != "0005" || p.Source.ExpMonth != 11 {
		t.Errorf("payment source = %+v", p.Source)
	}
	for range 2 {
		e.payment(pay("100", "USD", sandbox.TokenVisa))
	}
	e.post("/v1/customers", vals("source", "tok_"+strings.Repeat("A", 24))).
		fails(http.StatusBadRequest, wire.ErrorTypeInvalidRequest, wire.ErrorCodeTokenInvalid, "source")
	// Another account cannot use this account's token.
	e.other().post("/v1/payments", pay("100", "USD", tok2.ID)).
		fails(http.StatusBadRequest, wire.ErrorTypeInvalidRequest, wire.ErrorCodeTokenInvalid, "source")
}

// Each test card number has the behaviour of its test token.
func TestTokens_TestCardBehaviours(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	cases := []struct {
		number, cvc, status string
	}{
		{"4242424242424242", "123", wire.PaymentStatusApproved},
		{"5555555555554444", "123", wire.PaymentStatusApproved},
		{"378282246310005", "1234", wire.PaymentStatusApproved},
		{"4000000000003220", "123", wire.PaymentStatusPending},
		{"4000000000000259", "123", wire.PaymentStatusApproved},
	}
	for _, tc := range cases {
		var tok wire.Token
		e.mint(card(wire.ParamCardNumber, tc.number, wire.ParamCardCVC, tc.cvc)).ok(&tok)
		if p := e.payment(pay("100", "USD", tok.ID)); p.Status != tc.status || p.Source.Last4 != tc.number[len(tc.number)-4:] {
			t.Errorf("%s: payment %s, last4 %s", tc.number, p.Status, p.Source.Last4)
		}
	}
	var tok wire.Token
	e.mint(card(wire.ParamCardNumber, "4000000000000002")).ok(&tok)
	e.post("/v1/payments", pay("100", "USD", tok.ID)).fails(http.StatusPaymentRequired, wire.ErrorTypeCard, wire.ErrorCodeCardDeclined, "")
}

// A publishable key can mint tokens and nothing else.
func TestTokens_PublishableKeyOnlyMints(t *testing.T) {
	t.Parallel()
	pk := newEnv(t).publishable()
	for _, c := range []struct{ method, path string }{
		{http.MethodGet, "/v1/customers"},
		{http.MethodPost, "/v1/customers"},
		{http.MethodPost, "/v1/payments"},
		{http.MethodGet, "/_sandbox/stats"},
		{http.MethodGet, "/v1/nowhere"},
	} {
		pk.do(c.method, c.path, nil).fails(http.StatusForbidden, wire.ErrorTypePermission, wire.ErrorCodeSecretKeyRequired, "")
	}
	live := *pk
	live.key = wire.PublicKeyLivePrefix + "abcdefghijklmnopqrstuvwx"
	live.mint(card()).fails(http.StatusForbidden, wire.ErrorTypePermission, wire.ErrorCodeLiveKeyOnSandbox, "")
}

// With -key, a publishable key is admitted exactly when its secret key is.
func TestTokens_PublishableKeyFollowsKeys(t *testing.T) {
	t.Parallel()
	key := sandboxtest.NewKey(t)
	e := envOn(t, sandboxtest.Start(t, sandboxtest.WithKeys(key)), key)
	e.publishable().mint(card()).ok(nil)
	other := *e
	other.key = derivePublishable(sandboxtest.NewKey(t))
	other.mint(card()).fails(http.StatusUnauthorized, wire.ErrorTypeAuthentication, wire.ErrorCodeInvalidAPIKey, "")
	// Admitted before its secret key has made the account.
	second := sandboxtest.NewKey(t)
	sb := sandboxtest.Start(t, sandboxtest.WithKeys(key, second))
	fresh := envOn(t, sb, key)
	fresh.key = derivePublishable(second)
	fresh.mint(card()).ok(nil)
}

// Tokens, used or not, and the cards made from them outlive a restart.
func TestTokens_KeptInDataFile(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "sandbox.db")
	key := sandboxtest.NewKey(t)
	e, stop := openEnv(t, path, key)
	var used, fresh wire.Token
	e.mint(card(wire.ParamCardNumber, "378282246310005", wire.ParamCardCVC, "1234", wire.ParamCardExpMonth, "4")).ok(&used)
	e.mint(card()).ok(&fresh)
	cu := e.customer(vals("email", "jo@example.com", "source", used.ID))
	p := e.payment(pay("100", "USD", "", "customer", cu.ID))
	wantCustomer := e.get("/v1/customers/"+cu.ID, nil).ok(nil).body
	wantPayment := e.get("/v1/payments/"+p.ID, nil).ok(nil).body
	stop()

	e, stop = openEnv(t, path, key)
	defer stop()
	if got := e.get("/v1/customers/"+cu.ID, nil).ok(nil).body; !bytes.Equal(got, wantCustomer) {
		t.Errorf("customer after restart:\n%s\nwant\n%s", got, wantCustomer)
	}
	if got := e.get("/v1/payments/"+p.ID, nil).ok(nil).body; !bytes.Equal(got, wantPayment) {
		t.Errorf("payment after restart:\n%s\nwant\n%s", got, wantPayment)
	}
	e.post("/v1/payments", pay("100", "USD", used.ID)).
		fails(http.StatusBadRequest, wire.ErrorTypeInvalidRequest, wire.ErrorCodeTokenAlreadyUsed, "source")
	if q := e.payment(pay("100", "USD", fresh.ID)); q.Source.Last4 != "4242" || q.Source.ExpMonth != 7 {
		t.Errorf("payment from a token minted before the restart: %+v", q.Source)
	}
}
