package delivery

import (
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/clock"
)

type restoreAccount struct {
	book Book
	url  string
}

func (a *restoreAccount) Book() *Book { return &a.book }
func (a *restoreAccount) Target(event, _ string) (Target, bool) {
	return Target{URL: a.url, Secret: "whsec_test", Body: []byte(`{"id":"` + event + `"}`)}, true
}

type restoreHost struct{}

func (restoreHost) Stored() bool                 { return false }
func (restoreHost) Keyed() bool                  { return false }
func (restoreHost) Commit(Account, []Write) bool { return true }
func (restoreHost) Delivered(int, string)        {}

// TestEngine_UndoResumesAnAttemptMadeMeanwhile: an attempt in flight
// while a request takes its delivery out of the book (a reset, an
// endpoint's delete) finds it gone and schedules nothing more. Should
// that request's write fail, its undo puts the delivery back, and the
// delivery is attempted again at once, not left pending for ever.
func TestEngine_UndoResumesAnAttemptMadeMeanwhile(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		take func(e *Engine, a Account) Undo
	}{
		{"reset", func(e *Engine, a Account) Undo { return e.Reset(a) }},
		{"cancel endpoint", func(e *Engine, a Account) Undo {
			_, undo := e.CancelEndpoint(a, "we_1")
			return undo
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			hits := make(chan struct{}, 10)
			release := make(chan struct{})
			var first sync.Once
			rc := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
				hits <- struct{}{}
				first.Do(func() { <-release }) // the first attempt hangs until released
				w.WriteHeader(http.StatusInternalServerError)
			}))
			t.Cleanup(rc.Close)
			t.Cleanup(func() {
				select {
				case <-release:
				default:
					close(release)
				}
			})
			next := func(what string) {
				t.Helper()
				select {
				case <-hits:
				case <-time.After(10 * time.Second):
					t.Fatalf("no attempt within 10s: %s", what)
				}
			}

			// Retries never come due on their own: the clock does not move.
			clk := clock.NewFake(time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC))
			e, err := New(Options{Attempts: 5, RetryBase: time.Hour}, restoreHost{}, clk)
			if err != nil {
				t.Fatal(err)
			}
			a := &restoreAccount{url: rc.URL}
			e.Start(func(yield func(Account) bool) { yield(a) })
			t.Cleanup(e.Stop)
			e.Add(a, "evt_1", "we_1")
			next("the first attempt")

			undo := tc.take(e, a)
			close(release)
			// The attempt ends, finding its delivery gone, before the undo.
			deadline := time.Now().Add(10 * time.Second)
			for {
				e.mu.Lock()
				idle := len(e.lanes) == 0
				e.mu.Unlock()
				if idle {
					break
				}
				if time.Now().After(deadline) {
					t.Fatal("the first attempt did not end within 10s")
				}
				time.Sleep(time.Millisecond)
			}
			if n := len(a.book.Log()); n != 0 {
				t.Fatalf("the attempt of a delivery taken out was recorded: %d log lines", n)
			}

			a.book.Undo([]Undo{undo})
			if n := a.book.Pending(); n != 1 {
				t.Fatalf("%d deliveries pending after the undo, want 1", n)
			}
			next("the attempt made again after the undo")
			deadline = time.Now().Add(10 * time.Second)
			for len(a.book.Log()) == 0 {
				if time.Now().After(deadline) {
					t.Fatal("the attempt made again was not recorded within 10s")
				}
				time.Sleep(time.Millisecond)
			}
			if at := a.book.Log()[0]; at.N != 1 || at.Status != http.StatusInternalServerError || at.RetryMS == 0 {
				t.Errorf("the attempt made again: %+v, want attempt 1, 500, a retry scheduled", at)
			}
			select {
			case <-hits:
				t.Error("the delivery was attempted twice after the undo")
			default:
			}
		})
	}
}
