package client_test

import (
	"testing"

	"github.com/paymentsdev/terraform-provider-payments/internal/client"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox"
)

// The benchmarks measure the client's request path (form encoding, retry
// wrapper, JSON decoding) against an in-process sandbox over loopback HTTP.

func BenchmarkCreateCustomer(b *testing.B) {
	e := newEnv(b)
	p := &client.CustomerParams{Email: new("bench@example.com"), Name: new("Bench"), Metadata: map[string]string{"plan": "gold"}}
	ctx := b.Context()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := e.c.CreateCustomer(ctx, p); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkGetCustomer(b *testing.B) {
	e := newEnv(b)
	cus := mustCustomer(b, e.c, &client.CustomerParams{Email: new("bench@example.com"), Source: new(sandbox.TokenVisa)})
	ctx := b.Context()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := e.c.GetCustomer(ctx, cus.ID); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkGetCustomerParallel shares one client between goroutines, as
// Terraform's parallel operations do.
func BenchmarkGetCustomerParallel(b *testing.B) {
	e := newEnv(b)
	cus := mustCustomer(b, e.c, &client.CustomerParams{Email: new("bench@example.com"), Source: new(sandbox.TokenVisa)})
	ctx := b.Context()
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if _, err := e.c.GetCustomer(ctx, cus.ID); err != nil {
				b.Error(err)
				return
			}
		}
	})
}

// BenchmarkCreateCustomerParallel: concurrent creates, each with its own
// Idempotency-Key.
func BenchmarkCreateCustomerParallel(b *testing.B) {
	e := newEnv(b)
	p := &client.CustomerParams{Email: new("bench@example.com")}
	ctx := b.Context()
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if _, err := e.c.CreateCustomer(ctx, p); err != nil {
				b.Error(err)
				return
			}
		}
	})
}
