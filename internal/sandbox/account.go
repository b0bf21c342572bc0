package sandbox

import (
	"sync"
	"sync/atomic"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/billing"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/delivery"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/faults"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/idem"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/keys"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/model"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/reqlog"
)

// account is the state of one secret key. Its objects are guarded by mu;
// its counters and fault settings have their own synchronisation, so that
// counting and fault injection never wait for a slow write.
type account struct {
	hash [32]byte // SHA-256 of the key; the only form of the key ever stored
	// publishable is the account's publishable key (keys.Publishable).
	publishable string

	mu         sync.RWMutex
	customers  map[rid]*model.Customer
	payments   map[rid]*model.Payment
	order      []*model.Payment         // by seq, oldest first
	byCustomer map[rid][]*model.Payment // by seq, oldest first, existing customers only
	sources    int                      // attached sources, all customers
	seq        uint64                   // last payment sequence number
	idem       idem.Table
	wh         webhookState // endpoints, events, deliveries

	// customerOrder is by seq, oldest first; customerSeq is the last seq.
	customerOrder []*model.Customer
	customerSeq   uint64

	// cat is the catalog: products and prices (products.go, prices.go).
	cat model.Catalog
	// bill is the subscriptions and their invoices (subscriptions.go,
	// invoices.go).
	bill model.SubBook
	// clocks are the account's test clocks (testclocks.go).
	clocks model.Clocks
	// renewals are the due steps of its subscriptions on real time, kept
	// as they change (renewals.go); renewing is set during their run.
	renewals billing.Schedule[*model.Subscription]
	renewing bool
	// sum is the account's summary, kept as its objects change
	// (summary.go).
	sum summaryState
	// dunningEnd is the account's choice of the status dunning ends a
	// subscription in, "" for the sandbox's (billing_settings.go).
	dunningEnd string

	// bytes is what the account keeps (see bounds.go), under mu; total is
	// the server's sum over every account, which charge keeps in step.
	bytes int64
	total *atomic.Int64
	// lastUsed (unix nanoseconds) and inflight let idle accounts be
	// removed, never one a request is using.
	lastUsed atomic.Int64
	inflight atomic.Int32

	requests atomic.Int64
	byRoute  []atomic.Int64 // indexed like routes

	// Injected faults by kind, for /_sandbox/stats: 500/503 answers,
	// connections closed after acting, and 429s.
	faultErrors      atomic.Int64
	faultDrops       atomic.Int64
	faultRateLimited atomic.Int64

	// tokens are the card tokens minted by POST /v1/tokens (tokens.go).
	tokens map[rid]*model.CardToken

	// reqlog is the request log (requestlog.go, package reqlog).
	reqlog reqlog.Log

	// faults are the account's injected faults (faults.go, package faults).
	faults faults.Gate
}

func newAccount(hash [32]byte, total *atomic.Int64) *account {
	a := &account{
		hash:        hash,
		publishable: keys.Publishable(hash),
		total:       total,
		customers:   make(map[rid]*model.Customer),
		payments:    make(map[rid]*model.Payment),
		byCustomer:  make(map[rid][]*model.Payment),
		byRoute:     make([]atomic.Int64, len(routes)),
	}
	a.charge(accountBytes)
	// The delivery book counts itself, under its own lock; the server's
	// total hears of it.
	a.wh.book.SetCharge(func(delta int64) { total.Add(delta) })
	return a
}

// addPayment indexes a new payment; its seq is above every other.
func (a *account) addPayment(p *model.Payment) {
	a.payments[p.ID] = p
	a.order = append(a.order, p)
	if !p.Customer.IsZero() {
		if _, ok := a.customers[p.Customer]; ok {
			a.byCustomer[p.Customer] = append(a.byCustomer[p.Customer], p)
		}
	}
}

// clear drops every object and idempotency record (POST /_sandbox/reset).
// The sequence goes on, so cursors taken before a reset never match a
// payment made after it.
func (a *account) clear(c *call) {
	clear(a.customers)
	a.customerOrder = nil
	clear(a.payments)
	clear(a.byCustomer)
	a.idem.Clear()
	clear(a.tokens)
	a.order = nil
	a.sources = 0
	a.cat.Reset()
	a.bill.Reset()
	a.renewals.Reset()
	a.clocks = model.Clocks{Seq: a.clocks.Seq}
	a.wh.clear(c)
	a.sum = summaryState{}
	a.charge(accountBytes - a.bytes)
}

// restore replaces a's objects with from's, a copy of the same account
// just read from the store (after a failed commit, see Server.rollback).
// Counters and fault settings stay, and so do the Idempotency-Key
// reservations of requests still running, which finish or free their keys
// themselves. The delivery book stays too: it is ahead of the file by
// design (see package delivery), so the failed request's changes to it are
// taken back by undo instead. Sequence numbers only grow, so that an id or
// cursor of the failed request never comes back as another object's.
func (a *account) restore(from *account, undo []delivery.Undo) {
	from.idem.Adopt(&a.idem)
	a.customers, a.customerOrder = from.customers, from.customerOrder
	a.payments, a.order, a.byCustomer = from.payments, from.order, from.byCustomer
	a.sources = from.sources
	a.idem = from.idem
	a.seq = max(a.seq, from.seq)
	a.customerSeq = max(a.customerSeq, from.customerSeq)
	a.cat.Restore(from.cat)
	a.bill.Restore(from.bill)
	a.clocks.Restore(from.clocks)
	a.dunningEnd = from.dunningEnd
	a.sum = from.sum
	a.scheduleRenewals()
	a.wh.endpoints, a.wh.endpointOrder = from.wh.endpoints, from.wh.endpointOrder
	a.wh.events, a.wh.eventOrder, a.wh.eventBytes = from.wh.events, from.wh.eventOrder, from.wh.eventBytes
	a.wh.seq = max(a.wh.seq, from.wh.seq)
	a.charge(from.bytes - a.bytes)
	a.wh.book.Undo(undo)
}
