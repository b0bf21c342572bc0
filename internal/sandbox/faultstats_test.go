package sandbox_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/paymentsdev/terraform-provider-payments/internal/client"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/sandboxtest"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandboxclient"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// TestStats_Faults checks the stats' counts of injected faults, an addition
// of ours to the stats: each kind counts the faults of its account only,
// a drop counts each request that acted and got no answer, and a reset
// keeps the counts.
func TestStats_Faults(t *testing.T) {
	ctx := context.Background()
	sb := sandboxtest.Start(t)
	newClient := func() *client.Client {
		c, err := client.New(client.Config{BaseURL: sb.URL, SecretKey: sandboxtest.NewKey(t), MaxRetries: -1})
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	faults := func(c *client.Client) wire.StatsFaults {
		t.Helper()
		st, err := sandboxclient.New(c).Stats(ctx)
		if err != nil {
			t.Fatalf("stats: %v", err)
		}
		return st.Faults
	}
	set := func(c *client.Client, p sandboxclient.FaultsParams) {
		t.Helper()
		if _, err := sandboxclient.New(c).SetFaults(ctx, p); err != nil {
			t.Fatalf("setting faults: %v", err)
		}
	}
	one, zero := 1.0, 0.0
	var limit, off int64 = 1, 0

	c, other := newClient(), newClient()
	if got := faults(c); got != (wire.StatsFaults{}) {
		t.Fatalf("a new account's fault counts are %+v, want zero", got)
	}

	seed := testSeed(t)
	set(c, sandboxclient.FaultsParams{ErrorRate: &one, Seed: &seed})
	for range 3 {
		if _, err := c.GetPayment(ctx, "pay_"+"000000000000000000000000"); err == nil {
			t.Fatal("error_rate 1 answered a request")
		}
	}
	set(c, sandboxclient.FaultsParams{ErrorRate: &zero, DropRate: &one})
	creates := func() int64 {
		st, err := sandboxclient.New(c).Stats(ctx)
		if err != nil {
			t.Fatalf("stats: %v", err)
		}
		return st.Requests.ByRoute["POST /v1/customers"]
	}
	before := creates()
	if _, err := c.CreateCustomer(ctx, &client.CustomerParams{}); err == nil {
		t.Fatal("drop_rate 1 answered a request")
	}
	// net/http resends a request with an Idempotency-Key once on a
	// connection closed without an answer, so each attempt is a drop.
	drops := creates() - before
	set(c, sandboxclient.FaultsParams{DropRate: &zero, RateLimit: &limit})
	rateLimited := 0
	for range 3 {
		if _, err := c.CreateCustomer(ctx, &client.CustomerParams{}); client.IsRateLimited(err) {
			rateLimited++
		}
	}
	set(c, sandboxclient.FaultsParams{RateLimit: &off})

	want := wire.StatsFaults{Errors: 3, Drops: drops, RateLimited: int64(rateLimited)}
	if drops < 1 {
		t.Fatal("drop_rate 1 saw no request")
	}
	if rateLimited == 0 {
		t.Fatal("rate_limit 1 let 3 requests in a row through")
	}
	if got := faults(c); got != want {
		t.Errorf("fault counts are %+v, want %+v", got, want)
	}
	if st, err := sandboxclient.New(c).Stats(ctx); err != nil || st.Customers < 1 {
		t.Errorf("the dropped create did not act: %d customers, %v", st.Customers, err)
	}
	if got := faults(other); got != (wire.StatsFaults{}) {
		t.Errorf("another account's fault counts are %+v, want zero", got)
	}
	if err := sandboxclient.New(c).Reset(ctx); err != nil {
		t.Fatal(err)
	}
	if got := faults(c); got != want {
		t.Errorf("after a reset the fault counts are %+v, want them kept: %+v", got, want)
	}
}

// TestFaults_InjectedErrorAdvice: an injected 500/503 tells a POST to retry
// with the same Idempotency-Key, and any other method simply to retry: a
// GET has no key to keep.
func TestFaults_InjectedErrorAdvice(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.faults(vals("error_rate", "1"))
	for _, tc := range []struct {
		method, path string
		wantKey      bool
	}{
		{http.MethodGet, "/v1/payments", false},
		{http.MethodGet, "/v1/customers/cus_AAAAAAAAAAAAAAAAAAAAAAAA", false},
		{http.MethodDelete, "/v1/customers/cus_AAAAAAAAAAAAAAAAAAAAAAAA", false},
		{http.MethodPost, "/v1/customers", true},
		{http.MethodPost, "/v1/payments/pay_AAAAAAAAAAAAAAAAAAAAAAAA/refund", true},
	} {
		r := e.do(tc.method, tc.path, nil, idemKey("advice-"+tc.method))
		if r.status != http.StatusInternalServerError && r.status != http.StatusServiceUnavailable {
			t.Fatalf("%s %s: status %d, want an injected 500 or 503", tc.method, tc.path, r.status)
		}
		msg := r.fails(r.status, wire.ErrorTypeAPI, wire.ErrorCodeServerError, "").Error.Message
		if got := strings.Contains(msg, wire.HeaderIdempotencyKey); got != tc.wantKey {
			t.Errorf("%s %s: message %q mentions the Idempotency-Key: %v, want %v", tc.method, tc.path, msg, got, tc.wantKey)
		}
		if !strings.Contains(msg, "Retry") {
			t.Errorf("%s %s: message %q does not say to retry", tc.method, tc.path, msg)
		}
	}
}
