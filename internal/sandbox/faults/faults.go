// Package faults is the sandbox's fault injection: an account's injected
// faults (POST /_sandbox/faults: error and drop rates, latency, a rate
// limit, the seed of its decisions) and the gate every /v1 request passes,
// which draws the request's fate from them. It knows nothing of HTTP
// handlers or accounts: the sandbox keeps a Gate per account, asks it to
// Decide, and answers as the Decision says (RateLimited, Failure); Parse
// reads the settings POST /_sandbox/faults names and AppendJSON writes
// them.
package faults

import (
	"math/rand/v2"
	"net/http"
	"sync"
	"time"

	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// Bounds of the fault settings, so that a typo cannot hang a test run for
// hours or make the limiter allocate gigabytes.
const (
	MaxLatencyMS = 60_000
	MaxRateLimit = 100_000
)

// Settings are an account's injected faults.
type Settings struct {
	ErrorRate float64 // share of requests answered 500 or 503, 0 to 1
	DropRate  float64 // share of requests whose connection is closed after acting, 0 to 1
	LatencyMS int64   // wait before each request, 0 to MaxLatencyMS
	RateLimit int64   // requests admitted in any one second, 0 (none) to MaxRateLimit
	// Seed started rand, the source of the decisions; rand is nil until
	// the decisions are first needed.
	Seed int64
	rand *rand.Rand
}

// stream is the PCG stream of every account's fault decisions; the seed
// alone tells one run from another.
const stream = 0x5eed_fa17

// reseed restarts the decisions from seed, or from a random seed when
// seed is 0.
func (f *Settings) reseed(seed int64) {
	if seed == 0 {
		seed = 1 + rand.Int64N(wire.FaultSeedMax)
	}
	f.Seed = seed
	f.rand = rand.New(rand.NewPCG(uint64(seed), stream)) //nolint:gosec // seed is positive
}

// limiter admits at most n requests in any one second: it remembers when
// the last n admitted requests came, and admits another only when the
// oldest of them is at least a second old (a sliding window, not fixed
// one-second buckets, which would let 2n through across a boundary).
type limiter struct {
	times []time.Time // ring of the last admitted requests
	next  int
}

// allow admits a request at now, or tells how long until one would be.
func (l *limiter) allow(now time.Time, n int64) (bool, time.Duration) {
	if int64(len(l.times)) < n {
		l.times = append(l.times, now)
		return true, 0
	}
	oldest := l.times[l.next]
	if wait := oldest.Add(time.Second).Sub(now); wait > 0 {
		return false, wait
	}
	l.times[l.next] = now
	l.next = (l.next + 1) % len(l.times)
	return true, 0
}

// Gate is an account's fault settings and rate limiter, behind one lock.
// The zero Gate injects nothing; its decisions start from the seed its
// first caller gives (the server's, or 0 for a random one).
type Gate struct {
	mu       sync.Mutex
	settings Settings
	limiter  limiter
}

// locked are the settings, seeded from seed on first use; the caller
// holds g.mu.
func (g *Gate) locked(seed int64) *Settings {
	if g.settings.rand == nil {
		g.settings.reseed(seed)
	}
	return &g.settings
}

// Settings are the gate's settings, seeded from seed on first use.
func (g *Gate) Settings(seed int64) Settings {
	g.mu.Lock()
	defer g.mu.Unlock()
	return *g.locked(seed)
}

// Update runs edit on a copy of the settings (seeded from seed on first
// use) under the gate's lock. When edit returns keep, the copy replaces
// the settings: the limiter restarts when RateLimit changed, and the
// decisions restart from reseed when it is 0 or more (0: a random seed).
// Update returns the settings then in force.
func (g *Gate) Update(seed int64, edit func(f *Settings) (reseed int64, keep bool)) Settings {
	g.mu.Lock()
	defer g.mu.Unlock()
	f := *g.locked(seed)
	reseed, keep := edit(&f)
	if !keep {
		return g.settings
	}
	if f.RateLimit != g.settings.RateLimit {
		g.limiter = limiter{}
	}
	if reseed >= 0 {
		f.reseed(reseed)
	}
	g.settings = f
	return f
}

// Decision is what the gate drew for one request.
type Decision struct {
	// Limited: refuse with 429, Wait until the next would be admitted,
	// RateLimit being the limit.
	Limited   bool
	Wait      time.Duration
	RateLimit int64
	// Latency to wait before going on.
	Latency time.Duration
	// Fail: answer Status (500 or 503) without acting.
	Fail   bool
	Status int
	// Drop: close the connection once the request has acted.
	Drop bool
}

// Decide draws the fate of a request arriving at now, the decisions
// seeded from seed on first use. Every draw happens here, under the lock
// and in the order of the requests, so that a seed replays the same
// faults; a limited request draws nothing.
func (g *Gate) Decide(now time.Time, seed int64) Decision {
	g.mu.Lock()
	defer g.mu.Unlock()
	f := g.locked(seed)
	d := Decision{RateLimit: f.RateLimit, Latency: time.Duration(f.LatencyMS) * time.Millisecond, Status: http.StatusInternalServerError}
	if f.RateLimit > 0 {
		var admitted bool
		admitted, d.Wait = g.limiter.allow(now, f.RateLimit)
		d.Limited = !admitted
	}
	if !d.Limited {
		d.Fail = f.ErrorRate > 0 && f.rand.Float64() < f.ErrorRate
		if d.Fail && f.rand.IntN(2) == 0 {
			d.Status = http.StatusServiceUnavailable
		}
		d.Drop = !d.Fail && f.DropRate > 0 && f.rand.Float64() < f.DropRate
	}
	return d
}
