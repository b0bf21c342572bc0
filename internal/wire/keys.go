package wire

import (
	"encoding/base64"
	"regexp"
	"strings"
)

// Key prefixes. [spec]
const (
	SecretKeySandboxPrefix = "sk_sandbox_"
	SecretKeyLivePrefix    = "sk_live_"
	PublicKeySandboxPrefix = "pk_sandbox_"
	PublicKeyLivePrefix    = "pk_live_"
	// MinKeySecretLength is the least number of characters after a key's prefix. [assumed]
	MinKeySecretLength = 8
)

// The schemes of the Authorization header (HeaderAuthorization) that
// carry a key, whatever their case (RFC 9110 compares schemes without
// it): Basic, the key as user name with an empty password, the documented
// default; and Bearer, the key alone after one space, as Stripe's
// libraries send it. Either carries the same key to the same account,
// under the same rules. [assumed]
const (
	AuthSchemeBasic  = "Basic"
	AuthSchemeBearer = "Bearer"
)

// SplitAuthorization splits an Authorization header's value at its first
// space: the scheme, AuthSchemeBasic or AuthSchemeBearer whatever case it
// was sent in ("" for any other), and the credentials after that space,
// as sent (more spaces included, for the caller to refuse).
func SplitAuthorization(v string) (scheme, credentials string) {
	name, rest, _ := strings.Cut(v, " ")
	for _, s := range []string{AuthSchemeBasic, AuthSchemeBearer} {
		if strings.EqualFold(name, s) {
			return s, rest
		}
	}
	return "", ""
}

// BasicAuthorization is the Authorization header's value that sends key
// by HTTP Basic: the key as user name, an empty password.
func BasicAuthorization(key string) string {
	return AuthSchemeBasic + " " + base64.StdEncoding.EncodeToString([]byte(key+":"))
}

// BearerAuthorization is the Authorization header's value that sends key
// as a Bearer token.
func BearerAuthorization(key string) string { return AuthSchemeBearer + " " + key }

// KeyKind tells what kind of key a string is.
type KeyKind int

// The kinds of key.
const (
	KeyMalformed KeyKind = iota
	KeySecretSandbox
	KeySecretLive
	KeyPublicSandbox
	KeyPublicLive
)

// ClassifyKey tells the kind of key by its prefix, and KeyMalformed when the
// prefix is unknown or the rest is shorter than MinKeySecretLength or holds
// characters other than letters, digits and underscores.
func ClassifyKey(key string) KeyKind {
	for _, k := range []struct {
		prefix string
		kind   KeyKind
	}{
		{SecretKeySandboxPrefix, KeySecretSandbox},
		{SecretKeyLivePrefix, KeySecretLive},
		{PublicKeySandboxPrefix, KeyPublicSandbox},
		{PublicKeyLivePrefix, KeyPublicLive},
	} {
		rest, ok := strings.CutPrefix(key, k.prefix)
		if !ok {
			continue
		}
		if len(rest) < MinKeySecretLength {
			return KeyMalformed
		}
		for _, r := range rest {
			if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_') {
				return KeyMalformed
			}
		}
		return k.kind
	}
	return KeyMalformed
}

// KeyPattern matches anything shaped like a key, secret or publishable,
// sandbox or live, wherever it stands in a longer string, its underscores
// percent-encoded (%5F) or not: a header or a raw query holds a key
// pasted by a client that encodes them as it was given it.
var KeyPattern = regexp.MustCompile(`[sp]k(?:_|%5[Ff])(?:sandbox|live)(?:_|%5[Ff])(?:[A-Za-z0-9_]|%5[Ff])+`)

// RedactedKey is what MaskKeys puts in a key's place.
const RedactedKey = "[redacted key]"

// MaskKeys replaces every substring shaped like a key (KeyPattern) with
// RedactedKey. It is the one masking of keys pasted where they do not
// belong (a path, a query, a header, an Idempotency-Key) before they are
// logged or shown.
func MaskKeys(s string) string {
	if !strings.Contains(s, "k_") && !strings.Contains(s, "k%5") {
		return s
	}
	return KeyPattern.ReplaceAllLiteralString(s, RedactedKey)
}
