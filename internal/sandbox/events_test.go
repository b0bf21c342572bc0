package sandbox_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/paymentsdev/terraform-provider-payments/internal/client"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/clock"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/sandboxtest"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// TestEvents_OneBodyEverywhere: an event's body is written when it is
// read, from the object's JSON that events alike in a row share (an
// invoice created and finalized at once); it is the same bytes when
// delivered, retrieved, listed and read back from the data file, and
// the two events differ only in their own fields.
func TestEvents_OneBodyEverywhere(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name     string
		dataFile bool
	}{
		{"in memory", false},
		{"with a data file, after a restart", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			path := filepath.Join(t.TempDir(), "data.db")
			key := sandboxtest.NewKey(t)
			start := func() (*env, func()) {
				hooks := sandboxtest.WithOptions(sandbox.Options{Webhooks: fastHooks})
				if tc.dataFile {
					return openEnv(t, path, key, hooks)
				}
				sb := sandboxtest.Start(t, hooks)
				return envOn(t, sb, key), func() {
					if err := sb.Close(); err != nil {
						t.Error(err)
					}
				}
			}
			e, stop := start()
			rc := newReceiver(t)
			e.endpoint(rc.URL, wire.EventInvoiceCreated, wire.EventInvoiceFinalized)
			pr := e.plan("1500")
			cu := e.customer(vals("source", sandbox.TokenVisa))
			s := e.subscribe("customer", cu.ID, "items[0][price]", pr.ID)
			// A lane runs several attempts at once: either may come first.
			created, finalized := rc.next(t), rc.next(t)
			if created.event(t).Type == wire.EventInvoiceFinalized {
				created, finalized = finalized, created
			}
			ce, fe := created.event(t), finalized.event(t)
			if ce.Type != wire.EventInvoiceCreated || fe.Type != wire.EventInvoiceFinalized || ce.ID == fe.ID {
				t.Fatalf("delivered %s %s then %s %s", ce.Type, ce.ID, fe.Type, fe.ID)
			}
			if !bytes.Equal(ce.Data.Object, fe.Data.Object) || !bytes.Contains(ce.Data.Object, []byte(s.LatestInvoice)) {
				t.Errorf("data.object differs or is not invoice %s:\n%s\n%s", s.LatestInvoice, ce.Data.Object, fe.Data.Object)
			}
			if tc.dataFile {
				stop()
				e, stop = start()
			}
			defer stop()
			var list struct {
				Data []json.RawMessage `json:"data"`
			}
			if err := json.Unmarshal(e.get(wire.PathEvents, vals("limit", "100")).ok(nil).body, &list); err != nil {
				t.Fatal(err)
			}
			for _, h := range []hit{created, finalized} {
				ev := h.event(t)
				if got := e.get(wire.PathEvents+"/"+ev.ID, nil).ok(nil).body; !bytes.Equal(got, h.body) {
					t.Errorf("GET %s differs from the delivered body:\n%s\n%s", ev.ID, got, h.body)
				}
				found := false
				for _, raw := range list.Data {
					var item client.Event
					if err := json.Unmarshal(raw, &item); err != nil {
						t.Fatal(err)
					}
					if item.ID == ev.ID {
						found = true
						if !bytes.Equal(raw, h.body) {
							t.Errorf("the list's %s differs from the delivered body:\n%s\n%s", ev.ID, raw, h.body)
						}
					}
				}
				if !found {
					t.Errorf("event %s is not listed", ev.ID)
				}
			}
		})
	}
}

// TestEvents_RetentionOnRealTime: an event is kept wire.EventRetention
// from when it was recorded, on the sandbox's clock, whatever the time of
// the change it carries: a test clock's, behind or years ahead.
func TestEvents_RetentionOnRealTime(t *testing.T) {
	t.Parallel()
	for _, year := range []string{"2020", "2031", "9000"} {
		t.Run(year, func(t *testing.T) {
			t.Parallel()
			clk := clock.NewFake(time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC))
			e := newEnv(t, sandboxtest.WithClock(clk))
			k := e.testClock("frozen_time", year+"-01-01T00:00:00Z")
			cu := e.customer(vals("test_clock", k.ID))
			evs := e.events(vals("type", wire.EventCustomerCreated))
			if len(evs) != 1 || evs[0].CreatedAt != k.FrozenTime {
				t.Fatalf("the customer's events = %+v, want one at the clock's time", evs)
			}
			id := evs[0].ID

			clk.Advance(wire.EventRetention)
			e.get(wire.PathEvents+"/"+id, nil).ok(nil)
			clk.Advance(time.Second)
			e.get(wire.PathEvents+"/"+id, nil).fails(404, wire.ErrorTypeInvalidRequest, wire.ErrorCodeResourceMissing, "")
			// The next event prunes the old ones, and none of them is kept
			// past its retention behind the clock's.
			e.post(wire.PathCustomers+"/"+cu.ID, vals("name", "Later")).ok(nil)
			if got := e.events(nil); len(got) != 1 || got[0].Type != wire.EventCustomerUpdated {
				t.Errorf("after the retention the events are %d, want only the new customer.updated", len(got))
			}
			if n := sandbox.EventCount(e.srv, e.key); n != 1 {
				t.Errorf("the account keeps %d events past their retention, want 1", n)
			}
		})
	}
}

// TestEvents_CreatedFilters: the events list takes the created filters
// of every list, in either form, compared with the body's created_at,
// which is a test clock's time for the objects on one.
func TestEvents_CreatedFilters(t *testing.T) {
	t.Parallel()
	e, clk := listEnv(t) // 2030-01-01T00:00:00Z, Unix 1893456000
	var ids []string     // one customer.created a second, oldest first
	for i := range 4 {
		ids = append(ids, e.customer(vals("name", fmt.Sprintf("Customer %d", i))).ID)
		clk.Advance(time.Second)
	}
	k := e.testClock("frozen_time", "2026-01-31T12:00:00Z")
	onClock := e.customer(vals("test_clock", k.ID))
	objects := func(q ...string) []string {
		t.Helper()
		var out []string
		for _, ev := range e.events(vals(append(q, "type", wire.EventCustomerCreated)...)) {
			var o struct {
				ID string `json:"id"`
			}
			if err := json.Unmarshal(ev.Data.Object, &o); err != nil {
				t.Fatal(err)
			}
			out = append(out, o.ID)
		}
		return out
	}
	for _, tc := range []struct {
		name string
		q    []string
		want []string
	}{
		{"every one", nil, []string{onClock.ID, ids[3], ids[2], ids[1], ids[0]}},
		{"a range", []string{"created[gte]", "1893456001", "created[lte]", "2030-01-01T00:00:02Z"}, []string{ids[2], ids[1]}},
		{"exclusive", []string{"created[gt]", "2030-01-01T00:00:00Z", "created[lt]", "1893456003"}, []string{ids[2], ids[1]}},
		{"by the clock's time", []string{"created[lt]", "2027-01-01T00:00:00Z"}, []string{onClock.ID}},
	} {
		if got := objects(tc.q...); !slices.Equal(got, tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
	e.get(wire.PathEvents, vals("created[gte]", "next week")).fails(400, wire.ErrorTypeInvalidRequest, wire.ErrorCodeParameterInvalid, "created[gte]")
	e.get(wire.PathEvents, vals("created[ne]", "1893456000")).fails(400, wire.ErrorTypeInvalidRequest, wire.ErrorCodeParameterUnknown, "created[ne]")
}
