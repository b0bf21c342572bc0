package sandbox

import (
	"net/http"
	"time"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/apierr"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// idemRecord is what an Idempotency-Key remembers: which request it was
// for and, once that request ran, its answer.
type idemRecord struct {
	key     string
	fp      [32]byte
	created int64 // unix nanoseconds
	done    bool
	status  int
	body    []byte
	counted int64 // bytes charged to the account, see bounds.go
}

func (rec *idemRecord) expired(now time.Time) bool {
	return now.UnixNano()-rec.created >= int64(IdempotencyKeyRetention)
}

// idemBegin looks the key up. It returns either a reserved record for a
// request that must run, or the answer to send instead: the stored one
// (replayed) or a 409.
func (a *account) idemBegin(key string, fp [32]byte, now time.Time) (*idemRecord, *response) {
	a.mu.Lock()
	defer a.mu.Unlock()
	rec := a.idem[key]
	if rec != nil && rec.done && rec.expired(now) {
		delete(a.idem, key)
		a.charge(-rec.counted)
		rec.body = nil // the expiry queue holds rec until its sweep
		rec = nil
	}
	switch {
	case rec == nil:
		rec = &idemRecord{key: key, fp: fp, created: now.UnixNano()}
		a.idem[key] = rec
		a.idemQueue = append(a.idemQueue, rec)
		return rec, nil
	case rec.fp != fp:
		r := errResponse((&apierr.Error{
			Status: http.StatusConflict, Type: wire.ErrorTypeIdempotency, Code: wire.ErrorCodeIdempotencyKeyReused,
			Message: "This Idempotency-Key was already used with another method, path or parameters. Use a fresh key for a different request.",
		}))

		return nil, &r
	case !rec.done:
		r := errResponse((&apierr.Error{
			Status: http.StatusConflict, Type: wire.ErrorTypeIdempotency, Code: wire.ErrorCodeIdempotencyKeyInUse,
			Message: "A request with this Idempotency-Key is still running. Retry it once that one has been answered.",
		}))

		return nil, &r
	}
	return nil, &response{status: rec.status, body: rec.body, replayed: true}
}

// storable reports whether the contract keeps an answer under its key: the
// answers of requests that ran, not refusals a retry may get past.
func storable(status int) bool {
	switch status {
	case http.StatusOK, http.StatusBadRequest, http.StatusPaymentRequired, http.StatusNotFound, http.StatusRequestEntityTooLarge:
		return true
	}
	return false
}

// idemFinish stores resp under rec's key, or frees the key when resp is not
// storable. It also expires old records. The account is write-locked.
func (c *call) idemFinish(rec *idemRecord, resp response) {
	a := c.a
	if !storable(resp.status) || a.idem[rec.key] != rec {
		// Not stored, or the key was reset while the request ran.
		a.idemAbort(rec)
		rec.done = true
		return
	}
	rec.done, rec.status, rec.body = true, resp.status, resp.body
	a.recount(&rec.counted, rec.memBytes())
	c.putIdem(rec)
	for len(a.idemQueue) > 0 {
		old := a.idemQueue[0]
		if old.done && !old.expired(c.now) {
			break
		}
		if !old.done && a.idem[old.key] == old {
			break // still running: it cannot have expired yet
		}
		a.idemQueue[0] = nil
		a.idemQueue = a.idemQueue[1:]
		if a.idem[old.key] == old {
			delete(a.idem, old.key)
			a.charge(-old.counted)
			c.deleteIdem(old)
		}
	}
}

// idemAbort frees rec's key, so that a retry runs again.
func (a *account) idemAbort(rec *idemRecord) {
	if a.idem[rec.key] == rec {
		delete(a.idem, rec.key)
	}
}
