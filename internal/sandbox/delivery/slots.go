package delivery

import (
	"context"
	"slices"
	"sync"
)

// slotPool hands out the engine's Concurrency slots, one per attempt in
// flight. An account below its share takes any free slot; past it, only
// while more than reserve slots stay free. So an account alone may use
// all but the reserve, and an account whose backlog hangs on receivers
// that never answer still leaves free slots to the others, which start
// at once instead of waiting for its timeouts. Waiters are served in the
// order they came, each as soon as the rule lets it.
type slotPool struct {
	mu      sync.Mutex
	free    int
	share   int
	reserve int
	held    map[Account]int
	waiting []*slotWaiter
}

type slotWaiter struct {
	a     Account
	ready chan struct{}
}

func newSlotPool(n int) *slotPool {
	return &slotPool{
		free:    n,
		share:   max(laneWorkers, n/4), // a quarter, at least an endpoint's lane
		reserve: max(1, n/8),
		held:    make(map[Account]int),
	}
}

// eligible reports whether a may take a slot now; mu is held.
func (p *slotPool) eligible(a Account) bool {
	return p.free > 0 && (p.held[a] < p.share || p.free > p.reserve)
}

func (p *slotPool) take(a Account) {
	p.free--
	p.held[a]++
}

// acquire waits for a slot for a; false when ctx ends first.
func (p *slotPool) acquire(ctx context.Context, a Account) bool {
	p.mu.Lock()
	// A waiter is only ever one the rule refused, and release serves them
	// first: whoever the rule allows now may go ahead of them.
	if p.eligible(a) {
		p.take(a)
		p.mu.Unlock()
		return true
	}
	w := &slotWaiter{a: a, ready: make(chan struct{})}
	p.waiting = append(p.waiting, w)
	p.mu.Unlock()
	select {
	case <-w.ready:
		return true
	case <-ctx.Done():
		p.mu.Lock()
		if i := slices.Index(p.waiting, w); i >= 0 {
			p.waiting = slices.Delete(p.waiting, i, i+1)
			p.mu.Unlock()
			return false
		}
		p.mu.Unlock()
		p.release(a) // granted meanwhile
		return false
	}
}

// release returns a's slot and hands free slots to the waiters the rule
// now allows, oldest first.
func (p *slotPool) release(a Account) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.free++
	if p.held[a]--; p.held[a] <= 0 {
		delete(p.held, a)
	}
	for i := 0; i < len(p.waiting) && p.free > 0; {
		w := p.waiting[i]
		if !p.eligible(w.a) {
			i++
			continue
		}
		p.waiting = slices.Delete(p.waiting, i, i+1)
		p.take(w.a)
		close(w.ready)
	}
}
