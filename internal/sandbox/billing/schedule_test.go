package billing

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"
)

// countingLedger is a fakeLedger that counts its reads.
type countingLedger struct {
	*fakeLedger
	reads int
}

func (l *countingLedger) State(id string) State { l.reads++; return l.fakeLedger.State(id) }

// schedule files every subscription of l, as the sandbox does at start.
func schedule(l *fakeLedger) *Schedule[string] {
	var s Schedule[string]
	for i, id := range l.order {
		s.Set(id, uint64(i), l.State(id))
	}
	return &s
}

func TestSchedule_Set(t *testing.T) {
	t.Parallel()
	active := func(end int64) State { return State{Status: StatusActive, PeriodEnd: end * day} }
	for _, tc := range []struct {
		name  string
		steps func(s *Schedule[string])
		next  int64 // in days; -1 for none
		len   int
	}{
		{"empty", func(*Schedule[string]) {}, -1, 0},
		{"one", func(s *Schedule[string]) { s.Set("a", 1, active(9)) }, 9, 1},
		{"the earliest of two", func(s *Schedule[string]) { s.Set("a", 1, active(9)); s.Set("b", 2, active(4)) }, 4, 2},
		{"moved earlier", func(s *Schedule[string]) {
			s.Set("a", 1, active(9))
			s.Set("b", 2, active(4))
			s.Set("a", 1, active(2))
		}, 2, 2},
		{"moved later", func(s *Schedule[string]) {
			s.Set("a", 1, active(9))
			s.Set("b", 2, active(4))
			s.Set("b", 2, active(12))
		}, 9, 2},
		{"ended: taken out", func(s *Schedule[string]) {
			s.Set("a", 1, active(9))
			s.Set("b", 2, active(4))
			s.Set("b", 2, State{Status: StatusCanceled, PeriodEnd: 4 * day})
		}, 9, 1},
		{"removed", func(s *Schedule[string]) { s.Set("a", 1, active(9)); s.Set("b", 2, active(4)); s.Remove("b") }, 9, 1},
		{"removed when absent", func(s *Schedule[string]) { s.Set("a", 1, active(9)); s.Remove("c") }, 9, 1},
		{"reset", func(s *Schedule[string]) { s.Set("a", 1, active(9)); s.Reset() }, -1, 0},
	} {
		var s Schedule[string]
		tc.steps(&s)
		at, ok := s.Next()
		if want := tc.next >= 0; ok != want || (ok && at != tc.next*day) || s.Len() != tc.len {
			t.Errorf("%s: Next = %d, %v, Len %d; want day %d, Len %d", tc.name, at/day, ok, s.Len(), tc.next, tc.len)
		}
	}
}

// TestSchedule_AdvanceAsTheWalk: over random subscriptions, a Schedule
// does the same steps in the same order as Advance's walk of all of
// them, and a run reads only the subscriptions it moves.
func TestSchedule_AdvanceAsTheWalk(t *testing.T) {
	t.Parallel()
	seed := time.Now().UnixNano()
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(uint64(seed), 0))
	statuses := []string{StatusActive, StatusActive, StatusPastDue, StatusTrialing, StatusCanceled, StatusUnpaid}
	build := func() *fakeLedger {
		l := &fakeLedger{subs: map[string]*State{}, every: map[string]int64{}, room: -1}
		for i := range 300 {
			id := fmt.Sprintf("s%03d", i)
			l.order = append(l.order, id)
			l.every[id] = int64(1+rng.IntN(30)) * day
			l.subs[id] = &State{Status: statuses[rng.IntN(len(statuses))], PeriodEnd: int64(rng.IntN(40)) * day}
		}
		return l
	}
	walked := build()
	scheduled := &fakeLedger{subs: map[string]*State{}, order: walked.order, every: walked.every, room: -1}
	for id, st := range walked.subs {
		c := *st
		scheduled.subs[id] = &c
	}
	s := schedule(scheduled)
	for _, until := range []int64{10 * day, 10 * day, 45 * day, 90 * day} {
		wSteps, wNext, _ := Advance[string](walked, until)
		cl := &countingLedger{fakeLedger: scheduled}
		sSteps, sNext, _ := s.Advance(cl, until)
		if wSteps != sSteps || wNext != sNext || !slices.Equal(walked.log, scheduled.log) {
			t.Fatalf("until day %d: the walk did %d steps (next %d), the schedule %d (next %d); logs differ: %v",
				until/day, wSteps, wNext, sSteps, sNext, slices.Compare(walked.log, scheduled.log))
		}
		if cl.reads != 2*sSteps {
			t.Errorf("until day %d: the schedule read subscriptions %d times for %d steps, want twice a step", until/day, cl.reads, sSteps)
		}
	}
}

// TestSchedule_StaleEntry: an entry whose subscription changed without a
// Set is filed again from what the subscription is, not done as filed.
func TestSchedule_StaleEntry(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		change func(st *State)
		log    []string
		next   int64 // in days
	}{
		{"paid meanwhile: no retry", func(st *State) { st.NextAttempt = 0 }, []string{"a@30"}, 60},
		{"canceled meanwhile: nothing", func(st *State) { st.Status = StatusCanceled }, nil, 0},
		{"retried later", func(st *State) { st.NextAttempt = 5 * day }, []string{"a@5", "a@30"}, 60},
		{"unchanged", func(*State) {}, []string{"a@3", "a@30"}, 60},
	} {
		l := &fakeLedger{
			subs:  map[string]*State{"a": {Status: StatusPastDue, PeriodEnd: 30 * day, NextAttempt: 3 * day}},
			order: []string{"a"},
			every: map[string]int64{"a": 30 * day},
			room:  -1,
		}
		s := schedule(l)
		tc.change(l.subs["a"])
		// A retry done clears the next attempt, as the sandbox's does.
		retrying := &retryLedger{l}
		_, next, _ := s.Advance(retrying, 40*day)
		if !slices.Equal(l.log, tc.log) || next != tc.next*day {
			t.Errorf("%s: log %v, next day %d; want %v, next day %d", tc.name, l.log, next/day, tc.log, tc.next)
		}
	}
}

// retryLedger is a fakeLedger whose retries clear the next attempt.
type retryLedger struct{ *fakeLedger }

func (l *retryLedger) Do(id string, k Kind, at int64) bool {
	l.fakeLedger.Do(id, k, at)
	if k == Retry {
		l.subs[id].NextAttempt = 0
	}
	return true
}
