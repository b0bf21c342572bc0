package sandbox_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"runtime"
	"strings"
	"testing"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// The benchmarks call ServeHTTP directly, with a reused request and a
// writer that keeps nothing, so that they measure the sandbox and not the
// network stack or httptest's recorder.

type discardWriter struct {
	h      http.Header
	status int
	body   []byte
}

func (w *discardWriter) Header() http.Header { return w.h }
func (w *discardWriter) WriteHeader(s int)   { w.status = s }
func (w *discardWriter) Write(b []byte) (int, error) {
	w.body = append(w.body[:0], b...)
	return len(b), nil
}

type bencher struct {
	b   testing.TB
	srv *sandbox.Server
	key string
	w   discardWriter
}

func newBencher(b testing.TB) *bencher {
	srv, err := sandbox.New(sandbox.Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { srv.Close() })
	return &bencher{b: b, srv: srv, key: wire.SecretKeySandboxPrefix + "benchmark0001", w: discardWriter{h: http.Header{}}}
}

// request builds a request to reuse across iterations.
func (bb *bencher) request(method, target, body string) (*http.Request, *strings.Reader) {
	rd := strings.NewReader(body)
	r, err := http.NewRequest(method, "http://sandbox"+target, rd)
	if err != nil {
		bb.b.Fatal(err)
	}
	if method == http.MethodPost {
		r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	r.SetBasicAuth(bb.key, "")
	return r, rd
}

// serve runs r once and checks for a 200.
func (bb *bencher) serve(r *http.Request, rd *strings.Reader, body string) []byte {
	rd.Reset(body)
	r.ContentLength = int64(len(body))
	clear(bb.w.h)
	bb.srv.ServeHTTP(&bb.w, r)
	if bb.w.status != http.StatusOK {
		bb.b.Fatalf("%s %s: %d %s", r.Method, r.URL, bb.w.status, bb.w.body)
	}
	return bb.w.body
}

func (bb *bencher) do(method, target, body string) []byte {
	r, rd := bb.request(method, target, body)
	return bb.serve(r, rd, body)
}

func (bb *bencher) id(body []byte) string {
	var v struct{ ID string }
	if err := json.Unmarshal(body, &v); err != nil {
		bb.b.Fatal(err)
	}
	return v.ID
}

const customerBody = "email=jo%40example.com&name=Jo+Doe&phone=%2B14155550123&metadata%5Bplan%5D=gold"

func BenchmarkCreateCustomer(b *testing.B) {
	bb := newBencher(b)
	r, rd := bb.request(http.MethodPost, "/v1/customers", customerBody)
	b.ReportAllocs()
	defer sandbox.ReportCPU(b)()
	for b.Loop() {
		bb.serve(r, rd, customerBody)
	}
}

func BenchmarkCreateCustomerIdempotent(b *testing.B) {
	bb := newBencher(b)
	r, rd := bb.request(http.MethodPost, "/v1/customers", customerBody)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		i++
		r.Header.Set(wire.HeaderIdempotencyKey, fmt.Sprintf("key-%d", i))
		bb.serve(r, rd, customerBody)
	}
}

// BenchmarkCreateCustomerParallel: one account per goroutine, so that
// per-account locking lets them run side by side.
func BenchmarkCreateCustomerParallel(b *testing.B) {
	srv, err := sandbox.New(sandbox.Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	var n int64
	var mu = make(chan struct{}, 1)
	b.RunParallel(func(pb *testing.PB) {
		mu <- struct{}{}
		n++
		bb := &bencher{b: b, srv: srv, key: fmt.Sprintf("%sparallel%04d", wire.SecretKeySandboxPrefix, n), w: discardWriter{h: http.Header{}}}
		<-mu
		r, rd := bb.request(http.MethodPost, "/v1/customers", customerBody)
		for pb.Next() {
			bb.serve(r, rd, customerBody)
		}
	})
}

func BenchmarkGetCustomer(b *testing.B) {
	bb := newBencher(b)
	id := bb.id(bb.do(http.MethodPost, "/v1/customers", customerBody+"&source=tok_visa"))
	r, rd := bb.request(http.MethodGet, "/v1/customers/"+id, "")
	b.ReportAllocs()
	for b.Loop() {
		bb.serve(r, rd, "")
	}
}

func BenchmarkUpdateCustomer(b *testing.B) {
	bb := newBencher(b)
	id := bb.id(bb.do(http.MethodPost, "/v1/customers", customerBody))
	body := "name=New+Name&metadata%5Btier%5D=2"
	r, rd := bb.request(http.MethodPost, "/v1/customers/"+id, body)
	b.ReportAllocs()
	for b.Loop() {
		bb.serve(r, rd, body)
	}
}

func BenchmarkCreatePayment(b *testing.B) {
	bb := newBencher(b)
	body := "amount=1000&currency=USD&source=tok_visa&description=order&metadata%5Border%5D=1"
	r, rd := bb.request(http.MethodPost, "/v1/payments", body)
	b.ReportAllocs()
	defer sandbox.ReportCPU(b)()
	for b.Loop() {
		bb.serve(r, rd, body)
	}
}

func BenchmarkGetPayment(b *testing.B) {
	bb := newBencher(b)
	id := bb.id(bb.do(http.MethodPost, "/v1/payments", "amount=1000&currency=USD&source=tok_visa"))
	r, rd := bb.request(http.MethodGet, "/v1/payments/"+id, "")
	b.ReportAllocs()
	for b.Loop() {
		bb.serve(r, rd, "")
	}
}

// BenchmarkListPayments lists pages of 10 and 100 out of 10,000 payments
// of 100 customers, at the top, deep behind a cursor and filtered.
func BenchmarkListPayments(b *testing.B) {
	bb := newBencher(b)
	var customers []string
	for range 100 {
		customers = append(customers, bb.id(bb.do(http.MethodPost, "/v1/customers", "source=tok_visa")))
	}
	var payments []string
	for i := range 10_000 {
		body := "amount=100&currency=USD&customer=" + customers[i%100]
		if i%7 == 0 {
			body += "&capture=false"
		}
		payments = append(payments, bb.id(bb.do(http.MethodPost, "/v1/payments", body)))
	}
	for _, bc := range []struct{ name, query string }{
		{"limit10", "limit=10"},
		{"limit100", "limit=100"},
		{"cursor_deep", "limit=10&starting_after=" + payments[500]},
		{"ending_before", "limit=10&ending_before=" + payments[5000]},
		{"customer", "limit=10&customer=" + customers[42]},
		{"status_rare", "limit=10&status=authorized"},
	} {
		b.Run(bc.name, func(b *testing.B) {
			bb.b = b
			r, rd := bb.request(http.MethodGet, "/v1/payments?"+bc.query, "")
			b.ReportAllocs()
			for b.Loop() {
				bb.serve(r, rd, "")
			}
		})
	}
}

// BenchmarkMemory100kCustomers reports the heap held per customer once
// 100,000 customers (email, name, phone, one metadata key) exist.
func BenchmarkMemory100kCustomers(b *testing.B) {
	const n = 100_000
	for b.Loop() {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		bb := newBencher(b)
		r, rd := bb.request(http.MethodPost, "/v1/customers", customerBody)
		for range n {
			bb.serve(r, rd, customerBody)
		}
		runtime.GC()
		runtime.ReadMemStats(&after)
		b.ReportMetric(float64(after.HeapAlloc-before.HeapAlloc)/n, "bytes/customer")
		runtime.KeepAlive(bb.srv)
	}
}
