package sandbox

import (
	"fmt"
	"net/http"
	"reflect"
	"time"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/apierr"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/bytesize"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/metrics"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/model"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/storage"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// Limits bound what a server keeps, so that one sandbox shared by many
// clients for weeks cannot be made to hold unbounded memory (or data file).
// A zero field bounds nothing; payments-sandbox starts with DefaultLimits.
//
// Bytes are an estimate of the heap each record holds: its struct, its
// strings (counted as long as their JSON, escapes included, since that is
// what answers send and events keep), the stored JSON of events and idempotency answers, and its share
// of the indexes; the request log's lines count too, and the log stops
// growing (new lines replace the oldest) once the total is reached. Each account keeps a running count, changed by every
// insert, update, delete and expiry. A write that finds its account, or
// the whole sandbox, at a byte limit first drops the account's oldest
// events (a log, already bounded by count and age) when that makes room,
// and is otherwise refused, dropping nothing, with 403
// account_limit_exceeded or sandbox_limit_exceeded; reads, deletes and
// POST /_sandbox/reset always run. The write that crosses a limit runs: a
// limit is exceeded by at most one request's records per client writing
// at that moment. Billing is held tighter: each renewal step first finds
// room for the most it can keep (roomFor, stepBytes in renewals.go), so
// that no advance or renewal run takes an account past its limit.
type Limits struct {
	// MaxAccounts bounds the accounts made on first use (keys not named by
	// Options.Keys). A key past it gets 403 sandbox_limit_exceeded.
	MaxAccounts int
	// MaxAccountBytes bounds the bytes one account keeps.
	MaxAccountBytes int64
	// MaxTotalBytes bounds the bytes all accounts keep together.
	MaxTotalBytes int64
	// AccountIdle removes an account made on first use, in memory and in
	// the store, once no request has used it for this long (counted from
	// the start for accounts loaded from the store) and it has no webhook
	// delivery pending. Accounts of Options.Keys are never removed.
	AccountIdle time.Duration
}

// The limits of payments-sandbox unless its flags say otherwise. A
// developer's laptop never meets them; a flood of keys and large requests
// keeps the process under 512 MiB resident.
const (
	DefaultMaxAccounts     = 1000
	DefaultMaxAccountBytes = 64 << 20
	DefaultMaxTotalBytes   = 256 << 20
	DefaultAccountIdle     = 30 * 24 * time.Hour
)

// DefaultLimits are the limits of payments-sandbox's defaults.
var DefaultLimits = Limits{
	MaxAccounts:     DefaultMaxAccounts,
	MaxAccountBytes: DefaultMaxAccountBytes,
	MaxTotalBytes:   DefaultMaxTotalBytes,
	AccountIdle:     DefaultAccountIdle,
}

var (
	// accountBytes is an account with no objects: its struct, per-route
	// counters and empty maps, and its entry in the server's map.
	accountBytes = int64(reflect.TypeFor[account]().Size()) + model.AllocOverhead +
		int64(len(routes))*8 + 4*(48+model.AllocOverhead) + (32+model.PtrBytes+1)*8/5
)

// charge adds delta bytes to the account and the server's total. The
// account is write-locked.
func (a *account) charge(delta int64) {
	a.bytes += delta
	a.total.Add(delta)
}

// kept is what the account keeps: objects, request log, pending webhook
// deliveries and delivery log. The account is locked.
func (a *account) kept() int64 { return a.bytes + a.reqlog.Size() + a.wh.book.Bytes() }

// recount charges the change from what a record was counted at (*counted)
// to its size now, and remembers the new size.
func (a *account) recount(counted *int64, now int64) {
	a.charge(now - *counted)
	*counted = now
}

// canGrow is the check before a write that may add records: nil, or the
// refusal of a full account or sandbox. The account is write-locked.
func (c *call) canGrow() *apierr.Error { return c.roomFor(1) }

// roomFor is the check before something that keeps up to need more
// bytes (a write's records, a renewal's invoice, payment and events):
// nil when the account and the sandbox have room for them, after
// forgetting the account's oldest events if that makes enough; else the
// refusal of the limit in the way, having forgotten nothing, so that a
// refusal changes nothing. The account is write-locked.
func (c *call) roomFor(need int64) *apierr.Error {
	if c.makeRoomFor(need) {
		return nil
	}
	lim := &c.s.limits
	// A renewal, or a clock's advance, reserves more than a byte: say
	// how much.
	more := ""
	if need > 1 {
		more = fmt.Sprintf(", and this request's next step (a renewal, a clock's events) may keep %s more", bytesize.Format(need))
	}
	switch {
	case lim.MaxAccountBytes > 0 && c.a.kept()+need > lim.MaxAccountBytes:
		c.s.metrics.Refused(metrics.LimitAccountBytes)
		return &apierr.Error{
			Status: http.StatusForbidden, Type: wire.ErrorTypeInvalidRequest, Code: wire.ErrorCodeAccountLimitExceeded,
			Message: fmt.Sprintf("This account keeps %s of customers, payments, products, prices, subscriptions, invoices, test clocks, webhook endpoints, pending webhook deliveries, idempotency records and logged requests%s, "+
				"past the most this sandbox allows one account (-max-account-bytes %s); delete objects, or POST %s to empty the account. "+
				"Reads and deletes still work.", bytesize.Format(c.a.kept()), more, bytesize.Format(lim.MaxAccountBytes), wire.PathSandboxReset),
		}
	default:
		c.s.metrics.Refused(metrics.LimitTotalBytes)
		return &apierr.Error{
			Status: http.StatusForbidden, Type: wire.ErrorTypeInvalidRequest, Code: wire.ErrorCodeSandboxLimitExceeded,
			Message: fmt.Sprintf("This sandbox keeps %s over all its accounts%s, past the most it allows (-max-total-bytes %s); "+
				"delete objects or POST %s, or ask its operator for a higher -max-total-bytes. Reads and deletes still work.",
				bytesize.Format(c.s.total.Load()), more, bytesize.Format(lim.MaxTotalBytes), wire.PathSandboxReset),
		}
	}
}

// excess is by how many bytes need more would take the account past its
// limit or the sandbox past its total, the larger; 0 or less when both
// have room. The account is locked.
func (c *call) excess(need int64) int64 {
	lim := &c.s.limits
	ex := int64(0)
	if lim.MaxAccountBytes > 0 {
		ex = max(ex, c.a.kept()+need-lim.MaxAccountBytes)
	}
	if lim.MaxTotalBytes > 0 {
		ex = max(ex, c.s.total.Load()+need-lim.MaxTotalBytes)
	}
	return ex
}

// makeRoomFor reports whether the account and the sandbox have room for
// need more bytes, after forgetting the account's oldest events to make
// it: events are a log, and go before a write is refused or a renewal
// stops. When forgetting every event would not make room, it forgets
// none. The account is write-locked.
func (c *call) makeRoomFor(need int64) bool {
	ex := c.excess(need)
	if ex <= 0 {
		return true
	}
	if ex > c.a.wh.eventBytes {
		return false
	}
	c.pruneEventsWhile(func() bool { return c.excess(need) > 0 })
	return c.excess(need) <= 0
}

// accountsFull is the refusal of a key that would need a new account when
// the sandbox has -max-accounts of them.
func (s *Server) accountsFull() *apierr.Error {
	s.metrics.Refused(metrics.LimitAccounts)
	idle := "never removed (-account-idle 0)"
	if s.limits.AccountIdle > 0 {
		idle = "removed after -account-idle " + s.limits.AccountIdle.String() + " unused"
	}
	return &apierr.Error{
		Status: http.StatusForbidden, Type: wire.ErrorTypeInvalidRequest, Code: wire.ErrorCodeSandboxLimitExceeded,
		Message: fmt.Sprintf("This sandbox already has %d accounts made on first use, the most it allows (-max-accounts %d); "+
			"idle accounts are %s. Use a key that already has an account, or ask its operator for a higher -max-accounts.",
			s.limits.MaxAccounts, s.limits.MaxAccounts, idle),
	}
}

// sweepIdle removes the accounts made on first use that no request has
// used for Limits.AccountIdle, in memory and in the store. An account in
// use (a request in flight, its lock held, a delivery pending) stays.
func (s *Server) sweepIdle() {
	if s.limits.AccountIdle <= 0 || s.keys.Load() != nil {
		return
	}
	cutoff := s.now().Add(-s.limits.AccountIdle).UnixNano()
	var gone []*account
	var goneBytes []int64
	done := make(chan struct{})
	s.mu.Lock()
	for hash, a := range s.accounts {
		if a.lastUsed.Load() > cutoff || a.inflight.Load() > 0 || !a.mu.TryLock() {
			continue
		}
		if a.wh.book.Idle() {
			delete(s.accounts, hash)
			s.unindexAccount(a)
			// Only the total: the account's own counts go with it.
			goneBytes = append(goneBytes, a.kept())
			s.total.Add(-a.kept())
			// A request that finds this account in the map no longer can:
			// the disk is emptied before the key may make a new one.
			s.dropping[hash] = done
			gone = append(gone, a)
		}
		a.mu.Unlock()
	}
	s.mu.Unlock()
	if len(gone) == 0 {
		return
	}
	for i, a := range gone {
		if !s.commitBackground(a, []storage.Op{storage.DropAccount()}) {
			// The file keeps it (a full disk): so does memory, and a
			// later sweep tries again.
			s.mu.Lock()
			s.accounts[a.hash] = a
			s.indexAccount(a)
			s.total.Add(goneBytes[i])
			s.mu.Unlock()
		}
	}
	s.mu.Lock()
	for _, a := range gone {
		delete(s.dropping, a.hash)
	}
	s.mu.Unlock()
	close(done)
	s.log.Info("removed idle accounts", "accounts", len(gone), "idle", s.limits.AccountIdle.String())
}

// sweepEvery is how often idle accounts are looked for: often enough that
// an account outlives its idle time by little, rarely enough to cost nothing.
func sweepEvery(idle time.Duration) time.Duration {
	return min(max(idle/10, time.Second), time.Minute)
}

// startSweeper runs sweepIdle every sweepEvery on the server's clock. It
// runs under -key too: the key set may be replaced while serving, and
// sweepIdle looks each time.
func (s *Server) startSweeper() {
	if s.limits.AccountIdle <= 0 {
		return
	}
	every := sweepEvery(s.limits.AccountIdle)
	var sweep func()
	sweep = func() {
		s.sweepMu.Lock()
		defer s.sweepMu.Unlock()
		if s.sweepTimer == nil {
			return // stopped
		}
		s.sweepIdle()
		s.sweepTimer = s.clock.AfterFunc(every, sweep)
	}
	s.sweepMu.Lock()
	s.sweepTimer = s.clock.AfterFunc(every, sweep)
	s.sweepMu.Unlock()
}

// stopSweeper stops the sweeps, waiting for one in progress.
func (s *Server) stopSweeper() {
	s.sweepMu.Lock()
	defer s.sweepMu.Unlock()
	if s.sweepTimer != nil {
		s.sweepTimer.Stop()
		s.sweepTimer = nil
	}
}

// canGrowIf is canGrow for a route that may add records, nil otherwise.
func (c *call) canGrowIf(grows bool) *apierr.Error {
	if !grows {
		return nil
	}
	return c.canGrow()
}

// countLoaded counts the records of an account rebuilt from the store.
func (a *account) countLoaded(now time.Time) {
	for _, cu := range a.customers {
		a.recount(&cu.Counted, cu.MemBytes())
	}
	for _, p := range a.payments {
		a.recount(&p.Counted, p.MemBytes())
	}
	for rec := range a.idem.All() {
		a.recount(&rec.Counted, rec.MemBytes())
	}
	for _, ep := range a.wh.endpoints {
		a.recount(&ep.Counted, ep.MemBytes())
	}
	for _, ev := range a.wh.eventOrder {
		a.recount(&ev.Counted, ev.MemBytes())
		a.wh.eventBytes += ev.Counted
	}
	for _, t := range a.tokens {
		a.recount(&t.Counted, model.TokenBytes)
	}
	for _, p := range a.cat.Products {
		a.recount(&p.Counted, p.MemBytes())
	}
	for _, pr := range a.cat.Prices {
		a.recount(&pr.Counted, pr.MemBytes())
	}
	for _, s := range a.bill.Subs {
		a.recount(&s.Counted, s.MemBytes())
	}
	for _, inv := range a.bill.Invoices {
		a.recount(&inv.Counted, inv.MemBytes())
	}
	for _, k := range a.clocks.ByID {
		a.recount(&k.Counted, k.MemBytes())
	}
	for _, d := range a.sum.days {
		a.recount(&d.Counted, d.MemBytes())
	}
	a.lastUsed.Store(now.UnixNano())
}
