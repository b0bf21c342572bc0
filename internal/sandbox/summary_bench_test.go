package sandbox_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/clock"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// BenchmarkSummary_100kPayments times GET /_sandbox/summary of an account
// with 100,000 payments made over a year (approved and declined, in two
// currencies, one in ten refunded), for the default 90 days and for 366:
// the answer reads the summary's counters and days, never the payments.
//
//	go test -run '^$' -bench Summary -benchtime 20x ./internal/sandbox/
func BenchmarkSummary_100kPayments(b *testing.B) {
	const n = 100_000
	start := time.Date(2025, 11, 1, 12, 0, 0, 0, time.UTC)
	fake := clock.NewFake(start)
	srv, err := sandbox.New(sandbox.Options{Clock: fake})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { srv.Close() })
	bb := &bencher{b: b, srv: srv, key: wire.SecretKeySandboxPrefix + "benchmark0001", w: discardWriter{h: http.Header{}}}
	seeded := time.Now()
	for i := range n {
		if i%(n/365) == 0 {
			fake.Set(start.Add(time.Duration(i/(n/365)) * 24 * time.Hour))
		}
		token, currency := sandbox.TokenVisa, "USD"
		if i%7 == 0 {
			token = sandbox.TokenDeclined
		}
		if i%3 == 0 {
			currency = "EUR"
		}
		body := fmt.Sprintf("amount=%d&currency=%s&source=%s", 100+i%5000, currency, token)
		r, rd := bb.request(http.MethodPost, wire.PathPayments, body)
		rd.Reset(body)
		clear(bb.w.h)
		srv.ServeHTTP(&bb.w, r)
		if i%10 == 1 && bb.w.status == http.StatusOK {
			bb.do(http.MethodPost, wire.PathPayments+"/"+bb.id(bb.w.body)+"/refund", "amount=50")
		}
	}
	var sum wire.Summary
	if err := json.Unmarshal(bb.do(http.MethodGet, wire.PathSandboxSummary+"?days=366", ""), &sum); err != nil {
		b.Fatal(err)
	}
	total := int64(0)
	for _, k := range sum.Counts.PaymentsByStatus {
		total += k
	}
	if total != n || len(sum.Days) < 300 {
		b.Fatalf("the account holds %d payments over %d days, want %d over a year", total, len(sum.Days), n)
	}
	b.Logf("seeded %d payments in %s: %v", n, time.Since(seeded).Round(time.Millisecond), sum.Counts.PaymentsByStatus)
	for _, days := range []string{"90", "366"} {
		b.Run("days="+days, func(b *testing.B) {
			bb.b = b
			r, rd := bb.request(http.MethodGet, wire.PathSandboxSummary+"?days="+days, "")
			b.ReportAllocs()
			for b.Loop() {
				bb.serve(r, rd, "")
			}
			b.ReportMetric(float64(len(bb.w.body)), "bytes/answer")
		})
	}
}
