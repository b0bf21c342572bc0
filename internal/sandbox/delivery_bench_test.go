package sandbox_test

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/sandboxtest"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/storage"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// BenchmarkWebhookStorm measures how much one account's webhook storm
// slows another account: the median latency of account B's customer
// creates over HTTP, first on a quiet sandbox, then while account A's
// 1,000 deliveries (10 endpoints, 100 events) go to a receiver that takes
// 50 ms per answer, then quiet again. storm/quiet is the ratio the sandbox promises to keep
// near 1. Run it with
//
//	go test -run '^$' -bench BenchmarkWebhookStorm -benchtime 3x ./internal/sandbox/
func BenchmarkWebhookStorm(b *testing.B) {
	for _, bc := range []struct {
		name  string
		store bool
	}{{"memory", false}, {"store", true}} {
		b.Run(bc.name, func(b *testing.B) {
			var quiet, storm []time.Duration
			for b.Loop() {
				q, s := webhookStorm(b, bc.store)
				quiet, storm = append(quiet, q...), append(storm, s...)
			}
			pq, ps := median(quiet), median(storm)
			b.ReportMetric(float64(pq.Microseconds())/1000, "quiet-p50-ms")
			b.ReportMetric(float64(ps.Microseconds())/1000, "storm-p50-ms")
			b.ReportMetric(float64(ps)/float64(pq), "storm/quiet")
		})
	}
}

// webhookStorm runs one quiet and one stormy round on a fresh sandbox and
// returns account B's create latencies in each.
func webhookStorm(b *testing.B, store bool) (quiet, storm []time.Duration) {
	const (
		endpoints = 10
		events    = 100
		creates   = 400 // quiet; during the storm, as many as fit
		answer    = 50 * time.Millisecond
	)
	opts := sandbox.Options{Webhooks: sandbox.WebhookOptions{Attempts: 1}}
	if store {
		st, err := storage.Open(filepath.Join(b.TempDir(), "sandbox.db"))
		if err != nil {
			b.Fatal(err)
		}
		opts.Store = st
	}
	sb := sandboxtest.Start(b, sandboxtest.WithOptions(opts))
	slow := newSlowReceiver(b, answer)
	a, bb := envOn(b, sb, sandboxtest.NewKey(b)), envOn(b, sb, sandboxtest.NewKey(b))

	createB := func() time.Duration {
		req, err := http.NewRequest(http.MethodPost, bb.url+wire.PathCustomers, strings.NewReader("email=b%40example.com&name=B"))
		if err != nil {
			b.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.SetBasicAuth(bb.key, "")
		start := time.Now()
		resp, err := bb.hc.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		d := time.Since(start)
		if resp.StatusCode != http.StatusOK {
			b.Fatalf("create in account B: HTTP %d", resp.StatusCode)
		}
		return d
	}
	for range 50 { // warm up connections and the account
		createB()
	}
	for range creates / 2 {
		quiet = append(quiet, createB())
	}

	// The receiver holds every delivery until all events are made, so
	// that the storm is deliveries only, not account A's creates.
	for i := range endpoints {
		a.endpoint(fmt.Sprintf("%s/%d", slow.URL, i), "*")
	}
	for i := range events {
		a.customer(vals("name", fmt.Sprint("storm ", i)))
	}
	close(slow.open)
	for slow.answered.Load() < endpoints*events*9/10 {
		storm = append(storm, createB())
	}
	a.waitDeliveries(nil, endpoints*events)
	// Half the quiet round after the storm, so that a machine growing
	// busier or a data file growing larger weighs on both sides alike.
	for range creates / 2 {
		quiet = append(quiet, createB())
	}
	return quiet, storm
}

// slowReceiver answers every delivery 200 after answer, once open is
// closed, and counts its answers.
type slowReceiver struct {
	*httptest.Server
	open     chan struct{}
	answered atomic.Int64
}

func newSlowReceiver(tb testing.TB, answer time.Duration) *slowReceiver {
	tb.Helper()
	rc := &slowReceiver{open: make(chan struct{})}
	rc.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		<-rc.open
		time.Sleep(answer)
		rc.answered.Add(1)
	}))
	tb.Cleanup(rc.Close)
	return rc
}

func median(ds []time.Duration) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}
