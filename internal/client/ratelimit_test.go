package client

import (
	"context"
	"errors"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
	"math"
	"math/rand/v2"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// fakeClock is a clock for one goroutine: Sleep moves time on at once.
type fakeClock struct {
	now    time.Time
	slept  []time.Duration
	sleepF func(d time.Duration) // called before time moves on, when set
}

// newFakeClock starts at the wall clock's time, so that context deadlines
// set from it are in the future for the context package too.
func newFakeClock() *fakeClock { return &fakeClock{now: time.Now().Truncate(time.Second)} }

func (c *fakeClock) Now() time.Time { return c.now }

func (c *fakeClock) Sleep(ctx context.Context, d time.Duration) error {
	if c.sleepF != nil {
		c.sleepF(d)
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	c.slept = append(c.slept, d)
	c.now = c.now.Add(d)
	return nil
}

func (c *fakeClock) advance(d time.Duration) { c.now = c.now.Add(d) }

// noJitter makes a gate's pauses exact, for tests that compare durations.
func noJitter(g *rateGate) *rateGate {
	g.jitter = func(time.Duration) time.Duration { return 0 }
	return g
}

func refusal(retryAfter string) http.Header {
	h := http.Header{}
	if retryAfter != "" {
		h.Set(wire.HeaderRetryAfter, retryAfter)
	}
	return h
}

const refusalBody = `{"error":{"type":"rate_limit_error","code":"rate_limited","message":"Too many requests"}}`

// mustTake asks the gate at now and fails on an error. A request it lets
// go is answered at once: its place in the window is released at now.
func mustTake(t *testing.T, g *rateGate, now time.Time) time.Duration {
	t.Helper()
	d, s, err := g.take(context.Background(), now)
	if err != nil {
		t.Fatalf("take: %v", err)
	}
	g.release(s, now)
	return d
}

// sendTimes returns when k waiters that all come at start are let go,
// each asking again after the wait the gate tells it, in time order.
func sendTimes(t *testing.T, g *rateGate, start time.Time, k int) []time.Time {
	t.Helper()
	next := make([]time.Time, k)
	for i := range next {
		next[i] = start
	}
	var sent []time.Time
	for len(next) > 0 {
		i := 0
		for j := range next {
			if next[j].Before(next[i]) {
				i = j
			}
		}
		if d := mustTake(t, g, next[i]); d > 0 {
			next[i] = next[i].Add(d)
			continue
		}
		sent = append(sent, next[i])
		next = append(next[:i], next[i+1:]...)
	}
	return sent
}

// accept records n accepted answers spread evenly over span, ending at end.
func acceptN(g *rateGate, n int, end time.Time, span time.Duration) {
	for i := range n {
		at := end.Add(-span + time.Duration(i+1)*span/time.Duration(n))
		g.observe(context.Background(), at, at, http.StatusOK, nil, nil)
	}
}

func TestRateGate_NoLimitUntilRefused(t *testing.T) {
	t.Parallel()
	clk := newFakeClock()
	g := newRateGate(clk, 0)
	for range 1000 {
		if d := mustTake(t, g, clk.now); d != 0 {
			t.Fatalf("delay %v before any refusal, want none", d)
		}
		g.observe(context.Background(), clk.now, clk.now, http.StatusOK, nil, nil)
		clk.advance(time.Millisecond)
	}
	if g.learned || len(g.busy) > 0 {
		t.Fatalf("the gate limits the rate before any refusal")
	}
}

// TestRateGate_RetryAfterPausesEveryone: one 429 pauses every later
// request until its Retry-After has passed, each with its own jitter up to
// a tenth of the pause, and then requests are paced at the learned rate,
// not let go as one burst.
func TestRateGate_RetryAfterPausesEveryone(t *testing.T) {
	t.Parallel()
	clk := newFakeClock()
	g := newRateGate(clk, 0)
	var jitterMax time.Duration
	g.jitter = func(d time.Duration) time.Duration { jitterMax = d; return d }
	ctx := context.Background()

	t0 := clk.now
	acceptN(g, 25, t0, 50*time.Millisecond)
	g.observe(ctx, t0, t0, http.StatusTooManyRequests, refusal("2"), []byte(refusalBody))

	for _, at := range []time.Duration{0, 500 * time.Millisecond, 1999 * time.Millisecond} {
		d := mustTake(t, g, t0.Add(at))
		if want := 2*time.Second - at + 200*time.Millisecond; d != want {
			t.Errorf("at +%v: wait %v, want the rest of the pause plus the jitter, %v", at, d, want)
		}
	}
	if jitterMax != 200*time.Millisecond {
		t.Errorf("jitter bound %v, want a tenth of Retry-After, 200ms", jitterMax)
	}

	// After the pause, waiters that come at once go at the learned rate:
	// 25 accepted in the second before the refusal, resumed at
	// rateDecrease of it: at most 25 in any window of 1/rateDecrease s
	// (the rate rises a little meanwhile, which shortens the later windows).
	end := t0.Add(2 * time.Second)
	sends := sendTimes(t, g, end, 75)
	decrease := rateDecrease // a variable: the constant quotient is not a whole number of nanoseconds
	window := time.Duration(float64(time.Second) / decrease)
	for i, at := range sends {
		if i < 25 && !at.Equal(end) {
			t.Fatalf("send %d at +%v, want the first 25 at once, the window being empty", i, at.Sub(end))
		}
		if i >= 25 {
			if gap := at.Sub(sends[i-25]); gap > window || gap < window-50*time.Millisecond {
				t.Fatalf("send %d comes %v after send %d, want about %v", i, gap, i-25, window)
			}
		}
	}
}

// checkPaced checks that sends go n at a time, a window apart, from start.
func checkPaced(t *testing.T, sends []time.Time, start time.Time, n int, window time.Duration) {
	t.Helper()
	for i, at := range sends {
		want := start.Add(time.Duration(i/n) * window)
		if absDur(at.Sub(want)) > time.Millisecond {
			t.Fatalf("send %d at +%v, want +%v (%d per %v)", i, at.Sub(start), want.Sub(start), n, window)
		}
	}
}

func absDur(d time.Duration) time.Duration {
	if d < 0 {
		return -d
	}
	return d
}

// TestRateGate_Learning: the rate after a refusal follows the curve: it
// starts at rateDecrease of the accepted rate, levels off at ratePlateau
// of it rateRegainSeconds later, then probes above it, slowly at first.
func TestRateGate_Learning(t *testing.T) {
	t.Parallel()
	for _, accepted := range []int{5, 10, 25, 100} {
		t.Run(strconv.Itoa(accepted), func(t *testing.T) {
			t.Parallel()
			clk := newFakeClock()
			t0 := clk.now
			g2 := newRateGate(clk, 0)
			// Answers older than a second are not counted.
			acceptN(g2, 7, t0.Add(-1100*time.Millisecond), 100*time.Millisecond)
			acceptN(g2, accepted, t0, 900*time.Millisecond)
			g2.observe(context.Background(), t0, t0, http.StatusTooManyRequests, refusal("1"), []byte(refusalBody))
			w := float64(accepted)
			if g2.ceiling != w {
				t.Fatalf("ceiling %v, want the %d answers accepted in the last second", g2.ceiling, accepted)
			}
			start := t0.Add(time.Second) // the end of the pause
			if !g2.curveStart.Equal(start) {
				t.Fatalf("curve starts at %v, want the end of the pause %v", g2.curveStart, start)
			}
			at := func(s float64) float64 { return g2.rateAt(start.Add(time.Duration(s * float64(time.Second)))) }
			near := func(got, want float64) bool { return math.Abs(got-want) < 1e-6*want+1e-9 }
			if got := at(0); !near(got, max(w*rateDecrease, minRate)) {
				t.Errorf("rate at the end of the pause %v, want %v", got, w*rateDecrease)
			}
			if got := at(g2.regain); !near(got, w*ratePlateau) {
				t.Errorf("rate at the plateau %v, want %v", got, w*ratePlateau)
			}
			if w >= rateCubicFloor && !near(g2.regain, rateRegainSeconds) {
				t.Errorf("plateau reached after %vs, want %vs", g2.regain, rateRegainSeconds)
			}
			prev := 0.0
			for s := 0.0; s < 40; s += 0.5 {
				r := at(s)
				if r < prev {
					t.Fatalf("rate falls from %v to %v at %vs without a refusal", prev, r, s)
				}
				prev = r
			}
			// Slowly above the ceiling: still under it 4 s past the plateau.
			if r := at(g2.regain + 4); r >= w {
				t.Errorf("rate %v four seconds past the plateau, want it still under the ceiling %v", r, w)
			}
			if r := at(g2.regain + 30); r <= w {
				t.Errorf("rate %v thirty seconds past the plateau, want it above the ceiling %v (probing)", r, w)
			}
		})
	}
}

// TestRateGate_LateAcceptedAnswersCount: a refusal is answered at once and
// may come back before the accepted requests of the same burst; their
// answers, when they come, still count towards the estimate of the limit.
// Answers of requests sent after the refusal was seen, or more than a
// second before it, do not; nor does anything raise it above the cap.
func TestRateGate_LateAcceptedAnswersCount(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	for _, tc := range []struct {
		name    string
		cap     float64
		sentAt  time.Duration // of the late accepted answers, from the burst
		want    float64
		answers int
	}{
		{name: "same burst", sentAt: 0, answers: 5, want: 5},
		{name: "same burst, capped", cap: 3, sentAt: 0, answers: 5, want: 3},
		{name: "sent after the refusal was seen", sentAt: 2 * time.Millisecond, answers: 5, want: 1},
		{name: "sent more than a second before", sentAt: -1500 * time.Millisecond, answers: 5, want: 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			clk := newFakeClock()
			g := noJitter(newRateGate(clk, tc.cap))
			t0 := clk.now
			// The refusal of a request sent with the burst comes back first.
			g.observe(ctx, t0, t0.Add(time.Millisecond), http.StatusTooManyRequests, refusal("1"), []byte(refusalBody))
			if g.ceiling != 1 {
				t.Fatalf("ceiling %v before the accepted answers, want 1 (nothing accepted yet)", g.ceiling)
			}
			for i := range tc.answers {
				at := t0.Add(time.Duration(10+i) * time.Millisecond)
				g.observe(ctx, t0.Add(tc.sentAt), at, http.StatusOK, nil, nil)
			}
			if g.ceiling != tc.want {
				t.Errorf("ceiling %v, want %v", g.ceiling, tc.want)
			}
			// The curve follows the new ceiling: at the plateau it is
			// ratePlateau of it.
			plateau := g.curveStart.Add(time.Duration(g.regain * float64(time.Second)))
			if r := g.rateAt(plateau); math.Abs(r-max(tc.want*ratePlateau, minRate)) > 1e-9 {
				t.Errorf("rate at the plateau %v, want %v", r, tc.want*ratePlateau)
			}
		})
	}
}

// TestRateGate_OneDecreasePerEvent: refusals of requests sent before the
// last decrease are the same event and lower the rate no further; a
// refusal of a request sent after it lowers it again, from what the
// service accepted since, but at most by half.
func TestRateGate_OneDecreasePerEvent(t *testing.T) {
	t.Parallel()
	clk := newFakeClock()
	g := noJitter(newRateGate(clk, 0))
	ctx := context.Background()
	t0 := clk.now
	acceptN(g, 20, t0, 500*time.Millisecond)
	g.observe(ctx, t0.Add(-time.Millisecond), t0, http.StatusTooManyRequests, refusal("1"), []byte(refusalBody))
	first := g.rateAt(t0.Add(time.Second))
	for i := range 9 {
		at := t0.Add(time.Duration(i+1) * time.Millisecond)
		g.observe(ctx, t0.Add(-time.Millisecond), at, http.StatusTooManyRequests, refusal("1"), []byte(refusalBody))
	}
	if got := g.rateAt(t0.Add(time.Second)); got != first || g.ceiling != 20 {
		t.Fatalf("rate %v (ceiling %v) after nine more refusals of the same event, want %v (20)", got, g.ceiling, first)
	}

	// Ten seconds on, at the plateau, a refusal of a new request: the
	// ceiling is what was accepted in the last second.
	t1 := t0.Add(10 * time.Second)
	acceptN(g, 18, t1, time.Second)
	g.observe(ctx, t1, t1, http.StatusTooManyRequests, refusal("1"), []byte(refusalBody))
	if g.ceiling != 18 {
		t.Errorf("ceiling %v after a new refusal, want the 18 accepted in the last second", g.ceiling)
	}

	// A refusal right after the pause, with next to nothing accepted:
	// at most half the rate goes.
	t2 := t1.Add(time.Second + 10*time.Millisecond)
	before := g.rateAt(t2)
	g.observe(ctx, t2, t2, http.StatusTooManyRequests, refusal(""), []byte(refusalBody))
	if want := before / 2; math.Abs(g.ceiling-want) > 1e-9 {
		t.Errorf("ceiling %v after a refusal with nothing accepted, want half the rate, %v", g.ceiling, want)
	}
}

// TestRateGate_Cap: with a maximum rate, requests are paced from the first
// one at it, and refusals never raise it.
func TestRateGate_Cap(t *testing.T) {
	t.Parallel()
	clk := newFakeClock()
	g := noJitter(newRateGate(clk, 10))
	// 10 in any window of a second, counted from their answers.
	checkPaced(t, sendTimes(t, g, clk.now, 35), clk.now, 10, time.Second)
	// 40 accepted in the last second (another client's share, say) and a
	// refusal: the ceiling is still the cap.
	g2 := noJitter(newRateGate(clk, 10))
	acceptN(g2, 40, clk.now, time.Second)
	g2.observe(context.Background(), clk.now, clk.now, http.StatusTooManyRequests, refusal("1"), []byte(refusalBody))
	if g2.ceiling != 10 {
		t.Errorf("ceiling %v, want the cap 10", g2.ceiling)
	}
	for s := 0.0; s < 60; s++ {
		if r := g2.rateAt(clk.now.Add(time.Duration(s * float64(time.Second)))); r > 10+1e-9 {
			t.Fatalf("rate %v at +%vs, above the cap", r, s)
		}
	}
}

// TestRateGate_PauseBeyondDeadline: a Retry-After that outlasts the
// caller's deadline fails at once with the refusal, without sending.
func TestRateGate_PauseBeyondDeadline(t *testing.T) {
	t.Parallel()
	clk := newFakeClock()
	g := noJitter(newRateGate(clk, 0))
	g.observe(context.Background(), clk.now, clk.now, http.StatusTooManyRequests, refusal("30"), []byte(refusalBody))
	ctx, cancel := context.WithDeadline(context.Background(), clk.now.Add(10*time.Second))
	defer cancel()
	_, err := g.wait(ctx)
	var we *RateLimitWaitError
	if !errors.As(err, &we) || !we.RetryAfter || we.Wait != 30*time.Second {
		t.Fatalf("wait = %v, want a RateLimitWaitError of the 30s Retry-After", err)
	}
	if !IsRateLimited(err) || len(clk.slept) != 0 {
		t.Errorf("IsRateLimited = %v, slept %v; want the 429 inside and no sleep", IsRateLimited(err), clk.slept)
	}
	// Capped at maxSharedPause, and a deadline past the pause waits it.
	g.observe(context.Background(), clk.now, clk.now, http.StatusTooManyRequests, refusal("86400"), []byte(refusalBody))
	ctx2, cancel2 := context.WithDeadline(context.Background(), clk.now.Add(2*time.Minute))
	defer cancel2()
	if _, err := g.wait(ctx2); err != nil {
		t.Fatalf("wait: %v", err)
	}
	if len(clk.slept) != 1 || clk.slept[0] != maxSharedPause {
		t.Errorf("slept %v, want one pause of %v", clk.slept, maxSharedPause)
	}
}

// TestRateGate_WaitCancelled: a waiter whose context ends returns its
// error and takes no place, so that the next request is not delayed by it.
func TestRateGate_WaitCancelled(t *testing.T) {
	t.Parallel()
	clk := newFakeClock()
	g := noJitter(newRateGate(clk, 1))
	s, err := g.wait(context.Background()) // takes the one place
	if err != nil {
		t.Fatal(err)
	}
	g.release(s, clk.now)
	ctx, cancel := context.WithCancel(context.Background())
	clk.sleepF = func(time.Duration) { cancel() }
	if _, err := g.wait(ctx); !errors.Is(err, context.Canceled) {
		t.Fatalf("wait = %v, want context.Canceled", err)
	}
	clk.sleepF = nil
	clk.slept = nil
	if _, err := g.wait(context.Background()); err != nil {
		t.Fatal(err)
	}
	if step := time.Second; len(clk.slept) != 1 || absDur(clk.slept[0]-step) > time.Millisecond {
		t.Errorf("slept %v, want one step of %v: no more, as the cancelled waiter took no place", clk.slept, step)
	}
}

// TestRateGate_PlaceHeldUntilAnswered: a request holds its place in the
// window while it is in flight, and for a whole window after its answer,
// however late that comes; waiters ask again soon while the window is
// full of requests in flight.
func TestRateGate_PlaceHeldUntilAnswered(t *testing.T) {
	t.Parallel()
	clk := newFakeClock()
	g := noJitter(newRateGate(clk, 2))
	ctx := context.Background()
	t0 := clk.now
	var places []*slot
	for range 2 {
		d, s, err := g.take(ctx, t0)
		if err != nil || d != 0 || s == nil {
			t.Fatalf("take = %v, %v, %v; want a place at once", d, s, err)
		}
		places = append(places, s)
	}
	if d, s, _ := g.take(ctx, t0.Add(3*time.Second)); d != inFlightPoll || s != nil {
		t.Fatalf("window full of requests in flight: take = %v, %v; want to ask again in %v", d, s, inFlightPoll)
	}
	// The first answer comes 400 ms late: its place frees a second after it.
	g.release(places[0], t0.Add(400*time.Millisecond))
	if d, s, _ := g.take(ctx, t0.Add(500*time.Millisecond)); d != 900*time.Millisecond || s != nil {
		t.Fatalf("take = %v, %v; want to wait 900ms, until a second after the first answer", d, s)
	}
	if d, s, _ := g.take(ctx, t0.Add(1400*time.Millisecond)); d != 0 || s == nil {
		t.Fatalf("take at the first answer + 1s = %v, %v; want a place", d, s)
	}
}

func TestParseRetryAfter_Forms(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		in   string
		want time.Duration
		ok   bool
	}{
		{"", 0, false},
		{"1", time.Second, true},
		{" 3 ", 3 * time.Second, true},
		{"0", 0, true},
		{"-1", 0, false},
		{"soon", 0, false},
		{now.Add(5 * time.Second).Format(http.TimeFormat), 5 * time.Second, true},
		{now.Add(-time.Hour).Format(http.TimeFormat), 0, true},
	} {
		got, ok := parseRetryAfter(refusal(tc.in), now)
		if got != tc.want || ok != tc.ok {
			t.Errorf("parseRetryAfter(%q) = %v, %v; want %v, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}

// TestRateGate_SimulatedApply runs the gate in virtual time against a
// simulated service that admits at most R requests in any one second (the
// sandbox's rule) and answers 429 with Retry-After otherwise, with
// Terraform's ten workers sending N requests, each retrying a refusal
// after its Retry-After as the client does. It checks the rate-limit targets
// on the time against the bound (useful requests ÷ R) and on the share of
// refused requests, without the noise of a real clock.
func TestRateGate_SimulatedApply(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		limit, cap  float64
		n           int
		maxRatio    float64
		maxRefused  float64
		sendJitterM float64 // milliseconds of random delay between the gate and the service
		lateMS      float64 // milliseconds a sleeper may wake up late
		workers     int     // Terraform's parallelism; 0 means its default, 10
	}{
		{limit: 10, n: 160, maxRatio: 1.2, maxRefused: 0.10, sendJitterM: 5, lateMS: 15},
		{limit: 25, n: 160, maxRatio: 1.2, maxRefused: 0.10, sendJitterM: 5, lateMS: 15},
		{limit: 25, n: 1000, maxRatio: 1.2, maxRefused: 0.10, sendJitterM: 5, lateMS: 15},
		{limit: 100, n: 1000, maxRatio: 1.2, maxRefused: 0.10, sendJitterM: 2, lateMS: 15},
		{limit: 3, n: 100, maxRatio: 1.2, maxRefused: 0.10, sendJitterM: 5, lateMS: 15},
		{limit: 10, cap: 10, n: 160, maxRatio: 1.1, maxRefused: 0.01, sendJitterM: 5, lateMS: 15},
		{limit: 25, cap: 25, n: 160, maxRatio: 1.1, maxRefused: 0.01, sendJitterM: 5, lateMS: 15},
		{limit: 25, cap: 25, n: 1000, maxRatio: 1.1, maxRefused: 0.01, sendJitterM: 5, lateMS: 15},
		// A loaded machine: requests reach the service up to 150 ms after
		// the gate let them go, which no margin on send times absorbs.
		{limit: 10, n: 160, maxRatio: 1.2, maxRefused: 0.10, sendJitterM: 150, lateMS: 30},
		{limit: 25, n: 160, maxRatio: 1.2, maxRefused: 0.10, sendJitterM: 150, lateMS: 30},
		{limit: 10, cap: 10, n: 160, maxRatio: 1.1, maxRefused: 0.01, sendJitterM: 150, lateMS: 30},
		{limit: 25, cap: 25, n: 160, maxRatio: 1.1, maxRefused: 0.01, sendJitterM: 150, lateMS: 30},
		// More workers than the limit: the first burst meets many
		// refusals, answered before the admitted requests of the same
		// burst, which the estimate of the limit must still count.
		// (With 20 workers and a limit of 5, the first burst alone meets
		// 15 refusals, before anything can be known of the limit.)
		{limit: 5, n: 160, maxRatio: 1.2, maxRefused: 0.12, sendJitterM: 5, lateMS: 15, workers: 20},
		{limit: 5, n: 160, maxRatio: 1.2, maxRefused: 0.10, sendJitterM: 5, lateMS: 15},
		{limit: 10, n: 160, maxRatio: 1.2, maxRefused: 0.10, sendJitterM: 5, lateMS: 15, workers: 20},
		{limit: 5, cap: 5, n: 160, maxRatio: 1.1, maxRefused: 0.01, sendJitterM: 5, lateMS: 15, workers: 20},
	} {
		name := "limit" + strconv.FormatFloat(tc.limit, 'f', -1, 64) + "_n" + strconv.Itoa(tc.n) +
			"_jitter" + strconv.FormatFloat(tc.sendJitterM, 'f', -1, 64) + "ms"
		if tc.cap > 0 {
			name += "_capped"
		}
		workers := 10
		if tc.workers > 0 {
			workers = tc.workers
			name += "_workers" + strconv.Itoa(workers)
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			for seed := range uint64(5) {
				r := simulateApply(tc.limit, tc.cap, tc.n, workers, tc.sendJitterM, tc.lateMS, seed)
				bound := float64(tc.n) / tc.limit
				ratio := r.elapsed.Seconds() / bound
				refused := float64(r.refused) / float64(r.refused+tc.n)
				t.Logf("seed %d: %.1fs for a bound of %.1fs (%.2f), %d of %d refused (%.1f%%)",
					seed, r.elapsed.Seconds(), bound, ratio, r.refused, r.refused+tc.n, 100*refused)
				if ratio > tc.maxRatio || refused > tc.maxRefused {
					t.Errorf("seed %d: time %.2f × bound (want ≤ %.2f), refused %.1f%% (want ≤ %.0f%%)",
						seed, ratio, tc.maxRatio, 100*refused, 100*tc.maxRefused)
				}
			}
		})
	}
}

type simResult struct {
	elapsed time.Duration
	refused int
}

// simEvent is a worker's next step at a time.
type simEvent struct {
	at     time.Time
	worker int
	kind   int // simReady, simArrive
	sentAt time.Time
	place  *slot
	seq    int
	// retryAfter is the Retry-After of a refusal's answer, 0 for an
	// admitted request's.
	retryAfter int
}

const (
	simReady = iota
	simArrive
	simAnswer
)

// simQueue holds the workers' next steps; with ten workers a scan for
// the earliest is as quick as a heap.
type simQueue []simEvent

func (q *simQueue) push(e simEvent) { *q = append(*q, e) }

// pop removes and returns the earliest event, the first pushed among equals.
func (q *simQueue) pop() simEvent {
	old := *q
	i := 0
	for j := range old {
		if old[j].at.Before(old[i].at) || old[j].at.Equal(old[i].at) && old[j].seq < old[i].seq {
			i = j
		}
	}
	e := old[i]
	*q = append(old[:i], old[i+1:]...)
	return e
}

// simulateApply: workers take n requests from a queue; each request goes
// through the gate (reserve), reaches the service after a random delay of
// up to jitterMS, is admitted or refused by a sliding-window limit, and
// its answer comes back: a refusal's at once, an admitted request's
// after serviceTime and up to serviceJitter more.
func simulateApply(limit, capRate float64, n, workers int, jitterMS, lateMS float64, seed uint64) simResult {
	const (
		serviceTime   = 2 * time.Millisecond
		serviceJitter = 20 * time.Millisecond
		refusalTime   = 500 * time.Microsecond
	)
	rng := rand.New(rand.NewPCG(seed, 42))
	clk := newFakeClock()
	g := newRateGate(clk, capRate)
	g.jitter = func(d time.Duration) time.Duration {
		if d <= 0 {
			return 0
		}
		return time.Duration(rng.Int64N(int64(d) + 1))
	}
	ctx := context.Background()
	start := clk.now
	var admitted []time.Time // the service's window
	var q simQueue
	seq := 0
	push := func(e simEvent) { seq++; e.seq = seq; q.push(e) }
	pending := n
	refused := 0
	var last time.Time
	for w := range workers {
		if pending > 0 {
			pending--
			push(simEvent{at: start, worker: w, kind: simReady})
		}
	}
	for len(q) > 0 {
		e := q.pop()
		switch e.kind {
		case simReady:
			d, place, err := g.take(ctx, e.at)
			if err != nil {
				panic(err)
			}
			if d > 0 {
				// The sleeper wakes up to lateMS late, as on a busy machine.
				appt := e.at.Add(d)
				late := time.Duration(rng.Float64() * lateMS * float64(time.Millisecond))
				push(simEvent{at: appt.Add(late), worker: e.worker, kind: simReady})
				continue
			}
			sent := e.at
			arrive := sent.Add(time.Duration(rng.Float64() * jitterMS * float64(time.Millisecond)))
			push(simEvent{at: arrive, worker: e.worker, kind: simArrive, sentAt: sent, place: place})
		case simArrive:
			// The sandbox's limiter: admit if fewer than limit requests
			// were admitted in the last second. A refusal is answered at
			// once; an admitted request takes its time, so that answers
			// come back in another order than the requests arrived.
			cut := e.at.Add(-time.Second)
			for len(admitted) > 0 && !admitted[0].After(cut) {
				admitted = admitted[1:]
			}
			if len(admitted) < int(limit) {
				admitted = append(admitted, e.at)
				answer := e.at.Add(serviceTime + time.Duration(rng.Float64()*float64(serviceJitter)))
				push(simEvent{at: answer, worker: e.worker, kind: simAnswer, sentAt: e.sentAt, place: e.place})
				continue
			}
			wait := admitted[0].Add(time.Second).Sub(e.at)
			push(simEvent{at: e.at.Add(refusalTime), worker: e.worker, kind: simAnswer, sentAt: e.sentAt, place: e.place,
				retryAfter: max(1, int(math.Ceil(wait.Seconds())))})
		case simAnswer:
			g.release(e.place, e.at)
			if e.retryAfter == 0 {
				g.observe(ctx, e.sentAt, e.at, http.StatusOK, nil, nil)
				last = e.at
				if pending > 0 {
					pending--
					push(simEvent{at: e.at, worker: e.worker, kind: simReady})
				}
				continue
			}
			refused++
			g.observe(ctx, e.sentAt, e.at, http.StatusTooManyRequests, refusal(strconv.Itoa(e.retryAfter)), []byte(refusalBody))
			// The retry waits Backoff, which is the Retry-After.
			push(simEvent{at: e.at.Add(time.Duration(e.retryAfter) * time.Second), worker: e.worker, kind: simReady})
		}
	}
	return simResult{elapsed: last.Sub(start), refused: refused}
}

// TestRateGate_AcceptedWindow: at a high, steady rate the measurement
// counts exactly the last second's answers (and stays small in memory).
func TestRateGate_AcceptedWindow(t *testing.T) {
	t.Parallel()
	clk := newFakeClock()
	g := newRateGate(clk, 0)
	t0 := clk.now
	for i := range 10_000 { // 1000 a second for ten seconds
		at := t0.Add(time.Duration(i) * time.Millisecond)
		g.observe(context.Background(), at, at, http.StatusOK, nil, nil)
	}
	if n := len(g.accepted); n > 2100 {
		t.Errorf("%d times kept for a window of about 1000", n)
	}
	end := t0.Add(9999 * time.Millisecond)
	g.observe(context.Background(), end, end, http.StatusTooManyRequests, refusal("1"), []byte(refusalBody))
	if g.ceiling != 1000 {
		t.Errorf("ceiling %v, want the 1000 answers of the last second", g.ceiling)
	}
}

// TestRateGate_ConcurrentObserveAndLog: answers come back on many
// goroutines at once, refusals among them, with logging on; run with
// -race, it fails if the log reads the gate's state outside its lock.
func TestRateGate_ConcurrentObserveAndLog(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	t0 := time.Now()
	g := noJitter(newRateGate(newFakeClock(), 0))
	var logged atomic.Int64
	g.log = func(_ context.Context, _ string, fields map[string]any) {
		if _, ok := fields["accepted_per_second"]; ok {
			logged.Add(1)
		}
	}
	var wg sync.WaitGroup
	for w := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 200 {
				sent := t0.Add(time.Duration(i*10+w) * time.Millisecond)
				status := http.StatusOK
				if (i+w)%7 == 0 {
					status = http.StatusTooManyRequests
				}
				g.observe(ctx, sent, sent.Add(5*time.Millisecond), status, refusal("1"), []byte(refusalBody))
			}
		}()
	}
	wg.Wait()
	if logged.Load() == 0 {
		t.Fatal("no rate decrease was logged")
	}
}
