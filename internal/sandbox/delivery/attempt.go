package delivery

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"time"

	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// attempt makes one attempt of dl and records it. It reads the endpoint
// and the event through Account.Target, under the account's read lock
// for as long as copying three fields takes; it records the result under
// the book's lock only.
func (e *Engine) attempt(dl *delivery) {
	a := dl.a
	bk := a.Book()
	t, ok := a.Target(dl.event(), dl.endpoint())
	bk.mu.Lock()
	if bk.pending[dl.key] != dl {
		dl.dropped = true
		bk.mu.Unlock()
		return // delivered, given up, its endpoint deleted, or reset
	}
	if !ok {
		// Gone or disabled since: nothing is sent to a disabled endpoint.
		var w writes
		bk.dropPending(dl.key)
		e.deletePending(&w, dl.key)
		e.queue(a, w)
		bk.mu.Unlock()
		return
	}
	bk.mu.Unlock()

	at := e.clock.Now()
	sent := time.Now()
	status, errText := e.post(t, at)
	took := time.Since(sent)
	if e.ctx.Err() != nil {
		return // shutting down: left pending, made again after a restart
	}
	e.host.Delivered(status, errText)

	bk.mu.Lock()
	if bk.pending[dl.key] != dl {
		// Not recorded: made again should a failed request restore it.
		dl.dropped = true
		bk.mu.Unlock()
		return
	}
	var w writes
	dl.attempts++
	bk.seq++
	retry := errText != "" && dl.attempts < e.attempts
	rec := &Attempt{
		Seq: bk.seq, Event: dl.event(), Endpoint: dl.endpoint(), N: dl.attempts,
		Status: status, Err: errText, At: at.Unix(), Duration: took,
	}
	if retry {
		dl.due = e.clock.Now().Add(e.backoff(dl.attempts))
		rec.RetryMS = dl.due.UnixMilli()
	}
	e.putAttempt(&w, rec)
	for _, seq := range bk.appendLog(rec) {
		e.deleteAttempt(&w, seq)
	}
	e.countDay(&w, bk, rec)
	if retry {
		e.put(&w, dl)
	} else {
		bk.dropPending(dl.key)
		e.deletePending(&w, dl.key)
	}
	e.queue(a, w)
	due := dl.due
	bk.mu.Unlock()
	if retry {
		e.schedule(dl, due)
	}
}

// backoff is the wait after the n-th failed attempt: base, 2×base, 4×base…
func (e *Engine) backoff(n int) time.Duration {
	return e.base << min(n-1, 20)
}

// post sends one signed attempt. errText is "" when it was delivered.
func (e *Engine) post(t Target, at time.Time) (status int, errText string) {
	ctx, cancel := context.WithTimeout(e.ctx, e.timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, t.URL, bytes.NewReader(t.Body))
	if err != nil {
		return 0, err.Error()
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", userAgent)
	req.Header.Set(wire.HeaderSignature, wire.Sign(t.Secret, at, t.Body))
	resp, err := e.http.Do(req)
	if err == nil {
		// The answer counts only once read in full within the timeout.
		_, err = io.Copy(io.Discard, io.LimitReader(resp.Body, maxReceiverAnswer))
		resp.Body.Close()
		if err == nil {
			status = resp.StatusCode
		}
	}
	var refused *Refusal
	switch {
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		return status, "no complete answer within " + wire.FormatDurationWords(e.timeout)
	case errors.As(err, &refused):
		return 0, refused.Error()
	case err != nil:
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err // without the URL, which may carry credentials
		}
		return status, err.Error()
	case status < 200 || status > 299:
		return status, fmt.Sprintf("the receiver answered HTTP %d; only a 2xx answer counts as delivered", status)
	}
	return status, ""
}
