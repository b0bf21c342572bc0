package sandbox

import (
	"time"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/idem"
)

// The Idempotency-Keys of an account are its idem.Table, under the
// account's lock; these steps charge the bytes and write the records the
// table's steps name.

// idemBegin looks the key up. It returns either a reserved record for a
// request that must run, or the answer to send instead: the stored one
// (replayed) or a refusal (400 reused, 409 in use).
func (a *account) idemBegin(key string, fp [32]byte, now time.Time) (*idem.Record, *response) {
	a.mu.Lock()
	defer a.mu.Unlock()
	rec, stored, refused, freed := a.idem.Begin(key, fp, now)
	if freed != 0 {
		a.charge(-freed)
	}
	switch {
	case refused != nil:
		r := errResponse(refused)
		return nil, &r
	case stored != nil:
		return nil, &response{status: stored.Status, body: stored.Body, replayed: true}
	}
	return rec, nil
}

// idemFinish stores resp under rec's key, or frees the key when resp is not
// storable. It also expires old records, on the server's clock: a test
// clock's time, years ahead, would expire every key, rec's included.
// The account is write-locked.
func (c *call) idemFinish(rec *idem.Record, resp response) {
	a := c.a
	if !a.idem.Store(rec, resp.status, resp.body) {
		return
	}
	a.recount(&rec.Counted, rec.MemBytes())
	c.putIdem(rec)
	a.idem.Sweep(c.wallNow(), func(old *idem.Record) {
		a.charge(-old.Counted)
		c.deleteIdem(old)
	})
}

// idemAbort frees rec's key, so that a retry runs again.
func (a *account) idemAbort(rec *idem.Record) { a.idem.Abort(rec) }
