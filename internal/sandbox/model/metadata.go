package model

import (
	"cmp"
	"slices"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/jsonw"
)

// Metadata is an object's metadata, sorted by key. A sorted slice costs
// far less than a map for the few keys objects carry, and its order makes
// answers byte-for-byte stable, which idempotent replays compare.
type Metadata []KV

// Index is where k is, or would be, in m, and whether it is there.
func (m Metadata) Index(k string) (int, bool) {
	return slices.BinarySearchFunc(m, k, func(e KV, k string) int {
		switch {
		case e.K < k:
			return -1
		case e.K > k:
			return 1
		}
		return 0
	})
}

// KV is one metadata key and its value.
type KV struct{ K, V string }

// MetaRecord is metadata as records keep it: key and value pairs.
func MetaRecord(m Metadata) [][2]string {
	out := make([][2]string, len(m))
	for i, e := range m {
		out[i] = [2]string{e.K, e.V}
	}
	return out
}

// MetaFromRecord is the metadata of a record's pairs, sorted by key.
func MetaFromRecord(r [][2]string) Metadata {
	if len(r) == 0 {
		return nil
	}
	m := make(Metadata, len(r))
	for i, e := range r {
		m[i] = KV{e[0], e[1]}
	}
	slices.SortFunc(m, func(a, b KV) int { return cmp.Compare(a.K, b.K) })
	return m
}

// AppendMetadataTail ends each object that carries metadata (customers,
// payments, webhook endpoints) alike: metadata, created_at, livemode.
func AppendMetadataTail(b []byte, m Metadata, created int64) []byte {
	b = append(b, `,"metadata":`...)
	b = m.AppendJSON(b)
	b = append(b, `,"created_at":`...)
	b = jsonw.Time(b, created)
	return append(b, `,"livemode":false}`...)
}

// AppendJSON appends m as a JSON object to b.
func (m Metadata) AppendJSON(b []byte) []byte {
	b = append(b, '{')
	for i, e := range m {
		if i > 0 {
			b = append(b, ',')
		}
		b = jsonw.String(b, e.K)
		b = append(b, ':')
		b = jsonw.String(b, e.V)
	}
	return append(b, '}')
}
