package client_test

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/paymentsdev/terraform-provider-payments/internal/client"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandboxclient"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// TestClient_FaultsExactlyOnce: with 20% injected errors and 10% dropped
// answers, 200 concurrent creates make exactly 200 objects; every call
// either succeeds or fails only after all its attempts, and no call makes
// more than MaxRetries+1 attempts.
func TestClient_FaultsExactlyOnce(t *testing.T) {
	t.Parallel()
	const (
		calls      = 200
		workers    = 10
		maxRetries = 15
	)
	e := newEnv(t)
	setFaults(t, e.c, sandboxclient.FaultsParams{ErrorRate: new(0.2), DropRate: new(0.1)})
	if f, err := sandboxclient.New(e.c).Faults(context.Background()); err != nil || f.ErrorRate != 0.2 || f.DropRate != 0.1 || f.Object != "faults" {
		t.Fatalf("SandboxFaults = %+v, %v", f, err)
	}

	rec := newRecorder()
	c := e.client(t, withTransport(rec), withRetries(maxRetries), func(cfg *client.Config) {
		cfg.RetryWaitMin, cfg.RetryWaitMax = testWaitMin, 20*testWaitMin
	})
	ids := make([]string, calls)
	errs := make([]error, calls)
	next := make(chan int)
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for i := range next {
				cus, err := c.CreateCustomer(context.Background(), &client.CustomerParams{Email: new(fmt.Sprintf("c%d@example.com", i))})
				ids[i], errs[i] = cus.ID, err
			}
		})
	}
	for i := range calls {
		next <- i
	}
	close(next)
	wg.Wait()

	setFaults(t, e.c, sandboxclient.FaultsParams{ErrorRate: new(0.0), DropRate: new(0.0)})

	// Attempts per call, by the Idempotency-Key each call keeps.
	perKey := map[string]int{}
	var failedAttempts, droppedAttempts int
	for _, x := range rec.exchanges() {
		perKey[x.IdemKey()]++
		switch {
		case x.Err != nil:
			droppedAttempts++
		case x.Status != 200:
			failedAttempts++
		}
	}
	if n := rec.openBodies.Load(); n != 0 {
		t.Errorf("%d answer bodies left open", n)
	}
	if len(perKey) != calls {
		t.Errorf("%d distinct idempotency keys, want one per call (%d)", len(perKey), calls)
	}
	for k, n := range perKey {
		if n > maxRetries+1 {
			t.Errorf("key %s: %d attempts, want at most %d", k, n, maxRetries+1)
		}
	}
	seen := map[string]bool{}
	var ok int64
	for i, err := range errs {
		if err != nil {
			// Only a call that used all its attempts may fail.
			var n int
			for _, x := range rec.exchanges() {
				if x.ReqBody == fmt.Sprintf("email=c%d%%40example.com", i) {
					n++
				}
			}
			if n != maxRetries+1 {
				t.Errorf("call %d failed after %d attempts, want %d: %v", i, n, maxRetries+1, err)
			}
			noKeyIn(t, "error", err.Error(), e.key)
			continue
		}
		ok++
		if seen[ids[i]] {
			t.Errorf("id %s returned twice", ids[i])
		}
		seen[ids[i]] = true
	}
	s := stats(t, e.c)
	if ok != calls || s.Customers != calls {
		t.Errorf("%d calls succeeded and the sandbox holds %d customers, want %d and %d", ok, s.Customers, calls, calls)
	}
	// Go's transport itself resends a dropped request that carries an
	// Idempotency-Key on a reused connection, so not every drop reaches the
	// recorder as an error. Every request the sandbox counted and the
	// recorder saw no answer to was dropped.
	var answered int64
	for _, x := range rec.exchanges() {
		if x.Err == nil {
			answered++
		}
	}
	drops := s.Requests.ByRoute["POST /v1/customers"] - answered
	if failedAttempts == 0 || drops <= 0 {
		t.Errorf("faults did not show: %d error answers, %d drops; want some of each", failedAttempts, drops)
	}
	if s.Faults != (wire.StatsFaults{}) && (s.Faults.Drops != drops || s.Faults.Errors != int64(failedAttempts)) {
		t.Errorf("sandbox fault counters %+v, want %d errors and %d drops as seen here", s.Faults, failedAttempts, drops)
	}
	t.Logf("%d attempts for %d calls: %d error answers, %d drops (%d seen as transport errors); sandbox: %d requests, faults %+v",
		len(rec.exchanges()), calls, failedAttempts, drops, droppedAttempts, s.Requests.Total, s.Faults)
	if got := s.Requests.ByRoute["POST /v1/customers"]; got < calls {
		t.Errorf("by_route[POST /v1/customers] = %d, want at least %d", got, calls)
	}
}
