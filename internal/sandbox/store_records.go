package sandbox

import (
	"errors"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"sync/atomic"
	"syscall"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/apierr"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/idem"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/model"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/storage"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// Each call puts and deletes the objects it changes, as records of the
// store, by the kinds' buckets (package model); the idempotency records
// are the sandbox's own, in bucketIdem, and the webhooks' are in
// webhooks_store.go.

// bucketIdem holds the answers kept under Idempotency-Keys.
const bucketIdem = "idem"

// storedAccount is one account's records, each bucket's in key order.
type storedAccount struct {
	customers [][]byte
	payments  [][]byte
	idem      map[string][]byte
	seq       uint64
	webhooks  map[string][][]byte // by bucket name, see webhookBuckets
	tokens    [][]byte
	catalog   map[string][][]byte // by bucket name, see model.CatalogBuckets and model.BillingBuckets
	billing   []byte              // the billing settings' record, nil for the defaults
	summary   [][]byte            // the summary's days (summary.go)
}

// storedFrom sorts an account's records from the store by bucket, each
// bucket's in key order, as the file keeps them.
func storedFrom(acct *storage.Account) *storedAccount {
	sa := &storedAccount{seq: acct.Seq, idem: acct.Buckets[bucketIdem], webhooks: make(map[string][][]byte), catalog: make(map[string][][]byte)}
	if sa.idem == nil {
		sa.idem = make(map[string][]byte)
	}
	inOrder := func(m map[string][]byte) [][]byte {
		var out [][]byte
		for _, k := range slices.Sorted(maps.Keys(m)) {
			out = append(out, m[k])
		}
		return out
	}
	sa.customers = inOrder(acct.Buckets[model.BucketCustomers])
	sa.payments = inOrder(acct.Buckets[model.BucketPayments])
	sa.tokens = inOrder(acct.Buckets[model.BucketTokens])
	sa.billing = acct.Buckets[bucketSettings][keyBilling]
	sa.summary = inOrder(acct.Buckets[model.BucketSummaryDays])
	for _, name := range webhookBuckets {
		if m := acct.Buckets[name]; len(m) > 0 {
			sa.webhooks[name] = inOrder(m)
		}
	}
	for _, name := range append(model.CatalogBuckets, model.BillingBuckets...) {
		if m := acct.Buckets[name]; len(m) > 0 {
			sa.catalog[name] = inOrder(m)
		}
	}
	return sa
}

// addOp stages a change for the call's commit, if the store keeps it,
// which encodes the records it names at commit (see storage.NoCopy).
func (c *call) addOp(o storage.Op) { c.ops = c.s.store.Stage(c.ops, o) }

func (c *call) putCustomer(cu *model.Customer) {
	c.a.recount(&cu.Counted, cu.MemBytes())
	c.addOp(storage.PutRecord(model.BucketCustomers, cu))
}

func (c *call) deleteCustomerRecord(cu *model.Customer) {
	c.addOp(storage.DeleteRecord(model.BucketCustomers, cu))
}

func (c *call) putPayment(p *model.Payment) {
	c.a.recount(&p.Counted, p.MemBytes())
	c.sumPayment(p)
	c.addOp(storage.PutRecord(model.BucketPayments, p))
}

func (c *call) putToken(t *model.CardToken) {
	c.a.recount(&t.Counted, model.TokenBytes)
	c.addOp(storage.PutRecord(model.BucketTokens, t))
}

func (c *call) putProduct(p *model.Product) {
	c.a.recount(&p.Counted, p.MemBytes())
	c.addOp(storage.PutRecord(model.BucketProducts, p))
}

func (c *call) deleteProductRecord(p *model.Product) {
	c.addOp(storage.DeleteRecord(model.BucketProducts, p))
}

func (c *call) putPrice(pr *model.Price) {
	c.a.recount(&pr.Counted, pr.MemBytes())
	c.addOp(storage.PutRecord(model.BucketPrices, pr))
}

func (c *call) putSubscription(s *model.Subscription) {
	c.a.recount(&s.Counted, s.MemBytes())
	c.sumSubscription(s)
	c.pokeRenewals(s)
	c.addOp(storage.PutRecord(model.BucketSubscriptions, s))
}

// putInvoice stores inv, whose subscription is s; s nil looks it up
// (the renewal path has it at hand: the lookup was a hundredth of a
// renewal).
func (c *call) putInvoice(inv *model.Invoice, s *model.Subscription) {
	c.a.recount(&inv.Counted, inv.MemBytes())
	c.sumInvoice(inv)
	if s == nil {
		s = c.a.bill.Subs[inv.Subscription]
	}
	if s != nil {
		c.pokeRenewals(s)
	}
	c.addOp(storage.PutRecord(model.BucketInvoices, inv))
}

func (c *call) putTestClock(k *model.TestClock) {
	c.a.recount(&k.Counted, k.MemBytes())
	c.addOp(storage.PutRecord(model.BucketTestClocks, k))
}

func (c *call) deleteTestClockRecord(k *model.TestClock) {
	c.addOp(storage.DeleteRecord(model.BucketTestClocks, k))
}

func (c *call) putSeq() {
	c.addOp(storage.SetSeq(c.a.seq))
}

func (c *call) putIdem(rec *idem.Record) { c.addOp(storage.PutRecord(bucketIdem, rec)) }

func (c *call) deleteIdem(rec *idem.Record) { c.addOp(storage.DeleteRecord(bucketIdem, rec)) }

func (c *call) dropAccount() { c.addOp(storage.DropAccount()) }

// loadStore rebuilds the accounts from the store.
func (s *Server) loadStore() error {
	stored, err := s.store.Load()
	if err != nil {
		return err
	}
	if err := s.buildAccounts(stored); err != nil {
		return s.store.Unusable(err)
	}
	return nil
}

// rollback puts the account back to what the store holds, after a commit
// of c's changes failed: memory then has nothing the disk lacks, and the
// next write starts from what is durable. The account is write-locked.
func (s *Server) rollback(c *call) error {
	a := c.a
	stored, err := s.store.LoadAccount(a.hash)
	if err != nil {
		return err
	}
	// Counted apart: restore charges the server's total the difference.
	var scratch atomic.Int64
	fresh := newAccount(a.hash, &scratch)
	if stored != nil {
		if fresh, err = s.buildAccount(a.hash, storedFrom(stored), s.now(), &scratch); err != nil {
			return err
		}
	}
	a.restore(fresh, c.undo)
	return nil
}

// storeFailed answers a request whose changes could not be written. Its
// account goes back to the disk's state, so the request changed nothing
// and a retry runs it again. Only when that read fails too, or when the
// store cannot tell whether the changes are on disk, is the server left
// refusing every request until a restart: memory may then hold what the
// disk does not. The account is write-locked.
func (s *Server) storeFailed(c *call, err error) *apierr.Error {
	if errors.Is(err, storage.ErrOutcomeUnknown) {
		s.storeErr.CompareAndSwap(nil, &err)
		s.log.Error("writing the data file failed and the write could not be erased: the request's outcome is unknown; refusing every request until a restart", "error", err)
		return outcomeUnknown(err)
	}
	s.log.Error("writing the data file failed; the request's changes since its last write are undone and it is answered 503", "error", err)
	if rerr := s.rollback(c); rerr != nil {
		s.storeErr.CompareAndSwap(nil, &rerr)
		s.log.Error("reading the data file back after a failed write failed too; refusing every request until a restart", "error", rerr)
	}
	e := storageUnavailable(err)
	if c.partial {
		e.Message = fmt.Sprintf("The sandbox could not write its data file (%s) after writing part of this request: what was written stays "+
			"(a test clock's advance, up to the clock's frozen_time). Retry it, with the same Idempotency-Key, once the disk takes writes again, to go on.", storageCause(err))
	}
	return e
}

// commitPart commits the changes the call made so far, after put stages
// what says how far it got, so that a long request (a clock's advance)
// writes in parts that each fit the data file's log. Nil, or the
// refusal to answer: the account is then back at the file's state, its
// last part, and the request must stop. Without a store that keeps
// records there is nothing to write. The account is write-locked.
func (c *call) commitPart(put func()) *apierr.Error {
	if len(c.ops) == 0 {
		return nil
	}
	put()
	if err := c.s.store.Commit(c.a.hash, c.ops); err != nil {
		e := c.s.storeFailed(c, err)
		c.ops, c.undo, c.sumStaged = nil, nil, nil
		return e
	}
	c.ops, c.undo, c.partial, c.sumStaged = nil, nil, true, nil
	return nil
}

// storageUnavailable is the 503 of a write the disk refused. Its message
// names the cause (no space left on device, read-only file system…) but
// never the file's path: answers reach clients, the path is the
// operator's business and is in the log.
func storageUnavailable(err error) *apierr.Error {
	return &apierr.Error{
		Status: http.StatusServiceUnavailable, Type: wire.ErrorTypeAPI, Code: wire.ErrorCodeStorageUnavailable,
		Message: fmt.Sprintf("The sandbox could not write its data file (%s), so this request changed nothing. Retry it, with the same Idempotency-Key, once the disk takes writes again.", storageCause(err)),
	}
}

// outcomeUnknown is the 503 of a write that may or may not be on disk:
// its sync failed and so did erasing it. The sandbox then stops.
func outcomeUnknown(err error) *apierr.Error {
	e := storageUnavailable(err)
	e.Message = fmt.Sprintf("The sandbox could not write its data file (%s) nor erase the failed write, so the outcome of this request is unknown: it may or may not have changed anything. The sandbox answers no more requests until it is restarted; then read the objects back, or retry with the same Idempotency-Key.", storageCause(err))
	return e
}

// storageCause is the system's word for a store error (no space left on
// device…), which names no path.
func storageCause(err error) string {
	var errno syscall.Errno
	switch {
	case errors.As(err, &errno):
		return errno.Error()
	case errors.Is(err, storage.ErrLogFull):
		return "its write-ahead log is full and the data file did not take its records in time"
	}
	return "see the sandbox's log"
}
