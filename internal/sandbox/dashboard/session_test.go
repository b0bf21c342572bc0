package dashboard

import (
	"testing"
	"time"
)

// TestSessions_Bounded: past maxSessions, a sign-in ends the session used
// least recently, not a recent one.
func TestSessions_Bounded(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	s := newSessions(time.Hour, func() time.Time { return now })
	s.max = 50
	first := s.start("sk_sandbox_first123", "first")
	now = now.Add(time.Second)
	var last *session
	for range s.max {
		last = s.start("sk_sandbox_other123", "other")
	}
	if len(s.m) != s.max {
		t.Errorf("%d sessions, want %d", len(s.m), s.max)
	}
	if s.get(first.id) != nil {
		t.Error("the least recently used session is still there")
	}
	if s.get(last.id) == nil {
		t.Error("the newest session is gone")
	}
	if len(first.id) < 43 {
		t.Errorf("session id %q is shorter than 256 bits in base64", first.id)
	}
}
