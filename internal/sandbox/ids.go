package sandbox

import (
	"crypto/rand"
	"strings"
	"sync"

	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// idAlphabet is what follows an id's prefix, per the contract.
const idAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"

// rid is the random part of an object id. Objects keep it as an array, not
// a string, so that 100,000 customers cost no string allocations for ids
// and map keys compare without hashing a pointer chase.
type rid [wire.IDRandomLength]byte

// randomPool hands out crypto/rand bytes from a buffer: one getrandom call
// per 4 KiB instead of one per id keeps creates cheap under benchmarks.
var randomPool struct {
	sync.Mutex
	buf [4096]byte
	off int
}

func init() { randomPool.off = len(randomPool.buf) }

// fillAlnum fills dst with uniformly random [A-Za-z0-9] characters.
func fillAlnum(dst []byte) {
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
			dst[i] = idAlphabet[b%62]
			i++
		}
	}
}

func newRID() rid {
	var r rid
	fillAlnum(r[:])
	return r
}

// parseRID takes the random part out of prefix+24 alphanumerics; ok is
// false for anything else, which callers answer as "no such object".
func parseRID(s, prefix string) (r rid, ok bool) {
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

func (r rid) format(prefix string) string { return prefix + string(r[:]) }

func (r rid) isZero() bool { return r == rid{} }

// appendID writes prefix+r as a JSON string.
func appendID(b []byte, prefix string, r rid) []byte {
	b = append(b, '"')
	b = append(b, prefix...)
	b = append(b, r[:]...)
	return append(b, '"')
}

// appendOptID writes the zero rid as null: no such object.
func appendOptID(b []byte, prefix string, r rid) []byte {
	if r.isZero() {
		return append(b, "null"...)
	}
	return appendID(b, prefix, r)
}

// newRequestID returns the value of a Request-Id header.
func newRequestID() string {
	var b [4 + wire.IDRandomLength]byte
	copy(b[:], "req_")
	fillAlnum(b[4:])
	return string(b[:])
}

// newAuthorizationCode returns the issuer's code: six digits.
func newAuthorizationCode() string {
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
