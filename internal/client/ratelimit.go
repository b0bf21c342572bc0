package client

import (
	"context"
	"math"
	mrand "math/rand/v2"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

const (
	// rateDecrease and ratePlateau are the shares of the learned ceiling
	// the rate resumes at after a 429, and levels off at rateRegainSeconds
	// later, before it probes above (a cubic curve, as CUBIC).
	rateDecrease      = 0.95
	ratePlateau       = 0.98
	rateRegainSeconds = 8.0
	rateCubic         = (ratePlateau - rateDecrease) / (rateRegainSeconds * rateRegainSeconds * rateRegainSeconds)
	// rateCubicFloor keeps the curve's shape from shrinking with a tiny
	// ceiling, so that a client whose first answer was a 429 recovers in
	// tens of seconds.
	rateCubicFloor = 10.0
	// minRate is the lowest rate the client slows to, in requests per second.
	minRate = 0.5
	// maxSharedPause bounds the pause one Retry-After imposes on everyone.
	maxSharedPause = time.Minute
	// maxPaceWindow bounds the places the pacing keeps.
	maxPaceWindow = 10_000
	// inFlightPoll is how soon a waiter asks again when the window is full
	// of requests still waiting for their answers.
	inFlightPoll = 5 * time.Millisecond
	// maxPauseJitter bounds each waiter's jitter after a pause.
	maxPauseJitter = 250 * time.Millisecond
)

// clock is the time source of the gate and the breaker; tests replace it.
type clock interface {
	Now() time.Time
	// Sleep waits d, or until ctx ends and then returns its error.
	Sleep(ctx context.Context, d time.Duration) error
}

// realClock is the wall clock.
type realClock struct{}

func (realClock) Now() time.Time { return time.Now() }

func (realClock) Sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// rateGate is the shared pause and pacing of one Client: every attempt
// passes it, so that parallel operations meet a rate-limited service as one
// client, not as many that each learn of the limit and come back together.
// A 429 pauses everyone for its Retry-After and sets a rate learned from
// what the service accepted; Config.MaxRequestsPerSecond paces from the
// start. ARCHITECTURE.md ("The rate gate") says why it is built this way.
type rateGate struct {
	clock clock
	// jitter returns a random duration in [0, d].
	jitter func(d time.Duration) time.Duration
	// log, when set, is told of pauses and rate changes.
	log func(ctx context.Context, msg string, fields map[string]any)

	mu sync.Mutex
	// cap is the configured maximum rate, 0 for none.
	cap float64
	// busy holds the places of the requests in the pacing's window, in
	// the order they left.
	busy []*slot

	// pausedUntil is when the last Retry-After ends; pauseJitter bounds
	// each waiter's jitter; lastRefusal is the last 429.
	pausedUntil time.Time
	pauseJitter time.Duration
	lastRefusal *Error

	// accepted holds the times of the last second's answers that were not
	// refusals, oldest first.
	accepted []time.Time

	// learned is set by the first 429; ceiling is the accepted rate then
	// measured, decreasedAt when the rate was last lowered, and curveStart
	// when the rate began to rise again (the end of the pause).
	learned bool
	ceiling float64
	// eventAccepted is the answers accepted in the second of the last
	// refusal, those that came back after it included; eventFloor the
	// least the ceiling may fall to at that refusal.
	eventAccepted float64
	eventFloor    float64
	decreasedAt   time.Time
	curveStart    time.Time
	// cubic and regain shape the curve: r(t) = ceiling·ratePlateau +
	// cubic·(t − regain)³, t seconds after curveStart.
	cubic  float64
	regain float64
}

// slot is one request's place in the pacing's window: held while the
// request is in flight, and then until one window after its answer.
type slot struct {
	done  bool
	until time.Time
}

// newRateGate returns a gate that sends at most maxPerSecond requests in
// any one second, or without limit until a 429 when maxPerSecond is 0.
func newRateGate(clk clock, maxPerSecond float64) *rateGate {
	return &rateGate{
		clock: clk,
		cap:   maxPerSecond,
		jitter: func(d time.Duration) time.Duration {
			if d <= 0 {
				return 0
			}
			return mrand.N(d + 1)
		},
	}
}

// wait blocks until a request may be sent, or returns an error when ctx
// ends first or when the service asked for a pause that outlasts ctx's
// deadline (then sleeping would only turn its refusal into a timeout).
// The request's place in the window, if the pacing gave it one, must be
// given back with release when its attempt ends.
func (g *rateGate) wait(ctx context.Context) (*slot, error) {
	for {
		d, s, err := g.take(ctx, g.clock.Now())
		if err != nil {
			return nil, err
		}
		if d <= 0 {
			return s, nil
		}
		if err := g.clock.Sleep(ctx, d); err != nil {
			return nil, err
		}
	}
}

// take lets a request at now go (0, with its place in the window when the
// pacing is on), or tells how long to wait before asking again: the rest
// of a pause, or until the pacing's window has room. Waiters that lose the
// race for the room ask again when there is more.
func (g *rateGate) take(ctx context.Context, now time.Time) (time.Duration, *slot, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	deadline, hasDeadline := ctx.Deadline()
	if now.Before(g.pausedUntil) {
		if hasDeadline && g.pausedUntil.After(deadline) {
			return 0, nil, &RateLimitWaitError{Wait: g.pausedUntil.Sub(now), RetryAfter: true, Err: g.lastRefusal}
		}
		return g.pausedUntil.Sub(now) + g.jitter(g.pauseJitter), nil, nil
	}
	n, _ := g.pace(now)
	if n == 0 {
		return 0, nil, nil
	}
	g.pruneBusy(now)
	if len(g.busy) < n {
		s := &slot{}
		g.busy = append(g.busy, s)
		return 0, s, nil
	}
	// The window is full: the request may go when enough places free.
	need := len(g.busy) - n + 1
	var until []time.Time
	for _, s := range g.busy {
		if s.done {
			until = append(until, s.until)
		}
	}
	if len(until) < need {
		// Requests still in flight hold the window until their answers.
		return inFlightPoll, nil, nil
	}
	slices.SortFunc(until, time.Time.Compare)
	d := until[need-1].Sub(now)
	if hasDeadline && now.Add(d).After(deadline) {
		return 0, nil, &RateLimitWaitError{Wait: d, Err: g.lastRefusal}
	}
	return d, nil, nil
}

// release gives back a request's place in the window when its attempt
// ended at now, answered or not: it stays taken for one window more.
func (g *rateGate) release(s *slot, now time.Time) {
	if s == nil {
		return
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	_, window := g.pace(now)
	s.done, s.until = true, now.Add(window)
}

// pruneBusy forgets the places that are free at now.
func (g *rateGate) pruneBusy(now time.Time) {
	g.busy = slices.DeleteFunc(g.busy, func(s *slot) bool { return s.done && !s.until.After(now) })
}

// pace is the pacing's rule at now: at most n requests in any window (n is
// 0 when nothing limits the rate). n is the limit as far as it is known
// (the cap, else the learned ceiling) and the window n/r seconds for the
// rate r, never under a second, so a margin below the limit lengthens the
// window instead of shrinking n.
func (g *rateGate) pace(now time.Time) (int, time.Duration) {
	var limit, r float64
	switch {
	case g.learned:
		r = g.rateAt(now)
		limit = max(g.ceiling, r)
	case g.cap > 0:
		limit, r = g.cap, g.cap
	default:
		return 0, 0
	}
	n := min(max(1, int(limit)), maxPaceWindow)
	return n, max(time.Second, time.Duration(float64(n)/r*float64(time.Second)))
}

// rateAt is the learned rate at now, capped.
func (g *rateGate) rateAt(now time.Time) float64 {
	t := now.Sub(g.curveStart).Seconds()
	if t < 0 {
		t = 0
	}
	x := t - g.regain
	r := g.ceiling*ratePlateau + g.cubic*x*x*x
	if g.cap > 0 {
		r = min(r, g.cap)
	}
	return max(r, minRate)
}

// observe learns from one answer: sentAt is when its attempt left, now
// when it came back. A 429 pauses the client for its Retry-After and
// lowers the rate; anything else counts as accepted.
func (g *rateGate) observe(ctx context.Context, sentAt, now time.Time, status int, header http.Header, body []byte) {
	g.mu.Lock()
	if status != http.StatusTooManyRequests {
		g.accept(now)
		if g.learned && sentAt.Before(g.decreasedAt) && sentAt.After(g.decreasedAt.Add(-time.Second)) {
			// Accepted in the same second as the last refusal, but
			// answered after it (a refusal is quick to answer, an
			// accepted request is not): part of what the service
			// accepted then, which the ceiling missed.
			g.eventAccepted++
			g.setCeiling(max(g.eventAccepted, g.eventFloor))
		}
		g.mu.Unlock()
		return
	}
	fields := map[string]any{}
	g.lastRefusal = decodeError(status, header, body)
	if ra, ok := parseRetryAfter(header, now); ok && ra > 0 {
		ra = min(ra, maxSharedPause)
		if until := now.Add(ra); until.After(g.pausedUntil) {
			g.pausedUntil = until
			g.pauseJitter = min(ra/10, maxPauseJitter)
			fields["pause"] = ra.String()
		}
	}
	if g.learned && sentAt.Before(g.decreasedAt) {
		// Sent before the last decrease: the same event, already counted.
		g.mu.Unlock()
		return
	}
	g.prune(now)
	g.eventAccepted = float64(len(g.accepted))
	g.eventFloor = 0
	if g.learned {
		// One event at most halves the rate: right after a pause the last
		// second holds few answers, which says nothing of the limit.
		g.eventFloor = g.rateAt(now) / 2
	}
	g.setCeiling(max(g.eventAccepted, g.eventFloor))
	g.learned = true
	g.decreasedAt = now
	g.curveStart = now
	if g.pausedUntil.After(now) {
		g.curveStart = g.pausedUntil
	}
	r, ceiling := g.rateAt(g.curveStart), g.ceiling
	g.mu.Unlock()
	if g.log != nil {
		fields["accepted_per_second"] = ceiling
		fields["new_rate_per_second"] = math.Round(r*100) / 100
		g.log(ctx, "payments API rate limited: pausing every request of the provider for the Retry-After, then sending at a lower rate", fields)
	}
}

// setCeiling sets the estimate of the service's limit (at most the cap,
// at least 1) and the curve the rate follows to it.
func (g *rateGate) setCeiling(ceiling float64) {
	if g.cap > 0 {
		ceiling = min(ceiling, g.cap)
	}
	g.ceiling = max(ceiling, 1)
	g.cubic = rateCubic * max(g.ceiling, rateCubicFloor)
	g.regain = math.Cbrt(g.ceiling * (ratePlateau - rateDecrease) / g.cubic)
}

// accept records an accepted answer at now.
func (g *rateGate) accept(now time.Time) {
	g.prune(now)
	g.accepted = append(g.accepted, now)
}

// prune forgets the accepted answers older than a second.
func (g *rateGate) prune(now time.Time) {
	cut := now.Add(-time.Second)
	i := 0
	for i < len(g.accepted) && !g.accepted[i].After(cut) {
		i++
	}
	g.accepted = g.accepted[i:]
}

// parseRetryAfter reads a Retry-After header: whole seconds or an HTTP date.
func parseRetryAfter(h http.Header, now time.Time) (time.Duration, bool) {
	s := h.Get(wire.HeaderRetryAfter)
	if s == "" {
		return 0, false
	}
	if secs, err := strconv.Atoi(strings.TrimSpace(s)); err == nil && secs >= 0 {
		return time.Duration(secs) * time.Second, true
	}
	if t, err := http.ParseTime(s); err == nil {
		return max(t.Sub(now), 0), true
	}
	return 0, false
}

// RateLimitWaitError is returned, without the request being sent, when its
// turn comes after the operation's deadline: the service asked the client
// to wait (a 429's Retry-After, RetryAfter set) or the client's rate (the
// configured maximum, or the rate learned from 429s) leaves no room for it
// sooner. Sleeping until the deadline would only turn the cause into a
// timeout. Err is the last 429, if there was one.
type RateLimitWaitError struct {
	Wait       time.Duration
	RetryAfter bool
	Err        *Error
}

func (e *RateLimitWaitError) Error() string {
	var b strings.Builder
	b.WriteString("not sent: ")
	if e.RetryAfter {
		b.WriteString("the service asked to wait " + wire.FormatDurationWords(e.Wait.Round(time.Second)) + " (Retry-After) before the next request")
	} else {
		b.WriteString("at the client's request rate its turn comes in " + wire.FormatDurationWords(e.Wait.Round(time.Millisecond)))
	}
	b.WriteString(", after the operation's deadline")
	if e.Err != nil {
		b.WriteString("; the service's last refusal: " + e.Err.Error())
	}
	return b.String()
}

// Unwrap returns the last 429, so that IsRateLimited holds when there was one.
func (e *RateLimitWaitError) Unwrap() error {
	if e.Err == nil {
		return nil
	}
	return e.Err
}
