package client

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"strconv"
	"sync"
)

// seedKey holds, in a context, the idempotency seed of one operation.
type seedKey struct{}

// idemSeed derives the Idempotency-Key of each POST of one operation from
// its seed: the n-th POST to a path takes the same key every time the
// operation is run again with that seed, so the service replays each
// answer instead of acting twice.
type idemSeed struct {
	seed string
	mu   sync.Mutex
	n    map[string]int
}

// WithIdempotencySeed returns a context whose POSTs take Idempotency-Keys
// derived from seed rather than fresh ones. Running the same operation
// again with the same seed, within the service's retention of keys,
// replays it: the create journal uses it to finish a create whose answer
// was lost when Terraform was killed.
func WithIdempotencySeed(ctx context.Context, seed string) context.Context {
	return context.WithValue(ctx, seedKey{}, &idemSeed{seed: seed, n: map[string]int{}})
}

// idempotencyKey returns the key of the next POST to path.
func idempotencyKey(ctx context.Context, path string) string {
	s, ok := ctx.Value(seedKey{}).(*idemSeed)
	if !ok {
		return newIdempotencyKey()
	}
	s.mu.Lock()
	n := s.n[path]
	s.n[path] = n + 1
	s.mu.Unlock()
	sum := sha256.Sum256([]byte(s.seed + "\x00" + path + "\x00" + strconv.Itoa(n)))
	return hex.EncodeToString(sum[:16])
}
