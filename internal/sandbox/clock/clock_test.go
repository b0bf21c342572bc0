package clock_test

import (
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/clock"
)

var epoch = time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)

// fired collects the names of the timers that fired.
type fired struct {
	mu    sync.Mutex
	names []string
	wg    sync.WaitGroup
}

func (f *fired) fn(name string) func() {
	f.wg.Add(1)
	return func() {
		defer f.wg.Done()
		f.mu.Lock()
		f.names = append(f.names, name)
		f.mu.Unlock()
	}
}

func (f *fired) got() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.names...)
}

func TestFake_Advance(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		advance []time.Duration
		want    []string // fired, whatever the order
		waiting int
	}{
		{"nothing passed", nil, nil, 3},
		{"short of the first", []time.Duration{time.Second - 1}, nil, 3},
		{"exactly the first", []time.Duration{time.Second}, []string{"1s"}, 2},
		{"in two steps", []time.Duration{time.Second, time.Second}, []string{"1s", "2s"}, 1},
		{"past all", []time.Duration{time.Hour}, []string{"1s", "2s", "1m"}, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c := clock.NewFake(epoch)
			var f fired
			c.AfterFunc(time.Minute, f.fn("1m"))
			c.AfterFunc(time.Second, f.fn("1s"))
			c.AfterFunc(2*time.Second, f.fn("2s"))
			var total time.Duration
			for _, d := range tc.advance {
				c.Advance(d)
				total += d
			}
			if got := c.Now(); !got.Equal(epoch.Add(total)) {
				t.Errorf("Now = %v, want %v", got, epoch.Add(total))
			}
			if n := c.Timers(); n != tc.waiting {
				t.Errorf("Timers = %d, want %d", n, tc.waiting)
			}
			// Wait for those that fired; the others never run.
			f.wg.Add(-(3 - len(tc.want)))
			f.wg.Wait()
			got := f.got()
			if len(got) != len(tc.want) {
				t.Fatalf("fired %v, want %v", got, tc.want)
			}
			for _, w := range tc.want {
				found := false
				for _, g := range got {
					found = found || g == w
				}
				if !found {
					t.Errorf("fired %v, want %v", got, tc.want)
				}
			}
		})
	}
}

func TestFake_Stop(t *testing.T) {
	t.Parallel()
	c := clock.NewFake(epoch)
	var f fired
	stopped := c.AfterFunc(time.Second, func() { t.Error("a stopped timer fired") })
	c.AfterFunc(time.Second, f.fn("kept"))
	if !stopped.Stop() {
		t.Error("Stop of a waiting timer = false")
	}
	if stopped.Stop() {
		t.Error("a second Stop = true")
	}
	c.Advance(time.Second)
	f.wg.Wait()
	if got := f.got(); len(got) != 1 {
		t.Errorf("fired %v, want [kept]", got)
	}
	now := c.AfterFunc(0, f.fn("now"))
	f.wg.Wait()
	if now.Stop() {
		t.Error("Stop of a timer that fired at once = true")
	}
}

func TestFake_SetNeverGoesBack(t *testing.T) {
	t.Parallel()
	c := clock.NewFake(epoch)
	c.Set(epoch.Add(-time.Hour))
	if !c.Now().Equal(epoch) {
		t.Errorf("Now = %v after setting it back, want %v", c.Now(), epoch)
	}
	c.AfterFunc(time.Minute, func() {})
	if next, ok := c.Next(); !ok || !next.Equal(epoch.Add(time.Minute)) {
		t.Errorf("Next = %v, %v; want %v", next, ok, epoch.Add(time.Minute))
	}
}

func TestFake_Armed(t *testing.T) {
	t.Parallel()
	c := clock.NewFake(epoch)
	armed := c.Armed()
	go c.AfterFunc(time.Second, func() {})
	select {
	case <-armed:
	case <-time.After(10 * time.Second):
		t.Fatal("Armed not closed 10 s after a timer was added")
	}
}

// The real and offset clocks' timers last as long as time.AfterFunc's;
// synctest's bubble shows it without waiting.
func TestReal_AfterFunc(t *testing.T) {
	for _, tc := range []struct {
		name   string
		c      clock.Clock
		offset time.Duration
	}{
		{"real", clock.Real(), 0},
		{"offset", clock.Offset(-48 * time.Hour), -48 * time.Hour},
	} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				start := time.Now()
				if d := tc.c.Now().Sub(start) - tc.offset; d < 0 || d > time.Millisecond {
					t.Errorf("Now is %v from the real time plus offset", d)
				}
				done := make(chan time.Duration, 1)
				tc.c.AfterFunc(time.Hour, func() { done <- time.Since(start) })
				stop := tc.c.AfterFunc(time.Minute, func() { t.Error("a stopped timer fired") })
				if !stop.Stop() {
					t.Error("Stop = false")
				}
				if took := <-done; took != time.Hour {
					t.Errorf("fired after %v, want 1h", took)
				}
			})
		})
	}
}
