// Package ids makes the sandbox's random identifiers: the random part of
// an object id (RID, 24 characters of [A-Za-z0-9] after the object's
// prefix), request ids and the issuer's authorization codes, drawn
// without bias from a ChaCha8 stream keyed from crypto/rand (see pool).
// It knows nothing of the objects the ids name.
package ids

import (
	"crypto/rand"
	mathrand "math/rand/v2"
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

// pool hands out random bytes from a buffer filled from a ChaCha8
// stream (math/rand/v2's: a cryptographically strong generator that
// erases its key as it goes, so a later state reveals no earlier
// output), keyed from crypto/rand and keyed again from it every
// rekeyBytes. Ids name objects in URLs and must stay unguessable;
// filling the buffer from crypto/rand itself, one getrandom call per
// 4 KiB, cost most of an id (about 150 ns of 180), and a renewal draws
// six of them.
var pool struct {
	sync.Mutex
	stream *mathrand.ChaCha8
	buf    [4096]byte
	off    int
	drawn  int    // bytes since the last key from crypto/rand
	codes  string // authorization codes drawn, not yet handed out
}

// rekeyBytes is how much of the stream one key from crypto/rand serves.
const rekeyBytes = 1 << 20

// draw fills dst with random characters through table, which maps a
// random byte to its character, or to 0 for a byte rejected so that the
// draw stays unbiased (see newTable); pool is locked. A table lookup
// rather than a byte's remainder by the alphabet's length, and the
// buffer's offset kept in a local, took an id from 55 ns to 45
// (BenchmarkNew).
func draw(dst []byte, table *[256]byte) {
	for i := 0; i < len(dst); {
		if pool.off == len(pool.buf) {
			refill()
		}
		buf := pool.buf[pool.off:]
		j := 0
		for ; j < len(buf) && i < len(dst); j++ {
			if c := table[buf[j]]; c != 0 {
				dst[i] = c
				i++
			}
		}
		pool.off += j
	}
}

// newTable maps each byte b below the largest multiple of len(digits)
// that fits in a byte to digits[b%len(digits)], and the bytes above it
// to 0: rejecting those keeps every character equally likely.
func newTable(digits string) *[256]byte {
	var t [256]byte
	limit := 256 / len(digits) * len(digits)
	for b := range limit {
		t[b] = digits[b%len(digits)]
	}
	return &t
}

// The tables of draw: 248 = 4*62 for ids, 250 = 25*10 for codes.
var (
	alnumTable = newTable(alphabet)
	digitTable = newTable("0123456789")
)

// refill fills pool.buf from the stream; pool is locked.
func refill() {
	if pool.stream == nil || pool.drawn >= rekeyBytes {
		var key [32]byte
		// crypto/rand.Read never fails on supported platforms (Go 1.24+).
		_, _ = rand.Read(key[:])
		pool.stream, pool.drawn = mathrand.NewChaCha8(key), 0
	}
	_, _ = pool.stream.Read(pool.buf[:]) // never fails
	pool.off, pool.drawn = 0, pool.drawn+len(pool.buf)
}

func init() { pool.off = len(pool.buf) }

// FillAlnum fills dst with uniformly random [A-Za-z0-9] characters.
func FillAlnum(dst []byte) {
	pool.Lock()
	draw(dst, alnumTable)
	pool.Unlock()
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

// IsZero reports whether r is the zero RID, which stands for no id.
func (r RID) IsZero() bool { return r == RID{} }

// AppendOpt writes prefix+r as a JSON string, or null for the zero RID.
func AppendOpt(b []byte, prefix string, r RID) []byte {
	if r.IsZero() {
		return append(b, "null"...)
	}
	return Append(b, prefix, r)
}

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

// codesPerDraw is how many authorization codes one string holds.
const codesPerDraw = 32

// AuthorizationCode returns the issuer's code: six digits. The codes are
// drawn codesPerDraw at a time into one string, each a slice of it: a
// code of its own was an allocation of every charge, a renewal's and a
// payment create's alike. A code keeps its string of 192 bytes alive,
// which the payments that hold the others share.
func AuthorizationCode() string {
	pool.Lock()
	defer pool.Unlock()
	if len(pool.codes) < authCodeLength {
		var b [authCodeLength * codesPerDraw]byte
		draw(b[:], digitTable)
		pool.codes = string(b[:])
	}
	code := pool.codes[:authCodeLength]
	pool.codes = pool.codes[authCodeLength:]
	return code
}

// authCodeLength is an authorization code's length in digits.
const authCodeLength = 6
