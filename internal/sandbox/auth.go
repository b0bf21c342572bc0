package sandbox

import (
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// authenticate returns the account of the request's secret key, or of its
// publishable key where publicOK (POST /v1/tokens): pk_sandbox_<rest>
// belongs to the account of sk_sandbox_<rest>. Messages never quote the
// key: error bodies end up in client logs.
func (s *Server) authenticate(r *http.Request, publicOK bool) (*account, *apiError) {
	if r.Header.Get("Authorization") == "" {
		return nil, authError(wire.ErrorCodeMissingAPIKey,
			"No API key provided. Send your secret key as the HTTP Basic user name with an empty password.")
	}
	key, password, ok := r.BasicAuth()
	switch {
	case !ok:
		return nil, authError(wire.ErrorCodeInvalidAPIKey,
			"The Authorization header is not HTTP Basic. Send your secret key as the Basic user name with an empty password.")
	case key == "":
		return nil, authError(wire.ErrorCodeMissingAPIKey,
			"No API key provided: the Basic user name is empty. Send your secret key as the user name with an empty password.")
	}
	switch kind := wire.ClassifyKey(key); {
	case (kind == wire.KeyPublicSandbox || kind == wire.KeyPublicLive) && !publicOK:
		return nil, &apiError{
			status: http.StatusForbidden, typ: wire.ErrorTypePermission, code: wire.ErrorCodeSecretKeyRequired,
			message: "A publishable key can only create card tokens (POST " + wire.PathTokens + "). Use your secret key (" + wire.SecretKeySandboxPrefix + "...) for this endpoint.",
		}
	case kind == wire.KeyPublicSandbox:
		// The secret key of the same account: admitted or refused as it is.
		key = wire.SecretKeySandboxPrefix + strings.TrimPrefix(key, wire.PublicKeySandboxPrefix)
	case kind == wire.KeySecretLive, kind == wire.KeyPublicLive:
		return nil, &apiError{
			status: http.StatusForbidden, typ: wire.ErrorTypePermission, code: wire.ErrorCodeLiveKeyOnSandbox,
			message: "A live key cannot be used on the sandbox. Use a sandbox secret key (" + wire.SecretKeySandboxPrefix + "...), or point base_url at the live service.",
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
	if keys := s.keys.Load(); keys != nil {
		if _, ok := (*keys)[key]; !ok {
			return nil, authError(wire.ErrorCodeInvalidAPIKey,
				"Invalid API key: this sandbox admits only the keys it is configured with (-key, -key-file or PAYMENTS_SANDBOX_KEYS).")
		}
	}
	return s.accountFor(key)
}

// SetKeys replaces the set of admitted secret keys, at once for every
// request that authenticates afterwards: an added key is admitted, a
// removed one refused (its account and data stay, unreachable). It is safe
// to call while serving. An empty set is refused rather than read as
// "admit every key": a server with keys must never fall open because a
// key file was emptied. A key is never part of the error.
func (s *Server) SetKeys(keys []string) error {
	if len(keys) == 0 {
		return errors.New("sandbox: an empty key set would admit every key; give at least one key")
	}
	set := make(map[string]struct{}, len(keys))
	for i, k := range keys {
		if wire.ClassifyKey(k) != wire.KeySecretSandbox {
			return fmt.Errorf("sandbox: key number %d is not a sandbox secret key; use %s followed by at least %d letters, digits or underscores",
				i+1, wire.SecretKeySandboxPrefix, wire.MinKeySecretLength)
		}
		set[k] = struct{}{}
	}
	s.keys.Store(&set)
	return nil
}

func authError(code, msg string) *apiError {
	return &apiError{status: http.StatusUnauthorized, typ: wire.ErrorTypeAuthentication, code: code, message: msg}
}
