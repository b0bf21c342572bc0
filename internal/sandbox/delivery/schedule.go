package delivery

import (
	"container/heap"
	"slices"
	"time"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/clock"
)

type laneKey struct {
	account  Account
	endpoint string
}

type lane struct {
	queue   []*delivery
	running int
}

type dueItem struct {
	due time.Time
	d   *delivery
}

type dueHeap []dueItem

func (h dueHeap) Len() int           { return len(h) }
func (h dueHeap) Less(i, j int) bool { return h[i].due.Before(h[j].due) }
func (h dueHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *dueHeap) Push(x any) {
	if it, ok := x.(dueItem); ok {
		*h = append(*h, it)
	}
}

func (h *dueHeap) Pop() any {
	old := *h
	it := old[len(old)-1]
	*h = old[:len(old)-1]
	return it
}

// schedule queues an attempt of dl at due.
func (e *Engine) schedule(dl *delivery, due time.Time) {
	e.mu.Lock()
	heap.Push(&e.due, dueItem{due: due, d: dl})
	first := e.due[0].d == dl
	e.mu.Unlock()
	if first {
		e.poke()
	}
}

// poke wakes the scheduler.
func (e *Engine) poke() {
	select {
	case e.wake <- struct{}{}:
	default:
	}
}

// run dispatches the attempts as they fall due on the engine's clock: it
// sleeps on a timer of that clock set for the earliest, or until schedule
// wakes it for an earlier one.
func (e *Engine) run() {
	defer e.wg.Done()
	var timer clock.Timer
	defer func() {
		if timer != nil {
			timer.Stop()
		}
	}()
	for {
		e.mu.Lock()
		now := e.clock.Now()
		for len(e.due) > 0 && !e.due[0].due.After(now) {
			it, _ := heap.Pop(&e.due).(dueItem)
			e.dispatchLocked(it.d)
		}
		var next time.Time
		if len(e.due) > 0 {
			next = e.due[0].due
		}
		e.mu.Unlock()
		if timer != nil {
			timer.Stop()
			timer = nil
		}
		if !next.IsZero() {
			timer = e.clock.AfterFunc(next.Sub(now), e.poke)
		}
		select {
		case <-e.ctx.Done():
			return
		case <-e.wake:
		}
	}
}

// dispatchLocked hands a due attempt to its endpoint's lane.
func (e *Engine) dispatchLocked(dl *delivery) {
	key := laneKey{account: dl.a, endpoint: dl.endpoint()}
	l := e.lanes[key]
	if l == nil {
		l = &lane{}
		e.lanes[key] = l
	}
	l.queue = append(l.queue, dl)
	if l.running < laneWorkers {
		l.running++
		e.wg.Add(1)
		go e.work(key, l)
	}
}

// work makes the attempts of one lane. It takes a slot before it takes
// the lane's next delivery, so that waiting for a slot never reorders a
// lane: the first to get a slot sends the oldest.
func (e *Engine) work(key laneKey, l *lane) {
	defer e.wg.Done()
	for {
		slot := e.slots.acquire(e.ctx, key.account)
		e.mu.Lock()
		if len(l.queue) == 0 || e.ctx.Err() != nil {
			l.running--
			if l.running == 0 && len(l.queue) == 0 {
				delete(e.lanes, key)
			}
			e.mu.Unlock()
			if slot {
				e.slots.release(key.account)
			}
			return
		}
		dl := l.queue[0]
		l.queue[0] = nil
		l.queue = l.queue[1:]
		e.mu.Unlock()
		e.attempt(dl)
		e.slots.release(key.account)
	}
}

// queue adds an attempt's store writes to its account's book, whose mu
// the caller holds, for the flusher.
func (e *Engine) queue(a Account, w []Write) {
	if len(w) == 0 {
		return
	}
	bk := a.Book()
	bk.writes = append(bk.writes, w...)
	e.markDirty(a)
}

// requeue puts writes that could not be made back in front of the book's,
// for the flusher to try again; the caller holds the book's mu.
func (e *Engine) requeue(a Account, w []Write) {
	if len(w) == 0 {
		return
	}
	bk := a.Book()
	bk.writes = append(slices.Clip(w), bk.writes...)
	e.markDirty(a)
}

// markDirty puts the account in the flush list; the caller holds its
// book's mu.
func (e *Engine) markDirty(a Account) {
	bk := a.Book()
	if bk.dirty {
		return
	}
	bk.dirty = true
	e.flushMu.Lock()
	e.dirty = append(e.dirty, a)
	e.flushMu.Unlock()
	select {
	case e.flushNow <- struct{}{}:
	default:
	}
}

// flusher writes the queued attempts at most every flushInterval.
func (e *Engine) flusher() {
	defer e.wg.Done()
	for {
		select {
		case <-e.ctx.Done():
			return
		case <-e.flushNow:
		}
		e.flush()
		select {
		case <-e.ctx.Done():
			return
		case <-time.After(flushInterval):
		}
	}
}

// flush writes every account's queued attempts, one commit per account.
func (e *Engine) flush() {
	e.flushMu.Lock()
	dirty := e.dirty
	e.dirty = nil
	e.flushMu.Unlock()
	for _, a := range dirty {
		bk := a.Book()
		bk.flushing.Lock()
		bk.mu.Lock()
		w := bk.writes
		bk.writes, bk.dirty = nil, false
		bk.mu.Unlock()
		if !e.host.Commit(a, w) {
			// Kept for the next flush: the book is ahead of the file
			// anyway, and a full disk may take them later.
			bk.mu.Lock()
			e.requeue(a, w)
			bk.mu.Unlock()
		}
		bk.flushing.Unlock()
	}
}
