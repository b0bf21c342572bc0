package client

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"
)

func refusedErr() error {
	return &net.OpError{Op: "dial", Net: "tcp", Err: &os.SyscallError{Syscall: "connect", Err: syscall.ECONNREFUSED}}
}

func TestIsConnectFailure_Kinds(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		err  error
		want bool
	}{
		{"refused", refusedErr(), true},
		{"no route", &net.OpError{Op: "dial", Net: "tcp", Err: &os.SyscallError{Syscall: "connect", Err: syscall.EHOSTUNREACH}}, true},
		{"dns", &net.OpError{Op: "dial", Net: "tcp", Err: &net.DNSError{Err: "no such host", Name: "api.invalid", IsNotFound: true}}, true},
		{"bare dns", &net.DNSError{Err: "no such host", Name: "api.invalid"}, true},
		{"wrapped", &UnreachableError{BaseURL: "http://x", Err: refusedErr()}, true},
		{"reset while reading", &net.OpError{Op: "read", Net: "tcp", Err: syscall.ECONNRESET}, false},
		{"eof", io.ErrUnexpectedEOF, false},
		{"attempt timeout", &AttemptTimeoutError{Timeout: time.Second}, false},
		{"deadline", context.DeadlineExceeded, false},
	} {
		if got := isConnectFailure(tc.err); got != tc.want {
			t.Errorf("%s: isConnectFailure = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestBreaker_OpensAndRecovers: it opens after BreakerThreshold connection
// failures in a row that span breakerMinStreak, not before; while open it
// refuses at once, naming the address and the last failure; after
// breakerCooldown it lets attempts through, one more failure opens it
// again, and an answer closes it and starts the count over.
func TestBreaker_OpensAndRecovers(t *testing.T) {
	t.Parallel()
	const base = "http://127.0.0.1:9"
	t0 := time.Now()
	at := func(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }

	b := &breaker{baseURL: base}
	// Many failures at once (ten parallel requests meeting a restart) do
	// not open it: the streak is too short.
	for range 10 {
		b.failed(at(0), refusedErr())
	}
	if err := b.allow(at(500)); err != nil {
		t.Fatalf("open after a 0s streak: %v", err)
	}
	b.failed(at(999), refusedErr())
	if err := b.allow(at(999)); err != nil {
		t.Fatalf("open after a 999ms streak: %v", err)
	}
	b.failed(at(1000), refusedErr())
	err := b.allow(at(1001))
	var ue *UnreachableError
	if !errors.As(err, &ue) || !ue.open || ue.BaseURL != base {
		t.Fatalf("allow = %v, want an open UnreachableError for %s", err, base)
	}
	if msg := err.Error(); !strings.Contains(msg, base) || !strings.Contains(msg, "connection refused") {
		t.Errorf("message %q, want the address and the last failure", msg)
	}
	if !noRetry(err) {
		t.Errorf("an open breaker's error is retried")
	}
	if noRetry(&UnreachableError{BaseURL: base, Err: refusedErr()}) {
		t.Errorf("a connection failure before the breaker opens is not retried")
	}
	// Cooldown over: attempts go through; one more failure reopens it.
	open := at(1000).Add(breakerCooldown)
	if err := b.allow(open.Add(-time.Millisecond)); err == nil {
		t.Fatalf("closed before the cooldown ended")
	}
	if err := b.allow(open); err != nil {
		t.Fatalf("still open after the cooldown: %v", err)
	}
	b.failed(open, refusedErr())
	if err := b.allow(open.Add(time.Millisecond)); err == nil {
		t.Fatalf("a failure after the cooldown did not reopen it")
	}
	// An answer closes it and the count starts over.
	b.succeeded()
	later := open.Add(time.Second)
	if err := b.allow(later); err != nil {
		t.Fatalf("open after an answer: %v", err)
	}
	for i := range BreakerThreshold - 1 {
		b.failed(later.Add(time.Duration(i)*time.Second), refusedErr())
	}
	if err := b.allow(later.Add(10 * time.Second)); err != nil {
		t.Fatalf("open after %d failures: %v", BreakerThreshold-1, err)
	}
}

// scriptedTransport answers attempts from a script and counts them.
type scriptedTransport struct {
	calls int
	next  func(n int) (*http.Response, error)
}

func (s *scriptedTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	s.calls++
	return s.next(s.calls)
}

func okResponse() *http.Response {
	return &http.Response{StatusCode: http.StatusOK, Header: http.Header{}, Body: io.NopCloser(strings.NewReader(`{}`))}
}

// TestAttemptTransport_Breaker drives the transport with a fake clock and a
// dead service: attempts reach the network until the breaker opens, then
// none does until the cooldown ends, and an answer resets it.
func TestAttemptTransport_Breaker(t *testing.T) {
	t.Parallel()
	clk := newFakeClock()
	dead := true
	next := &scriptedTransport{next: func(int) (*http.Response, error) {
		if dead {
			return nil, refusedErr()
		}
		return okResponse(), nil
	}}
	tr := &attemptTransport{next: next, clock: clk, gate: newRateGate(clk, 0), breaker: &breaker{baseURL: "http://127.0.0.1:9"}}
	send := func() error {
		req, _ := http.NewRequest(http.MethodGet, "http://127.0.0.1:9/v1/customers", nil)
		resp, err := tr.RoundTrip(req)
		if err == nil {
			resp.Body.Close()
		}
		return err
	}
	// One attempt every 250ms: the fifth failure, at 1s, makes a streak of
	// a second and opens the breaker.
	for i := range BreakerThreshold {
		err := send()
		if !IsUnreachable(err) || noRetry(err) {
			t.Fatalf("attempt %d: %v, want a retryable UnreachableError", i+1, err)
		}
		clk.advance(250 * time.Millisecond)
	}
	if next.calls != BreakerThreshold {
		t.Fatalf("%d attempts reached the network, want %d", next.calls, BreakerThreshold)
	}
	for range 100 {
		if err := send(); !noRetry(err) {
			t.Fatalf("while open: %v, want the breaker's error", err)
		}
	}
	if next.calls != BreakerThreshold {
		t.Fatalf("%d attempts reached the network while the breaker was open, want none", next.calls-BreakerThreshold)
	}
	clk.advance(breakerCooldown)
	dead = false
	if err := send(); err != nil {
		t.Fatalf("after the cooldown, with the service back: %v", err)
	}
	dead = true
	for i := range BreakerThreshold - 1 {
		if err := send(); noRetry(err) {
			t.Fatalf("failure %d after an answer opened the breaker: the count did not start over", i+1)
		}
		clk.advance(time.Second)
	}
}
