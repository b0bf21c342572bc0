package sandbox_test

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/sandboxtest"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// derivePublishable is the derivation api/openapi.yaml documents, written
// out again so that the sandbox cannot drift from the document.
func derivePublishable(secret string) string {
	hash := sha256.Sum256([]byte(secret))
	m := hmac.New(sha256.New, hash[:])
	m.Write([]byte("payments-sandbox publishable key"))
	return wire.PublicKeySandboxPrefix + hex.EncodeToString(m.Sum(nil)[:16])
}

// The publishable key is the documented one-way derivation of the secret
// key, the same on every sandbox, and tells nothing of the secret key.
func TestSandboxAccount_PublishableKey(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	pk := e.publishable().key
	if pk != derivePublishable(e.key) {
		t.Errorf("publishable key %q, want the documented derivation %q", pk, derivePublishable(e.key))
	}
	if wire.ClassifyKey(pk) != wire.KeyPublicSandbox {
		t.Errorf("publishable key %q is not a sandbox publishable key", pk)
	}
	rest := strings.TrimPrefix(e.key, wire.SecretKeySandboxPrefix)
	if strings.Contains(pk, rest) || strings.Contains(pk, rest[:8]) {
		t.Errorf("publishable key %q holds the secret key's characters", pk)
	}
	if other := e.other().publishable().key; other == pk {
		t.Errorf("two accounts share the publishable key %q", pk)
	}
	again := envOn(t, sandboxtest.Start(t), e.key).publishable().key
	if again != pk {
		t.Errorf("another sandbox gave %q for the same secret key, want %q", again, pk)
	}
}

// No request turns a publishable key into its secret key, and the old
// pk_sandbox_<rest of the secret key> names no account.
func TestSandboxAccount_PublishableKeyGivesNothingAway(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	pk := e.publishable()
	var tok wire.Token
	pk.mint(card()).ok(&tok)
	for _, path := range []string{wire.PathSandboxAccount, wire.PathSandboxRequests, wire.PathSandboxStats, wire.PathSandboxSummary} {
		res := pk.do(http.MethodGet, path, nil)
		res.fails(http.StatusForbidden, wire.ErrorTypePermission, wire.ErrorCodeSecretKeyRequired, "")
		if strings.Contains(string(res.body), e.key) {
			t.Errorf("GET %s with the publishable key shows the secret key: %s", path, res.body)
		}
	}
	old := *e
	old.key = wire.PublicKeySandboxPrefix + strings.TrimPrefix(e.key, wire.SecretKeySandboxPrefix)
	old.mint(card()).fails(http.StatusUnauthorized, wire.ErrorTypeAuthentication, wire.ErrorCodeInvalidAPIKey, "")
	unknown := *e
	unknown.key = derivePublishable(sandboxtest.NewKey(t))
	body := unknown.mint(card()).fails(http.StatusUnauthorized, wire.ErrorTypeAuthentication, wire.ErrorCodeInvalidAPIKey, "")
	if !strings.Contains(body.Error.Message, wire.PathSandboxAccount) {
		t.Errorf("an unknown publishable key's message does not say where to read one: %q", body.Error.Message)
	}
}

// Tokens minted with one account's publishable key are unusable by every
// other account, whichever key it uses.
func TestSandboxAccount_TokensStayInTheirAccount(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	var tok wire.Token
	e.publishable().mint(card()).ok(&tok)
	other := e.other()
	other.publishable().mint(card()).ok(nil)
	other.post(wire.PathPayments, pay("100", "USD", tok.ID)).
		fails(http.StatusBadRequest, wire.ErrorTypeInvalidRequest, wire.ErrorCodeTokenInvalid, "source")
	cu := other.customer(nil)
	other.post("/v1/customers/"+cu.ID+"/sources", vals("source", tok.ID)).
		fails(http.StatusBadRequest, wire.ErrorTypeInvalidRequest, wire.ErrorCodeTokenInvalid, "source")
	// Its own account charges it.
	if p := e.payment(pay("100", "USD", tok.ID)); p.Source == nil || p.Source.Last4 != "4242" {
		t.Errorf("payment from the account's own token: %+v", p.Source)
	}
}

// An account read back from a data file, whose secret key the sandbox
// never stored, has its publishable key from the start.
func TestSandboxAccount_PublishableKeyAfterRestart(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "sandbox.db")
	key := sandboxtest.NewKey(t)
	e, stop := openEnv(t, path, key)
	pk := e.publishable().key
	e.customer(nil)
	stop()
	e, stop = openEnv(t, path, key)
	defer stop()
	p := *e
	p.key = pk
	var tok wire.Token
	p.mint(card()).ok(&tok)
	e.payment(pay("100", "USD", tok.ID))
}
