package sandbox

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"net/netip"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/storage"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// SetAfterReserve lets the external tests hold a request inside the window
// between reserving its Idempotency-Key and acting, where a concurrent
// repeat must get idempotency_key_in_use.
func SetAfterReserve(s *Server, f func()) { s.afterReserve = f }

// WebhookSettings are the delivery settings a server runs with: attempts,
// first retry wait and per-attempt timeout.
func WebhookSettings(s *Server) (attempts int, retryBase, timeout time.Duration) {
	return s.hooks.Settings()
}

// AccountBytes is the running count of the bytes the account of key keeps,
// and what a count from scratch of its records gives (off by as much as
// the running sum of its events' charges is off); -1, -1 when the key
// has no account.
func AccountBytes(s *Server, key string) (running, recounted int64) {
	s.mu.RLock()
	a := s.accounts[sha256.Sum256([]byte(key))]
	s.mu.RUnlock()
	if a == nil {
		return -1, -1
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	recounted = accountBytes
	for _, cu := range a.customers {
		recounted += cu.MemBytes()
	}
	for _, p := range a.payments {
		recounted += p.MemBytes()
	}
	for rec := range a.idem.All() {
		if rec.Done {
			recounted += rec.MemBytes()
		}
	}
	for _, ep := range a.wh.endpoints {
		recounted += ep.MemBytes()
	}
	evBytes := int64(0)
	for _, ev := range a.wh.eventOrder {
		recounted += ev.MemBytes()
		evBytes += ev.MemBytes()
	}
	// The events' own sum (webhookState.eventBytes) drifting from their
	// charges shows as a difference too.
	recounted += a.wh.eventBytes - evBytes
	for _, p := range a.cat.Products {
		recounted += p.MemBytes()
	}
	for _, pr := range a.cat.Prices {
		recounted += pr.MemBytes()
	}
	for _, s := range a.bill.Subs {
		recounted += s.MemBytes()
	}
	for _, inv := range a.bill.Invoices {
		recounted += inv.MemBytes()
	}
	for _, k := range a.clocks.ByID {
		recounted += k.MemBytes()
	}
	for _, d := range a.sum.days {
		recounted += d.MemBytes()
	}
	logRunning, logRecounted, _ := a.reqlog.Recount(lineBytes)
	recounted += logRecounted
	recounted += a.wh.book.Recount()
	return a.bytes + logRunning + a.wh.book.Bytes(), recounted
}

// RequestLogLines is how many lines the request log of key's account keeps.
func RequestLogLines(s *Server, key string) int {
	s.mu.RLock()
	a := s.accounts[sha256.Sum256([]byte(key))]
	s.mu.RUnlock()
	_, _, lines := a.reqlog.Recount(lineBytes)
	return lines
}

// EventCount is how many events key's account keeps, expired or not.
func EventCount(s *Server, key string) int {
	s.mu.RLock()
	a := s.accounts[sha256.Sum256([]byte(key))]
	s.mu.RUnlock()
	a.mu.RLock()
	defer a.mu.RUnlock()
	return len(a.wh.eventOrder)
}

// TotalBytes is the running count of the bytes all accounts keep.
func TotalBytes(s *Server) int64 { return s.total.Load() }

// SweepIdle removes the idle accounts now, as the sweeper does each tick.
func SweepIdle(s *Server) { s.sweepIdle() }

// SetWebhookResolver makes lookup resolve the host names of webhook URLs.
func SetWebhookResolver(s *Server, lookup func(host string) []netip.Addr) {
	s.hooks.SetResolver(func(_ context.Context, host string) ([]netip.Addr, error) { return lookup(host), nil })
}

// FaultyStore wraps a store so that a test can make its writes fail, as a
// full disk would, and mend them again.
type FaultyStore struct {
	storage.Store
	// Fail makes every commit, and the health check, fail while set.
	Fail atomic.Bool
	// Failed counts the commits failed.
	Failed atomic.Int64
	// Unknown makes every commit fail as one whose outcome is unknown (an
	// I/O error, then another erasing the record), and the health check
	// fail, while set.
	Unknown atomic.Bool
	// OnFail, when set before the store is used, is called by every
	// commit Fail fails, before it returns.
	OnFail func()
}

// errInjected is the failure FaultyStore injects.
var errInjected = errors.New("injected write failure")

func (f *FaultyStore) Commit(account storage.AccountID, ops []storage.Op) error {
	if f.Unknown.Load() {
		return fmt.Errorf("%w: writing it: %w; erasing it: %w", storage.ErrOutcomeUnknown, syscall.EIO, syscall.EIO)
	}
	if f.Fail.Load() {
		f.Failed.Add(1)
		if f.OnFail != nil {
			f.OnFail()
		}
		return errInjected
	}
	return f.Store.Commit(account, ops)
}

func (f *FaultyStore) Health() error {
	if f.Fail.Load() || f.Unknown.Load() {
		return errInjected
	}
	return f.Store.Health()
}

// PendingDeliveries is how many deliveries of the account of key are still
// to be attempted; an attempt already under way whose delivery is no
// longer pending records nothing.
func PendingDeliveries(s *Server, key string) int {
	s.mu.RLock()
	a := s.accounts[sha256.Sum256([]byte(key))]
	s.mu.RUnlock()
	if a == nil {
		return 0
	}
	return a.wh.book.Pending()
}

// RunRenewals does every renewal step due by the server's clock now, as
// its runner would.
func RunRenewals(s *Server) { s.runRenewals(s.now()) }

// ScheduledRenewals is how many of the account's subscriptions its
// renewal schedule holds and the earliest moment in it, beside the same
// of a schedule built afresh; -1 each when the key has no account.
func ScheduledRenewals(s *Server, key string) (n int, next int64, freshN int, freshNext int64) {
	s.mu.RLock()
	a := s.accounts[sha256.Sum256([]byte(key))]
	s.mu.RUnlock()
	if a == nil {
		return -1, -1, -1, -1
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	n, next = a.renewals.Len(), 0
	if at, ok := a.renewals.Next(); ok {
		next = at
	}
	kept := a.renewals
	a.scheduleRenewals()
	freshN = a.renewals.Len()
	if at, ok := a.renewals.Next(); ok {
		freshNext = at
	}
	a.renewals = kept
	return n, next, freshN, freshNext
}

// ObjectBytes is the running count of the bytes the objects of key's
// account keep, without its request log and delivery book, which reads
// and deliveries change; -1 when the key has no account.
func ObjectBytes(s *Server, key string) int64 {
	s.mu.RLock()
	a := s.accounts[sha256.Sum256([]byte(key))]
	s.mu.RUnlock()
	if a == nil {
		return -1
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.bytes
}

// StepBytes is what the renewal engine reserves before one due step of
// the subscription id of key's account (stepBytes), and what the
// account's events, which go first to make room, are charged; -1, -1
// when there is no such subscription.
func StepBytes(s *Server, key, id string) (step, events int64) {
	s.mu.RLock()
	a := s.accounts[sha256.Sum256([]byte(key))]
	s.mu.RUnlock()
	if a == nil {
		return -1, -1
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	r, ok := parseRID(id, wire.SubscriptionIDPrefix)
	if sub := a.bill.Subs[r]; ok && sub != nil {
		return (&call{s: s, a: a}).stepBytes(sub), a.wh.eventBytes
	}
	return -1, -1
}
