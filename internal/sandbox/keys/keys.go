// Package keys is what the sandbox knows of keys besides accounts: the
// publishable key derived one way from an account's hash, and the set of
// admitted secret keys of a sandbox started with a key list. It knows
// nothing of requests or of the sandbox's handlers, and never turns a
// publishable key back into a secret key.
package keys

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"

	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// publishableLabel separates the publishable key's derivation from every
// other use of the account's hash (the card tokens' HMAC among them).
const publishableLabel = "payments-sandbox publishable key"

// Publishable is the publishable key of the account whose secret key
// hashes (SHA-256) to hash: pk_sandbox_ and the first 32 lowercase hex
// digits of HMAC-SHA-256 keyed with that hash over publishableLabel. One
// way: neither the secret key nor the hash can be computed from it, so a
// publishable key read out of a web page gives nothing but tokenizing.
// It depends on the hash only, so that accounts read back from a data
// file, whose secret keys the sandbox never stores, have it too. The
// fleet's balancer (examples/fleet/haproxy.cfg) computes it the same way
// to send both keys of an account to one instance; its test
// (tools/internal/examples) fails if the two drift apart.
func Publishable(hash [32]byte) string {
	m := hmac.New(sha256.New, hash[:])
	m.Write([]byte(publishableLabel))
	return wire.PublicKeySandboxPrefix + hex.EncodeToString(m.Sum(nil)[:16])
}

// Set is the admitted secret keys of a sandbox started with a key list,
// and the account hash of each one's publishable key.
type Set struct {
	secret      map[string]struct{}
	publishable map[string][32]byte
}

// NewSet returns the set of keys. An empty set is refused rather than
// read as "admit every key": a server with keys must never fall open
// because a key file was emptied. A key is never part of the error.
func NewSet(keys []string) (*Set, error) {
	if len(keys) == 0 {
		return nil, errors.New("sandbox: an empty key set would admit every key; give at least one key")
	}
	set := Set{secret: make(map[string]struct{}, len(keys)), publishable: make(map[string][32]byte, len(keys))}
	for i, k := range keys {
		if wire.ClassifyKey(k) != wire.KeySecretSandbox {
			return nil, fmt.Errorf("sandbox: key number %d is not a sandbox secret key; use %s followed by at least %d letters, digits or underscores",
				i+1, wire.SecretKeySandboxPrefix, wire.MinKeySecretLength)
		}
		set.secret[k] = struct{}{}
		hash := sha256.Sum256([]byte(k))
		set.publishable[Publishable(hash)] = hash
	}
	return &set, nil
}

// Admits reports whether secret is one of the set's keys.
func (s *Set) Admits(secret string) bool {
	_, ok := s.secret[secret]
	return ok
}

// Account is the account hash of the set's key whose publishable key is
// pk, whether or not that account exists yet.
func (s *Set) Account(pk string) ([32]byte, bool) {
	hash, ok := s.publishable[pk]
	return hash, ok
}
