package client

import (
	"errors"
	"net"
	"sync"
	"time"
)

// The breaker makes a client fail fast when its service is unreachable:
// without it, every operation retries its connection with backoff for
// tens of seconds and prints its own error, and an apply of many resources
// against a dead address takes minutes to say what one message could.
//
// It counts connection failures in a row (refused, no route, a DNS
// failure, a dial that timed out), across all the requests of the client,
// which all go to one address. After BreakerThreshold of them spanning at
// least breakerMinStreak (so that a blip of a restarting service does not
// trip it), it opens: attempts fail at once with an UnreachableError and
// are not retried. After breakerCooldown, attempts go through again; one
// more connection failure opens it again, any answer closes it.
// Failures after a connection was made (a timeout waiting for the answer,
// a dropped connection) are no sign of an unreachable service: they
// neither count nor end the streak.
const (
	BreakerThreshold = 5
	breakerMinStreak = time.Second
	breakerCooldown  = 5 * time.Second
)

// breaker is the connection-failure breaker of one Client.
type breaker struct {
	baseURL string

	mu          sync.Mutex
	failures    int
	streakStart time.Time
	openUntil   time.Time
	last        error
}

// allow returns an UnreachableError while the breaker is open.
func (b *breaker) allow(now time.Time) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if now.Before(b.openUntil) {
		return &UnreachableError{BaseURL: b.baseURL, Err: b.last, open: true}
	}
	return nil
}

// failed records a connection failure at now.
func (b *breaker) failed(now time.Time, err error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.failures++
	if b.failures == 1 {
		b.streakStart = now
	}
	b.last = err
	if b.failures >= BreakerThreshold && now.Sub(b.streakStart) >= breakerMinStreak {
		b.openUntil = now.Add(breakerCooldown)
	}
}

// succeeded records that the service answered.
func (b *breaker) succeeded() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.failures = 0
	b.openUntil = time.Time{}
}

// isConnectFailure tells whether err is a failure to connect: a dial that
// failed (refused, no route, timed out) or a name that did not resolve.
func isConnectFailure(err error) bool {
	var op *net.OpError
	if errors.As(err, &op) && op.Op == "dial" {
		return true
	}
	var dns *net.DNSError
	return errors.As(err, &dns)
}

// UnreachableError is the failure to connect to the service at BaseURL.
// Err is the last connection failure.
type UnreachableError struct {
	BaseURL string
	Err     error
	// open is set when the breaker refused the attempt without trying:
	// such an attempt is not retried.
	open bool
}

func (e *UnreachableError) Error() string {
	return "cannot connect to the payments API at " + e.BaseURL + ": " + e.Err.Error()
}

func (e *UnreachableError) Unwrap() error { return e.Err }

// IsUnreachable reports whether err is a failure to connect to the service.
func IsUnreachable(err error) bool {
	var ue *UnreachableError
	return errors.As(err, &ue)
}
