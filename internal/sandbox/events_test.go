package sandbox_test

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/paymentsdev/terraform-provider-payments/internal/client"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox"
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
