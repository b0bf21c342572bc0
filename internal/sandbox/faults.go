package sandbox

import (
	"context"
	"math"
	"math/rand/v2"
	"net/http"
	"strconv"
	"time"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/metrics"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// Bounds of the fault settings, so that a typo cannot hang a test run for
// hours or make the limiter allocate gigabytes.
const (
	maxLatencyMS = 60_000
	maxRateLimit = 100_000
)

// faultSettings are an account's injected faults (POST /_sandbox/faults).
type faultSettings struct {
	errorRate float64
	dropRate  float64
	latencyMS int64
	rateLimit int64
	// seed started rand, the account's source of fault decisions; rand
	// is nil until the account first needs it.
	seed int64
	rand *rand.Rand
}

// faultStream is the PCG stream of every account's fault decisions; the
// seed alone tells one run from another.
const faultStream = 0x5eed_fa17

// reseed restarts the fault decisions from seed, or from a random seed
// when seed is 0. The caller holds the account's faultsMu.
func (f *faultSettings) reseed(seed int64) {
	if seed == 0 {
		seed = 1 + rand.Int64N(wire.FaultSeedMax)
	}
	f.seed = seed
	f.rand = rand.New(rand.NewPCG(uint64(seed), faultStream)) //nolint:gosec // seed is positive
}

// faultsLocked are the account's fault settings, its decisions seeded
// from the server's seed on first use. The caller holds a.faultsMu.
func (s *Server) faultsLocked(a *account) *faultSettings {
	if a.faults.rand == nil {
		a.faults.reseed(s.faultSeed)
	}
	return &a.faults
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

// injectFaults applies the account's faults to one /v1 request, before
// its Idempotency-Key is looked up. It returns the fault answer, if any,
// and whether to drop the connection once the request has acted.
func (s *Server) injectFaults(ctx context.Context, a *account, method string) (*apiError, bool) {
	a.faultsMu.Lock()
	f := s.faultsLocked(a)
	errorRate, dropRate, latencyMS, rateLimit := f.errorRate, f.dropRate, f.latencyMS, f.rateLimit
	var limited bool
	var wait time.Duration
	if rateLimit > 0 {
		var admitted bool
		admitted, wait = a.limiter.allow(s.now(), rateLimit)
		limited = !admitted
	}
	// Every draw happens here, under the lock and in the order of the
	// requests, so that a seed replays the same faults.
	var fail, drop bool
	status := http.StatusInternalServerError
	if !limited {
		fail = errorRate > 0 && f.rand.Float64() < errorRate
		if fail && f.rand.IntN(2) == 0 {
			status = http.StatusServiceUnavailable
		}
		drop = !fail && dropRate > 0 && f.rand.Float64() < dropRate
	}
	a.faultsMu.Unlock()

	if limited {
		a.faultRateLimited.Add(1)
		s.metrics.Refused(metrics.LimitRateLimit)
		secs := max(1, int(math.Ceil(wait.Seconds())))
		return &apiError{
			status: http.StatusTooManyRequests, typ: wire.ErrorTypeRateLimit, code: wire.ErrorCodeRateLimited,
			message:    "Too many requests: this account is limited to " + strconv.FormatInt(rateLimit, 10) + " per second. Retry after the Retry-After header's seconds.",
			retryAfter: secs,
		}, false
	}
	if latencyMS > 0 {
		sleep(ctx, time.Duration(latencyMS)*time.Millisecond)
	}
	if fail {
		a.faultErrors.Add(1)
		// Only a POST carries an Idempotency-Key; a GET or DELETE is
		// simply retried.
		advice := "Retry it."
		if method == http.MethodPost {
			advice = "Retry it with the same " + wire.HeaderIdempotencyKey + "."
		}
		return serverError(status, "Injected fault (error_rate): the request did nothing. %s", advice), false
	}
	return nil, drop
}

func (c *call) getFaults() response {
	if e := c.f.check(); e != nil {
		return e.response()
	}
	c.a.faultsMu.Lock()
	defer c.a.faultsMu.Unlock()
	return ok(c.s.faultsLocked(c.a).appendJSON(nil))
}

// setFaults changes the named settings and leaves the others.
func (c *call) setFaults() response {
	if e := c.f.check(wire.ParamErrorRate, wire.ParamDropRate, wire.ParamLatencyMS, wire.ParamRateLimit, wire.ParamSeed); e != nil {
		return e.response()
	}
	c.a.faultsMu.Lock()
	defer c.a.faultsMu.Unlock()
	f := *c.s.faultsLocked(c.a)
	seed := int64(-1) // -1: keep the decisions going
	rate := func(name string, dst *float64) *apiError {
		v, ok := c.f.get(name)
		if !ok {
			return nil
		}
		if v == "" {
			*dst = 0
			return nil
		}
		x, err := strconv.ParseFloat(v, 64)
		if err != nil || math.IsNaN(x) || x < 0 || x > 1 {
			return invalid(name, "%s %q is not valid; use a number from 0 to 1, for example 0.25.", name, clip(v))
		}
		*dst = x
		return nil
	}
	count := func(name string, limit int64, dst *int64) *apiError {
		v, ok := c.f.get(name)
		if !ok {
			return nil
		}
		if v == "" {
			*dst = 0
			return nil
		}
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < 0 || n > limit {
			return invalid(name, "%s %q is not valid; use a whole number from 0 (off) to %d.", name, clip(v), limit)
		}
		*dst = n
		return nil
	}
	for _, e := range []*apiError{
		rate(wire.ParamErrorRate, &f.errorRate),
		rate(wire.ParamDropRate, &f.dropRate),
		count(wire.ParamLatencyMS, maxLatencyMS, &f.latencyMS),
		count(wire.ParamRateLimit, maxRateLimit, &f.rateLimit),
		seedParam(c.f, &seed),
	} {
		if e != nil {
			return e.response()
		}
	}
	if f.rateLimit != c.a.faults.rateLimit {
		c.a.limiter = limiter{}
	}
	if seed >= 0 {
		f.reseed(seed)
	}
	c.a.faults = f
	return ok(f.appendJSON(nil))
}

// seedParam reads seed: 1 to wire.FaultSeedMax restarts the decisions
// from it, 0 or empty from a random seed; absent leaves dst.
func seedParam(f form, dst *int64) *apiError {
	v, ok := f.get(wire.ParamSeed)
	if !ok {
		return nil
	}
	if v == "" {
		*dst = 0
		return nil
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n < 0 || n > wire.FaultSeedMax {
		return invalid(wire.ParamSeed, "seed %q is not valid; use a whole number from 1 to %d to replay a run, or 0 for a random seed.", clip(v), int64(wire.FaultSeedMax))
	}
	*dst = n
	return nil
}

func (f *faultSettings) appendJSON(b []byte) []byte {
	b = append(b, `{"object":"faults","error_rate":`...)
	b = appendFloat(b, f.errorRate)
	b = append(b, `,"drop_rate":`...)
	b = appendFloat(b, f.dropRate)
	b = append(b, `,"latency_ms":`...)
	b = appendInt(b, f.latencyMS)
	b = append(b, `,"rate_limit":`...)
	b = appendInt(b, f.rateLimit)
	b = append(b, `,"seed":`...)
	b = appendInt(b, f.seed)
	return append(b, '}')
}
