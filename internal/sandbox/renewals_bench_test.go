package sandbox_test

import (
	"fmt"
	"net/http"
	"path/filepath"
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
