package client_test

import (
	"flag"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// seedFlag replays a test's random draws, the sandbox's injected faults
// included: each test that injects faults at a rate takes its seed from
// testSeed, which logs it, and
//
//	go test -run 'TestX$' ./internal/client/ -seed=N
//
// runs it again with the same fault decisions (as far as its requests come
// in the same order).
var seedFlag = flag.Int64("seed", 0, "replay the random draws of the tests run from this seed, 1 to 2^53-1 (0: a random seed per test, logged)")

// testSeeds holds each running test's seed, so that every call in one
// test gets the same.
var testSeeds sync.Map

// testSeed is the seed of a test's random draws: -seed, or a random one,
// logged once per test.
func testSeed(tb testing.TB) int64 {
	tb.Helper()
	seed := *seedFlag
	if seed == 0 {
		seed = 1 + rand.Int64N(wire.FaultSeedMax)
	}
	if s, loaded := testSeeds.LoadOrStore(tb, seed); loaded {
		return s.(int64)
	}
	tb.Cleanup(func() { testSeeds.Delete(tb) })
	tb.Logf("seed %d (replay with -seed=%d)", seed, seed)
	return seed
}
