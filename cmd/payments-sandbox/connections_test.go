package main

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/sandboxtest"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// newClientWait is how long a new client may wait for a connection while
// -max-connections are taken by connections that do nothing.
const newClientWait = 5 * time.Second

// TestProgram_IdleConnectionsMakeRoom: 20 kept-alive connections, idle
// after a request without a key, hold every slot of -max-connections 20;
// a new client is answered within 5 s all the same, not after their
// -idle-timeout of 2 minutes.
func TestProgram_IdleConnectionsMakeRoom(t *testing.T) {
	key := wire.SecretKeySandboxPrefix + "idleconns01"
	p := start(t, "-addr", "127.0.0.1:0", "-key", key, "-max-connections", "20")
	host := strings.TrimPrefix(p.url, "http://")
	idle := make([]*rawConn, 20)
	for i := range idle {
		idle[i] = dialRaw(t, host)
		if st := idle[i].get(t, wire.PathCustomers, ""); st != http.StatusUnauthorized {
			t.Fatalf("connection %d: status %d, want 401", i, st)
		}
	}
	took, err := timedCreate(p.url, key)
	if err != nil {
		t.Fatalf("a new client while 20 idle connections hold every slot: %v", err)
	}
	t.Logf("a new client was answered in %v", took)
	if took > newClientWait {
		t.Errorf("a new client waited %v, over %v", took, newClientWait)
	}
}

// TestProgram_BusyConnectionsAreNotClosed: 20 requests whose bodies are
// still arriving hold every slot of -max-connections 20. A new client
// waits for one of them, never closes one: once the first body is sent
// whole, the new client is answered, and every slow request is answered
// 200 on its own connection.
func TestProgram_BusyConnectionsAreNotClosed(t *testing.T) {
	key := wire.SecretKeySandboxPrefix + "busyconns01"
	p := start(t, "-addr", "127.0.0.1:0", "-key", key, "-max-connections", "20")
	host := strings.TrimPrefix(p.url, "http://")
	const body = "name=slow"
	busy := make([]*rawConn, 20)
	for i := range busy {
		busy[i] = dialRaw(t, host)
		busy[i].write(t, "POST "+wire.PathCustomers+" HTTP/1.1\r\nHost: "+host+"\r\nAuthorization: Basic "+basic(key)+
			"\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: "+fmt.Sprint(len(body))+"\r\n\r\n"+body[:4])
	}
	answered := make(chan error, 1)
	go func() {
		_, err := timedCreate(p.url, key)
		answered <- err
	}()
	// The first slow request ends; its connection goes idle and makes
	// room for the new client.
	busy[0].write(t, body[4:])
	if st := busy[0].status(t); st != http.StatusOK {
		t.Fatalf("slow request 0: status %d", st)
	}
	if err := <-answered; err != nil {
		t.Fatalf("the new client: %v", err)
	}
	for i, c := range busy[1:] {
		c.write(t, body[4:])
		if st := c.status(t); st != http.StatusOK {
			t.Errorf("slow request %d: status %d, want 200", i+1, st)
		}
	}
}

// TestProgram_SilentConnectionsLastTheHeaderTimeout: 20 connections that
// never send a request hold every slot of -max-connections 20. They are
// not idle kept-alive connections, and are not closed for a new client:
// -read-header-timeout closes them, and the new client gets in then.
func TestProgram_SilentConnectionsLastTheHeaderTimeout(t *testing.T) {
	const headerTimeout = time.Second
	key := wire.SecretKeySandboxPrefix + "silentconns1"
	p := start(t, "-addr", "127.0.0.1:0", "-key", key, "-max-connections", "20", "-read-header-timeout", headerTimeout.String())
	host := strings.TrimPrefix(p.url, "http://")
	var wg sync.WaitGroup
	for range 20 {
		c := dialRaw(t, host)
		wg.Add(1)
		go func() {
			defer wg.Done()
			_ = c.closedByServer()
		}()
	}
	took, err := timedCreate(p.url, key)
	if err != nil {
		t.Fatalf("a new client while 20 silent connections hold every slot: %v", err)
	}
	t.Logf("a new client was answered in %v (-read-header-timeout %v)", took, headerTimeout)
	if took > headerTimeout+newClientWait {
		t.Errorf("a new client waited %v, over -read-header-timeout and %v", took, newClientWait)
	}
	wg.Wait()
}

// TestLimitListener_ClosesLongestIdle: at the cap, a new connection
// closes the connection idle the longest, and no other.
func TestLimitListener_ClosesLongestIdle(t *testing.T) {
	inner, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ln := limitListener(inner, 2, func() {})
	idle := make(chan struct{}, 10)
	hs := &http.Server{
		Handler: http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}),
		ConnState: func(c net.Conn, s http.ConnState) {
			ln.ConnState(c, s)
			if s == http.StateIdle {
				idle <- struct{}{}
			}
		},
	}
	go func() { _ = hs.Serve(ln) }()
	t.Cleanup(func() { hs.Close() })
	host := inner.Addr().String()
	first, second := dialRaw(t, host), dialRaw(t, host)
	for _, c := range []*rawConn{first, second} {
		if st := c.get(t, "/", ""); st != http.StatusOK {
			t.Fatalf("status %d", st)
		}
		<-idle // idle in this order
	}
	third := dialRaw(t, host)
	if st := third.get(t, "/", ""); st != http.StatusOK {
		t.Fatalf("the third connection: status %d", st)
	}
	if err := first.closedByServer(); err != nil {
		t.Errorf("the longest-idle connection: %v", err)
	}
	if st := second.get(t, "/", ""); st != http.StatusOK {
		t.Errorf("the other idle connection: status %d", st)
	}
}

// rawConn is one client connection, written and read by hand so that the
// test decides when it sends and what it keeps open.
type rawConn struct {
	net.Conn
	br *bufio.Reader
}

func dialRaw(t *testing.T, host string) *rawConn {
	t.Helper()
	c, err := net.DialTimeout("tcp", host, 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	_ = c.SetDeadline(time.Now().Add(time.Minute))
	return &rawConn{Conn: c, br: bufio.NewReader(c)}
}

func (c *rawConn) write(t *testing.T, s string) {
	t.Helper()
	if _, err := io.WriteString(c, s); err != nil {
		t.Fatal(err)
	}
}

// get sends a GET on the connection and reads its whole answer, leaving
// the connection kept alive.
func (c *rawConn) get(t *testing.T, path, key string) int {
	t.Helper()
	req := "GET " + path + " HTTP/1.1\r\nHost: " + c.RemoteAddr().String() + "\r\n"
	if key != "" {
		req += "Authorization: Basic " + basic(key) + "\r\n"
	}
	c.write(t, req+"\r\n")
	return c.status(t)
}

// status reads one answer whole and returns its status.
func (c *rawConn) status(t *testing.T) int {
	t.Helper()
	resp, err := http.ReadResponse(c.br, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if _, err := io.Copy(io.Discard, resp.Body); err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode
}

// closedByServer waits, up to the connection's deadline, for the server
// to close it, and fails if anything else comes.
func (c *rawConn) closedByServer() error {
	n, err := c.br.Read(make([]byte, 1))
	switch {
	case n > 0:
		return fmt.Errorf("the server sent more, not a close")
	case err == io.EOF || isReset(err):
		return nil
	default:
		return fmt.Errorf("not closed by the server: %w", err)
	}
}

func isReset(err error) bool {
	return err != nil && strings.Contains(err.Error(), "connection reset")
}

// timedCreate creates a customer on a new connection and says how long the
// answer took.
func timedCreate(base, key string) (time.Duration, error) {
	hc := &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{DisableKeepAlives: true}}
	began := time.Now()
	r, err := sandboxtest.Do(hc, base, sandboxtest.Request{Method: http.MethodPost, Path: wire.PathCustomers, Key: key, Form: url.Values{"name": {"New"}}})
	if err == nil && r.Status != http.StatusOK {
		err = fmt.Errorf("status %d: %.300s", r.Status, r.Body)
	}
	return time.Since(began), err
}
