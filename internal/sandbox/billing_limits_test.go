package sandbox_test

import (
	"bytes"
	"fmt"
	"net/http"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/clock"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/sandboxtest"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/storage"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// fatMeta is metadata of n keys whose values are 500 '<', which JSON
// escapes sixfold.
func fatMeta(n int, kv ...string) []string {
	for i := range n {
		kv = append(kv, "metadata[k"+string(rune('a'+i))+"]", strings.Repeat("<", wire.MetadataValueMaxLength))
	}
	return kv
}

// clockAt reads a test clock.
func (e *env) clockAt(id string) *wire.TestClock {
	e.t.Helper()
	var k wire.TestClock
	e.get(wire.PathTestClocks+"/"+id, nil).ok(&k)
	return &k
}

// TestTestClocks_AdvanceStopsAtTheAccountLimit: an advance whose next
// renewal would take the account past its limit stops after its last
// whole step, says so, and keeps the account within its limit; one with
// no room for any step is refused whole and changes nothing; once room
// is made, the next advance goes on from where it stopped.
func TestTestClocks_AdvanceStopsAtTheAccountLimit(t *testing.T) {
	t.Parallel()
	const limit = 1 << 20
	sb := sandboxtest.Start(t, sandboxtest.WithLimits(sandbox.Limits{MaxAccountBytes: limit}))
	key := sandboxtest.NewKey(t)
	e := envOn(t, sb, key)
	pr := e.plan("1500")
	k := e.testClock("frozen_time", "2026-01-31T12:00:00Z")
	// Subscriptions until the account has room for a few renewals only,
	// then small customers to leave room for about four: each renewal
	// keeps an invoice and a payment, its events go first.
	var subs []*wire.Subscription
	var customers []string
	room := func() (room, step int64) {
		running, _ := sandbox.AccountBytes(sb.Server, key)
		step, events := sandbox.StepBytes(sb.Server, key, subs[0].ID)
		return limit - (running - events), step
	}
	for {
		cu := e.customer(vals("source", sandbox.TokenVisa, "test_clock", k.ID))
		s := e.subscribe(fatMeta(10, "customer", cu.ID, "items[0][price]", pr.ID)...)
		subs, customers = append(subs, s), append(customers, cu.ID)
		if r, step := room(); r < step+64<<10 {
			break
		}
	}
	for {
		if r, step := room(); r < step+4<<10 {
			t.Logf("%d subscriptions, room for %d bytes beside events, a step reserves %d", len(subs), r, step)
			break
		}
		e.customer(vals("name", "filler"))
	}
	if len(subs) < 4 {
		t.Fatalf("only %d subscriptions fit; the test needs more", len(subs))
	}

	const target = "2026-03-15T00:00:00Z"
	var k1 wire.TestClock
	first := e.post(wire.PathTestClocks+"/"+k.ID+"/advance", vals("frozen_time", target), idemKey("stopped")).ok(&k1)
	// The key keeps the answer that says how far the advance got.
	if again := e.post(wire.PathTestClocks+"/"+k.ID+"/advance", vals("frozen_time", target), idemKey("stopped")).ok(nil); !bytes.Equal(again.body, first.body) ||
		again.header.Get(wire.HeaderIdempotentReplayed) != "true" {
		t.Errorf("the keyed advance again answered %s, not its stored answer %s", again.body, first.body)
	}
	st := k1.StatusDetails.Stopped
	if st == nil || st.Code != wire.ErrorCodeAccountLimitExceeded || st.TargetFrozenTime != target || !strings.Contains(st.Message, "-max-account-bytes") {
		t.Fatalf("the advance did not say it stopped at the limit: %+v", k1)
	}
	if k1.FrozenTime != subs[0].CurrentPeriodEnd {
		t.Errorf("the clock stopped at %s; want the moment of its last renewal, %s", k1.FrozenTime, subs[0].CurrentPeriodEnd)
	}
	if running, recounted := sandbox.AccountBytes(sb.Server, key); running > limit || running != recounted {
		t.Errorf("the account keeps %d bytes (recount %d) after the advance; its limit is %d", running, recounted, limit)
	}
	renewed := 0
	for _, s := range subs {
		if n := len(e.invoices(s.ID)); n == 2 {
			renewed++
		} else if n != 1 {
			t.Errorf("subscription %s has %d invoices; want 1 or 2", s.ID, n)
		}
	}
	if renewed == 0 || renewed == len(subs) {
		t.Errorf("%d of %d subscriptions renewed; want some, not all", renewed, len(subs))
	}
	if got := e.clockAt(k.ID); got.StatusDetails.Stopped == nil || got.FrozenTime != k1.FrozenTime {
		t.Errorf("the clock reads %+v; want it as the advance answered", got)
	}

	// Filled to the brim: the next advance has room for no step.
	for {
		r := e.post("/v1/customers", vals(fatMeta(10)...))
		if r.status != http.StatusOK {
			break
		}
	}
	before, counted := accountState(e, customers[0]), sandbox.ObjectBytes(sb.Server, key)
	eb := e.post(wire.PathTestClocks+"/"+k.ID+"/advance", vals("frozen_time", target)).
		fails(http.StatusForbidden, wire.ErrorTypeInvalidRequest, wire.ErrorCodeAccountLimitExceeded, "")
	if !strings.Contains(eb.Error.Message, "-max-account-bytes") {
		t.Errorf("the refusal does not name the limit: %q", eb.Error.Message)
	}
	if after := accountState(e, customers[0]); !bytes.Equal(after, before) {
		t.Errorf("the refused advance changed what the account reads")
	}
	if after := sandbox.ObjectBytes(sb.Server, key); after != counted {
		t.Errorf("the refused advance changed the account's count: %d bytes, %d before", after, counted)
	}

	// Room made (the subscriptions' metadata, which each renewal's events
	// carry, dropped), the clock goes on from where it stopped, first the
	// renewals still due at its time.
	var list wire.List[wire.Customer]
	for {
		e.get("/v1/customers", vals("limit", "100")).ok(&list)
		gone := 0
		for _, cu := range list.Data {
			if cu.TestClock == "" {
				e.del("/v1/customers/" + cu.ID).ok(nil)
				gone++
			}
		}
		if gone == 0 {
			break
		}
	}
	for _, s := range subs {
		e.post(wire.PathSubscriptions+"/"+s.ID, vals("metadata", "")).ok(nil)
	}
	var k2 wire.TestClock
	e.post(wire.PathTestClocks+"/"+k.ID+"/advance", vals("frozen_time", target)).ok(&k2)
	if k2.FrozenTime != target || k2.StatusDetails.Stopped != nil {
		t.Errorf("after room was made the advance answered %+v; want the clock at %s", k2, target)
	}
	for _, s := range subs {
		if n := len(e.invoices(s.ID)); n != 2 {
			t.Errorf("subscription %s has %d invoices after the clock got to %s; want 2", s.ID, n, target)
		}
	}
	if running, _ := sandbox.AccountBytes(sb.Server, key); running > limit {
		t.Errorf("the account keeps %d bytes; its limit is %d", running, limit)
	}
}

// failAfter is a store whose commits fail, as a full disk's would, once
// ok more have succeeded, while armed.
type failAfter struct {
	storage.Store
	armed atomic.Bool
	ok    atomic.Int64
}

func (f *failAfter) Commit(account storage.AccountID, ops []storage.Op) error {
	if f.armed.Load() && f.ok.Add(-1) < 0 {
		return syscall.ENOSPC
	}
	return f.Store.Commit(account, ops)
}

// TestTestClocks_AdvanceCommitsInParts: an advance too large for one
// commit is written in parts of whole renewals; when a part fails, the
// parts written stay, in memory exactly as in the file, the clock at the
// moment they reached and marked interrupted, across a restart too; the
// same request again goes on from there to its target, invoicing no
// period twice.
func TestTestClocks_AdvanceCommitsInParts(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "sandbox.db")
	st, err := storage.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	store := &failAfter{Store: st}
	sb := sandboxtest.Start(t, sandboxtest.WithStore(store))
	key := sandboxtest.NewKey(t)
	e := envOn(t, sb, key)
	pr := e.plan("1500")
	k := e.testClock("frozen_time", "2026-01-31T12:00:00Z")
	// Each renewal reserves about 320 KiB: some twelve make a part.
	var subs []*wire.Subscription
	for range 30 {
		cu := e.customer(vals("source", sandbox.TokenVisa, "test_clock", k.ID))
		subs = append(subs, e.subscribe(fatMeta(10, "customer", cu.ID, "items[0][price]", pr.ID)...))
	}
	const target = "2026-03-15T00:00:00Z"
	store.ok.Store(1)
	store.armed.Store(true)
	eb := e.post(wire.PathTestClocks+"/"+k.ID+"/advance", vals("frozen_time", target), idemKey("advance")).
		fails(http.StatusServiceUnavailable, wire.ErrorTypeAPI, wire.ErrorCodeStorageUnavailable, "")
	store.armed.Store(false)
	if !strings.Contains(eb.Error.Message, "after writing part of this request") {
		t.Errorf("the 503 does not say part was written: %q", eb.Error.Message)
	}
	check := func(when string, e *env) {
		t.Helper()
		got := e.clockAt(k.ID)
		if st := got.StatusDetails.Stopped; got.FrozenTime != subs[0].CurrentPeriodEnd || st == nil ||
			st.Code != wire.TestClockStopInterrupted || st.TargetFrozenTime != target {
			t.Errorf("%s the clock reads %+v; want it at %s, interrupted short of %s", when, got, subs[0].CurrentPeriodEnd, target)
		}
		renewed := 0
		for _, s := range subs {
			if len(e.invoices(s.ID)) == 2 {
				renewed++
			}
		}
		if renewed == 0 || renewed == len(subs) {
			t.Errorf("%s %d of %d subscriptions renewed; want those of the part written", when, renewed, len(subs))
		}
		if running, recounted := sandbox.AccountBytes(e.srv, key); running != recounted {
			t.Errorf("%s the account counts %d bytes, its records %d", when, running, recounted)
		}
	}
	check("after the failed part", e)
	checkSummary(t, e, "after the failed part")
	before := accountState(e, subs[0].Customer)
	if err := sb.Close(); err != nil {
		t.Fatal(err)
	}
	e, stop := openEnv(t, path, key)
	defer func() { stop() }()
	check("after a restart", e)
	checkSummary(t, e, "after a restart")
	if after := accountState(e, subs[0].Customer); !bytes.Equal(after, before) {
		t.Errorf("after a restart the account reads otherwise than memory did before it")
	}

	var k2 wire.TestClock
	e.post(wire.PathTestClocks+"/"+k.ID+"/advance", vals("frozen_time", target), idemKey("advance")).ok(&k2)
	if k2.FrozenTime != target || k2.StatusDetails.Stopped != nil {
		t.Errorf("the advance again answered %+v; want the clock at %s", k2, target)
	}
	for _, s := range subs {
		if n := len(e.invoices(s.ID)); n != 2 {
			t.Errorf("subscription %s has %d invoices; want 2, its first period's and its second's once", s.ID, n)
		}
	}
	// The summary's days written part by part read back whole.
	checkSummary(t, e, "after the advance")
	stop()
	e, stop = openEnv(t, path, key)
	checkSummary(t, e, "after the advance and a restart")
}

// TestLimits_AdvanceTakesNoOtherAccountsRoom: the attack of fat prices,
// scaled down to limits of 4 MiB an account and 16 MiB in all: twenty
// prices with the most metadata, escaped sixfold, subscriptions of all
// twenty until the account is full, then one advance over two periods.
// The attacker's account never keeps more than its limit, the sandbox
// never more than its total, and another account's writes succeed
// throughout.
func TestLimits_AdvanceTakesNoOtherAccountsRoom(t *testing.T) {
	t.Parallel()
	const perAccount, total = 4 << 20, 16 << 20
	sb := sandboxtest.Start(t, sandboxtest.WithLimits(sandbox.Limits{MaxAccountBytes: perAccount, MaxTotalBytes: total}))
	key := sandboxtest.NewKey(t)
	a := envOn(t, sb, key)
	b := a.other()
	prod := a.product("name", "Fat")
	items := []string{}
	// Half the most metadata a price takes, escaped sixfold (all of it,
	// twenty times, is most of the account's 4 MiB): each price's
	// metadata is some 80 KB of JSON, which an event of a subscription
	// of all twenty embedded twenty times before.
	for i := range wire.SubscriptionItemsMax {
		f := []string{"product", prod.ID, "currency", "USD", "unit_amount", "100", "recurring[interval]", "month"}
		for j := range wire.MetadataMaxKeys / 2 {
			f = append(f, fmt.Sprintf("metadata[%02d%s]", j, strings.Repeat("<", wire.MetadataKeyMaxLength-2)), strings.Repeat("<", wire.MetadataValueMaxLength))
		}
		var pr wire.Price
		a.post(wire.PathPrices, vals(f...)).ok(&pr)
		items = append(items, fmt.Sprintf("items[%d][price]", i), pr.ID)
	}
	k := a.testClock("frozen_time", "2026-01-31T12:00:00Z")
	subs := 0
	for {
		var cu wire.Customer
		if r := a.post(wire.PathCustomers, vals("source", sandbox.TokenVisa, "test_clock", k.ID)); r.status != http.StatusOK {
			break
		} else {
			r.ok(&cu)
		}
		var sub wire.Subscription
		if r := a.post(wire.PathSubscriptions, vals(append([]string{"customer", cu.ID}, items...)...)); r.status != http.StatusOK {
			break
		} else {
			r.ok(&sub)
		}
		subs++
		// Leave the advance room to go some way, besides the events that
		// go first: a write may cross the limit by its own records, a
		// renewal never.
		running, _ := sandbox.AccountBytes(sb.Server, key)
		if _, events := sandbox.StepBytes(sb.Server, key, sub.ID); running-events > perAccount*3/4 {
			break
		}
	}
	t.Logf("%d items a subscription, %d subscriptions", len(items)/2, subs)

	// The other account writes, and the sandbox's total and heap are
	// watched, while the advance runs.
	var (
		stop      = make(chan struct{})
		wg        sync.WaitGroup
		writes    atomic.Int64
		refused   atomic.Int64
		peakTotal atomic.Int64
		peakHeap  atomic.Uint64
	)
	wg.Add(2)
	go func() {
		defer wg.Done()
		for {
			select {
			case <-stop:
				return
			default:
			}
			if r := b.post(wire.PathCustomers, vals("name", "other")); r.status == http.StatusOK {
				writes.Add(1)
			} else {
				refused.Add(1)
			}
		}
	}()
	go func() {
		defer wg.Done()
		var ms runtime.MemStats
		for {
			select {
			case <-stop:
				return
			case <-time.After(5 * time.Millisecond):
			}
			if n := sandbox.TotalBytes(sb.Server); n > peakTotal.Load() {
				peakTotal.Store(n)
			}
			runtime.ReadMemStats(&ms)
			if ms.HeapInuse > peakHeap.Load() {
				peakHeap.Store(ms.HeapInuse)
			}
		}
	}()
	var k2 wire.TestClock
	r := a.post(wire.PathTestClocks+"/"+k.ID+"/advance", vals("frozen_time", "2026-03-31T12:00:00Z"))
	close(stop)
	wg.Wait()
	switch r.status {
	case http.StatusOK:
		r.ok(&k2)
		t.Logf("the advance answered the clock at %s, stopped %+v", k2.FrozenTime, k2.StatusDetails.Stopped)
	case http.StatusForbidden:
		r.fails(http.StatusForbidden, wire.ErrorTypeInvalidRequest, wire.ErrorCodeAccountLimitExceeded, "")
		t.Logf("the advance was refused whole: %s", r.body)
	default:
		t.Errorf("the advance answered %d: %s", r.status, r.body)
	}
	t.Logf("the other account wrote %d times, %d refused; the sandbox kept at most %d bytes, the heap in use at most %d MiB",
		writes.Load(), refused.Load(), peakTotal.Load(), peakHeap.Load()>>20)
	if refused.Load() > 0 || writes.Load() == 0 {
		t.Errorf("the other account's writes: %d succeeded, %d refused; want every one to succeed", writes.Load(), refused.Load())
	}
	if running, recounted := sandbox.AccountBytes(sb.Server, key); running > perAccount || running != recounted {
		t.Errorf("the attacker's account keeps %d bytes (recount %d); its limit is %d", running, recounted, perAccount)
	}
	if peakTotal.Load() > total {
		t.Errorf("the sandbox kept %d bytes; its total is %d", peakTotal.Load(), total)
	}
	if peakHeap.Load() > 512<<20 {
		t.Errorf("the heap in use reached %d MiB during the advance", peakHeap.Load()>>20)
	}
	b.post(wire.PathCustomers, vals("name", "after")).ok(nil)
}

// TestRenewals_RunCommitsInParts: a run of renewals on real time too
// large for one part is written in several, each of whole renewals, and
// a restart finds every period invoiced once.
func TestRenewals_RunCommitsInParts(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "sandbox.db")
	st, err := storage.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	store := &failAfter{Store: st}
	fake := clock.NewFake(jan31)
	sb := sandboxtest.Start(t, sandboxtest.WithStore(store), sandboxtest.WithClock(fake))
	key := sandboxtest.NewKey(t)
	e := envOn(t, sb, key)
	pr := e.plan("1500")
	var subs []*wire.Subscription
	for range 30 {
		cu := e.customer(vals("source", sandbox.TokenVisa))
		subs = append(subs, e.subscribe(fatMeta(10, "customer", cu.ID, "items[0][price]", pr.ID)...))
	}
	const many = 1 << 30
	store.ok.Store(many)
	store.armed.Store(true)
	fake.Set(time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)) // one period ended
	sandbox.RunRenewals(sb.Server)
	store.armed.Store(false)
	if commits := many - store.ok.Load(); commits < 2 {
		t.Errorf("the run was written in %d commits; want several parts", commits)
	}
	if err := sb.Close(); err != nil {
		t.Fatal(err)
	}
	e, stop := openEnv(t, path, key, sandboxtest.WithClock(fake))
	defer stop()
	for _, s := range subs {
		if n := len(e.invoices(s.ID)); n != 2 {
			t.Errorf("subscription %s has %d invoices after a restart; want 2", s.ID, n)
		}
	}
}

// TestTestClocks_AdvanceRefusedAtTheSandboxTotal: when the other accounts
// keep what -max-total-bytes allows, an advance with no room for a step
// is refused whole with sandbox_limit_exceeded, naming the flag, and
// changes nothing.
func TestTestClocks_AdvanceRefusedAtTheSandboxTotal(t *testing.T) {
	t.Parallel()
	const total = 1 << 20
	sb := sandboxtest.Start(t, sandboxtest.WithLimits(sandbox.Limits{MaxTotalBytes: total}))
	key := sandboxtest.NewKey(t)
	e := envOn(t, sb, key)
	pr := e.plan("1500")
	k := e.testClock("frozen_time", "2026-01-31T12:00:00Z")
	cu := e.customer(vals("source", sandbox.TokenVisa, "test_clock", k.ID))
	e.subscribe(fatMeta(10, "customer", cu.ID, "items[0][price]", pr.ID)...)
	other := e.other()
	for other.post(wire.PathCustomers, vals(fatMeta(10)...)).status == http.StatusOK {
	}
	before, counted := accountState(e, cu.ID), sandbox.ObjectBytes(sb.Server, key)
	eb := e.post(wire.PathTestClocks+"/"+k.ID+"/advance", vals("frozen_time", "2026-03-15T00:00:00Z")).
		fails(http.StatusForbidden, wire.ErrorTypeInvalidRequest, wire.ErrorCodeSandboxLimitExceeded, "")
	if !strings.Contains(eb.Error.Message, "-max-total-bytes") {
		t.Errorf("the refusal does not name the limit: %q", eb.Error.Message)
	}
	if after := accountState(e, cu.ID); !bytes.Equal(after, before) {
		t.Errorf("the refused advance changed what the account reads")
	}
	if after := sandbox.ObjectBytes(sb.Server, key); after != counted {
		t.Errorf("the refused advance changed the account's count: %d bytes, %d before", after, counted)
	}
}
