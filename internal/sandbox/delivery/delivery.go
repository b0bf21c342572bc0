// Package delivery is the sandbox's webhook delivery engine: every event
// goes to each matching endpoint as a signed POST, retried with
// exponential backoff, only to the addresses the target rules allow.
//
// One scheduler goroutine keeps the due attempts in a heap, on the
// sandbox's clock; each endpoint has its own lane of at most laneWorkers
// concurrent attempts, so that a slow or dead receiver holds up only its
// own lane, and requests never wait for a delivery: they only push onto
// the heap. Every attempt also takes one of Options.Concurrency slots,
// shared by all accounts, so that a storm of deliveries cannot open
// connections without bound. Attempts are recorded in the account's Book,
// under its own lock, and written to the store by one flusher in batches:
// the account's lock is never held for a delivery.
//
// The engine knows nothing of HTTP handlers, accounts' rules or the
// storage engine: it reaches an account through Account and the store
// through Host, both implemented by the sandbox, and describes its store
// writes as Writes the sandbox commits.
package delivery

import (
	"container/heap"
	"context"
	"iter"
	"net"
	"net/http"
	"net/netip"
	"sync"
	"time"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/clock"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// Options configure webhook delivery. The zero value is the
// payments-sandbox program's defaults.
type Options struct {
	// Allow names the hosts (by name), addresses and CIDR networks the
	// sandbox may deliver to besides loopback (-webhook-allow); a name or
	// an address may carry a :port, and then allows that port only.
	Allow []string
	// Listen are the addresses the sandbox listens on, known once it
	// listens (payments-sandbox sets them after net.Listen). Deliveries
	// never go there, and a listener beyond loopback, like a key list,
	// makes loopback a target only when Allow names it. Empty: a loopback
	// listener of unknown port.
	Listen []netip.AddrPort
	// Attempts is the most attempts per event and endpoint; 0 is
	// DefaultAttempts.
	Attempts int
	// RetryBase is the wait before the first retry, doubled for each
	// further one; 0 is DefaultRetryBase. Tests shorten it.
	RetryBase time.Duration
	// Timeout bounds one attempt, answer included; 0 is
	// wire.DeliveryTimeout. Tests shorten it.
	Timeout time.Duration
	// Concurrency is the most attempts in flight at once, all accounts
	// and endpoints together (-webhook-concurrency); more wait their turn
	// in their endpoint's order. Past a quarter of them (at least 4), an
	// account takes more only while an eighth stay free, so that its
	// backlog never holds up the others'. 0 is DefaultConcurrency.
	Concurrency int
}

// Delivery defaults of the sandbox program. A real service retries over
// about three days; the sandbox retries quickly, for tests.
const (
	DefaultAttempts    = 5
	DefaultRetryBase   = time.Second
	DefaultConcurrency = 64
)

const (
	// laneWorkers is how many attempts one endpoint may have in flight.
	laneWorkers = 4
	// maxLog bounds the attempts /_sandbox/deliveries keeps per account;
	// the oldest go first.
	maxLog = 1000
	// maxReceiverAnswer is how much of an answer is read (and ignored).
	maxReceiverAnswer = 64 << 10
	userAgent         = "payments-sandbox-webhooks/1"
	// flushInterval is how often the flusher writes the attempts recorded
	// since its last write: one commit for many attempts, so that a storm
	// of deliveries does not queue other accounts' writes behind its own.
	// It paces the disk, not the deliveries: it runs on the real clock.
	flushInterval = 100 * time.Millisecond
)

// Account is one account as the engine sees it; the sandbox implements it.
type Account interface {
	// Book is the account's pending deliveries and delivery log.
	Book() *Book
	// Target is what an attempt of event to endpoint sends, read under
	// the account's read lock (which orders the attempt after the
	// request that made the delivery, and its store write); false when
	// the event or the endpoint is gone, or the endpoint is disabled.
	Target(event, endpoint string) (Target, bool)
}

// Target is what one attempt sends, and where.
type Target struct {
	URL    string
	Secret string // signs the body
	Body   []byte // the event, exactly as sent and signed
}

// Host is what the engine needs of the sandbox as a whole; the sandbox
// implements it.
type Host interface {
	// Stored reports whether the sandbox keeps a data file: without one
	// the engine describes no writes.
	Stored() bool
	// Keyed reports whether the sandbox admits only a list of keys: then
	// it is shared, whoever reaches it through whatever proxy, and the
	// target rules treat loopback as not its callers' to call.
	Keyed() bool
	// Commit writes an account's delivery records outside any request,
	// and reports whether they were written; on false the engine keeps
	// them to try again.
	Commit(a Account, writes []Write) bool
	// Delivered counts an attempt's outcome: its status (0 without an
	// answer) and its error ("" when delivered).
	Delivered(status int, errText string)
}

// Engine runs the deliveries of one sandbox.
type Engine struct {
	host     Host
	clock    clock.Clock
	allow    *Policy
	http     *http.Client
	attempts int
	base     time.Duration
	timeout  time.Duration

	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup
	// lookup resolves a host name; tests replace it.
	lookup func(ctx context.Context, host string) ([]netip.Addr, error)

	mu    sync.Mutex
	due   dueHeap
	lanes map[laneKey]*lane
	wake  chan struct{}
	// slots bound the attempts in flight, all lanes together, with each
	// account's share (slots.go).
	slots *slotPool

	// flushMu guards dirty, the accounts whose books have writes to make.
	flushMu  sync.Mutex
	dirty    []Account
	flushNow chan struct{}
}

// New returns an engine delivering under o, on clk; Start runs it.
func New(o Options, host Host, clk clock.Clock) (*Engine, error) {
	allow, err := NewPolicy(o.Allow, o.Listen, host.Keyed)
	if err != nil {
		return nil, err
	}
	if o.Concurrency <= 0 {
		o.Concurrency = DefaultConcurrency
	}
	e := &Engine{
		host: host, clock: clk, allow: allow,
		attempts: o.Attempts, base: o.RetryBase, timeout: o.Timeout,
		lanes:    make(map[laneKey]*lane),
		wake:     make(chan struct{}, 1),
		slots:    newSlotPool(o.Concurrency),
		flushNow: make(chan struct{}, 1),
		lookup: func(ctx context.Context, host string) ([]netip.Addr, error) {
			return net.DefaultResolver.LookupNetIP(ctx, "ip", host)
		},
	}
	if e.attempts <= 0 {
		e.attempts = DefaultAttempts
	}
	if e.base <= 0 {
		e.base = DefaultRetryBase
	}
	if e.timeout <= 0 {
		e.timeout = wire.DeliveryTimeout
	}
	e.ctx, e.cancel = context.WithCancel(context.Background())
	e.http = newHTTPClient(e, o.Concurrency)
	return e, nil
}

// Settings are the attempts, first retry wait and timeout in use.
func (e *Engine) Settings() (attempts int, retryBase, timeout time.Duration) {
	return e.attempts, e.base, e.timeout
}

// SetResolver replaces the resolver of webhook URLs' host names (tests).
func (e *Engine) SetResolver(lookup func(ctx context.Context, host string) ([]netip.Addr, error)) {
	e.lookup = lookup
}

// CheckURLHost is the target rules' check of an endpoint URL's host and
// port at create and update: refused is the refusal (nil when allowed);
// known is false for a name the rules neither name nor resolve.
func (e *Engine) CheckURLHost(host string, port uint16) (refused error, known bool) {
	r, known := e.allow.checkURLHost(host, port)
	if r != nil {
		return r, known
	}
	return nil, known
}

// Start runs the scheduler, with the deliveries pending in accounts (as
// loaded from the store).
func (e *Engine) Start(accounts iter.Seq[Account]) {
	now := e.clock.Now()
	e.mu.Lock()
	for a := range accounts {
		if bk := a.Book(); len(bk.writes) > 0 {
			// Days counted from the log at load (loadDays).
			bk.mu.Lock()
			e.markDirty(a)
			bk.mu.Unlock()
		}
		for _, dl := range a.Book().pending {
			// A restart resumes pending deliveries at once: whoever
			// restarts the sandbox is waiting for them.
			dl.due = now
			heap.Push(&e.due, dueItem{due: dl.due, d: dl})
		}
	}
	e.mu.Unlock()
	e.wg.Add(2)
	go e.run()
	go e.flusher()
}

// Stop ends the scheduler and every attempt in flight, waits for them,
// and writes what they recorded. An attempt cut short is not recorded: it
// is made again after a restart, as its delivery is still pending in the
// store.
func (e *Engine) Stop() {
	e.cancel()
	e.wg.Wait()
	e.flush()
}

// Add schedules the first attempt of event to endpoint for account a, at
// once on the engine's clock: whatever time the event carries (a test
// clock's, years ahead or behind) is not when it is sent. It returns the
// store writes of the request that makes it, and how to take it back
// should that request's write fail. The attempt waits for the account's
// lock, so the request's store write lands first.
func (e *Engine) Add(a Account, event, endpoint string) ([]Write, Undo) {
	d := &delivery{a: a, key: Key(event, endpoint), due: e.clock.Now()}
	var w writes
	e.put(&w, d)
	bk := a.Book()
	bk.mu.Lock()
	prev := bk.pending[d.key]
	bk.setPending(d)
	bk.mu.Unlock()
	undo := func(bk *Book) {
		if bk.pending[d.key] == d {
			bk.dropPending(d.key)
			if prev != nil {
				e.restore(bk, prev)
			}
		}
	}
	e.schedule(d, d.due)
	return w, undo
}

// CancelEndpoint stops the deliveries of account a to an endpoint being
// deleted. The writes it returns include the attempts recorded but not
// yet flushed, which the deleting request writes first.
func (e *Engine) CancelEndpoint(a Account, endpoint string) ([]Write, Undo) {
	bk := a.Book()
	taken := bk.takeWrites()
	w := writes(taken)
	var cancelled []*delivery
	for key, d := range bk.pending {
		if d.endpoint() == endpoint {
			cancelled = append(cancelled, d)
			e.deletePending(&w, key)
		}
	}
	for _, d := range cancelled {
		bk.dropPending(d.key)
	}
	bk.mu.Unlock()
	return w, func(bk *Book) {
		for _, d := range cancelled {
			e.restore(bk, d)
		}
		e.requeue(a, taken)
	}
}

// Reset forgets the account's deliveries and log but not the log's
// sequence (POST /_sandbox/reset, which drops every record of the
// account). It returns how to take that back, should the reset's write
// fail.
func (e *Engine) Reset(a Account) Undo {
	bk := a.Book()
	taken := bk.takeWrites()
	pending, attempts, days := bk.pending, bk.attempts, bk.days
	bk.pending = nil
	bk.attempts = nil
	bk.days = nil
	bk.settle()
	bk.mu.Unlock()
	return func(bk *Book) {
		bk.attempts, bk.days = attempts, days
		for _, d := range pending {
			e.restore(bk, d)
		}
		e.requeue(a, taken)
	}
}

// restore puts d back in its book, for a request whose write failed after
// it had taken d out (a reset, an endpoint's delete). An attempt of d that
// came due meanwhile found it gone and dropped it, unrecorded: it is
// scheduled again, at once, or else d would stay pending and never be
// attempted. The book's mu is held.
func (e *Engine) restore(bk *Book, d *delivery) {
	bk.setPending(d)
	if d.dropped {
		d.dropped = false
		e.schedule(d, d.due)
	}
}

// Refuse records in a's delivery log that a delivery of event to endpoint
// was not queued, and why: a line of attempt 0, status 0, whose error is
// why. The sandbox refuses deliveries to an account past its byte limit.
func (e *Engine) Refuse(a Account, event, endpoint, why string) {
	bk := a.Book()
	bk.mu.Lock()
	defer bk.mu.Unlock()
	var w writes
	bk.seq++
	rec := &Attempt{Seq: bk.seq, Event: event, Endpoint: endpoint, Err: why, At: e.clock.Now().Unix()}
	e.putAttempt(&w, rec)
	for _, seq := range bk.appendLog(rec) {
		e.deleteAttempt(&w, seq)
	}
	e.queue(a, w)
}
