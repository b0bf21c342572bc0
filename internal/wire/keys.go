package wire

import "strings"

// Key prefixes. [spec]
const (
	SecretKeySandboxPrefix = "sk_sandbox_"
	SecretKeyLivePrefix    = "sk_live_"
	PublicKeySandboxPrefix = "pk_sandbox_"
	PublicKeyLivePrefix    = "pk_live_"
	// MinKeySecretLength is the least number of characters after a key's prefix. [assumed]
	MinKeySecretLength = 8
)

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
