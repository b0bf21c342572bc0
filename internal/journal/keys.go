package journal

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
)

// Keys are the digests of one secret key: the account it names and the
// key of configuration digests. Neither reveals the secret key.
type Keys struct {
	Account string
	mac     []byte
}

// KeysFor derives the digests of a secret key.
func KeysFor(secretKey string) Keys {
	sum := sha256.Sum256([]byte("payments create journal\x00" + secretKey))
	acct := hmac.New(sha256.New, sum[:])
	acct.Write([]byte("account"))
	return Keys{Account: hex.EncodeToString(acct.Sum(nil)[:16]), mac: sum[:]}
}

// Digest is the keyed digest of a resource type's planned configuration:
// equal configurations under one key give equal digests, and a digest
// tells nothing of the configuration (a card's number, say) to whoever
// reads the journal without the key.
func (k Keys) Digest(typ string, planned []byte) string {
	h := hmac.New(sha256.New, k.mac)
	h.Write([]byte(typ))
	h.Write([]byte{0})
	h.Write(planned)
	return hex.EncodeToString(h.Sum(nil))
}

// Valid reports whether k came from KeysFor.
func (k Keys) Valid() bool { return len(k.mac) > 0 }
