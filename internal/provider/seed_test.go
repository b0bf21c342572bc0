package provider

import (
	"flag"
	"testing"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/sandboxtest"
)

// seedFlag replays a test's random draws, the sandbox's injected faults
// included: each test that injects faults at a rate takes its seed from
// testSeed, which logs it, and
//
//	go test -run 'TestX$' ./internal/provider/ -seed=N
//
// runs it again with the same fault decisions (as far as its requests come
// in the same order).
var seedFlag = flag.Int64("seed", 0, "replay the random draws of the tests run from this seed, 1 to 2^53-1 (0: a random seed per test, logged)")

// testSeed is the seed of a test's random draws: -seed, or a random one,
// logged once per test.
func testSeed(tb testing.TB) int64 {
	tb.Helper()
	return sandboxtest.Seed(tb, *seedFlag)
}
