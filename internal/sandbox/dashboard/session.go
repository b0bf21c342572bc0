package dashboard

import (
	"crypto/rand"
	"encoding/base64"
	"net/http"
	"strings"
	"sync"
	"time"
)

// cookieName is the session cookie. It holds only the session's id.
const cookieName = "payments_dashboard_session"

// sessionIDBytes is the session id's randomness: 256 bits.
const sessionIDBytes = 32

// maxSessions bounds the sessions kept at once, and maxSessionsPerKey
// those of one key: past its own cap, a key's sign-in ends that key's
// session used least recently, so that one key holder signing in again
// and again signs only themselves out. Past maxSessions (many keys at
// once), a sign-in ends the least recently used session of the key that
// holds the most.
const (
	maxSessions       = 10_000
	maxSessionsPerKey = 100
)

// session is one signed-in browser. key never leaves the server.
type session struct {
	id      string
	key     string
	account string // a label for the page: a digest of the key, never the key
	// publishable is the account's publishable key, read at sign-in.
	publishable string
	seen        time.Time
	// flash is the message of the last action, shown once by the next page.
	flash      string
	flashError bool
}

// sessions maps session ids to sessions, in memory only: a restart signs
// everyone out.
type sessions struct {
	mu sync.Mutex
	m  map[string]*session
	// byKey holds each key's sessions by id, for the per-key cap.
	byKey  map[string]map[string]*session
	idle   time.Duration
	now    func() time.Time
	max    int // maxSessions; tests lower it
	perKey int // maxSessionsPerKey; tests lower it
}

func newSessions(idle time.Duration, now func() time.Time) *sessions {
	return &sessions{
		m: make(map[string]*session), byKey: make(map[string]map[string]*session),
		idle: idle, now: now, max: maxSessions, perKey: maxSessionsPerKey,
	}
}

// start makes a session for key, and forgets the sessions gone idle.
func (s *sessions) start(key, account, publishable string) *session {
	b := make([]byte, sessionIDBytes)
	_, _ = rand.Read(b) // never fails (crypto/rand)
	ss := &session{id: base64.RawURLEncoding.EncodeToString(b), key: key, account: account, publishable: publishable}
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.now()
	for _, o := range s.m {
		if now.Sub(o.seen) > s.idle {
			s.remove(o)
		}
	}
	if own := s.byKey[key]; len(own) >= s.perKey {
		s.remove(leastRecent(own))
	}
	if len(s.m) >= s.max {
		var most map[string]*session
		for _, own := range s.byKey {
			if len(own) > len(most) {
				most = own
			}
		}
		s.remove(leastRecent(most))
	}
	ss.seen = now
	s.m[ss.id] = ss
	own := s.byKey[key]
	if own == nil {
		own = make(map[string]*session)
		s.byKey[key] = own
	}
	own[ss.id] = ss
	return ss
}

// leastRecent is the session of sessions used least recently.
func leastRecent(sessions map[string]*session) *session {
	var oldest *session
	for _, o := range sessions {
		if oldest == nil || o.seen.Before(oldest.seen) {
			oldest = o
		}
	}
	return oldest
}

// remove forgets a session; the caller holds s.mu.
func (s *sessions) remove(ss *session) {
	delete(s.m, ss.id)
	own := s.byKey[ss.key]
	delete(own, ss.id)
	if len(own) == 0 {
		delete(s.byKey, ss.key)
	}
}

// get returns the live session of id, marking it used, or nil.
func (s *sessions) get(id string) *session {
	s.mu.Lock()
	defer s.mu.Unlock()
	ss := s.m[id]
	if ss == nil {
		return nil
	}
	now := s.now()
	if now.Sub(ss.seen) > s.idle {
		s.remove(ss)
		return nil
	}
	ss.seen = now
	return ss
}

func (s *sessions) end(id string) {
	s.mu.Lock()
	if ss := s.m[id]; ss != nil {
		s.remove(ss)
	}
	s.mu.Unlock()
}

// setFlash keeps the message the next page shows.
func (s *sessions) setFlash(ss *session, msg string, isError bool) {
	s.mu.Lock()
	ss.flash, ss.flashError = msg, isError
	s.mu.Unlock()
}

// takeFlash returns the message and forgets it.
func (s *sessions) takeFlash(ss *session) (string, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	msg, isErr := ss.flash, ss.flashError
	ss.flash, ss.flashError = "", false
	return msg, isErr
}

// setCookie sends the session's cookie: the id only, HttpOnly, SameSite
// Strict, Secure when the page came over https, for the idle time.
func (s *sessions) setCookie(w http.ResponseWriter, r *http.Request, ss *session) {
	http.SetCookie(w, &http.Cookie{
		Name: cookieName, Value: ss.id, Path: "/", MaxAge: int(s.idle / time.Second),
		HttpOnly: true, SameSite: http.SameSiteStrictMode, Secure: overHTTPS(r),
	})
}

func clearCookie(w http.ResponseWriter, r *http.Request) {
	http.SetCookie(w, &http.Cookie{
		Name: cookieName, Value: "", Path: "/", MaxAge: -1,
		HttpOnly: true, SameSite: http.SameSiteStrictMode, Secure: overHTTPS(r),
	})
}

// overHTTPS reports whether the browser reached the page over https: on
// this server's TLS, or through a proxy that says so. A false claim only
// keeps the cookie from being sent over plain http.
func overHTTPS(r *http.Request) bool {
	return r.TLS != nil || strings.EqualFold(r.Header.Get("X-Forwarded-Proto"), "https")
}

// current returns the request's live session, or nil.
func (s *sessions) current(r *http.Request) *session {
	c, err := r.Cookie(cookieName)
	if err != nil || c.Value == "" {
		return nil
	}
	return s.get(c.Value)
}
