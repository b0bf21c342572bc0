//go:build unix

package main

import (
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/sandboxtest"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// TestFlood_DeliveryBacklog: one account subscribes the most endpoints it
// may to a receiver that accepts connections and never answers, then
// writes 24,000 customers, each an event for 16 deliveries: a backlog of
// pending deliveries past the account's byte limit. The program, with its
// default flags, must stay under 512 MiB resident and stop queueing the
// account's deliveries past its limit, saying so in /_sandbox/deliveries;
// meanwhile another account's requests are answered and its delivery goes
// out at once, not after the backlog's timeouts.
func TestFlood_DeliveryBacklog(t *testing.T) {
	sb, log := startDefaults(t)
	never := blackhole(t)
	flooder := sandboxtest.NewKey(t)
	for i := range wire.MaxWebhookEndpoints {
		form := url.Values{wire.ParamURL: {fmt.Sprintf("http://%s/%d", never, i)}, wire.ParamEnabledEventsItem: {"*"}}
		if st, b := rawPost(t, sb.URL, flooder, wire.PathWebhookEndpoints, form.Encode()); st != http.StatusOK {
			t.Fatalf("endpoint %d: %d %.300s", i, st, b)
		}
	}
	f := newFlood(t, sb.URL)
	began := time.Now()
	f.run(24_000, func(i int) (string, url.Values, string) {
		return flooder, url.Values{"name": {fmt.Sprint("Flood ", i)}, "email": {fmt.Sprintf("flood%d@example.com", i)}}, ""
	})
	t.Logf("24,000 writes in %s: %v", time.Since(began).Round(time.Millisecond), f.counts)

	// Another account: its write is answered, and its delivery arrives
	// while the flooder's attempts hang for their 10 s timeout.
	got := make(chan time.Time, 1)
	rc := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		select {
		case got <- time.Now():
		default:
		}
	}))
	t.Cleanup(rc.Close)
	other := sandboxtest.NewKey(t)
	form := url.Values{wire.ParamURL: {rc.URL + "/hook"}, wire.ParamEnabledEventsItem: {wire.EventCustomerCreated}}
	if st, b := rawPost(t, sb.URL, other, wire.PathWebhookEndpoints, form.Encode()); st != http.StatusOK {
		t.Fatalf("the other account's endpoint: %d %.300s", st, b)
	}
	sent := time.Now()
	if st, b := rawPost(t, sb.URL, other, wire.PathCustomers, "name=Other"); st != http.StatusOK {
		t.Fatalf("the other account's write during the backlog: %d %.300s", st, b)
	}
	answered := time.Since(sent)
	select {
	case at := <-got:
		t.Logf("the other account's write answered in %s, its delivery arrived %s after it was sent", answered.Round(time.Microsecond), at.Sub(sent).Round(time.Microsecond))
		if late := at.Sub(sent); late > 5*time.Second {
			t.Errorf("the other account's delivery arrived %s after its write: it waited for the backlog", late)
		}
	case <-time.After(15 * time.Second):
		t.Fatalf("the other account's delivery did not arrive within 15 s of its write; log:\n%s", log)
	}

	var list wire.List[wire.Delivery]
	getJSON(t, sb.URL, flooder, wire.PathSandboxDeliveries, &list)
	notQueued := 0
	for _, d := range list.Data {
		if d.Attempt == 0 && strings.HasPrefix(d.Error, "not queued: ") && strings.Contains(d.Error, "-max-account-bytes") {
			notQueued++
		}
	}
	if notQueued == 0 {
		t.Errorf("none of the %d delivery log lines says a delivery was not queued past -max-account-bytes (answers %v)", len(list.Data), f.counts)
	}

	peak := peakResident(t, sb.Pid())
	t.Logf("%d of the last %d delivery log lines not queued; peak resident size %.1f MiB", notQueued, len(list.Data), float64(peak)/(1<<20))
	if peak >= floodMemoryBound {
		t.Errorf("peak resident size %d bytes, over the %d the defaults promise; log:\n%s", peak, floodMemoryBound, log)
	}
}

// blackhole is a receiver that accepts connections, reads what they send
// and never answers; it returns its host:port.
func blackhole(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var conns []net.Conn
	t.Cleanup(func() {
		ln.Close()
		mu.Lock()
		defer mu.Unlock()
		for _, c := range conns {
			c.Close()
		}
	})
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			conns = append(conns, c)
			mu.Unlock()
			go func() { _, _ = c.Read(make([]byte, 64<<10)) }()
		}
	}()
	return ln.Addr().String()
}

// getJSON reads path with key and decodes its answer into v.
func getJSON(t *testing.T, base, key, path string, v any) {
	t.Helper()
	r, err := http.NewRequest(http.MethodGet, base+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	r.SetBasicAuth(key, "")
	resp, err := http.DefaultClient.Do(r)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %d", path, resp.StatusCode)
	}
	if err := json.NewDecoder(resp.Body).Decode(v); err != nil {
		t.Fatalf("GET %s: %v", path, err)
	}
}
