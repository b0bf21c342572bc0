package billing

// Schedule is the due steps of an account's subscriptions on real time,
// kept as they change: one entry per subscription with something due, its
// earliest step, in a heap indexed by subscription. The sandbox sets a
// subscription's entry after each change and Advance does what is due;
// a run costs the steps it does, a logarithm each, where building a heap
// of every subscription at each run cost a period of n subscriptions
// renewing at n moments n² steps. The zero Schedule is empty.
type Schedule[ID comparable] struct {
	q   queue[ID]
	pos map[ID]int // index in q
}

// Set files id's earliest due step in state st, or takes it out when
// nothing is due. order breaks ties between subscriptions due at one
// moment in one Kind (the sandbox's creation order).
func (s *Schedule[ID]) Set(id ID, order uint64, st State) {
	kind, at, ok := Due(st)
	if !ok {
		s.Remove(id)
		return
	}
	it := item[ID]{id: id, kind: kind, at: at, order: order}
	if i, found := s.pos[id]; found {
		s.q[i] = it
		if !s.up(i) {
			s.down(i)
		}
		return
	}
	if s.pos == nil {
		s.pos = make(map[ID]int)
	}
	s.q = append(s.q, it)
	s.pos[id] = len(s.q) - 1
	s.up(len(s.q) - 1)
}

// Remove takes id out, if it is in.
func (s *Schedule[ID]) Remove(id ID) {
	i, found := s.pos[id]
	if !found {
		return
	}
	last := len(s.q) - 1
	s.swap(i, last)
	s.q = s.q[:last]
	delete(s.pos, id)
	if i < last && !s.up(i) {
		s.down(i)
	}
}

// Reset empties the schedule.
func (s *Schedule[ID]) Reset() { *s = Schedule[ID]{} }

// Len is how many subscriptions have something due.
func (s *Schedule[ID]) Len() int { return len(s.q) }

// Next is the moment of the earliest due step; ok is false when none is.
func (s *Schedule[ID]) Next() (at int64, ok bool) {
	if len(s.q) == 0 {
		return 0, false
	}
	return s.q[0].at, true
}

// Advance does every step due at or before until, the earliest first
// (ties in Kind order, then by order), and returns how many it did and
// the moment of the next step after until (0 when none). It reads each
// subscription before its step, so that an entry a change did not Set
// is filed again rather than done (a retry of an invoice paid meanwhile
// would charge it twice), and after it. Do may Set any entry meanwhile.
// A step Do refuses stops the run as it stops Advance's walk, and stays
// filed.
func (s *Schedule[ID]) Advance(l Steps[ID], until int64) (steps int, next int64, stopped bool) {
	for len(s.q) > 0 {
		it := s.q[0]
		if it.at > until {
			return steps, it.at, false
		}
		st := l.State(it.id)
		if kind, at, ok := Due(st); !ok || kind != it.kind || at != it.at {
			s.Set(it.id, it.order, st)
			continue
		}
		if !l.Do(it.id, it.kind, it.at) {
			return steps, it.at, true
		}
		steps++
		s.Set(it.id, it.order, l.State(it.id))
	}
	return steps, 0, false
}

func (s *Schedule[ID]) swap(i, j int) {
	s.q[i], s.q[j] = s.q[j], s.q[i]
	s.pos[s.q[i].id], s.pos[s.q[j].id] = i, j
}

// up moves entry i toward the root while it is less than its parent, and
// reports whether it moved.
func (s *Schedule[ID]) up(i int) bool {
	moved := false
	for i > 0 {
		p := (i - 1) / 2
		if !s.q[i].less(s.q[p]) {
			break
		}
		s.swap(i, p)
		i, moved = p, true
	}
	return moved
}

// down moves entry i toward the leaves while a child is less.
func (s *Schedule[ID]) down(i int) {
	n := len(s.q)
	for {
		least, l, r := i, 2*i+1, 2*i+2
		if l < n && s.q[l].less(s.q[least]) {
			least = l
		}
		if r < n && s.q[r].less(s.q[least]) {
			least = r
		}
		if least == i {
			return
		}
		s.swap(i, least)
		i = least
	}
}
