package sandbox

import (
	"slices"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/jsonw"
)

// The sandbox writes its JSON by hand (package jsonw); these are the short
// names its handlers call.

func appendString(b []byte, s string) []byte { return jsonw.String(b, s) }

// jsonLen is the length of s as appendString writes it, without the quotes.
func jsonLen(s string) int { return jsonw.Len(s) }

// appendOptString writes "" as null: a cleared or never-set field.
func appendOptString(b []byte, s string) []byte { return jsonw.OptString(b, s) }

func appendInt(b []byte, n int64) []byte { return jsonw.Int(b, n) }

func appendBool(b []byte, v bool) []byte { return jsonw.Bool(b, v) }

// appendTime writes unix seconds as RFC 3339 UTC, second precision, Z.
func appendTime(b []byte, unix int64) []byte { return jsonw.Time(b, unix) }

// appendOptTime writes 0 as null: a time that has not come.
func appendOptTime(b []byte, unix int64) []byte { return jsonw.OptTime(b, unix) }

// appendFloat writes a fault rate the way encoding/json would.
func appendFloat(b []byte, f float64) []byte { return jsonw.Float(b, f) }

// metadata is an object's metadata, sorted by key. A sorted slice costs
// far less than a map for the few keys objects carry, and its order makes
// answers byte-for-byte stable, which idempotent replays compare.
type Metadata []Kv

type Kv struct{ K, V string }

func (m Metadata) Index(k string) (int, bool) {
	return slices.BinarySearchFunc(m, k, func(e Kv, k string) int {
		switch {
		case e.K < k:
			return -1
		case e.K > k:
			return 1
		}
		return 0
	})
}

// appendMetadataTail ends each object that carries metadata (customers,
// payments, webhook endpoints) alike: metadata, created_at, livemode.
func appendMetadataTail(b []byte, m Metadata, created int64) []byte {
	b = append(b, `,"metadata":`...)
	b = m.AppendJSON(b)
	b = append(b, `,"created_at":`...)
	b = appendTime(b, created)
	return append(b, `,"livemode":false}`...)
}

func (m Metadata) AppendJSON(b []byte) []byte {
	b = append(b, '{')
	for i, e := range m {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendString(b, e.K)
		b = append(b, ':')
		b = appendString(b, e.V)
	}
	return append(b, '}')
}
