package main

import (
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/url"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/clock"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/sandboxtest"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/storage"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// TestProgram_RenewalsSurviveKill: subscriptions whose periods ended
// while the sandbox was stopped are renewed when it starts; killed with
// SIGKILL during that run and started again, every period is invoiced
// and charged exactly once.
func TestProgram_RenewalsSurviveKill(t *testing.T) {
	binary(t)
	seed := time.Now().UnixNano()
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(uint64(seed), 0))
	data := filepath.Join(t.TempDir(), "state.db")
	const accounts, subsEach, months = 16, 20, 6

	// Subscribe in-process, on a clock months back.
	st, err := storage.Open(data)
	if err != nil {
		t.Fatal(err)
	}
	past := time.Now().UTC().AddDate(0, -months, 0).Add(-time.Hour)
	sb := sandboxtest.Start(t, sandboxtest.WithStore(st), sandboxtest.WithClock(clock.NewFake(past)))
	var keys []string
	subs := map[string][]string{}
	post := func(key, path string, f url.Values) map[string]any {
		resp, err := sandboxtest.Do(sb.HTTP.Client(), sb.URL, sandboxtest.Request{Method: http.MethodPost, Path: path, Key: key, Form: f})
		if err != nil || resp.Status != 200 {
			t.Fatalf("POST %s: %v %d %s", path, err, resp.Status, resp.Body)
		}
		return decode[map[string]any](t, resp.Body)
	}
	for a := range accounts {
		key := fmt.Sprintf("%srenewkill%04d", wire.SecretKeySandboxPrefix, a)
		keys = append(keys, key)
		prod := post(key, wire.PathProducts, url.Values{"name": {"Plan"}})
		price := post(key, wire.PathPrices, url.Values{"product": {prod["id"].(string)}, "currency": {"USD"}, "unit_amount": {"900"}, "recurring[interval]": {"month"}})
		for range subsEach {
			cu := post(key, wire.PathCustomers, url.Values{"source": {sandbox.TokenVisa}})
			s := post(key, wire.PathSubscriptions, url.Values{"customer": {cu["id"].(string)}, "items[0][price]": {price["id"].(string)}})
			subs[key] = append(subs[key], s["id"].(string))
		}
	}
	if err := sb.Close(); err != nil {
		t.Fatal(err)
	}

	// The first start renews months of periods; kill it part-way.
	p := startNoWait(t, "-addr", "127.0.0.1:0", "-data", data)
	time.Sleep(time.Duration(rng.IntN(150)) * time.Millisecond) // where the kill lands, not an assertion
	if err := p.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	<-p.done
	// Where the kill landed, from the file itself: the renewal invoices
	// it holds (the run commits each account's renewals at once).
	st, err = storage.Open(data)
	if err != nil {
		t.Fatal(err)
	}
	stored, err := st.Load()
	if err != nil {
		t.Fatal(err)
	}
	invoices := 0
	for _, a := range stored {
		invoices += len(a.Buckets["invoices"])
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	t.Logf("killed with %d of %d renewals on disk", invoices-accounts*subsEach, accounts*subsEach*months)

	p2 := start(t, "-addr", "127.0.0.1:0", "-data", data)
	for _, key := range keys {
		for _, id := range subs[key] {
			st, b, _ := p2.call(t, key, "GET", wire.PathInvoices+"?limit=100&subscription="+id, nil, "")
			if st != 200 {
				t.Fatalf("invoices of %s: %d %s", id, st, b)
			}
			l := decode[wire.InvoiceList](t, b)
			periods := map[string]int{}
			for _, inv := range l.Data {
				periods[inv.PeriodStart]++
				if inv.Status != wire.InvoiceStatusPaid || inv.Payment == "" {
					t.Errorf("invoice %s of %s is %s", inv.ID, id, inv.Status)
				}
			}
			if len(l.Data) != months+1 || len(periods) != months+1 {
				t.Errorf("subscription %s has %d invoices over %d periods, want %d each", id, len(l.Data), len(periods), months+1)
			}
		}
		// Nothing charged twice: as many payments as invoices.
		n, after := 0, ""
		for {
			st, b, _ := p2.call(t, key, "GET", wire.PathPayments+"?limit=100"+after, nil, "")
			l := decode[wire.PaymentList](t, b)
			if st != 200 || len(l.Data) == 0 {
				break
			}
			n += len(l.Data)
			if !l.HasMore {
				break
			}
			after = "&starting_after=" + l.Data[len(l.Data)-1].ID
		}
		if n != subsEach*(months+1) {
			t.Errorf("account %s has %d payments, want %d", key, n, subsEach*(months+1))
		}
	}
}

// startNoWait runs the binary without waiting for it to listen: a kill
// may land while it is still starting.
func startNoWait(t *testing.T, args ...string) *proc {
	t.Helper()
	cmd := exec.Command(binary(t), args...)
	p := &proc{cmd: cmd, done: make(chan error, 1)}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { p.done <- cmd.Wait() }()
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			_ = cmd.Process.Kill()
			<-p.done
		}
	})
	return p
}
