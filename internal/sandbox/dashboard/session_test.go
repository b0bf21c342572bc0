package dashboard

import (
	"fmt"
	"testing"
	"time"
)

// TestSessions_Caps: one key's sign-ins past its own cap end only its own
// least recently used sessions; past the total, the key holding the most
// loses its least recently used one; another key's session stays, even
// the least recently used of all.
func TestSessions_Caps(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name        string
		max, perKey int
		// signIns are the keys signing in after the victim, in order.
		signIns   []string
		wantTotal int
		// wantPerKey is each key's sessions at the end.
		wantPerKey map[string]int
	}{
		{
			name: "one key floods, under the total", max: 50, perKey: 5,
			signIns:    repeat("sk_sandbox_attacker1", 200),
			wantTotal:  6,
			wantPerKey: map[string]int{"sk_sandbox_attacker1": 5, "sk_sandbox_victim123": 1},
		},
		{
			name: "one key floods, cap at the total", max: 5, perKey: 5,
			signIns:    repeat("sk_sandbox_attacker1", 50),
			wantTotal:  5,
			wantPerKey: map[string]int{"sk_sandbox_attacker1": 4, "sk_sandbox_victim123": 1},
		},
		{
			name: "many keys fill the total", max: 6, perKey: 3,
			signIns:    append(repeat("sk_sandbox_attacker1", 3), repeat("sk_sandbox_attacker2", 3)...),
			wantTotal:  6,
			wantPerKey: map[string]int{"sk_sandbox_attacker1": 2, "sk_sandbox_attacker2": 3, "sk_sandbox_victim123": 1},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
			s := newSessions(time.Hour, func() time.Time { return now })
			s.max, s.perKey = tc.max, tc.perKey
			victim := s.start("sk_sandbox_victim123", "victim", "")
			var last *session
			for _, key := range tc.signIns {
				// The victim's session is the least recently used of all.
				now = now.Add(time.Second)
				last = s.start(key, "other", "")
			}
			if s.get(victim.id) == nil {
				t.Error("others' sign-ins ended the victim's session")
			}
			if s.get(last.id) == nil {
				t.Error("the newest session is gone")
			}
			if len(s.m) != tc.wantTotal {
				t.Errorf("%d sessions, want %d", len(s.m), tc.wantTotal)
			}
			for key, want := range tc.wantPerKey {
				if got := len(s.byKey[key]); got != want {
					t.Errorf("%s: %d sessions, want %d", key, got, want)
				}
			}
			n := 0
			for _, own := range s.byKey {
				n += len(own)
			}
			if n != len(s.m) {
				t.Errorf("the per-key index holds %d sessions, the map %d", n, len(s.m))
			}
		})
	}
}

// A key's sign-in past its cap ends its session used least recently, not
// its newest, and signing out or going idle leaves the index in step.
func TestSessions_PerKeyEvictsLeastRecent(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	s := newSessions(time.Hour, func() time.Time { return now })
	s.perKey = 3
	const key = "sk_sandbox_team1234"
	var ss []*session
	for i := range 3 {
		now = now.Add(time.Second)
		ss = append(ss, s.start(key, fmt.Sprint(i), ""))
	}
	now = now.Add(time.Second)
	s.get(ss[0].id) // used again: ss[1] is now the least recent
	now = now.Add(time.Second)
	s.start(key, "3", "")
	if s.m[ss[1].id] != nil || s.m[ss[0].id] == nil || s.m[ss[2].id] == nil {
		t.Errorf("after a sign-in past the cap: sessions 0,1,2 present = %v %v %v, want true false true",
			s.m[ss[0].id] != nil, s.m[ss[1].id] != nil, s.m[ss[2].id] != nil)
	}
	s.end(ss[0].id)
	now = now.Add(2 * time.Hour)
	if s.get(ss[2].id) != nil {
		t.Error("an idle session is still live")
	}
	s.start("sk_sandbox_other123", "other", "")
	if len(s.byKey[key]) != 0 || len(s.m) != 1 {
		t.Errorf("after sign-out and idleness: %d sessions of the key, %d in all; want 0 and 1", len(s.byKey[key]), len(s.m))
	}
	if id := s.start(key, "x", "").id; len(id) < 43 {
		t.Errorf("session id %q is shorter than 256 bits in base64", id)
	}
}

func repeat(key string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = key
	}
	return out
}
