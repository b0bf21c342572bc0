package sandbox

import (
	"crypto/sha256"
	"fmt"
	"net/http"
	"strings"
	"unicode"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/apierr"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/keys"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// authenticate returns the account of the request's secret key, or of its
// publishable key where publicOK (POST /v1/tokens). A publishable key is
// derived one way from its secret key (keys.Publishable) and found in an
// index of the accounts it may name, never turned back into a secret key.
// Messages never quote the key: error bodies end up in client logs.
func (s *Server) authenticate(r *http.Request, publicOK bool) (*account, *apierr.Error) {
	key, password, e := credentials(r)
	if e != nil {
		return nil, e
	}
	kind := wire.ClassifyKey(key)
	switch {
	case (kind == wire.KeyPublicSandbox || kind == wire.KeyPublicLive) && !publicOK:
		return nil, &apierr.Error{
			Status: http.StatusForbidden, Type: wire.ErrorTypePermission, Code: wire.ErrorCodeSecretKeyRequired,
			Message: "A publishable key can only create card tokens (POST " + wire.PathTokens + "). Use your secret key (" + wire.SecretKeySandboxPrefix + "...) for this endpoint.",
		}
	case kind == wire.KeySecretLive, kind == wire.KeyPublicLive:
		return nil, &apierr.Error{
			Status: http.StatusForbidden, Type: wire.ErrorTypePermission, Code: wire.ErrorCodeLiveKeyOnSandbox,
			Message: "A live key cannot be used on the sandbox. Use a sandbox secret key (" + wire.SecretKeySandboxPrefix + "...), or point base_url at the live service.",
		}
	case kind == wire.KeyMalformed:
		return nil, authError(wire.ErrorCodeInvalidAPIKey, fmt.Sprintf(
			"Invalid API key. A sandbox secret key is %s followed by at least %d letters, digits or underscores.",
			wire.SecretKeySandboxPrefix, wire.MinKeySecretLength))
	}
	if password != "" {
		return nil, authError(wire.ErrorCodeInvalidAPIKey,
			"The HTTP Basic password must be empty. Send your secret key as the user name only.")
	}
	if kind == wire.KeyPublicSandbox {
		hash, ok := s.publishableAccount(key)
		if !ok {
			return nil, authError(wire.ErrorCodeInvalidAPIKey,
				"Invalid API key: no account of this sandbox has this publishable key. Read your account's publishable key from GET "+
					wire.PathSandboxAccount+" (with its secret key) or from the dashboard.")
		}
		return s.accountFor(hash)
	}
	if keys := s.keys.Load(); keys != nil {
		if !keys.Admits(key) {
			return nil, authError(wire.ErrorCodeInvalidAPIKey,
				"Invalid API key: this sandbox admits only the keys it is configured with (-key, -key-file or PAYMENTS_SANDBOX_KEYS).")
		}
	}
	return s.accountFor(sha256.Sum256([]byte(key)))
}

// sendKey says how to send a key, in every message that refuses how it
// was sent.
const sendKey = "Send your secret key as a Bearer token (" + wire.HeaderAuthorization + ": " + wire.AuthSchemeBearer + " " +
	wire.SecretKeySandboxPrefix + "...) or as the HTTP Basic user name with an empty password."

// credentials reads the key from the Authorization header, sent by HTTP
// Basic (the user name; password is the Basic password, which must be
// empty) or as a Bearer token (the key alone after one space). The key is
// the same whichever scheme carries it, and authenticate applies the same
// rules to it.
func credentials(r *http.Request) (key, password string, e *apierr.Error) {
	h := r.Header.Get(wire.HeaderAuthorization)
	if h == "" {
		return "", "", authError(wire.ErrorCodeMissingAPIKey, "No API key provided. "+sendKey)
	}
	switch scheme, creds := wire.SplitAuthorization(h); scheme {
	case wire.AuthSchemeBasic:
		key, password, ok := r.BasicAuth()
		switch {
		case !ok:
			return "", "", authError(wire.ErrorCodeInvalidAPIKey,
				"The HTTP Basic credentials are not the base64 of user:password. "+sendKey)
		case key == "":
			return "", "", authError(wire.ErrorCodeMissingAPIKey,
				"No API key provided: the Basic user name is empty. "+sendKey)
		}
		return key, password, nil
	case wire.AuthSchemeBearer:
		switch {
		case strings.TrimSpace(creds) == "":
			return "", "", authError(wire.ErrorCodeMissingAPIKey,
				"No API key provided: the Bearer token is empty. "+sendKey)
		case strings.ContainsFunc(creds, unicode.IsSpace):
			return "", "", authError(wire.ErrorCodeInvalidAPIKey,
				"The Bearer token is malformed: send "+wire.AuthSchemeBearer+", one space and the key alone, with no other space.")
		}
		return creds, "", nil
	}
	return "", "", authError(wire.ErrorCodeInvalidAPIKey,
		"The "+wire.HeaderAuthorization+" header is neither HTTP Basic nor Bearer. "+sendKey)
}

// publishableAccount finds the account hash a publishable key names: with
// a key list, one of its keys' (whether or not it has an account yet);
// without, an account the sandbox has. The index goes from publishable key
// to account only: no answer ever holds a secret key.
func (s *Server) publishableAccount(pk string) ([32]byte, bool) {
	if keys := s.keys.Load(); keys != nil {
		return keys.Account(pk)
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	hash, ok := s.publishable[pk]
	return hash, ok
}

// indexAccount makes an account's publishable key name it; the caller
// holds s.mu for writing, as it does to add the account to s.accounts.
func (s *Server) indexAccount(a *account) {
	s.publishable[a.publishable] = a.hash
}

// unindexAccount undoes indexAccount, under s.mu, as the account leaves
// s.accounts.
func (s *Server) unindexAccount(a *account) {
	delete(s.publishable, a.publishable)
}

// SetKeys replaces the set of admitted secret keys, at once for every
// request that authenticates afterwards: an added key is admitted, a
// removed one refused (its account and data stay, unreachable). It is safe
// to call while serving. An empty set is refused rather than read as
// "admit every key": a server with keys must never fall open because a
// key file was emptied. A key is never part of the error.
func (s *Server) SetKeys(list []string) error {
	set, err := keys.NewSet(list)
	if err != nil {
		return err
	}
	s.keys.Store(set)
	return nil
}

func authError(code, msg string) *apierr.Error {
	return &apierr.Error{Status: http.StatusUnauthorized, Type: wire.ErrorTypeAuthentication, Code: code, Message: msg}
}

// accountFor returns the account of a secret key's SHA-256 hash, made on
// first use unless the sandbox has Limits.MaxAccounts of them. The caller
// holds it in use (inflight) until it calls a.inflight.Add(-1).
func (s *Server) accountFor(hash [32]byte) (*account, *apierr.Error) {
	now := s.now().UnixNano()
	s.mu.RLock()
	a := s.accounts[hash]
	if a != nil {
		// Under the lock, so that sweepIdle sees the account in use.
		a.inflight.Add(1)
	}
	s.mu.RUnlock()
	if a != nil {
		a.lastUsed.Store(now)
		return a, nil
	}
	for {
		s.mu.Lock()
		if a = s.accounts[hash]; a != nil {
			break
		}
		if done := s.dropping[hash]; done != nil {
			// Removed as idle: its old records must leave the disk first.
			s.mu.Unlock()
			<-done
			continue
		}
		if s.keys.Load() == nil && s.limits.MaxAccounts > 0 && len(s.accounts) >= s.limits.MaxAccounts {
			s.mu.Unlock()
			return nil, s.accountsFull()
		}
		a = newAccount(hash, &s.total)
		s.accounts[hash] = a
		s.indexAccount(a)
		break
	}
	a.inflight.Add(1)
	s.mu.Unlock()
	a.lastUsed.Store(now)
	return a, nil
}
