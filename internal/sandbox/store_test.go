package sandbox_test

import (
	"bytes"
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

// openEnv starts a sandbox on the data file at path, with opts (which
// must leave the store alone), and returns the env of key on it and the
// function that stops it, for a test to start it again on the same file.
func openEnv(t *testing.T, path, key string, opts ...sandboxtest.Option) (*env, func()) {
	t.Helper()
	st, err := storage.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	sb := sandboxtest.Start(t, append(opts, sandboxtest.WithStore(st))...)
	return envOn(t, sb, key), func() {
		if err := sb.Close(); err != nil {
			t.Error(err)
		}
	}
}

func TestStore_KeepsState(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "sandbox.db")
	key := sandboxtest.NewKey(t)
	e, stop := openEnv(t, path, key)

	cu := e.customer(vals("email", "jo@example.com", "metadata[a]", "1", "source", sandbox.TokenVisa))
	var s2 wire.Source
	e.post("/v1/customers/"+cu.ID+"/sources", vals("source", sandbox.TokenAmex)).ok(&s2)
	e.post("/v1/customers/"+cu.ID, vals("default_source", s2.ID)).ok(nil)
	gone := e.customer(nil)
	e.del("/v1/customers/" + gone.ID).ok(nil)
	p1 := e.payment(pay("100", "USD", "", "customer", cu.ID, "capture", "false"))
	p2 := e.payment(pay("200", "EUR", sandbox.Token3DS, "metadata[x]", "y", "description", "d"))
	e.post("/v1/payments/"+p1.ID+"/capture", vals("amount", "50")).ok(nil)
	stored := e.post("/v1/payments", pay("300", "GBP", sandbox.TokenVisa), idemKey("persisted")).ok(nil)
	declined := e.post("/v1/payments", pay("1", "USD", sandbox.TokenDeclined), idemKey("declined"))
	wantCustomer := e.get("/v1/customers/"+cu.ID, nil).ok(nil).body
	wantList := e.get("/v1/payments", vals("limit", "100")).ok(nil).body
	stop()

	// A second server on the same file (the first one closed) sees it all.
	e, stop = openEnv(t, path, key)
	if got := e.get("/v1/customers/"+cu.ID, nil).ok(nil).body; !bytes.Equal(got, wantCustomer) {
		t.Errorf("customer after restart:\n%s\nwant\n%s", got, wantCustomer)
	}
	if got := e.get("/v1/payments", vals("limit", "100")).ok(nil).body; !bytes.Equal(got, wantList) {
		t.Errorf("payments after restart:\n%s\nwant\n%s", got, wantList)
	}
	e.get("/v1/customers/"+gone.ID, nil).fails(404, wire.ErrorTypeInvalidRequest, wire.ErrorCodeResourceMissing, "")
	if r := e.post("/v1/payments", pay("300", "GBP", sandbox.TokenVisa), idemKey("persisted")).ok(nil); !bytes.Equal(r.body, stored.body) ||
		r.header.Get(wire.HeaderIdempotentReplayed) != "true" {
		t.Errorf("idempotent replay after restart: %s", r.body)
	}
	if r := e.post("/v1/payments", pay("1", "USD", sandbox.TokenDeclined), idemKey("declined")); r.status != 402 || !bytes.Equal(r.body, declined.body) {
		t.Errorf("402 replay after restart: %d %s", r.status, r.body)
	}
	// The sequence goes on: a new payment lists first.
	p3 := e.payment(pay("400", "USD", sandbox.TokenVisa))
	var l wire.PaymentList
	e.get("/v1/payments", vals("limit", "3")).ok(&l)
	if len(l.Data) != 3 || l.Data[0].ID != p3.ID || l.Data[1].Status != wire.PaymentStatusDeclined || l.Data[2].Amount != 300 {
		t.Errorf("order after restart: %+v %+v %+v", l.Data[0], l.Data[1], l.Data[2])
	}
	e.post("/_sandbox/payments/"+p2.ID+"/complete", nil).ok(nil)
	if st := e.stats(); st.Customers != 1 || st.Sources != 2 || st.Payments != 5 {
		t.Errorf("stats after restart = %+v", st)
	}
	// Reset is persisted too.
	e.post("/_sandbox/reset", nil).ok(nil)
	stop()
	e, stop = openEnv(t, path, key)
	defer stop()
	if st := e.stats(); st.Customers != 0 || st.Payments != 0 {
		t.Errorf("reset lost on restart: %+v", st)
	}
	p4 := e.payment(pay("400", "USD", sandbox.TokenVisa))
	e.get("/v1/payments/"+p4.ID, nil).ok(nil)
}

func TestStore_RefusesSecondOpener(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "sandbox.db")
	st, err := storage.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if _, err := storage.Open(path); err == nil || !strings.Contains(err.Error(), "locked") {
		t.Errorf("second open: %v, want a locked error", err)
	}
}

// TestStore_NeverHoldsKeys: the data file names accounts by a hash.
func TestStore_NeverHoldsKeys(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "sandbox.db")
	key := sandboxtest.NewKey(t)
	e, stop := openEnv(t, path, key)
	e.customer(vals("name", "x"))
	stop()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(raw, []byte(key)) || bytes.Contains(raw, []byte(strings.TrimPrefix(key, wire.SecretKeySandboxPrefix))) {
		t.Error("the data file holds the secret key")
	}
}

// seedDataFile writes a data file with two accounts and enough records to
// fill many pages, and returns its bytes and the ids of its leaf pages (in
// use, so that damaging one is damage, unlike a free page).
func seedDataFile(t *testing.T, path string) (raw []byte, leaves []int) {
	t.Helper()
	for range 2 {
		e, stop := openEnv(t, path, sandboxtest.NewKey(t))
		for i := range 40 {
			cu := e.customer(vals("name", strings.Repeat("n", 200), "metadata[k]", strings.Repeat("v", 400), "source", sandbox.TokenVisa))
			e.payment(pay("100", "USD", "", "customer", cu.ID, "description", strings.Repeat("d", 300)))
			e.post("/v1/payments", pay("200", "EUR", sandbox.TokenVisa), idemKey(strings.Repeat("k", 200)+string(rune('a'+i%26))))
		}
		stop()
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	// bbolt grows a file ahead of its pages; cut that unused tail, so that
	// every byte left belongs to a page.
	db, err := bolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.View(func(tx *bolt.Tx) error {
		raw = raw[:tx.Size()]
		for id := 2; ; {
			info, err := tx.Page(id)
			if err != nil || info == nil {
				return err
			}
			if info.Type == "leaf" {
				leaves = append(leaves, id)
			}
			id += 1 + info.OverflowCount
		}
	}); err != nil {
		t.Fatal(err)
	}
	if len(leaves) < 2 {
		t.Fatalf("the seed file has %d leaf pages, want several", len(leaves))
	}
	return raw, leaves
}

// openDamaged opens the data file at path as payments-sandbox does; it
// must refuse a damaged file with one line naming it and the way out, and
// leave the file as it was.
func openDamaged(t *testing.T, path string) error {
	t.Helper()
	before, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	st, err := storage.Open(path)
	if err == nil {
		var srv *sandbox.Server
		if srv, err = sandbox.New(sandbox.Options{Store: st}); err == nil {
			srv.Close()
			return nil
		}
		st.Close()
	}
	msg := err.Error()
	for _, part := range []string{path, "damaged", "restore it from a copy", "without -data", "new -data file"} {
		if !strings.Contains(msg, part) {
			t.Errorf("error %q lacks %q", msg, part)
		}
	}
	if strings.ContainsAny(msg, "\n\r") {
		t.Errorf("error is not one line: %q", msg)
	}
	if after, _ := os.ReadFile(path); !bytes.Equal(before, after) {
		t.Error("opening the damaged file changed it")
	}
	return err
}

// TestStore_RefusesDamagedFile: a truncated, overwritten or foreign file is
// refused cleanly: no panic, no memory fault, nothing served.
func TestStore_RefusesDamagedFile(t *testing.T) {
	t.Parallel()
	good, leaves := seedDataFile(t, filepath.Join(t.TempDir(), "seed.db"))
	pg := os.Getpagesize()
	page := func(b []byte, id int) []byte { return b[id*pg : (id+1)*pg] }
	if len(good) < 8*pg {
		t.Fatalf("seed file is only %d bytes", len(good))
	}
	fill := func(b []byte, v byte) []byte {
		for i := range b {
			b[i] = v ^ byte(i*31)
		}
		return b
	}
	tests := []struct {
		name   string
		damage func([]byte) []byte
	}{
		{"truncated to half", func(b []byte) []byte { return b[:len(b)/2] }},
		{"truncated to the meta pages", func(b []byte) []byte { return b[:2*pg] }},
		{"truncated by one page", func(b []byte) []byte { return b[:len(b)-pg] }},
		{"truncated inside a page", func(b []byte) []byte { return b[:len(b)-pg/2] }},
		{"truncated to 100 bytes", func(b []byte) []byte { return b[:100] }},
		{"both meta pages overwritten", func(b []byte) []byte { fill(b[:2*pg], 0x5a); return b }},
		{"every data page overwritten", func(b []byte) []byte { fill(b[2*pg:], 0xa5); return b }},
		{"a leaf page zeroed", func(b []byte) []byte { clear(page(b, leaves[len(leaves)-1])); return b }},
		{"a leaf page overwritten", func(b []byte) []byte { fill(page(b, leaves[len(leaves)/2]), 0x3c); return b }},
		{"every leaf page overwritten", func(b []byte) []byte {
			for _, id := range leaves {
				fill(page(b, id), byte(id))
			}
			return b
		}},
		{"not a data file", func([]byte) []byte { return []byte("this is a text file, not a bbolt database\n") }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			path := filepath.Join(t.TempDir(), "damaged.db")
			if err := os.WriteFile(path, tc.damage(bytes.Clone(good)), 0o600); err != nil {
				t.Fatal(err)
			}
			if err := openDamaged(t, path); err == nil {
				t.Fatal("the damaged file was opened and served")
			}
		})
	}
}

// TestStore_SurvivesAnyOverwrittenPage overwrites each page of a data file
// in turn with garbage: every open either refuses the file cleanly or
// serves a state that the consistency check found whole. It never panics
// or faults, which would end this test binary.
func TestStore_SurvivesAnyOverwrittenPage(t *testing.T) {
	t.Parallel()
	good, _ := seedDataFile(t, filepath.Join(t.TempDir(), "seed.db"))
	pg := os.Getpagesize()
	dir := t.TempDir()
	refused := 0
	for p := 0; p*pg < len(good); p++ {
		b := bytes.Clone(good)
		for i := p * pg; i < min((p+1)*pg, len(b)); i++ {
			b[i] = byte(i*7 + p)
		}
		path := filepath.Join(dir, "page"+strconv.Itoa(p)+".db")
		if err := os.WriteFile(path, b, 0o600); err != nil {
			t.Fatal(err)
		}
		if openDamaged(t, path) != nil {
			refused++
		}
	}
	if refused == 0 {
		t.Error("no overwritten page was noticed")
	}
}

// TestStore_EventTimesAfterLoadAreNoLater keeps an event recorded at a
// later time than the clock's at load (a file written while events took a
// test clock's time, or a host clock set back) from outliving its
// retention, and every event after it with it.
func TestStore_EventTimesAfterLoadAreNoLater(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "sandbox.db")
	key := sandboxtest.NewKey(t)
	later := clock.NewFake(time.Date(2031, 1, 1, 0, 0, 0, 0, time.UTC))
	e, stop := openEnv(t, path, key, sandboxtest.WithClock(later))
	cu := e.customer(vals("email", "jo@example.com"))
	stop()

	clk := clock.NewFake(time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC))
	e, stop = openEnv(t, path, key, sandboxtest.WithClock(clk))
	defer stop()
	if got := e.events(nil); len(got) != 1 {
		t.Fatalf("after the restart the events are %d, want the customer's one", len(got))
	}
	clk.Advance(wire.EventRetention + time.Second)
	e.post(wire.PathCustomers+"/"+cu.ID, vals("name", "Later")).ok(nil)
	if got := e.events(nil); len(got) != 1 || got[0].Type != wire.EventCustomerUpdated {
		t.Errorf("past the retention after the restart the events are %+v, want only the new customer.updated", got)
	}
}
