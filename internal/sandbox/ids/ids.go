// Package ids makes the sandbox's random identifiers: the random part of
// an object id (RID, 24 characters of [A-Za-z0-9] after the object's
// prefix), request ids and the issuer's authorization codes, all drawn
// from crypto/rand without bias. It knows nothing of the objects the ids
// name.
package ids

import (
	"crypto/rand"
	"strings"
	"sync"

	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// alphabet is what follows an id's prefix, per the contract.
const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"

// RID is the random part of an object id. Objects keep it as an array, not
// a string, so that 100,000 customers cost no string allocations for ids
// and map keys compare without hashing a pointer chase.
type RID [wire.IDRandomLength]byte

// randomPool hands out crypto/rand bytes from a buffer: one getrandom call
// per 4 KiB instead of one per id keeps creates cheap under benchmarks.
var randomPool struct {
	sync.Mutex
	buf [4096]byte
	off int
}

func init() { randomPool.off = len(randomPool.buf) }

// FillAlnum fills dst with uniformly random [A-Za-z0-9] characters.
func FillAlnum(dst []byte) {
	randomPool.Lock()
	defer randomPool.Unlock()
	for i := 0; i < len(dst); {
		if randomPool.off == len(randomPool.buf) {
			// crypto/rand.Read never fails on supported platforms (Go 1.24+).
			_, _ = rand.Read(randomPool.buf[:])
			randomPool.off = 0
		}
		b := randomPool.buf[randomPool.off]
		randomPool.off++
		// 248 = 4*62: rejecting the top 8 values keeps the draw unbiased.
		if b < 248 {
			dst[i] = alphabet[b%62]
			i++
		}
	}
}

// FromHash makes an id from sum, a hash of at least as many bytes as an
// id has characters: the same sum, the same id, for objects that must
// come out once however often they are made (a period's invoice).
func FromHash(sum []byte) RID {
	var r RID
	for i := range r {
		r[i] = alphabet[int(sum[i])%len(alphabet)]
	}
	return r
}

// New returns a random RID.
func New() RID {
	var r RID
	FillAlnum(r[:])
	return r
}

// Parse takes the random part out of prefix+24 alphanumerics; ok is
// false for anything else, which callers answer as "no such object".
func Parse(s, prefix string) (r RID, ok bool) {
	rest, found := strings.CutPrefix(s, prefix)
	if !found || len(rest) != len(r) {
		return r, false
	}
	for i := 0; i < len(rest); i++ {
		c := rest[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return r, false
		}
		r[i] = c
	}
	return r, true
}

// Format is the id prefix+r.
func (r RID) Format(prefix string) string { return prefix + string(r[:]) }

// Append writes prefix+r as a JSON string.
func Append(b []byte, prefix string, r RID) []byte {
	b = append(b, '"')
	b = append(b, prefix...)
	b = append(b, r[:]...)
	return append(b, '"')
}

// RequestID returns the value of a Request-Id header.
func RequestID() string {
	var b [4 + wire.IDRandomLength]byte
	copy(b[:], "req_")
	FillAlnum(b[4:])
	return string(b[:])
}

// AuthorizationCode returns the issuer's code: six digits.
func AuthorizationCode() string {
	var b [6]byte
	randomPool.Lock()
	for i := 0; i < len(b); {
		if randomPool.off == len(randomPool.buf) {
			_, _ = rand.Read(randomPool.buf[:])
			randomPool.off = 0
		}
		c := randomPool.buf[randomPool.off]
		randomPool.off++
		if c < 250 { // 250 = 25*10, unbiased
			b[i] = '0' + c%10
			i++
		}
	}
	randomPool.Unlock()
	return string(b[:])
}
