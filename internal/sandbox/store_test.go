package sandbox_test

import (
	"bytes"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/paymentsdev/terraform-provider-payments/internal/client"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/sandboxtest"
)

// openEnv starts a sandbox on the data file at path.
func openEnv(t *testing.T, path, key string) (*env, func()) {
	t.Helper()
	st, err := sandbox.OpenStore(path)
	if err != nil {
		t.Fatal(err)
	}
	srv, err := sandbox.New(sandbox.Options{Store: st})
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(srv)
	return &env{t: t, url: hs.URL, key: key, hc: hs.Client()}, func() {
		hs.Close()
		if err := srv.Close(); err != nil {
			t.Error(err)
		}
	}
}

func TestStoreKeepsState(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "sandbox.db")
	key := sandboxtest.NewKey(t)
	e, stop := openEnv(t, path, key)

	cu := e.customer(vals("email", "jo@example.com", "metadata[a]", "1", "source", client.TokenVisa))
	var s2 client.Source
	e.post("/v1/customers/"+cu.ID+"/sources", vals("source", client.TokenAmex)).ok(&s2)
	e.post("/v1/customers/"+cu.ID, vals("default_source", s2.ID)).ok(nil)
	gone := e.customer(nil)
	e.del("/v1/customers/" + gone.ID).ok(nil)
	p1 := e.payment(pay("100", "USD", "", "customer", cu.ID, "capture", "false"))
	p2 := e.payment(pay("200", "EUR", client.Token3DS, "metadata[x]", "y", "description", "d"))
	e.post("/v1/payments/"+p1.ID+"/capture", vals("amount", "50")).ok(nil)
	stored := e.post("/v1/payments", pay("300", "GBP", client.TokenVisa), idemKey("persisted")).ok(nil)
	declined := e.post("/v1/payments", pay("1", "USD", client.TokenDeclined), idemKey("declined"))
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
	e.get("/v1/customers/"+gone.ID, nil).fails(404, client.ErrorTypeInvalidRequest, client.ErrorCodeResourceMissing, "")
	if r := e.post("/v1/payments", pay("300", "GBP", client.TokenVisa), idemKey("persisted")).ok(nil); !bytes.Equal(r.body, stored.body) ||
		r.header.Get(client.HeaderIdempotentReplayed) != "true" {
		t.Errorf("idempotent replay after restart: %s", r.body)
	}
	if r := e.post("/v1/payments", pay("1", "USD", client.TokenDeclined), idemKey("declined")); r.status != 402 || !bytes.Equal(r.body, declined.body) {
		t.Errorf("402 replay after restart: %d %s", r.status, r.body)
	}
	// The sequence goes on: a new payment lists first.
	p3 := e.payment(pay("400", "USD", client.TokenVisa))
	var l client.PaymentList
	e.get("/v1/payments", vals("limit", "3")).ok(&l)
	if len(l.Data) != 3 || l.Data[0].ID != p3.ID || l.Data[1].Status != client.PaymentStatusDeclined || l.Data[2].Amount != 300 {
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
	p4 := e.payment(pay("400", "USD", client.TokenVisa))
	e.get("/v1/payments/"+p4.ID, nil).ok(nil)
}

func TestStoreRefusesSecondOpener(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "sandbox.db")
	st, err := sandbox.OpenStore(path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if _, err := sandbox.OpenStore(path); err == nil || !strings.Contains(err.Error(), "locked") {
		t.Errorf("second open: %v, want a locked error", err)
	}
}

// TestStoreNeverHoldsKeys: the data file names accounts by a hash.
func TestStoreNeverHoldsKeys(t *testing.T) {
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
	if bytes.Contains(raw, []byte(key)) || bytes.Contains(raw, []byte(strings.TrimPrefix(key, client.SecretKeySandboxPrefix))) {
		t.Error("the data file holds the secret key")
	}
}
