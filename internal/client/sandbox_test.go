package client_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/paymentsdev/terraform-provider-payments/internal/client"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/clock"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/sandboxtest"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandboxclient"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// TestSandboxControls_PerAccount: reset, stats and faults act on the
// calling account only, as api/openapi.yaml's sandbox controls say.
func TestSandboxControls_PerAccount(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := newEnv(t)
	other := newClient(t, e.sb.URL, sandboxtest.NewKey(t))
	otherCus := mustCustomer(t, other, nil)

	cus := mustCustomer(t, e.c, &client.CustomerParams{Source: new(sandbox.TokenVisa)})
	mustPayment(t, e.c, &client.PaymentParams{Amount: 5, Currency: "USD", Customer: cus.ID})
	keyed := mustRaw(t, e.sb.URL, e.key, http.MethodPost, wire.PathCustomers, url.Values{"name": {"K"}}, "kept-key")
	if _, err := e.c.GetCustomer(ctx, cus.ID); err != nil {
		t.Fatal(err)
	}
	setFaults(t, e.c, sandboxclient.FaultsParams{LatencyMS: new(int64(1))})

	s := stats(t, e.c)
	if s.Object != "stats" || s.Customers != 2 || s.Sources != 1 || s.Payments != 1 || s.Connections < 1 {
		t.Errorf("stats = %+v", s)
	}
	// requests counts /v1 only: 2 creates, 1 payment, 1 get; not the stats or faults calls.
	wantRoutes := map[string]int64{"POST /v1/customers": 2, "POST /v1/payments": 1, "GET /v1/customers/:id": 1}
	var sum int64
	for route, n := range s.Requests.ByRoute {
		sum += n
		if strings.Contains(route, "_sandbox") && n != 0 {
			t.Errorf("by_route counts sandbox controls: %s = %d", route, n)
		}
	}
	for route, n := range wantRoutes {
		if s.Requests.ByRoute[route] != n {
			t.Errorf("by_route[%s] = %d, want %d (all: %v)", route, s.Requests.ByRoute[route], n, s.Requests.ByRoute)
		}
	}
	if s.Requests.Total != 4 || sum != 4 {
		t.Errorf("requests.total = %d (by_route sums to %d), want 4", s.Requests.Total, sum)
	}

	// Faults: each call changes only the settings it names.
	setFaults(t, e.c, sandboxclient.FaultsParams{RateLimit: new(int64(1000)), Seed: new(int64(7))})
	if f, err := sandboxclient.New(e.c).Faults(ctx); err != nil || *f != (wire.Faults{Object: "faults", LatencyMS: 1, RateLimit: 1000, Seed: 7}) {
		t.Errorf("faults after two partial updates = %+v, %v", f, err)
	}
	for _, bad := range []sandboxclient.FaultsParams{{ErrorRate: new(1.5)}, {DropRate: new(-0.1)}, {LatencyMS: new(int64(-1))}, {RateLimit: new(int64(-1))}, {Seed: new(int64(-1))}} {
		_, err := sandboxclient.New(e.c).SetFaults(ctx, bad)
		checkAPIError(t, err, e.key, wantErr{status: 400, typ: wire.ErrorTypeInvalidRequest})
	}
	if f, _ := sandboxclient.New(other).Faults(ctx); f == nil || *f != (wire.Faults{Object: "faults", Seed: f.Seed}) || f.Seed == 7 {
		t.Errorf("another account's faults = %+v, want untouched", f)
	}

	// Reset: objects and idempotency keys go; faults and counters stay.
	if err := sandboxclient.New(e.c).Reset(ctx); err != nil {
		t.Fatal(err)
	}
	after := stats(t, e.c)
	if after.Customers != 0 || after.Sources != 0 || after.Payments != 0 || after.Requests.Total != s.Requests.Total {
		t.Errorf("stats after reset = %+v, want no objects and the counters kept (%d)", after, s.Requests.Total)
	}
	if f, err := sandboxclient.New(e.c).Faults(ctx); err != nil || f.RateLimit != 1000 || f.LatencyMS != 1 {
		t.Errorf("faults after reset = %+v, %v; want kept", f, err)
	}
	if _, err := e.c.GetCustomer(ctx, cus.ID); !client.IsNotFound(err) {
		t.Errorf("customer after reset: %v, want 404", err)
	}
	again := mustRaw(t, e.sb.URL, e.key, http.MethodPost, wire.PathCustomers, url.Values{"name": {"K"}}, "kept-key")
	if again.Status != 200 || again.Header.Get(wire.HeaderIdempotentReplayed) != "" || again.JSON(t)["id"] == keyed.JSON(t)["id"] {
		t.Errorf("idempotency key after reset: %d replayed=%q, want a fresh object", again.Status, again.Header.Get(wire.HeaderIdempotentReplayed))
	}
	if _, err := other.GetCustomer(ctx, otherCus.ID); err != nil {
		t.Errorf("another account's customer after reset: %v", err)
	}
}

// TestSandboxControls_Latency: latency_ms delays each /v1 answer.
func TestSandboxControls_Latency(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	setFaults(t, e.c, sandboxclient.FaultsParams{LatencyMS: new(int64(120))})
	start := time.Now()
	if _, err := e.c.ListPayments(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d < 120*time.Millisecond {
		t.Errorf("a request took %v with latency_ms 120", d)
	}
}

// TestIdempotency_Retention: keys are kept IdempotencyKeyRetention, then
// forgotten (the sandbox's clock is moved, not waited for).
func TestIdempotency_Retention(t *testing.T) {
	t.Parallel()
	clk := clock.NewFake(time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC))
	advance := clk.Advance
	hs := sandboxtest.Start(t, sandboxtest.WithClock(clk))
	key := sandboxtest.NewKey(t)
	form := url.Values{"name": {"Kept"}}

	first := mustRaw(t, hs.URL, key, http.MethodPost, wire.PathCustomers, form, "retained")
	if first.JSON(t)["created_at"] != "2030-01-02T03:04:05Z" {
		t.Errorf("created_at %v, want the sandbox clock's 2030-01-02T03:04:05Z", first.JSON(t)["created_at"])
	}
	advance(sandbox.IdempotencyKeyRetention - time.Second)
	r := mustRaw(t, hs.URL, key, http.MethodPost, wire.PathCustomers, form, "retained")
	if r.Header.Get(wire.HeaderIdempotentReplayed) != "true" || r.JSON(t)["id"] != first.JSON(t)["id"] {
		t.Errorf("just under %v: %d replayed=%q, want the stored answer", sandbox.IdempotencyKeyRetention, r.Status, r.Header.Get(wire.HeaderIdempotentReplayed))
	}
	advance(2 * time.Second)
	r = mustRaw(t, hs.URL, key, http.MethodPost, wire.PathCustomers, form, "retained")
	if r.Status != 200 || r.Header.Get(wire.HeaderIdempotentReplayed) != "" || r.JSON(t)["id"] == first.JSON(t)["id"] {
		t.Errorf("past %v: %d replayed=%q, want the key forgotten and a new object", sandbox.IdempotencyKeyRetention, r.Status, r.Header.Get(wire.HeaderIdempotentReplayed))
	}
}

// TestClient_LivemodeField: every object the sandbox answers carries livemode
// (false), customers and sources included.
func TestClient_LivemodeField(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	cus := mustCustomer(t, e.c, &client.CustomerParams{Source: new(sandbox.TokenVisa)})
	pay := mustPayment(t, e.c, &client.PaymentParams{Amount: 5, Currency: "USD", Customer: cus.ID})
	for _, path := range []string{
		wire.PathCustomers + "/" + cus.ID,
		wire.PathCustomers + "/" + cus.ID + "/sources/" + cus.DefaultSource,
		wire.PathPayments + "/" + pay.ID,
	} {
		m := mustRaw(t, e.sb.URL, e.key, http.MethodGet, path, nil, "").JSON(t)
		if lm, ok := m["livemode"]; !ok || lm != false {
			t.Errorf("GET %s: livemode = %v (present %v), want false", path, lm, ok)
		}
	}
}
