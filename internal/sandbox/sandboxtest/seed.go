package sandboxtest

import (
	mrand "math/rand/v2"
	"sync"
	"testing"

	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// seeds holds each running test's seed, so that every call in one test
// gets the same.
var seeds sync.Map

// Seed is the seed of a test's random draws (the sandbox's injected faults
// included, through POST /_sandbox/faults seed): replay, when not 0, or a
// random one from 1 to wire.FaultSeedMax, the same for every call in one
// test and logged once with how to replay it. Each test package passes
// its own -seed flag as replay: a flag registered here would clash with
// the flags of the tools that import this package.
func Seed(tb testing.TB, replay int64) int64 {
	tb.Helper()
	seed := replay
	if seed == 0 {
		seed = 1 + mrand.Int64N(wire.FaultSeedMax)
	}
	if s, loaded := seeds.LoadOrStore(tb, seed); loaded {
		v, _ := s.(int64)
		return v
	}
	tb.Cleanup(func() { seeds.Delete(tb) })
	tb.Logf("seed %d (replay with -seed=%d)", seed, seed)
	return seed
}
