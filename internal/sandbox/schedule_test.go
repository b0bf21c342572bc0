package sandbox_test

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/clock"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/sandboxtest"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/storage"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// TestRenewals_ScheduleFollowsChanges: the account's renewal schedule is
// kept as its subscriptions change, not rebuilt at each run; after every
// step it holds what one built afresh holds, with the same next moment:
// the subscriptions on real time with something due, and no other.
func TestRenewals_ScheduleFollowsChanges(t *testing.T) {
	t.Parallel()
	fake := clock.NewFake(jan31)
	path := filepath.Join(t.TempDir(), "data.db")
	key := sandboxtest.NewKey(t)
	var sb *sandboxtest.Sandbox
	start := func() *env {
		st, err := storage.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		sb = sandboxtest.Start(t, sandboxtest.WithStore(st), sandboxtest.WithClock(fake))
		return envOn(t, sb, key)
	}
	e := start()
	pr := e.plan("1500")
	subscribe := func(token string, f ...string) *wire.Subscription {
		cu := e.customer(vals(append([]string{"source", token}, f...)...))
		return e.subscribe("customer", cu.ID, "items[0][price]", pr.ID)
	}
	var (
		active, declined, later *wire.Subscription
		clk                     wire.TestClock
	)
	for _, tc := range []struct {
		name string
		step func()
		want int // subscriptions scheduled
	}{
		{"none", func() {}, 0},
		{"an active subscription", func() { active = subscribe(sandbox.TokenVisa) }, 1},
		{"an incomplete one, to expire", func() { declined = subscribe(sandbox.TokenDeclined) }, 2},
		{"one to be declined later", func() { later = subscribe(sandbox.TokenDeclinedLater) }, 3},
		{"one on a test clock, never", func() {
			e.post(wire.PathTestClocks, vals("frozen_time", jan31.Format(time.RFC3339))).ok(&clk)
			subscribe(sandbox.TokenVisa, "test_clock", clk.ID)
		}, 3},
		{"the incomplete one canceled", func() { e.del(wire.PathSubscriptions + "/" + declined.ID).ok(nil) }, 2},
		{"a renewal declined: past_due, to retry", func() {
			fake.Set(time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC))
			waitFor(t, 10*time.Second, "the declined renewal", func() bool { return e.subscription(later.ID).Status == wire.SubscriptionStatusPastDue })
		}, 2},
		{"cancel at the period's end", func() {
			e.post(wire.PathSubscriptions+"/"+active.ID, vals("cancel_at_period_end", "true")).ok(nil)
		}, 2},
		{"a restart", func() {
			if err := sb.Close(); err != nil {
				t.Fatal(err)
			}
			e = start()
		}, 2},
		{"dunning ran out: canceled", func() {
			fake.Set(time.Date(2026, 3, 20, 0, 0, 0, 0, time.UTC))
			waitFor(t, 10*time.Second, "dunning's end", func() bool { return e.subscription(later.ID).Status == wire.SubscriptionStatusCanceled })
		}, 1},
		{"the period's end: the active one ends", func() {
			fake.Set(time.Date(2026, 4, 1, 0, 0, 0, 0, time.UTC))
			waitFor(t, 10*time.Second, "the end", func() bool { return e.subscription(active.ID).Status == wire.SubscriptionStatusCanceled })
		}, 0},
		{"an active one again", func() { active = subscribe(sandbox.TokenVisa) }, 1},
		{"a reset", func() { e.post(wire.PathSandboxReset, nil).ok(nil) }, 0},
	} {
		tc.step()
		n, next, freshN, freshNext := sandbox.ScheduledRenewals(e.srv, e.key)
		if n != tc.want || n != freshN || next != freshNext {
			t.Errorf("%s: %d scheduled (next %d), afresh %d (next %d); want %d", tc.name, n, next, freshN, freshNext, tc.want)
		}
	}
}
