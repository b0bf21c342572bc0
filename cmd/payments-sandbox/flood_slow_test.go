//go:build unix

package main

import (
	"bufio"
	"context"
	"encoding/base64"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/sandboxtest"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// TestFlood_SlowReadersOfEscapedLists: one account holds 100 customers
// whose metadata is 25,000 '<' each (26 KB of form body, 152 KB of JSON
// answer, every '<' written \u003c), so that GET /v1/events?limit=100 is
// 15 MB; 120 clients ask for it and read one byte of the answer, no more.
// The program, with its default flags, must stay under 512 MiB resident,
// and another account's requests must go on meanwhile.
func TestFlood_SlowReadersOfEscapedLists(t *testing.T) {
	sb, log := startDefaults(t)
	key := sandboxtest.NewKey(t)
	body := escapedMetadataForm()
	t.Logf("each customer's form body is %d bytes", len(body))
	for i := range 100 {
		st, b := rawPost(t, sb.URL, key, wire.PathCustomers, body)
		if st != http.StatusOK {
			t.Fatalf("customer %d: %d %.300s", i, st, b)
		}
	}

	addr := strings.TrimPrefix(sb.URL, "http://")
	auth := base64.StdEncoding.EncodeToString([]byte(key + ":"))
	req := "GET " + wire.PathEvents + "?limit=100 HTTP/1.1\r\nHost: " + addr + "\r\nAuthorization: Basic " + auth + "\r\n\r\n"
	conns := make([]net.Conn, 120)
	var wg sync.WaitGroup
	errs := make(chan error, len(conns))
	for i := range conns {
		c, err := dialSmallWindow(addr)
		if err != nil {
			t.Fatal(err)
		}
		conns[i] = c
		t.Cleanup(func() { c.Close() })
		wg.Add(1)
		go func() {
			defer wg.Done()
			_ = c.SetDeadline(time.Now().Add(time.Minute))
			if _, err := io.WriteString(c, req); err != nil {
				errs <- err
				return
			}
			// One byte of the answer: its handler has the page and is
			// writing it. Nothing more is read.
			var one [1]byte
			if _, err := io.ReadFull(c, one[:]); err != nil {
				errs <- fmt.Errorf("no answer: %w", err)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatalf("a slow reader: %v", err)
	}

	// While they hold their answers, another account works.
	other := sandboxtest.NewKey(t)
	if st, b := rawPost(t, sb.URL, other, wire.PathCustomers, "name=Other"); st != http.StatusOK {
		t.Errorf("another account's create during the flood: %d %.300s", st, b)
	}
	peak := peakResident(t, sb.Pid())
	t.Logf("peak resident size %.1f MiB with %d clients not reading", float64(peak)/(1<<20), len(conns))
	if peak >= floodMemoryBound {
		t.Errorf("peak resident size %d bytes, over the %d the defaults promise; log:\n%s", peak, floodMemoryBound, log)
	}
}

// TestFlood_HeaderFloodWithoutKey: 512 connections, the most the defaults
// serve at once, each send 1 MB of headers that never end, with no key.
// The program must stay under 512 MiB resident, and serve another
// account throughout and after.
func TestFlood_HeaderFloodWithoutKey(t *testing.T) {
	sb, log := startDefaults(t)
	addr := strings.TrimPrefix(sb.URL, "http://")
	pad := "X-Pad: " + strings.Repeat("a", 1000) + "\r\n"
	flood := "GET " + wire.PathCustomers + " HTTP/1.1\r\nHost: " + addr + "\r\n" + strings.Repeat(pad, 1<<20/len(pad))
	// Another account creates customers throughout the flood.
	other, stop, otherDone := sandboxtest.NewKey(t), make(chan struct{}), make(chan error, 1)
	go func() {
		n := 0
		for {
			select {
			case <-stop:
				if n == 0 {
					otherDone <- fmt.Errorf("no create was answered during the flood")
				}
				close(otherDone)
				return
			default:
			}
			st, b, err := tryPost(sb.URL, other, wire.PathCustomers, "name=During")
			if err != nil || st != http.StatusOK {
				otherDone <- fmt.Errorf("create %d during the flood: %d %.300s %v", n+1, st, b, err)
				close(otherDone)
				return
			}
			n++
		}
	}()
	var wg sync.WaitGroup
	var mu sync.Mutex
	outcomes := map[string]int{}
	for range 512 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			outcome := headerFlood(addr, flood)
			mu.Lock()
			outcomes[outcome]++
			mu.Unlock()
		}()
	}
	wg.Wait()
	close(stop)
	if err := <-otherDone; err != nil {
		t.Errorf("another account: %v", err)
	}
	peak := peakResident(t, sb.Pid())
	t.Logf("outcomes %v; peak resident size %.1f MiB", outcomes, float64(peak)/(1<<20))
	if peak >= floodMemoryBound {
		t.Errorf("peak resident size %d bytes, over the %d the defaults promise; log:\n%s", peak, floodMemoryBound, log)
	}
	if st, b := rawPost(t, sb.URL, sandboxtest.NewKey(t), wire.PathCustomers, "name=After"); st != http.StatusOK {
		t.Errorf("another account's create after the flood: %d %.300s", st, b)
	}
}

// headerFlood sends flood on a new connection, then waits for the answer
// or the close, and says which came.
func headerFlood(addr, flood string) string {
	c, err := net.DialTimeout("tcp", addr, 30*time.Second)
	if err != nil {
		return "dial: " + err.Error()
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(time.Minute))
	// The server may close it mid-way; its answer is read all the same.
	_, _ = io.WriteString(c, flood)
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		return "closed without an answer"
	}
	resp.Body.Close()
	return resp.Status
}

// escapedMetadataForm is a customer's form with 50 metadata values of 500
// '<', sent unescaped as form encoding allows: 26 KB of body.
func escapedMetadataForm() string {
	var b strings.Builder
	b.WriteString("name=Escaped")
	for i := range wire.MetadataMaxKeys {
		fmt.Fprintf(&b, "&metadata[k%02d]=%s", i, strings.Repeat("<", wire.MetadataValueMaxLength))
	}
	return b.String()
}

// rawPost sends a form body as is, for forms url.Values would escape.
func rawPost(t *testing.T, base, key, path, body string) (int, []byte) {
	t.Helper()
	st, b, err := tryPost(base, key, path, body)
	if err != nil {
		t.Fatal(err)
	}
	return st, b
}

// tryPost is rawPost that returns its error, for use off the test's
// goroutine.
func tryPost(base, key, path, body string) (int, []byte, error) {
	r, err := http.NewRequest(http.MethodPost, base+path, strings.NewReader(body))
	if err != nil {
		return 0, nil, err
	}
	r.SetBasicAuth(key, "")
	r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	resp, err := http.DefaultClient.Do(r.WithContext(ctx))
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return resp.StatusCode, b, err
}

// dialSmallWindow connects with a small receive buffer, as a client on a
// slow link, so that the kernel takes little of an answer it does not read.
func dialSmallWindow(addr string) (net.Conn, error) {
	d := net.Dialer{Timeout: 30 * time.Second, Control: func(_, _ string, rc syscall.RawConn) error {
		var serr error
		err := rc.Control(func(fd uintptr) {
			serr = syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVBUF, 4096)
		})
		if err != nil {
			return err
		}
		return serr
	}}
	return d.Dial("tcp", addr)
}
