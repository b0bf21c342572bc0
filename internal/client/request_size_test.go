package client_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/paymentsdev/terraform-provider-payments/internal/client"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// TestCustomerParams_EncodedSize: EncodedSize is exactly the body the client
// sends, for creates and updates, ASCII or not.
func TestCustomerParams_EncodedSize(t *testing.T) {
	t.Parallel()
	var got atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		got.Store(int64(len(b)))
		w.Header().Set(wire.HeaderRequestID, "req_test")
		_, _ = io.WriteString(w, `{"id": "cus_AAAAAAAAAAAAAAAAAAAAAAAA", "object": "customer", "created_at": "2026-01-02T03:04:05Z", "livemode": false}`)
	}))
	t.Cleanup(srv.Close)
	c, err := client.New(client.Config{BaseURL: srv.URL, SecretKey: wire.SecretKeySandboxPrefix + "abcdefgh12", MaxRetries: -1})
	if err != nil {
		t.Fatal(err)
	}
	email, empty := "ada+test@example.com", ""
	for _, tc := range []struct {
		name   string
		params client.CustomerParams
	}{
		{"empty", client.CustomerParams{}},
		{"fields", client.CustomerParams{Email: &email, Name: &empty}},
		{"metadata ascii", client.CustomerParams{Metadata: map[string]string{"plan": "gold", "a b": "c&d=e"}}},
		{"metadata euro", client.CustomerParams{Metadata: map[string]string{"k€y": strings.Repeat("€", 500)}}},
		{"delete and clear", client.CustomerParams{Metadata: map[string]string{"gone": ""}, ClearMetadata: true}},
	} {
		p := tc.params
		if _, err := c.UpdateCustomer(context.Background(), "cus_AAAAAAAAAAAAAAAAAAAAAAAA", &p); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if want := got.Load(); int64(p.EncodedSize()) != want {
			t.Errorf("%s: EncodedSize() = %d, the client sent %d bytes", tc.name, p.EncodedSize(), want)
		}
	}
	// A euro sign is nine bytes on the wire.
	p := client.CustomerParams{Metadata: map[string]string{"k": strings.Repeat("€", 500)}}
	if got, want := p.EncodedSize(), len("metadata%5Bk%5D=")+9*500; got != want {
		t.Errorf("EncodedSize() = %d, want %d", got, want)
	}
}

// TestCatalogParams_EncodedSize: EncodedSize is exactly the body the
// client sends for a product's create and update and a price's.
func TestCatalogParams_EncodedSize(t *testing.T) {
	t.Parallel()
	var got atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		got.Store(int64(len(b)))
		w.Header().Set(wire.HeaderRequestID, "req_test")
		_, _ = io.WriteString(w, `{"id": "prod_AAAAAAAAAAAAAAAAAAAAAAAA", "created_at": "2026-01-02T03:04:05Z", "livemode": false}`)
	}))
	t.Cleanup(srv.Close)
	c, err := client.New(client.Config{BaseURL: srv.URL, SecretKey: wire.SecretKeySandboxPrefix + "abcdefgh12", MaxRetries: -1})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	name, desc, inactive := "Gold", strings.Repeat("é", 300), false
	meta := map[string]string{"k€y": strings.Repeat("€", 500), "gone": ""}
	for _, tc := range []struct {
		name string
		send func() (int, error)
	}{
		{"product", func() (int, error) {
			p := &client.ProductParams{Name: &name, Description: &desc, Active: &inactive, Metadata: meta}
			_, err := c.CreateProduct(ctx, p)
			return p.EncodedSize(), err
		}},
		{"product update clearing metadata", func() (int, error) {
			p := &client.ProductParams{ClearMetadata: true}
			_, err := c.UpdateProduct(ctx, "prod_AAAAAAAAAAAAAAAAAAAAAAAA", p)
			return p.EncodedSize(), err
		}},
		{"price", func() (int, error) {
			p := &client.PriceParams{Product: "prod_AAAAAAAAAAAAAAAAAAAAAAAA", Currency: "EUR", UnitAmount: 999,
				Recurring: &client.Recurring{Interval: wire.IntervalMonth, IntervalCount: 3}, Nickname: desc,
				LookupKey: "gold", TransferLookupKey: true, Metadata: meta}
			_, err := c.CreatePrice(ctx, p)
			return p.EncodedSize(), err
		}},
		{"price update", func() (int, error) {
			p := &client.PriceUpdateParams{Nickname: &desc, Active: &inactive, TransferLookupKey: true, Metadata: meta}
			_, err := c.UpdatePrice(ctx, "price_AAAAAAAAAAAAAAAAAAAAAAAA", p)
			return p.EncodedSize(), err
		}},
	} {
		size, err := tc.send()
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if want := got.Load(); int64(size) != want {
			t.Errorf("%s: EncodedSize() = %d, the client sent %d bytes", tc.name, size, want)
		}
	}
}
