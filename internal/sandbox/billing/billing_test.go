package billing

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/clock"
)

const day = 24 * 3600

func TestDue_Kinds(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		s    State
		kind Kind
		at   int64
		ok   bool
	}{
		{"active renews at the period's end", State{Status: StatusActive, Created: 0, PeriodEnd: 30 * day}, Renew, 30 * day, true},
		{"a retry before the period's end", State{Status: StatusPastDue, PeriodEnd: 30 * day, NextAttempt: 3 * day}, Retry, 3 * day, true},
		{"a retry at the period's end goes first", State{Status: StatusPastDue, PeriodEnd: 30 * day, NextAttempt: 30 * day}, Retry, 30 * day, true},
		{"incomplete expires after 23 hours", State{Status: StatusIncomplete, Created: 100, PeriodEnd: 30 * day}, Expire, 100 + 23*3600, true},
		{"trial notice 3 days before", State{Status: StatusTrialing, PeriodEnd: 10 * day, TrialEnd: 10 * day}, TrialWillEnd, 7 * day, true},
		{"no notice once sent", State{Status: StatusTrialing, PeriodEnd: 10 * day, TrialEnd: 10 * day, TrialNoticeSent: true}, Renew, 10 * day, true},
		{"no notice for a trial of 3 days or less", State{Status: StatusTrialing, PeriodEnd: 3 * day, TrialEnd: 3 * day}, Renew, 3 * day, true},
		{"unpaid stops renewing", State{Status: StatusUnpaid, PeriodEnd: 30 * day}, 0, 0, false},
		{"canceled never renews", State{Status: StatusCanceled, PeriodEnd: 30 * day}, 0, 0, false},
	} {
		kind, at, ok := Due(tc.s)
		if kind != tc.kind || at != tc.at || ok != tc.ok {
			t.Errorf("%s: Due = %d, %d, %v; want %d, %d, %v", tc.name, kind, at, ok, tc.kind, tc.at, tc.ok)
		}
	}
}

func TestRetryAt_Schedule(t *testing.T) {
	t.Parallel()
	var got []int64
	for n := int64(0); n <= 4; n++ {
		at, ok := RetryAt(10, n)
		if ok != (n >= 1 && n <= 3) {
			t.Errorf("RetryAt(10, %d) ok = %v", n, ok)
		}
		if ok {
			got = append(got, (at-10)/day)
		}
	}
	if !slices.Equal(got, []int64{3, 5, 7}) {
		t.Errorf("retry days = %v, want 3, 5, 7", got)
	}
}

// fakeLedger renews subscriptions of fixed periods and records the steps.
type fakeLedger struct {
	subs  map[string]*State
	order []string
	log   []string
	every map[string]int64
	// room is how many more steps Do does; negative for any number.
	room int
}

func (l *fakeLedger) All(yield func(string) bool) {
	for _, id := range l.order {
		if !yield(id) {
			return
		}
	}
}
func (l *fakeLedger) State(id string) State { return *l.subs[id] }
func (l *fakeLedger) Do(id string, k Kind, at int64) bool {
	if l.room == 0 {
		return false
	}
	l.room--
	l.log = append(l.log, fmt.Sprintf("%s@%d", id, at/day))
	if k == Renew {
		l.subs[id].PeriodEnd += l.every[id]
	}
	return true
}

func TestAdvance_TimeOrder(t *testing.T) {
	t.Parallel()
	l := &fakeLedger{
		subs: map[string]*State{
			"weekly": {Status: StatusActive, PeriodEnd: 7 * day},
			"daily":  {Status: StatusActive, PeriodEnd: 5 * day},
			"gone":   {Status: StatusCanceled, PeriodEnd: 1 * day},
		},
		order: []string{"weekly", "daily", "gone"},
		every: map[string]int64{"weekly": 7 * day, "daily": 5 * day},
		room:  -1,
	}
	steps, next, stopped := Advance[string](l, 15*day)
	want := []string{"daily@5", "weekly@7", "daily@10", "weekly@14", "daily@15"}
	if !slices.Equal(l.log, want) || steps != len(want) || next != 20*day || stopped {
		t.Errorf("Advance = %d steps, next day %d, stopped %v, log %v; want %v, next day 20", steps, next/day, stopped, l.log, want)
	}
}

// TestAdvance_StopsWhereDoRefuses: a step Do refuses ends the walk
// there, its moment as next, every earlier step done and none later.
func TestAdvance_StopsWhereDoRefuses(t *testing.T) {
	t.Parallel()
	l := &fakeLedger{
		subs:  map[string]*State{"a": {Status: StatusActive, PeriodEnd: 7 * day}, "b": {Status: StatusActive, PeriodEnd: 5 * day}},
		order: []string{"a", "b"},
		every: map[string]int64{"a": 7 * day, "b": 5 * day},
		room:  2,
	}
	steps, next, stopped := Advance[string](l, 15*day)
	if want := []string{"b@5", "a@7"}; !slices.Equal(l.log, want) || steps != 2 || next != 10*day || !stopped {
		t.Errorf("Advance = %d steps, next day %d, stopped %v, log %v; want %v, next day 10, stopped", steps, next/day, stopped, l.log, want)
	}
	// A Schedule stops alike and keeps the refused step filed.
	l2 := &fakeLedger{subs: map[string]*State{"a": {Status: StatusActive, PeriodEnd: 7 * day}, "b": {Status: StatusActive, PeriodEnd: 5 * day}},
		order: l.order, every: l.every, room: 2}
	s := schedule(l2)
	steps, next, stopped = s.Advance(l2, 15*day)
	if at, _ := s.Next(); steps != 2 || next != 10*day || !stopped || at != 10*day {
		t.Errorf("Schedule.Advance = %d steps, next day %d, stopped %v, filed day %d; want 2, 10, stopped, 10", steps, next/day, stopped, at/day)
	}
}

func TestRunner_FiresWhenDue(t *testing.T) {
	t.Parallel()
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	fake := clock.NewFake(start)
	var runs atomic.Int64
	due := start.Add(48 * time.Hour).Unix()
	r := NewRunner(fake, func(now time.Time) int64 {
		runs.Add(1)
		if now.Unix() >= due {
			return 0
		}
		return due
	})
	r.Start()
	defer r.Stop()
	if runs.Load() != 1 {
		t.Fatalf("Start ran %d times, want once", runs.Load())
	}
	fake.Advance(47 * time.Hour)
	if fake.Timers() != 1 {
		t.Fatalf("%d timers before the due moment, want 1", fake.Timers())
	}
	fake.Advance(time.Hour)
	deadline := time.Now().Add(10 * time.Second)
	for runs.Load() != 2 {
		if time.Now().After(deadline) {
			t.Fatalf("the runner ran %d times by the due moment, want 2", runs.Load())
		}
		time.Sleep(time.Millisecond)
	}
	// An earlier moment poked in wins over none.
	r.Poke(start.Add(72 * time.Hour).Unix())
	if fake.Timers() != 1 {
		t.Errorf("%d timers after a poke, want 1", fake.Timers())
	}
}

// TestQueue_PopsInOrder pushes and pops at random and checks that every
// pop is the least item left: by moment, then kind, then push order.
func TestQueue_PopsInOrder(t *testing.T) {
	t.Parallel()
	seed := time.Now().UnixNano()
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(uint64(seed), 0))
	var q queue[int]
	var left []item[int]
	for order := 1; order <= 2000; order++ {
		if len(q) > 0 && rng.IntN(3) == 0 {
			least := slices.MinFunc(left, func(a, b item[int]) int {
				if a.less(b) {
					return -1
				}
				return 1
			})
			if q[0] != least {
				t.Fatalf("pop %d: least is %+v, want %+v", order, q[0], least)
			}
			q.pop()
			left = slices.DeleteFunc(left, func(x item[int]) bool { return x == least })
		}
		it := item[int]{id: order, kind: Kind(1 + rng.IntN(4)), at: int64(rng.IntN(20)), order: uint64(order)}
		q.push(it)
		left = append(left, it)
	}
	for len(q) > 0 {
		least := slices.MinFunc(left, func(a, b item[int]) int {
			if a.less(b) {
				return -1
			}
			return 1
		})
		if q[0] != least {
			t.Fatalf("draining: least is %+v, want %+v", q[0], least)
		}
		q.pop()
		left = slices.DeleteFunc(left, func(x item[int]) bool { return x == least })
	}
}
