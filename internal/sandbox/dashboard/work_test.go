package dashboard

import (
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"
)

// blockingAPI answers every list with an empty page, once let go, and
// counts the requests of each key it is answering.
type blockingAPI struct {
	mu       sync.Mutex
	inflight map[string]int
	most     map[string]int
	total    int
	mostAll  int
	gate     chan struct{}
}

func (b *blockingAPI) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	key, _, _ := r.BasicAuth()
	b.mu.Lock()
	b.inflight[key]++
	b.most[key] = max(b.most[key], b.inflight[key])
	b.total++
	b.mostAll = max(b.mostAll, b.total)
	b.mu.Unlock()
	<-b.gate
	b.mu.Lock()
	b.inflight[key]--
	b.total--
	b.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write([]byte(`{"object":"list","data":[],"has_more":false}`))
}

func (b *blockingAPI) count(key string) int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.inflight[key]
}

// waitFor polls cond until it holds, or fails the test at the deadline.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting until %s", what)
		}
		time.Sleep(time.Millisecond)
	}
}

// TestDashboard_PageWorkIsBounded floods the customers page from one key
// and checks that it holds one turn at a time, while another key's page is
// still served: the pages' in-process answers are built whole, so their
// number at once must be bounded, and one key must not take every slot.
func TestDashboard_PageWorkIsBounded(t *testing.T) {
	api := &blockingAPI{inflight: map[string]int{}, most: map[string]int{}, gate: make(chan struct{})}
	d, err := New(Options{API: api})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(d)
	var letGo sync.Once
	release := func() { letGo.Do(func() { close(api.gate) }) }
	defer ts.Close()
	defer release() // before Close, which waits for the pages in flight
	const flooder, other = "sk_sandbox_flooderflooder1", "sk_sandbox_otherotherother1"
	get := func(key string, done chan<- int) {
		ss := d.sessions.start(key, accountLabel(key), "pk_sandbox_x")
		req, _ := http.NewRequest(http.MethodGet, ts.URL+"/customers", nil)
		req.AddCookie(&http.Cookie{Name: cookieName, Value: ss.id})
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			done <- 0
			return
		}
		resp.Body.Close()
		done <- resp.StatusCode
	}

	const flood = 10
	done := make(chan int, flood+1)
	for range flood {
		go get(flooder, done)
	}
	waitFor(t, "the flood is all in the gate or past it", func() bool {
		return (d.work.queued(flooder) == flood && api.count(flooder) >= 1) || api.count(flooder) > maxWorkPerKey
	})
	if n := api.count(flooder); n != maxWorkPerKey {
		t.Fatalf("one key has %d pages at work at once; want at most %d", n, maxWorkPerKey)
	}
	go get(other, done)
	waitFor(t, "the other key's page is at work", func() bool { return api.count(other) == 1 })

	release()
	for range flood + 1 {
		if status := <-done; status != http.StatusOK {
			t.Errorf("a page answered %d; want 200", status)
		}
	}
	if api.mostAll > maxWork {
		t.Errorf("%d pages were at work at once; want at most %d", api.mostAll, maxWork)
	}
	if d.work.queued(flooder) != 0 || d.work.queued(other) != 0 {
		t.Errorf("turns left behind: %d and %d", d.work.queued(flooder), d.work.queued(other))
	}
}
