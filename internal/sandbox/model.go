package sandbox

import (
	"cmp"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/delivery"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/faults"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/keys"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/reqlog"
)

// cardBehaviour is what happens when a card is charged.
type CardBehaviour uint8

const (
	Approves CardBehaviour = iota
	Declines
	Needs3DS
	// declinesLater approves a stored card's first charge and declines
	// every later one.
	DeclinesLater
)

// card is the profile behind a sandbox test token.
type Card struct {
	Token, Brand, Last4 string
	Behaviour           CardBehaviour
}

// cards are the cards behind the sandbox test tokens of rules.go.
var Cards = []*Card{
	{TokenVisa, "visa", "4242", Approves},
	{TokenMastercard, "mastercard", "4444", Approves},
	{TokenAmex, "amex", "8431", Approves},
	{TokenDeclined, "visa", "0002", Declines},
	{Token3DS, "visa", "3184", Needs3DS},
	// tok_dispute approves; the dispute itself is a sandbox control.
	{TokenDispute, "visa", "0259", Approves},
	{TokenDeclinedLater, "visa", "0341", DeclinesLater},
}

func CardByToken(tok string) *Card {
	for _, c := range Cards {
		if c.Token == tok {
			return c
		}
	}
	return nil
}

// expMonth is the expiry month of every test token's card; the year is the
// year the card was stored or charged plus expYearsAhead. A minted token's
// card keeps the expiry it was tokenized with.
const (
	ExpMonth      = 12
	ExpYearsAhead = 3
)

type Customer struct {
	ID                 rid
	Seq                uint64 // creation order, see customer_list.go
	Created            int64
	Email, Name, Phone string
	Meta               Metadata
	// sources are in the order they were attached; the default after
	// removing the default is the last of them.
	Sources       []*Source
	DefaultSource *Source
	// clock is the customer's test clock, zero on real time; fixed at
	// creation (testclocks.go).
	Clock   rid
	Counted int64 // bytes charged to the account, see bounds.go
}

func (c *Customer) Source(r rid) (int, *Source) {
	for i, s := range c.Sources {
		if s.ID == r {
			return i, s
		}
	}
	return -1, nil
}

type Source struct {
	ID                rid
	Card              *Card
	ExpMonth, ExpYear int32
}

type Payment struct {
	ID       rid
	Seq      uint64
	Created  int64
	Amount   int64
	Refunded int64
	Currency string
	Status   string
	Captured bool
	// captureRequested is the create's capture flag; a 3-D Secure payment
	// completed without an outcome ends authorized when it was false.
	CaptureRequested bool
	AuthCode         string
	SourceID         rid
	Card             *Card
	ExpMonth         int32
	ExpYear          int32
	Customer         rid // zero when none
	Invoice          rid // the invoice it pays, zero when none
	Description      string
	Meta             Metadata
	Counted          int64 // bytes charged to the account, see bounds.go
}

// account is the state of one secret key. Its objects are guarded by mu;
// its counters and fault settings have their own synchronisation, so that
// counting and fault injection never wait for a slow write.
type account struct {
	hash [32]byte // SHA-256 of the key; the only form of the key ever stored
	// publishable is the account's publishable key (keys.Publishable).
	publishable string

	mu         sync.RWMutex
	customers  map[rid]*Customer
	payments   map[rid]*Payment
	order      []*Payment         // by seq, oldest first
	byCustomer map[rid][]*Payment // by seq, oldest first, existing customers only
	sources    int                // attached sources, all customers
	seq        uint64             // last payment sequence number
	idem       map[string]*idemRecord
	idemQueue  []*idemRecord // creation order, for expiry
	wh         webhookState  // endpoints, events, deliveries

	// customerOrder is by seq, oldest first; customerSeq is the last seq.
	customerOrder []*Customer
	customerSeq   uint64

	// cat is the catalog: products and prices (products.go, prices.go).
	cat Catalog
	// bill is the subscriptions and their invoices (subscriptions.go,
	// invoices.go).
	bill SubBook
	// clocks are the account's test clocks (testclocks.go).
	clocks Clocks

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
	tokens map[rid]*CardToken

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
		customers:   make(map[rid]*Customer),
		payments:    make(map[rid]*Payment),
		byCustomer:  make(map[rid][]*Payment),
		idem:        make(map[string]*idemRecord),
		byRoute:     make([]atomic.Int64, len(routes)),
	}
	a.charge(accountBytes)
	// The delivery book counts itself, under its own lock; the server's
	// total hears of it.
	a.wh.book.SetCharge(func(delta int64) { total.Add(delta) })
	return a
}

// addPayment indexes a new payment; its seq is above every other.
func (a *account) addPayment(p *Payment) {
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
	clear(a.idem)
	clear(a.tokens)
	a.order = nil
	a.idemQueue = nil
	a.sources = 0
	a.cat.Reset()
	a.bill.Reset()
	a.clocks = Clocks{Seq: a.clocks.Seq}
	a.wh.clear(c)
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
	for key, rec := range a.idem {
		if !rec.done && from.idem[key] == nil {
			from.idem[key] = rec
			from.idemQueue = append(from.idemQueue, rec)
		}
	}
	slices.SortFunc(from.idemQueue, func(x, y *idemRecord) int { return cmp.Compare(x.created, y.created) })
	a.customers, a.customerOrder = from.customers, from.customerOrder
	a.payments, a.order, a.byCustomer = from.payments, from.order, from.byCustomer
	a.sources = from.sources
	a.idem, a.idemQueue = from.idem, from.idemQueue
	a.seq = max(a.seq, from.seq)
	a.customerSeq = max(a.customerSeq, from.customerSeq)
	productSeq, priceSeq := max(a.cat.ProductSeq, from.cat.ProductSeq), max(a.cat.PriceSeq, from.cat.PriceSeq)
	a.cat = from.cat
	a.cat.ProductSeq, a.cat.PriceSeq = productSeq, priceSeq
	subSeq, invoiceSeq := max(a.bill.SubSeq, from.bill.SubSeq), max(a.bill.InvoiceSeq, from.bill.InvoiceSeq)
	a.bill = from.bill
	a.bill.SubSeq, a.bill.InvoiceSeq = subSeq, invoiceSeq
	clockSeq := max(a.clocks.Seq, from.clocks.Seq)
	a.clocks = from.clocks
	a.clocks.Seq = clockSeq
	a.wh.endpoints, a.wh.endpointOrder = from.wh.endpoints, from.wh.endpointOrder
	a.wh.events, a.wh.eventOrder = from.wh.events, from.wh.eventOrder
	a.wh.seq = max(a.wh.seq, from.wh.seq)
	a.charge(from.bytes - a.bytes)
	a.wh.book.Undo(undo)
}
