package sandbox_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/storage"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// BenchmarkRenewals advances a test clock by 12 months (six advances of
// two months, the most one may go) over 1,000 monthly subscriptions:
// 12,000 invoices and payments with their events. It reports renewals/s
// beside the API's own payment creates/s in the same run, and their
// ratio (the target is 1 or more: a renewal costs no more than a payment
// create) in wall time and in CPU time (cpu-ratio), in memory and with a
// data file; on a shared machine, take the median of several runs:
//
//	go test -run '^$' -bench BenchmarkRenewals -benchtime 1x -count 5 ./internal/sandbox/
func BenchmarkRenewals(b *testing.B) {
	for _, withData := range []bool{false, true} {
		name := "memory"
		if withData {
			name = "data"
		}
		b.Run(name, func(b *testing.B) {
			for range b.N {
				benchRenewals(b, withData)
			}
		})
	}
}

func benchRenewals(b *testing.B, withData bool) {
	b.StopTimer()
	var opts sandbox.Options
	if withData {
		st, err := storage.Open(filepath.Join(b.TempDir(), "data.db"))
		if err != nil {
			b.Fatal(err)
		}
		opts.Store = st
	}
	srv, err := sandbox.New(opts)
	if err != nil {
		b.Fatal(err)
	}
	defer srv.Close()
	bb := &bencher{b: b, srv: srv, key: wire.SecretKeySandboxPrefix + "renewals0001", w: discardWriter{h: http.Header{}}}
	const subs, months = 1000, 12
	prod := bb.id(bb.do(http.MethodPost, wire.PathProducts, "name=Plan"))
	price := bb.id(bb.do(http.MethodPost, wire.PathPrices, "product="+prod+"&currency=USD&unit_amount=900&recurring%5Binterval%5D=month"))
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	clk := bb.id(bb.do(http.MethodPost, wire.PathTestClocks, "frozen_time="+start.Format(time.RFC3339)))
	var customers []string
	for range subs {
		cu := bb.id(bb.do(http.MethodPost, wire.PathCustomers, "source=tok_visa&test_clock="+clk))
		customers = append(customers, cu)
		bb.do(http.MethodPost, wire.PathSubscriptions, "customer="+cu+"&items%5B0%5D%5Bprice%5D="+price)
	}

	b.StartTimer()
	began, cpu := time.Now(), sandbox.CPUTime()
	for step := 1; step <= months/2; step++ {
		bb.do(http.MethodPost, "/v1/test_helpers/test_clocks/"+clk+"/advance", "frozen_time="+start.AddDate(0, 2*step, 0).Format(time.RFC3339))
	}
	renewals := float64(subs*months) / time.Since(began).Seconds()
	renewalCPU := sandbox.CPUTime() - cpu
	b.StopTimer()

	// The API's own payment creates, on the same customers' cards.
	creates := subs * months
	if withData {
		creates = 2000 // each one waits for its own sync: fewer give the rate
	}
	// Not empty: a request made with an empty body keeps none to reuse.
	r, rd := bb.request(http.MethodPost, wire.PathPayments, "amount=900")
	began, cpu = time.Now(), sandbox.CPUTime()
	for i := range creates {
		bb.serve(r, rd, fmt.Sprintf("amount=900&currency=USD&customer=%s", customers[i%subs]))
	}
	payments := float64(creates) / time.Since(began).Seconds()
	createCPU := sandbox.CPUTime() - cpu
	b.StartTimer()
	b.ReportMetric(renewals, "renewals/s")
	b.ReportMetric(payments, "payments/s")
	b.ReportMetric(renewals/payments, "ratio")
	if renewalCPU > 0 && createCPU > 0 {
		// The same ratio in CPU time, the garbage collector's included:
		// on a machine shared with other work it swings far less.
		b.ReportMetric(float64(createCPU)/float64(creates)*float64(subs*months)/float64(renewalCPU), "cpu-ratio")
	}
}

// BenchmarkAdvanceFairness measures what a large advance costs the other
// accounts: account A advances a test clock two months over 2,000
// subscriptions of twenty items each (4,000 renewals) with the default
// limits, while account B creates customers one after another; it
// reports B's 99th percentile and worst latency during the advance
// (p99-during-ms, max-during-ms) beside B's 99th percentile alone in the
// same run (p99-base-ms), in memory and with a data file:
//
//	go test -run '^$' -bench BenchmarkAdvanceFairness -benchtime 1x -count 3 ./internal/sandbox/
func BenchmarkAdvanceFairness(b *testing.B) {
	for _, withData := range []bool{false, true} {
		name := "memory"
		if withData {
			name = "data"
		}
		b.Run(name, func(b *testing.B) {
			for range b.N {
				benchAdvanceFairness(b, withData)
			}
		})
	}
}

func benchAdvanceFairness(b *testing.B, withData bool) {
	b.StopTimer()
	opts := sandbox.Options{Limits: sandbox.DefaultLimits}
	if withData {
		st, err := storage.Open(filepath.Join(b.TempDir(), "data.db"))
		if err != nil {
			b.Fatal(err)
		}
		opts.Store = st
	}
	srv, err := sandbox.New(opts)
	if err != nil {
		b.Fatal(err)
	}
	defer srv.Close()
	a := &bencher{b: b, srv: srv, key: wire.SecretKeySandboxPrefix + "fairnessA001", w: discardWriter{h: http.Header{}}}
	const subs, items = 2000, 20
	prod := a.id(a.do(http.MethodPost, wire.PathProducts, "name=Plan"))
	var sub strings.Builder
	for i := range items {
		price := a.id(a.do(http.MethodPost, wire.PathPrices, "product="+prod+"&currency=USD&unit_amount=100&recurring%5Binterval%5D=month"))
		fmt.Fprintf(&sub, "&items%%5B%d%%5D%%5Bprice%%5D=%s", i, price)
	}
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	clk := a.id(a.do(http.MethodPost, wire.PathTestClocks, "frozen_time="+start.Format(time.RFC3339)))
	for range subs {
		cu := a.id(a.do(http.MethodPost, wire.PathCustomers, "source=tok_visa&test_clock="+clk))
		a.do(http.MethodPost, wire.PathSubscriptions, "customer="+cu+sub.String())
	}

	// B's creates, timed, until stop; its own writer, since a bencher
	// serves one request at a time.
	other := func(stop <-chan struct{}, most int) (lat []time.Duration, failed int) {
		bb := &bencher{b: b, srv: srv, key: wire.SecretKeySandboxPrefix + "fairnessB001", w: discardWriter{h: http.Header{}}}
		r, rd := bb.request(http.MethodPost, wire.PathCustomers, customerBody)
		for len(lat) < most {
			select {
			case <-stop:
				return lat, failed
			default:
			}
			began := time.Now()
			rd.Reset(customerBody)
			r.ContentLength = int64(len(customerBody))
			clear(bb.w.h)
			srv.ServeHTTP(&bb.w, r)
			lat = append(lat, time.Since(began))
			if bb.w.status != http.StatusOK {
				failed++
			}
		}
		return lat, failed
	}
	base, _ := other(nil, 2000)

	stop := make(chan struct{})
	got := make(chan []time.Duration, 1)
	var failed int
	go func() {
		lat, f := other(stop, 1<<30)
		failed = f
		got <- lat
	}()
	b.StartTimer()
	began := time.Now()
	body := a.do(http.MethodPost, "/v1/test_helpers/test_clocks/"+clk+"/advance", "frozen_time="+start.AddDate(0, 2, 0).Format(time.RFC3339))
	took := time.Since(began)
	b.StopTimer()
	close(stop)
	during := <-got
	if failed > 0 {
		b.Errorf("%d of B's %d creates failed during the advance", failed, len(during))
	}
	var k wire.TestClock
	if err := json.Unmarshal(body, &k); err != nil {
		b.Fatal(err)
	}
	if k.StatusDetails.Stopped != nil {
		b.Logf("the advance stopped at %s: %s", k.FrozenTime, k.StatusDetails.Stopped.Code)
	}
	p := func(lat []time.Duration, q float64) float64 {
		slices.Sort(lat)
		return float64(lat[min(len(lat)-1, int(float64(len(lat))*q))].Microseconds()) / 1000
	}
	b.ReportMetric(took.Seconds(), "advance-s")
	b.ReportMetric(p(base, 0.99), "p99-base-ms")
	b.ReportMetric(p(during, 0.99), "p99-during-ms")
	b.ReportMetric(p(during, 1), "max-during-ms")
	b.ReportMetric(float64(len(during)), "creates-during")
	b.StartTimer()
}
