package delivery_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/clock"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/delivery"
)

// account is a delivery.Account of the tests: every event goes to the URL
// its endpoint names, signed with a fixed secret.
type account struct {
	book    delivery.Book
	mu      sync.Mutex
	targets map[string]string // endpoint -> URL
}

func newAccount(targets map[string]string) *account { return &account{targets: targets} }

func (a *account) Book() *delivery.Book { return &a.book }

func (a *account) Target(event, endpoint string) (delivery.Target, bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	u, ok := a.targets[endpoint]
	return delivery.Target{URL: u, Secret: "whsec_test", Body: []byte(`{"id":"` + event + `"}`)}, ok
}

// host is a delivery.Host without a store that counts the outcomes.
type host struct{ delivered, failed atomic.Int64 }

func (*host) Stored() bool                                   { return false }
func (*host) Keyed() bool                                    { return false }
func (*host) Commit(delivery.Account, []delivery.Write) bool { return true }
func (h *host) Delivered(_ int, errText string) {
	if errText == "" {
		h.delivered.Add(1)
	} else {
		h.failed.Add(1)
	}
}

func start(t *testing.T, o delivery.Options, accounts ...*account) (*delivery.Engine, *host) {
	t.Helper()
	h := &host{}
	e, err := delivery.New(o, h, clock.Real())
	if err != nil {
		t.Fatal(err)
	}
	e.Start(func(yield func(delivery.Account) bool) {
		for _, a := range accounts {
			if !yield(a) {
				return
			}
		}
	})
	t.Cleanup(e.Stop)
	return e, h
}

// TestEngine_BacklogDelaysNoOtherAccount: one account's deliveries to
// receivers that never answer leave an eighth of the slots free; another
// account's delivery goes out while they hang.
func TestEngine_BacklogDelaysNoOtherAccount(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	var hanging atomic.Int64
	never := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {
		hanging.Add(1)
		<-release
	}))
	t.Cleanup(never.Close)
	t.Cleanup(func() { close(release) })
	got := make(chan struct{}, 1)
	fine := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		got <- struct{}{}
	}))
	t.Cleanup(fine.Close)

	const endpoints, concurrency = 8, 16 // the flooder's lanes could use 32 slots
	targets := map[string]string{}
	for i := range endpoints {
		targets[fmt.Sprintf("we_%d", i)] = never.URL
	}
	flooder, other := newAccount(targets), newAccount(map[string]string{"we_ok": fine.URL})
	e, _ := start(t, delivery.Options{Concurrency: concurrency, Timeout: time.Minute}, flooder, other)
	for ev := range 50 {
		for ep := range targets {
			e.Add(flooder, fmt.Sprintf("evt_%d", ev), ep)
		}
	}
	deadline := time.After(15 * time.Second)
	for hanging.Load() < concurrency/4 {
		select {
		case <-deadline:
			t.Fatalf("only %d of the flooder's attempts hang after 15 s", hanging.Load())
		case <-time.After(time.Millisecond):
		}
	}
	e.Add(other, "evt_other", "we_ok")
	select {
	case <-got:
	case <-time.After(15 * time.Second):
		t.Fatalf("the other account's delivery did not go out in 15 s while %d of the flooder's attempts hang", hanging.Load())
	}
	if n := hanging.Load(); n > concurrency-concurrency/8 {
		t.Errorf("%d of the flooder's attempts hang at once; past its share it may take slots only while %d stay free", n, concurrency/8)
	}
}

// TestBook_BytesFollowTheHeap: the running count of a book equals its
// recount through adds, attempts and cancels, and is near what pending
// deliveries really take on the heap.
func TestBook_BytesFollowTheHeap(t *testing.T) {
	const n = 20_000
	a := newAccount(map[string]string{})
	var charged atomic.Int64
	a.book.SetCharge(func(d int64) { charged.Add(d) })
	// Not started: the deliveries stay pending, in the heap of due ones.
	e, err := delivery.New(delivery.Options{}, &host{}, clock.NewFake(time.Unix(0, 0)))
	if err != nil {
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	for i := range n {
		e.Add(a, fmt.Sprintf("evt_%024d", i), "we_aaaaaaaaaaaaaaaaaaaaaaaa")
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	heap := int64(after.HeapAlloc) - int64(before.HeapAlloc)
	counted := a.book.Bytes()
	t.Logf("%d pending deliveries: counted %d bytes (%d each), heap grew %d (%d each)", n, counted, counted/n, heap, heap/n)
	if counted != a.book.Recount() || counted != charged.Load() {
		t.Errorf("running count %d, recount %d, charged %d: want all equal", counted, a.book.Recount(), charged.Load())
	}
	if counted < heap*3/4 {
		t.Errorf("pending deliveries counted at %d bytes, but they took %d on the heap", counted, heap)
	}
	// A cancel takes them all back.
	_, _ = e.CancelEndpoint(a, "we_aaaaaaaaaaaaaaaaaaaaaaaa")
	if got := a.book.Bytes(); got != 0 || charged.Load() != 0 || a.book.Pending() != 0 {
		t.Errorf("after cancelling every delivery: %d bytes, %d charged, %d pending; want 0", got, charged.Load(), a.book.Pending())
	}
}

// TestEngine_OrderPerLaneUnderCap: with one slot for everything, each
// endpoint still gets its events in the order they were added.
func TestEngine_OrderPerLaneUnderCap(t *testing.T) {
	t.Parallel()
	const endpoints, events = 3, 12
	var mu sync.Mutex
	got := map[string][]string{} // endpoint -> event ids, in arrival order
	var wg sync.WaitGroup
	wg.Add(endpoints * events)
	rc := httptest.NewServer(http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) {
		defer wg.Done()
		var body struct{ ID string }
		_ = json.NewDecoder(r.Body).Decode(&body)
		mu.Lock()
		got[r.URL.Path] = append(got[r.URL.Path], body.ID)
		mu.Unlock()
	}))
	t.Cleanup(rc.Close)
	targets := map[string]string{}
	for i := range endpoints {
		targets[fmt.Sprintf("we_%d", i)] = fmt.Sprintf("%s/we_%d", rc.URL, i)
	}
	a := newAccount(targets)
	e, h := start(t, delivery.Options{Concurrency: 1}, a)
	for ev := range events {
		for i := range endpoints {
			e.Add(a, fmt.Sprintf("evt_%02d", ev), fmt.Sprintf("we_%d", i))
		}
	}
	wg.Wait()
	mu.Lock()
	defer mu.Unlock()
	for ep, ids := range got {
		for i, id := range ids {
			if want := fmt.Sprintf("evt_%02d", i); id != want {
				t.Errorf("%s got %v, want the events in the order they were added", ep, ids)
				break
			}
		}
	}
	// The receiver answered every one; the engine counts each once it has
	// read the answer.
	deadline := time.Now().Add(15 * time.Second)
	for h.delivered.Load() != endpoints*events {
		if time.Now().After(deadline) {
			t.Fatalf("%d attempts counted delivered after 15 s, want %d", h.delivered.Load(), endpoints*events)
		}
		time.Sleep(time.Millisecond)
	}
}

// storeHost is a delivery.Host with a store: it keeps what it is asked
// to commit, by bucket and key, as the sandbox's data file would.
type storeHost struct {
	host
	mu   sync.Mutex
	recs map[string]map[string][]byte
}

func (*storeHost) Stored() bool { return true }

func (s *storeHost) Commit(_ delivery.Account, w []delivery.Write) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.apply(w)
	return true
}

func (s *storeHost) apply(w []delivery.Write) {
	for _, x := range w {
		if s.recs[x.Bucket] == nil {
			s.recs[x.Bucket] = map[string][]byte{}
		}
		if x.Value == nil {
			delete(s.recs[x.Bucket], x.Key)
		} else {
			s.recs[x.Bucket][x.Key] = x.Value
		}
	}
}

func (s *storeHost) buckets() map[string][][]byte {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := map[string][][]byte{}
	for b, m := range s.recs {
		for _, v := range m {
			out[b] = append(out[b], v)
		}
	}
	return out
}

// TestLoad_WhatTheEngineWrote: the records the engine writes, for its
// requests and its attempts, load back into the same pending deliveries
// and delivery log, in order; a malformed id is refused.
func TestLoad_WhatTheEngineWrote(t *testing.T) {
	t.Parallel()
	rc := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusInternalServerError) }))
	t.Cleanup(rc.Close)
	a := newAccount(map[string]string{"we_a": rc.URL, "we_b": rc.URL})
	h := &storeHost{recs: map[string]map[string][]byte{}}
	clk := clock.NewFake(time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC))
	e, err := delivery.New(delivery.Options{Attempts: 3, RetryBase: time.Hour}, h, clk)
	if err != nil {
		t.Fatal(err)
	}
	e.Start(func(func(delivery.Account) bool) {})
	for _, ep := range []string{"we_a", "we_b"} {
		w, _ := e.Add(a, "evt_1", ep)
		h.Commit(a, w) // the request's own write
	}
	deadline := time.Now().Add(15 * time.Second)
	for len(a.book.Log()) < 2 {
		if time.Now().After(deadline) {
			t.Fatalf("%d attempts logged after 15 s, want 2", len(a.book.Log()))
		}
		time.Sleep(time.Millisecond)
	}
	e.Stop() // flushes what the attempts recorded

	b := newAccount(nil)
	if err := delivery.Load(b, h.buckets(), func(ev, ep string) bool { return ev != "" && ep != "" }); err != nil {
		t.Fatal(err)
	}
	if b.book.Pending() != 2 {
		t.Errorf("%d deliveries pending after the load, want 2 (each failed once of 3)", b.book.Pending())
	}
	want, loaded := a.book.Log(), b.book.Log()
	if len(loaded) != len(want) {
		t.Fatalf("%d attempts loaded, want %d", len(loaded), len(want))
	}
	for i := range want {
		w, l := *want[i], *loaded[i]
		w.Duration = w.Duration.Truncate(time.Microsecond) // stored in microseconds
		if w != l {
			t.Errorf("attempt %d loaded as %+v, want %+v", i, l, w)
		}
	}
	if b.book.Bytes() != b.book.Recount() || b.book.Bytes() == 0 {
		t.Errorf("loaded book counted at %d, recount %d", b.book.Bytes(), b.book.Recount())
	}
	if err := delivery.Load(newAccount(nil), h.buckets(), func(string, string) bool { return false }); err == nil {
		t.Error("records with ids the sandbox refuses loaded without an error")
	}
}

// TestBook_Days: attempts count on their day on the engine's clock, days
// a year older than the newest go, the days load back as written, and a
// book stored without them counts them from its log.
func TestBook_Days(t *testing.T) {
	t.Parallel()
	rc := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusInternalServerError) }))
	t.Cleanup(rc.Close)
	a := newAccount(map[string]string{"we_a": rc.URL})
	h := &storeHost{recs: map[string]map[string][]byte{}}
	day0 := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
	clk := clock.NewFake(day0)
	e, err := delivery.New(delivery.Options{Attempts: 3, RetryBase: time.Hour}, h, clk)
	if err != nil {
		t.Fatal(err)
	}
	e.Start(func(func(delivery.Account) bool) {})
	w, _ := e.Add(a, "evt_1", "we_a")
	h.Commit(a, w)
	waitLog := func(n int) {
		deadline := time.Now().Add(15 * time.Second)
		for len(a.book.Log()) < n {
			if time.Now().After(deadline) {
				t.Fatalf("%d attempts logged after 15 s, want %d", len(a.book.Log()), n)
			}
			time.Sleep(time.Millisecond)
		}
	}
	waitLog(1)
	d0 := day0.Unix() / 86400
	if got := a.book.Days(d0-1, d0+1); len(got) != 1 || got[0] != (delivery.DayTally{Day: d0, Failed: 1}) {
		t.Errorf("days after the first attempt: %+v", got)
	}
	clk.Set(day0.AddDate(0, 0, 400)) // the retry, 400 days on
	waitLog(2)
	e.Stop()
	want := []delivery.DayTally{{Day: d0 + 400, Failed: 1}}
	if got := a.book.Days(d0-1000, d0+1000); !slices.Equal(got, want) {
		t.Errorf("days after the retry: %+v, want %+v (the first day dropped)", got, want)
	}
	if a.book.Bytes() != a.book.Recount() {
		t.Errorf("book counted at %d, recount %d", a.book.Bytes(), a.book.Recount())
	}

	b := newAccount(nil)
	if err := delivery.Load(b, h.buckets(), func(string, string) bool { return true }); err != nil {
		t.Fatal(err)
	}
	if got := b.book.Days(d0-1000, d0+1000); !slices.Equal(got, want) {
		t.Errorf("days loaded: %+v, want %+v", got, want)
	}
	old := h.buckets()
	delete(old, delivery.BucketDays)
	c := newAccount(nil)
	if err := delivery.Load(c, old, func(string, string) bool { return true }); err != nil {
		t.Fatal(err)
	}
	if got := c.book.Days(d0-1000, d0+1000); !slices.Equal(got, []delivery.DayTally{{Day: d0, Failed: 1}, {Day: d0 + 400, Failed: 1}}) {
		t.Errorf("days counted from the log: %+v", got)
	}
	if c.book.Bytes() != c.book.Recount() {
		t.Errorf("loaded book counted at %d, recount %d", c.book.Bytes(), c.book.Recount())
	}
}
