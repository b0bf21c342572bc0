package client

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// DefaultRequestTimeout bounds each attempt when Config.RequestTimeout is zero.
const DefaultRequestTimeout = 60 * time.Second

// attemptTransport wraps the HTTP client's transport, so that every attempt
// of every request, retries included, passes one place: the breaker (fail
// at once while the service is unreachable) and the rate gate (the shared
// pause and rate) before it is sent; its own timeout while it runs, answer
// headers and body included; and the breaker and the gate again, to learn
// from how it ended.
type attemptTransport struct {
	next    http.RoundTripper
	clock   clock
	gate    *rateGate
	breaker *breaker
	// timeout bounds one attempt; 0 for none.
	timeout time.Duration
}

// wrapTransport returns a copy of hc whose transport passes every attempt
// through the client's breaker, rate gate and attempt timeout.
func (c *Client) wrapTransport(hc *http.Client, cfg Config) *http.Client {
	timeout := cfg.RequestTimeout
	switch {
	case timeout == 0:
		timeout = DefaultRequestTimeout
	case timeout < 0:
		timeout = 0
	}
	next := hc.Transport
	if next == nil {
		next = http.DefaultTransport
	}
	gate := newRateGate(realClock{}, cfg.MaxRequestsPerSecond)
	gate.log = c.log
	w := *hc
	// Never follow a redirect, whatever client the caller gave: a
	// followed redirect would send the key (same host) or the request
	// (any host) where base_url does not point. call turns the 3xx into an
	// *Error that says so.
	w.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	w.Transport = &attemptTransport{
		next:    next,
		clock:   realClock{},
		gate:    gate,
		breaker: &breaker{baseURL: c.base.String()},
		timeout: timeout,
	}
	return &w
}

// RoundTrip sends one attempt. It reads the whole answer (at most
// maxResponseBytes) within the attempt's timeout, so that a service that
// sends headers and then stalls times out like one that sends nothing.
func (t *attemptTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	ctx := req.Context()
	if err := t.breaker.allow(t.clock.Now()); err != nil {
		closeRequestBody(req)
		return nil, err
	}
	place, err := t.gate.wait(ctx)
	if err != nil {
		closeRequestBody(req)
		return nil, err
	}
	// The place in the rate window is held until the attempt has ended.
	defer func() { t.gate.release(place, t.clock.Now()) }()
	markSent(req)

	actx, cancel := ctx, context.CancelFunc(func() {})
	if t.timeout > 0 {
		actx, cancel = context.WithTimeoutCause(ctx, t.timeout, &AttemptTimeoutError{Timeout: t.timeout})
	}
	defer cancel()
	sentAt := t.clock.Now()
	resp, err := t.next.RoundTrip(req.WithContext(actx))
	var body []byte
	if err == nil {
		body, err = readBody(resp.Body, resp.ContentLength)
		resp.Body.Close()
	}
	now := t.clock.Now()
	if err != nil {
		if ctx.Err() != nil {
			// The caller gave up: that says nothing of the service.
			return nil, err
		}
		if isConnectFailure(err) {
			t.breaker.failed(now, err)
			return nil, &UnreachableError{BaseURL: t.breaker.baseURL, Err: err}
		}
		if actx.Err() != nil {
			return nil, context.Cause(actx)
		}
		return nil, err
	}
	t.breaker.succeeded()
	t.gate.observe(ctx, sentAt, now, resp.StatusCode, resp.Header, body)
	resp.Body = &readBodyCloser{Reader: bytes.NewReader(body), all: body}
	resp.ContentLength = int64(len(body))
	return resp, nil
}

// readBodyCloser is an answer's body read already: a reader over it, and
// the bytes themselves, which bodyBytes hands over without a copy.
type readBodyCloser struct {
	*bytes.Reader
	all []byte
}

func (*readBodyCloser) Close() error { return nil }

// bodyBytes returns the whole of body, at most maxResponseBytes: without a
// copy when it is an answer the attempt read already and nothing of it has
// been read since.
func bodyBytes(body io.Reader, length int64) ([]byte, error) {
	if b, ok := body.(*readBodyCloser); ok && b.Len() == len(b.all) {
		_, _ = b.Seek(0, io.SeekEnd)
		return b.all, nil
	}
	return readBody(body, length)
}

// readBody reads r to its end, at most maxResponseBytes, into one buffer
// sized by length (the Content-Length; -1 when unknown) where io.ReadAll
// would grow one from 512 bytes up, copying at each step.
func readBody(r io.Reader, length int64) ([]byte, error) {
	if length < 0 || length >= maxResponseBytes {
		return io.ReadAll(io.LimitReader(r, maxResponseBytes))
	}
	lr := io.LimitReader(r, maxResponseBytes)
	// One byte more than announced, so that the read which meets the end
	// does not grow the buffer.
	buf := make([]byte, 0, length+1)
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := lr.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return buf, err
		}
	}
}

// CloseIdleConnections passes the call on, as http.Client expects of a
// transport that pools connections.
func (t *attemptTransport) CloseIdleConnections() {
	if c, ok := t.next.(interface{ CloseIdleConnections() }); ok {
		c.CloseIdleConnections()
	}
}

// closeRequestBody closes the body of a request that is not sent, as a
// RoundTripper must.
func closeRequestBody(req *http.Request) {
	if req.Body != nil {
		req.Body.Close()
	}
}

// noRetry tells checkRetry which transport errors no retry can help: the
// breaker is open, or the service's Retry-After outlasts the deadline.
func noRetry(err error) bool {
	var ue *UnreachableError
	if errors.As(err, &ue) && ue.open {
		return true
	}
	var pe *RateLimitWaitError
	return errors.As(err, &pe)
}

// attemptsFailed is the error of a call whose attempts all failed without
// an answer. The errors of this file stand alone, without the url.Error
// around them (its URL repeats the method and path and adds the query).
func attemptsFailed(method, path string, attempts int, err error) error {
	var ue *UnreachableError
	if errors.As(err, &ue) {
		if ue.open {
			return fmt.Errorf("%s %s: %w", method, path, ue)
		}
		return fmt.Errorf("%s %s failed after %d attempt(s): %w", method, path, attempts, ue)
	}
	var pe *RateLimitWaitError
	if errors.As(err, &pe) {
		return fmt.Errorf("%s %s: %w", method, path, pe)
	}
	var te *AttemptTimeoutError
	if errors.As(err, &te) {
		return fmt.Errorf("%s %s failed after %d attempt(s): %w", method, path, attempts, te)
	}
	return fmt.Errorf("%s %s failed after %d attempt(s): %w", method, path, attempts, scrub(err))
}

// AttemptTimeoutError is an attempt that got no complete answer within
// Config.RequestTimeout. It is retried like a network error; a POST keeps
// its Idempotency-Key.
type AttemptTimeoutError struct {
	Timeout time.Duration
}

func (e *AttemptTimeoutError) Error() string {
	return "timed out: the service sent no complete answer within " + wire.FormatDurationWords(e.Timeout)
}

// IsAttemptTimeout reports whether err is an attempt that timed out.
func IsAttemptTimeout(err error) bool {
	var te *AttemptTimeoutError
	return errors.As(err, &te)
}

// FormatDuration formats d without zero units (2s, 1m, 1m30s, 2h), as a
// value a user writes in a configuration (a default, a timeout to raise);
// a sentence says how long something lasts with wire.FormatDurationWords.
func FormatDuration(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}
