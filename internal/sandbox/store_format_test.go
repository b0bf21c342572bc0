package sandbox_test

import (
	"bytes"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/clock"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/sandboxtest"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/storage"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// storage/testdata/format1.db was written by payments-sandbox before data files
// had a format key (format 1), with these two keys, at fixtureTime: each
// account has customers with cards, payments in several statuses, two
// webhook endpoints (one disabled), their events and delivery log, and
// answers stored under Idempotency-Keys. storage/testdata/format2.db is the same
// file upgraded by the payments-sandbox of format 2, before the
// write-ahead log.
var (
	fixtureKeys = []string{"sk_sandbox_fixtureaccount1", "sk_sandbox_fixtureaccount2"}
	fixtureTime = time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
)

// current is the format this payments-sandbox writes.
const current = 3

// fileFormat reads the format key of a closed data file; "" when it has none.
func fileFormat(t *testing.T, path string) string {
	t.Helper()
	db, err := bolt.Open(path, 0o600, &bolt.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var v string
	_ = db.View(func(tx *bolt.Tx) error {
		if b := tx.Bucket([]byte("meta")); b != nil {
			v = string(b.Get([]byte("format")))
		}
		return nil
	})
	return v
}

// TestStore_UpgradesFormat: a data file of an older format is copied to
// <file>.v<format>.bak, which the log names, and upgraded in place;
// everything in it is served as before, and a second open neither upgrades
// nor copies again.
func TestStore_UpgradesFormat(t *testing.T) {
	t.Parallel()
	for _, from := range []int{1, 2} {
		t.Run(fmt.Sprintf("format%d", from), func(t *testing.T) {
			t.Parallel()
			testUpgrade(t, from)
		})
	}
}

func testUpgrade(t *testing.T, from int) {
	fixture, err := os.ReadFile(filepath.Join("storage", "testdata", fmt.Sprintf("format%d.db", from)))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "sandbox.db")
	if err := os.WriteFile(path, fixture, 0o600); err != nil {
		t.Fatal(err)
	}
	clk := clock.NewFake(fixtureTime.Add(30 * time.Minute))
	open := func(logs *sandboxtest.Buffer) *sandboxtest.Sandbox {
		st, err := storage.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		return sandboxtest.Start(t, sandboxtest.WithStore(st), sandboxtest.WithClock(clk),
			sandboxtest.WithLogger(slog.New(slog.NewTextHandler(logs, nil))))
	}

	logs := &sandboxtest.Buffer{}
	sb := open(logs)
	backup := fmt.Sprintf("%s.v%d.bak", path, from)
	if got, err := os.ReadFile(backup); err != nil || !bytes.Equal(got, fixture) {
		t.Fatalf("the backup %s is not the format %d file: %v", backup, from, err)
	}
	if !strings.Contains(logs.String(), fmt.Sprintf("from format %d to %d", from, current)) || !strings.Contains(logs.String(), backup) {
		t.Errorf("the log does not say the file was upgraded and where its copy is:\n%s", logs)
	}
	want := make(map[string][]byte)
	for _, key := range fixtureKeys {
		e := envOn(t, sb, key)
		var customers wire.List[wire.Customer]
		e.get("/v1/customers", vals("limit", "100")).ok(&customers)
		var payments wire.PaymentList
		e.get("/v1/payments", vals("limit", "100")).ok(&payments)
		var endpoints wire.WebhookEndpointList
		e.get(wire.PathWebhookEndpoints, vals("limit", "100")).ok(&endpoints)
		events := e.events(vals("limit", "100"))
		deliveries := e.deliveries(nil)
		withCard := 0
		for _, c := range customers.Data {
			if c.DefaultSource != "" {
				withCard++
				e.get("/v1/customers/"+c.ID+"/sources/"+c.DefaultSource, nil).ok(nil)
			}
		}
		if len(customers.Data) != 3 || withCard != 1 || len(payments.Data) != 5 || len(endpoints.Data) != 2 || len(events) < 5 || len(deliveries) < len(events) {
			t.Errorf("%s after the upgrade: %d customers (%d with a card), %d payments, %d endpoints, %d events, %d deliveries",
				key, len(customers.Data), withCard, len(payments.Data), len(endpoints.Data), len(events), len(deliveries))
		}
		r := e.post("/v1/payments", pay("700", "USD", sandbox.TokenVisa), idemKey("fixture-pay-1")).ok(nil)
		if r.header.Get(wire.HeaderIdempotentReplayed) != "true" {
			t.Errorf("%s: the stored answer of fixture-pay-1 was not replayed: %s", key, r.body)
		}
		if r := e.post("/v1/payments", pay("1", "USD", sandbox.TokenDeclined), idemKey("fixture-declined")); r.status != 402 || r.header.Get(wire.HeaderIdempotentReplayed) != "true" {
			t.Errorf("%s: the stored 402 was not replayed: %d %s", key, r.status, r.body)
		}
		want[key] = accountState(e, customers.Data[0].ID)
	}
	if err := sb.Close(); err != nil {
		t.Fatal(err)
	}
	if got := fileFormat(t, path); got != strconv.Itoa(current) {
		t.Errorf("format after the upgrade: %q, want %d", got, current)
	}

	if err := os.Remove(backup); err != nil {
		t.Fatal(err)
	}
	logs = &sandboxtest.Buffer{}
	sb = open(logs)
	defer sb.Close()
	if _, err := os.Stat(backup); !os.IsNotExist(err) {
		t.Errorf("an upgraded file was copied again: %v", err)
	}
	if strings.Contains(logs.String(), "upgraded") {
		t.Errorf("an upgraded file was upgraded again:\n%s", logs)
	}
	for _, key := range fixtureKeys {
		e := envOn(t, sb, key)
		var customers wire.List[wire.Customer]
		e.get("/v1/customers", vals("limit", "100")).ok(&customers)
		if got := accountState(e, customers.Data[0].ID); !bytes.Equal(got, want[key]) {
			t.Errorf("%s after reopening the upgraded file:\n%s\nwant\n%s", key, got, want[key])
		}
	}
}
