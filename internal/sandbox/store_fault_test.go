package sandbox_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/clock"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/sandboxtest"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/storage"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/storage/storagetest"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// refusedWrite checks a write the store could not take: 503
// storage_unavailable, a message that names no path and says nothing
// changed.
func refusedWrite(t *testing.T, r *result, dir string) {
	t.Helper()
	eb := r.fails(503, wire.ErrorTypeAPI, wire.ErrorCodeStorageUnavailable, "")
	if strings.Contains(eb.Error.Message, dir) || strings.Contains(eb.Error.Message, ".db") {
		t.Errorf("the message names the data file: %q", eb.Error.Message)
	}
	if !strings.Contains(eb.Error.Message, "changed nothing") {
		t.Errorf("the message does not say the request changed nothing: %q", eb.Error.Message)
	}
}

// accountState is what a client can read of an account: compared before
// and after failed writes, it must not have moved.
func accountState(e *env, customer string) []byte {
	e.t.Helper()
	var b bytes.Buffer
	for _, path := range []string{
		"/v1/customers/" + customer, "/v1/customers?limit=100", "/v1/payments?limit=100",
		wire.PathWebhookEndpoints + "?limit=100", wire.PathEvents + "?limit=100", wire.PathSandboxDeliveries,
		wire.PathProducts + "?limit=100", wire.PathPrices + "?limit=100",
	} {
		p, q, _ := strings.Cut(path, "?")
		v, _ := url.ParseQuery(q)
		b.Write(e.get(p, v).ok(nil).body)
		b.WriteByte('\n')
	}
	var sum wire.Summary
	e.get(wire.PathSandboxSummary, vals(wire.ParamSummaryDays, "366")).ok(&sum)
	sum.Now = "" // the sandbox's time goes on
	j, _ := json.Marshal(sum)
	b.Write(j)
	st := e.stats()
	st.Requests, st.Connections = wire.StatsRequests{}, 0 // these count the reads themselves
	j, _ = json.Marshal(st)
	b.Write(j)
	return b.Bytes()
}

// TestStore_WriteFailureChangesNothing: while the store's writes fail,
// every write is answered 503 storage_unavailable and changes nothing,
// not even in memory; reads and stored answers keep working; once the
// writes succeed again, so do requests, without a restart, and the file
// holds every write that was answered 200.
func TestStore_WriteFailureChangesNothing(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "sandbox.db")
	st, err := storage.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	faulty := &sandbox.FaultyStore{Store: st}
	sb := sandboxtest.Start(t, sandboxtest.WithStore(faulty))
	key := sandboxtest.NewKey(t)
	e := envOn(t, sb, key)
	rc := newReceiver(t)
	ep := e.endpoint(rc.URL+"/hook", wire.EventTypeAll)
	cu := e.customer(vals("email", "jo@example.com", "source", sandbox.TokenVisa))
	p1 := e.payment(pay("1000", "USD", "", "customer", cu.ID))
	kept := e.post("/v1/payments", pay("200", "USD", sandbox.TokenVisa), idemKey("kept")).ok(nil)
	gold, bare := e.product("name", "Gold"), e.product("name", "Bare")
	monthly := e.price(gold.ID, "recurring[interval]", "month", "lookup_key", "k")
	e.waitDeliveries(nil, len(e.events(vals("limit", "100"))))
	before := accountState(e, cu.ID)

	faulty.Fail.Store(true)
	if err := sb.Server.StoreHealthy(); err == nil {
		t.Error("StoreHealthy is nil while writes fail")
	}
	writes := []struct {
		name string
		do   func() *result
	}{
		{"create customer", func() *result { return e.post("/v1/customers", vals("name", "new")) }},
		{"update customer", func() *result { return e.post("/v1/customers/"+cu.ID, vals("name", "changed", "metadata[k]", "v")) }},
		{"delete customer", func() *result { return e.del("/v1/customers/" + cu.ID) }},
		{"add source", func() *result {
			return e.post("/v1/customers/"+cu.ID+"/sources", vals("source", sandbox.TokenAmex))
		}},
		{"create payment with a key", func() *result {
			return e.post("/v1/payments", pay("300", "EUR", sandbox.TokenVisa), idemKey("retry-me"))
		}},
		{"refund", func() *result { return e.post("/v1/payments/"+p1.ID+"/refund", vals("amount", "100")) }},
		{"update endpoint", func() *result { return e.post(wire.PathWebhookEndpoints+"/"+ep.ID, vals("disabled", "true")) }},
		{"delete endpoint", func() *result { return e.del(wire.PathWebhookEndpoints + "/" + ep.ID) }},
		{"create product", func() *result { return e.post(wire.PathProducts, vals("name", "New")) }},
		{"update product", func() *result { return e.post(wire.PathProducts+"/"+gold.ID, vals("active", "false")) }},
		{"delete product", func() *result { return e.del(wire.PathProducts + "/" + bare.ID) }},
		{"create price taking a lookup key", func() *result {
			return e.post(wire.PathPrices, vals("product", gold.ID, "currency", "USD", "unit_amount", "1", "lookup_key", "k", "transfer_lookup_key", "true"))
		}},
		{"update price", func() *result {
			return e.post(wire.PathPrices+"/"+monthly.ID, vals("active", "false", "lookup_key", "", "metadata[m]", "v"))
		}},
		{"reset", func() *result { return e.post("/_sandbox/reset", nil) }},
	}
	for _, w := range writes {
		t.Run(w.name, func(t *testing.T) {
			refusedWrite(t, w.do(), dir)
		})
	}
	// The same request again gets the same refusal, not idempotency_key_in_use.
	refusedWrite(t, e.post("/v1/payments", pay("300", "EUR", sandbox.TokenVisa), idemKey("retry-me")), dir)
	if after := accountState(e, cu.ID); !bytes.Equal(after, before) {
		t.Errorf("failed writes changed what the account reads:\n%s\nwant\n%s", after, before)
	}
	if running, recounted := sandbox.AccountBytes(sb.Server, key); running != recounted || sandbox.TotalBytes(sb.Server) != running {
		t.Errorf("after the rollbacks the account counts %d bytes, its records %d, the server %d", running, recounted, sandbox.TotalBytes(sb.Server))
	}
	if r := e.post("/v1/payments", pay("200", "USD", sandbox.TokenVisa), idemKey("kept")).ok(nil); !bytes.Equal(r.body, kept.body) ||
		r.header.Get(wire.HeaderIdempotentReplayed) != "true" {
		t.Errorf("a stored answer is not replayed while writes fail: %s", r.body)
	}

	faulty.Fail.Store(false)
	if err := sb.Server.StoreHealthy(); err != nil {
		t.Errorf("StoreHealthy once writes succeed: %v", err)
	}
	var retried wire.Payment
	r := e.post("/v1/payments", pay("300", "EUR", sandbox.TokenVisa), idemKey("retry-me")).ok(&retried)
	if r.header.Get(wire.HeaderIdempotentReplayed) != "" {
		t.Error("the retry of a refused write was a replay; it must run")
	}
	e.post("/v1/customers/"+cu.ID, vals("name", "changed")).ok(nil)
	// The lookup key is still the monthly price's, not the refused one's.
	e.post(wire.PathPrices, vals("product", gold.ID, "currency", "USD", "unit_amount", "1", "lookup_key", "k")).
		fails(400, wire.ErrorTypeInvalidRequest, wire.ErrorCodeParameterInvalid, wire.ParamLookupKey)
	events := e.events(vals("limit", "100"))
	// Every event is delivered once; the events of refused writes, which
	// never existed, never are.
	e.waitDeliveries(nil, len(events))
	known := make(map[string]bool)
	for _, ev := range events {
		known[ev.ID] = true
	}
	for len(rc.hits) > 0 {
		if id := (<-rc.hits).event(t).ID; !known[id] {
			t.Errorf("event %s was delivered but is not in the account's events", id)
		}
	}
	want := accountState(e, cu.ID)
	if err := sb.Close(); err != nil {
		t.Fatal(err)
	}

	// The file holds exactly what was answered.
	e, stop := openEnv(t, path, key)
	defer stop()
	if got := accountState(e, cu.ID); !bytes.Equal(got, want) {
		t.Errorf("state after reopening:\n%s\nwant\n%s", got, want)
	}
	if r := e.post("/v1/payments", pay("300", "EUR", sandbox.TokenVisa), idemKey("retry-me")).ok(nil); r.header.Get(wire.HeaderIdempotentReplayed) != "true" ||
		!strings.Contains(string(r.body), retried.ID) {
		t.Errorf("the retried write's answer after reopening: %s", r.body)
	}
}

// TestStore_OutcomeUnknown: a write whose record the store could neither
// sync nor erase is answered 503 saying its outcome is unknown, not that
// it changed nothing; the sandbox then answers nothing until a restart,
// and its health check fails.
func TestStore_OutcomeUnknown(t *testing.T) {
	t.Parallel()
	st, err := storage.Open(filepath.Join(t.TempDir(), "sandbox.db"))
	if err != nil {
		t.Fatal(err)
	}
	faulty := &sandbox.FaultyStore{Store: st}
	sb := sandboxtest.Start(t, sandboxtest.WithStore(faulty))
	e := envOn(t, sb, sandboxtest.NewKey(t))
	cu := e.customer(vals("email", "jo@example.com"))
	faulty.Unknown.Store(true)
	eb := e.post("/v1/customers", vals("name", "maybe")).fails(503, wire.ErrorTypeAPI, wire.ErrorCodeStorageUnavailable, "")
	for _, part := range []string{"outcome of this request is unknown", "input/output error", "restarted"} {
		if !strings.Contains(eb.Error.Message, part) {
			t.Errorf("the answer %q lacks %q", eb.Error.Message, part)
		}
	}
	if strings.Contains(eb.Error.Message, "changed nothing") {
		t.Errorf("the answer says the request changed nothing: %q", eb.Error.Message)
	}
	faulty.Unknown.Store(false) // the sandbox stays stopped all the same
	if err := sb.Server.StoreHealthy(); err == nil {
		t.Error("StoreHealthy is nil after an unknown outcome")
	}
	e.get("/v1/customers/"+cu.ID, nil).fails(503, wire.ErrorTypeAPI, wire.ErrorCodeStorageUnavailable, "")
}

// TestStore_FullDisk fills a real file system: the data file on a 2 MB
// tmpfs, and a filler file taking the rest. Writes then get 503 without
// the path, reads keep working, and once the filler is gone writes succeed
// again on the same server; the reopened file has every acknowledged write.
func TestStore_FullDisk(t *testing.T) {
	t.Parallel()
	dir := storagetest.SmallDisk(t)
	path := filepath.Join(dir, "sandbox.db")
	st, err := storage.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	sb := sandboxtest.Start(t, sandboxtest.WithStore(st))
	key := sandboxtest.NewKey(t)
	e := envOn(t, sb, key)

	// Big customers, so that each write needs new pages of the file.
	big := vals("name", "full disk")
	for i := range 8 {
		big.Set(fmt.Sprintf("metadata[k%d]", i), strings.Repeat(string(rune('a'+i)), wire.MetadataValueMaxLength))
	}
	var acked []string
	create := func(idem string) *result {
		r := e.post("/v1/customers", big, idemKey(idem))
		if r.status == 200 {
			var c wire.Customer
			r.ok(&c)
			acked = append(acked, c.ID)
		}
		return r
	}
	for i := range 5 {
		create(fmt.Sprintf("before-%d", i)).ok(nil)
	}

	filler := filepath.Join(dir, "filler")
	f, err := os.Create(filler)
	if err != nil {
		t.Fatal(err)
	}
	chunk := make([]byte, 64<<10)
	for {
		if _, err := f.Write(chunk); err != nil {
			if !errors.Is(err, syscall.ENOSPC) {
				t.Fatalf("filling the tmpfs: %v", err)
			}
			break
		}
	}
	_ = f.Close()

	// Pages the file already has may still take a write or two; it runs
	// out soon after.
	var refused *result
	for i := 0; refused == nil; i++ {
		if i == 500 {
			t.Fatal("500 writes succeeded on a full file system")
		}
		if r := create(fmt.Sprintf("full-%d", i)); r.status != 200 {
			refused = r
		}
	}
	t.Logf("%d writes acknowledged before the first refusal", len(acked))
	refusedWrite(t, refused, dir)
	if msg := refused.fails(503, wire.ErrorTypeAPI, wire.ErrorCodeStorageUnavailable, "").Error.Message; !strings.Contains(msg, "no space left on device") {
		t.Errorf("the message does not name the cause: %q", msg)
	}
	if got := e.stats().Customers; got != int64(len(acked)) {
		t.Errorf("stats on a full disk: %d customers, want the %d acknowledged", got, len(acked))
	}
	for _, id := range acked {
		e.get("/v1/customers/"+id, nil).ok(nil)
	}

	if err := sb.Server.StoreHealthy(); err == nil || !strings.Contains(err.Error(), "no space left on device") {
		t.Errorf("StoreHealthy on a full disk: %v, want no space left on device", err)
	}
	if err := os.Remove(filler); err != nil {
		t.Fatal(err)
	}
	if err := sb.Server.StoreHealthy(); err != nil {
		t.Errorf("StoreHealthy once the disk has room: %v", err)
	}
	for i := range 5 {
		create(fmt.Sprintf("after-%d", i)).ok(nil)
	}
	if err := sb.Close(); err != nil {
		t.Fatal(err)
	}

	e, stop := openEnv(t, path, key)
	defer stop()
	if got := e.stats().Customers; got != int64(len(acked)) {
		t.Errorf("after reopening: %d customers, want the %d acknowledged", got, len(acked))
	}
	for _, id := range acked {
		e.get("/v1/customers/"+id, nil).ok(nil)
	}
}

// TestStore_DeliveryWriteFailure: delivery records that cannot be written
// stay in memory and are written once the store takes writes again; the
// delivery is not made twice.
func TestStore_DeliveryWriteFailure(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "sandbox.db")
	st, err := storage.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	faulty := &sandbox.FaultyStore{Store: st}
	sb := sandboxtest.Start(t, sandboxtest.WithStore(faulty))
	key := sandboxtest.NewKey(t)
	e := envOn(t, sb, key)
	rc := newReceiver(t)
	rc.handle = func(w http.ResponseWriter, _ *http.Request, _ hit) {
		// The attempt is answered, but its record cannot be written yet.
		faulty.Fail.Store(true)
		w.WriteHeader(http.StatusOK)
	}
	e.endpoint(rc.URL+"/hook", wire.EventTypeAll)
	cu := e.customer(vals("name", "x"))
	if ev := rc.next(t).event(t); !strings.Contains(string(ev.Data.Object), cu.ID) {
		t.Errorf("delivered %s, want the customer's event", ev.Data.Object)
	}
	waitFor(t, 15*time.Second, "a failed write of the delivery's record", func() bool { return faulty.Failed.Load() > 0 })
	if ds := e.deliveries(nil); len(ds) != 1 || ds[0].Status != http.StatusOK {
		t.Errorf("delivery log while its write fails: %+v, want the attempt", ds)
	}
	faulty.Fail.Store(false)
	if err := sb.Close(); err != nil {
		t.Fatal(err)
	}
	e, stop := openEnv(t, path, key)
	defer stop()
	if ds := e.deliveries(nil); len(ds) != 1 || ds[0].Attempt != 1 || ds[0].Status != http.StatusOK {
		t.Errorf("delivery log after reopening: %+v, want the one attempt, 200", ds)
	}
	select {
	case h := <-rc.hits:
		t.Errorf("a second delivery: %s", h.body)
	default:
	}
}

// TestStore_FailedWriteKeepsDeliveries: a refused delete of an endpoint,
// or a refused reset, leaves the pending deliveries pending: they go on
// being retried. The first attempt hangs until the write is refused, so
// that it ends while the request puts the account back; the retries come
// due when the test moves the clock, never on their own.
func TestStore_FailedWriteKeepsDeliveries(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		write func(e *env, ep string) *result
	}{
		{"delete endpoint", func(e *env, ep string) *result { return e.del(wire.PathWebhookEndpoints + "/" + ep) }},
		{"reset", func(e *env, _ string) *result { return e.post(wire.PathSandboxReset, nil) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			st, err := storage.Open(filepath.Join(dir, "sandbox.db"))
			if err != nil {
				t.Fatal(err)
			}
			release := make(chan struct{})
			var releaseOnce, holdOnce sync.Once
			free := func() { releaseOnce.Do(func() { close(release) }) }
			t.Cleanup(free)
			faulty := &sandbox.FaultyStore{Store: st, OnFail: free}
			clk := clock.NewFake(time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC))
			sb := sandboxtest.Start(t, sandboxtest.WithOptions(sandbox.Options{Clock: clk, Webhooks: sandbox.WebhookOptions{Attempts: 20, RetryBase: time.Minute}}),
				sandboxtest.WithStore(faulty))
			e := envOn(t, sb, sandboxtest.NewKey(t))
			rc := newReceiver(t)
			rc.handle = func(w http.ResponseWriter, _ *http.Request, _ hit) {
				holdOnce.Do(func() { <-release })
				w.WriteHeader(http.StatusInternalServerError) // the delivery stays pending
			}
			ep := e.endpoint(rc.URL+"/hook", wire.EventTypeAll)
			e.customer(vals("name", "x"))
			rc.next(t)

			faulty.Fail.Store(true)
			refusedWrite(t, tc.write(e, ep.ID), dir)
			faulty.Fail.Store(false)
			e.get(wire.PathWebhookEndpoints+"/"+ep.ID, nil).ok(nil)

			// Retries go on after the refused write: an attempt is
			// recorded, and the next is due on the clock.
			q := vals(wire.ParamEndpoint, ep.ID)
			d := e.waitDeliveries(q, 1)[0]
			if d.NextRetryAt == "" {
				t.Fatalf("no retry scheduled after the refused write: %+v", d)
			}
			due, err := time.Parse(time.RFC3339, d.NextRetryAt)
			if err != nil {
				t.Fatal(err)
			}
			waitFor(t, 15*time.Second, "the retry's timer on the clock", func() bool {
				next, ok := clk.Next()
				return ok && !next.After(due)
			})
			for len(rc.hits) > 0 {
				<-rc.hits
			}
			clk.Set(due)
			rc.next(t)
		})
	}
}

// TestStore_FailedAdvanceChangesNothing: an advance whose commit fails
// leaves the account exactly as it was, in what it reads and in what it
// counts, though the account was full and the advance made room by
// forgetting old events first.
func TestStore_FailedAdvanceChangesNothing(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	st, err := storage.Open(filepath.Join(dir, "sandbox.db"))
	if err != nil {
		t.Fatal(err)
	}
	faulty := &sandbox.FaultyStore{Store: st}
	const limit = 256 << 10
	sb := sandboxtest.Start(t, sandboxtest.WithStore(faulty), sandboxtest.WithLimits(sandbox.Limits{MaxAccountBytes: limit}))
	key := sandboxtest.NewKey(t)
	e := envOn(t, sb, key)
	pr := e.plan("1500", "metadata[plan]", "gold")
	k := e.testClock("frozen_time", "2026-01-31T12:00:00Z")
	cu := e.customer(vals("source", sandbox.TokenVisa, "test_clock", k.ID, "metadata[a]", "b"))
	for range 5 {
		e.subscribe("customer", cu.ID, "items[0][price]", pr.ID)
	}
	// Events until the account is full: each write then forgets the
	// oldest to make room.
	for range 60 {
		var x wire.Customer
		e.post("/v1/customers", bigMeta(10, 400)).ok(&x)
		e.del("/v1/customers/" + x.ID).ok(nil)
	}
	if running, _ := sandbox.AccountBytes(sb.Server, key); running < limit {
		t.Fatalf("the account keeps %d bytes; the test needs it full (%d)", running, limit)
	}
	before, counted := accountState(e, cu.ID), sandbox.ObjectBytes(sb.Server, key)

	faulty.Fail.Store(true)
	refusedWrite(t, e.post(wire.PathTestClocks+"/"+k.ID+"/advance", vals("frozen_time", "2026-03-15T00:00:00Z")), dir)
	faulty.Fail.Store(false)

	if after := accountState(e, cu.ID); !bytes.Equal(after, before) {
		t.Errorf("the failed advance changed what the account reads:\n%s\nwant\n%s", after, before)
	}
	if after := sandbox.ObjectBytes(sb.Server, key); after != counted {
		t.Errorf("the failed advance changed the account's count of its objects: %d bytes, %d before", after, counted)
	}
	if running, recounted := sandbox.AccountBytes(sb.Server, key); running != recounted {
		t.Errorf("after the rollback the account counts %d bytes, its records %d", running, recounted)
	}
	var k2 wire.TestClock
	e.get(wire.PathTestClocks+"/"+k.ID, nil).ok(&k2)
	if k2.FrozenTime != k.FrozenTime {
		t.Errorf("the clock moved to %s in a failed advance", k2.FrozenTime)
	}
}
