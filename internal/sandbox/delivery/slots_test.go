package delivery

import (
	"context"
	"testing"
	"time"
)

type slotAccount struct{ book Book }

func (a *slotAccount) Book() *Book                        { return &a.book }
func (*slotAccount) Target(string, string) (Target, bool) { return Target{}, false }

// waiters waits until n acquires wait in p, for 5 s at most.
func waiters(t *testing.T, p *slotPool, n int) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		p.mu.Lock()
		got := len(p.waiting)
		p.mu.Unlock()
		if got == n {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d acquires wait after 5 s, want %d", got, n)
		}
		time.Sleep(time.Millisecond)
	}
}

// TestSlotPool_Shares: an account alone takes all but the reserve; past
// its share it waits while only the reserve is free, which another
// account below its share takes at once; a release serves the oldest
// waiter the rule allows; a cancelled waiter leaves no trace.
func TestSlotPool_Shares(t *testing.T) {
	t.Parallel()
	p := newSlotPool(16) // share 4, reserve 2
	ctx := t.Context()
	a, b := &slotAccount{}, &slotAccount{}
	for i := range 14 {
		if !p.acquire(ctx, a) {
			t.Fatalf("slot %d of a lone account refused", i+1)
		}
	}
	granted := make(chan bool, 1)
	go func() { granted <- p.acquire(ctx, a) }()
	waiters(t, p, 1) // past its share, with only the reserve free
	for i := range 2 {
		if !p.acquire(ctx, b) { // would block, and time the test out, if refused
			t.Fatalf("another account's slot %d refused", i+1)
		}
	}
	// b releases one: the free slot is the reserve's, so a still waits.
	p.release(b)
	waiters(t, p, 1)
	// a releases two of its own: three free, more than the reserve.
	p.release(a)
	p.release(a)
	if ok := <-granted; !ok {
		t.Fatal("the waiter was refused")
	}
	waiters(t, p, 0)

	short, cancel := context.WithCancel(ctx)
	cancel()
	for p.eligible(a) {
		p.take(a)
	}
	if p.acquire(short, a) {
		t.Error("a cancelled acquire got a slot")
	}
	waiters(t, p, 0)
}
