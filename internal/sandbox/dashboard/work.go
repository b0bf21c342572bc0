package dashboard

import (
	"context"
	"net/http"
	"sync"
)

// The dashboard's in-process requests are answered whole (recorder), not
// streamed as the API streams a list to a client, and decoded before a
// page is rendered: one payment's page reads up to eventScanPages pages
// of a hundred events, tens of MB when events carry large metadata, and
// seconds of CPU. Unbounded, a key holder asking for such pages at once
// from many connections multiplies that past the sandbox's memory bound
// (60 of them took it to 1.6 GB resident). So the work of signed-in pages
// is gated: at most maxWork at once in all, and maxWorkPerKey of one key,
// so that one key holder's flood leaves the other slots to the others.

const (
	maxWork       = 4
	maxWorkPerKey = 1
)

// work is the gate: a slot in all, and a turn of the key, held from the
// start of a page's work until its answer is ready to be sent.
type work struct {
	slots chan struct{}
	mu    sync.Mutex
	keys  map[string]*keyTurns
}

// keyTurns is one key's turns, and how many of its requests hold or wait
// for one (the entry goes when none does).
type keyTurns struct {
	turns chan struct{}
	users int
}

func newWork() *work {
	return &work{slots: make(chan struct{}, maxWork), keys: make(map[string]*keyTurns)}
}

// acquire waits for a turn of key and a slot, or for ctx to end (the
// client went away): then ok is false and nothing is held. release gives
// both back; it may be called more than once.
func (wk *work) acquire(ctx context.Context, key string) (release func(), ok bool) {
	wk.mu.Lock()
	kt := wk.keys[key]
	if kt == nil {
		kt = &keyTurns{turns: make(chan struct{}, maxWorkPerKey)}
		wk.keys[key] = kt
	}
	kt.users++
	wk.mu.Unlock()
	leave := func() {
		wk.mu.Lock()
		if kt.users--; kt.users == 0 {
			delete(wk.keys, key)
		}
		wk.mu.Unlock()
	}
	select {
	case kt.turns <- struct{}{}:
	case <-ctx.Done():
		leave()
		return nil, false
	}
	select {
	case wk.slots <- struct{}{}:
	case <-ctx.Done():
		<-kt.turns
		leave()
		return nil, false
	}
	var once sync.Once
	return func() {
		once.Do(func() {
			<-wk.slots
			<-kt.turns
			leave()
		})
	}, true
}

// queued is how many requests of key hold or wait for a turn.
func (wk *work) queued(key string) int {
	wk.mu.Lock()
	defer wk.mu.Unlock()
	if kt := wk.keys[key]; kt != nil {
		return kt.users
	}
	return 0
}

// releasingWriter gives the page's turn back as its answer starts: from
// then on the work is done, and a client that reads slowly holds only the
// rendered page, not a turn.
type releasingWriter struct {
	http.ResponseWriter
	release func()
}

func (w releasingWriter) WriteHeader(status int) {
	w.release()
	w.ResponseWriter.WriteHeader(status)
}

func (w releasingWriter) Write(b []byte) (int, error) {
	w.release()
	return w.ResponseWriter.Write(b)
}

func (w releasingWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
