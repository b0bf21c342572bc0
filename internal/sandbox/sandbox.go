// Package sandbox is a stateful stand-in for the payments service. It
// serves every endpoint of the API contract (api/openapi.yaml) over HTTP,
// for tests, demos, benchmarks and users without network access. The facts
// of the wire come from package wire, which the API client imports too;
// the sandbox imports nothing of the client, so the client's tests against
// it check the contract, not a shared constant. The rules only a server
// enforces (test tokens, payment transitions, idempotency retention) are
// in rules.go.
//
// State lives in memory, one account per secret key, each behind its own
// lock; with Options.Store it is also written to disk before any answer.
//
// Where the payment APIs this one resembles leave a choice open, the
// sandbox decides as follows (marked [own decision] in api/openapi.yaml;
// the tests pin each one; the API assumptions guide lists them for users):
//
//   - Request pipeline: authentication (401/403), then the account's
//     faults (/v1 only: rate limit 429, latency, error_rate 500/503), then
//     the Idempotency-Key, then the handler, then the disk, then the answer.
//     A drop happens last: the request acted and its answer is stored.
//   - Idempotency applies to POSTs under /v1; the /_sandbox controls ignore
//     the header. A replay gets a fresh Request-Id and the stored body.
//   - A form field given twice, a malformed bracket name, invalid
//     percent-encoding or invalid UTF-8 is 400 parameter_invalid. A POST
//     body in another Content-Type is 400; query parameters of a POST count.
//   - Missing required fields are parameter_missing; bad values are
//     parameter_invalid; unknown fields are parameter_unknown, checked
//     before the object in the path is looked up.
//   - source=src_… without customer is 400 parameter_missing, param
//     customer; neither source nor customer is parameter_missing, param
//     source; customer without a default source is missing_source, param
//     source. A charged token becomes a one-off src_ id on the payment.
//   - A live secret key gets 403 permission_error, code livemode_mismatch.
//     A Basic password that is not empty is 401 invalid_api_key.
//   - Capture only from authorized (pending -> approved is the bank's
//     move, made with /_sandbox/…/complete). Complete only from pending;
//     without outcome it ends approved, or authorized for capture=false.
//   - Lists page alike (package listing): limit is 1 to 100 in plain digits (05,
//     +5 or 1e1 is 400), cursors must be objects of the list in the
//     account, and starting_after with ending_before is 400. An answer
//     over 32 KiB streams, a part at a time, the account read again for
//     each part (a deleted object is left out; has_more stays). The
//     payments' customer filter naming a deleted
//     customer is 400 resource_missing. created[gte]/[lte] accept any
//     RFC 3339 offset and compare with whole seconds. The customer list's
//     email filter must be an address (else 400 parameter_invalid) and
//     matches ignoring case; customers keep their creation order in the
//     data file (customer_list.go).
//   - Stats count every /v1 request on a known route, including those
//     answered 429 or 5xx by faults; unknown paths and methods are 404
//     unrecognized_url and not counted.
//   - Fault settings are validated all at once (a refused POST changes
//     nothing): rates 0 to 1, latency_ms 0 to 60000, rate_limit 0 to
//     100000. An empty value sets 0. They are kept in memory only.
//   - Fault decisions come from a PCG source per account, seeded by
//     Options.FaultSeed (-fault-seed) or at random, reseeded by POST
//     /_sandbox/faults seed=N and shown by GET: a seed replays a run.
//   - Cleared optional fields are null in answers, not "".
//   - Webhooks (webhooks.go, events.go, deliveries.go, package delivery):
//     events are recorded in the request that makes the change, and
//     delivered after it, by a scheduler with one lane per endpoint under
//     a global cap, only to addresses the allow policy accepts; the
//     decisions are listed in the
//     API assumptions guide, section "Webhooks and events", the design in
//     ARCHITECTURE.md, "Webhook delivery".
//   - The request log (requestlog.go) keeps each account's last
//     wire.RequestLogSize requests in memory, without keys or bodies;
//     requests made through Server.Internal (the dashboard's) are neither
//     logged, counted in stats nor given faults. A resend
//     (resend.go) is a new delivery, its attempts counted from 1.
//   - POST /v1/payments/{id} changes description and metadata only, in
//     any status (declined and refunded payments included); an empty
//     description clears it.
//   - Limits (bounds.go): what accounts keep is counted as it changes.
//     A write (any POST but /_sandbox/reset and /_sandbox/faults) to a
//     full account or sandbox drops the account's oldest events when that
//     makes room, else (dropping none) is refused with 403
//     account_limit_exceeded or sandbox_limit_exceeded, not stored under
//     its Idempotency-Key; a key that would need an account past
//     Limits.MaxAccounts is refused every request. A renewal step must
//     find room for the most it can keep before it runs (renewals.go), so
//     billing never takes an account past its limit. Idle accounts made on
//     first use are removed, never those of Options.Keys.
//   - GET /healthz and GET /metrics (metrics.go) need no key and are
//     counted nowhere in /_sandbox/stats: they are for the operator. The
//     metrics sit on a registry per Server; their labels are route names,
//     statuses, outcomes and limits, never an account, key or id.
//   - The catalog (products.go, prices.go): a product with prices, active
//     or not, cannot be deleted (400 product_has_prices; archive it with
//     active=false), since prices cannot be. A price's product, currency,
//     unit_amount and recurring[…] are fixed: an update naming one is 400
//     parameter_unknown naming it. A lookup_key is unique among the
//     account's active prices; transfer_lookup_key=true moves it from the
//     active price holding it, which gets price.updated first. A price
//     list's product filter naming no product of the account is 400
//     resource_missing. Periods are at most wire.RecurringMaxYears.
//   - Subscriptions and invoices (subscriptions.go, invoices.go): a create
//     invoices and charges the first period at once, through a payment of
//     the payments API with its invoice set (makePayment), so that
//     declines, 3-D Secure and disputes are a payment's. Items are
//     items[N][price] and items[N][quantity] (package form's one indexed
//     form), of one currency and period. error_if_incomplete refuses a
//     first charge that would not succeed at once before anything is
//     made; customer.subscription.created follows the first invoice's
//     events. Updates apply from the next period, without proration;
//     DELETE cancels and keeps the subscription; deleting a customer
//     cancels its subscriptions. An invoice whose payment waits for 3-D
//     Secure can be neither paid again nor voided, so that nothing is
//     charged twice; completing it settles the invoice.
//   - Renewals (renewals.go, package billing) run on Options.Clock: at each
//     due moment the runner does every account's due steps in time order,
//     each with the time it was due, and commits an account's run in
//     parts of whole steps (about a MiB each), letting the account's lock
//     go between them; a failed commit reads the account back and the
//     steps not written run again later; a step without room stops the
//     run, which looks again each minute. Each period's invoice id is made
//     from the subscription and the period. Dunning retries 3, 5 and 7 days apart, then ends in
//     the status /_sandbox/billing or -dunning-end chooses. Renewals are
//     not use: they do not keep an idle account.
//   - Test clocks (testclocks.go): a customer is put on one at creation,
//     for life; its objects take their times from the clock and its
//     subscriptions renew only in an advance, which runs the engine's
//     steps within the request, written in the same parts, the clock put
//     at each part's moment; without room for its next step it stops
//     there and says so in status_details, or, with no step done, is
//     refused whole. An event's created_at is the change's time; its
//     retention counts from when it was recorded.
//   - A data file that is truncated, overwritten or foreign is refused at
//     open (read-only, checked whole with bbolt's tx.Check), with one
//     error naming it and what to do; nothing of it is served.
//   - A write the data file refuses (full or read-only disk, I/O error) is
//     503 storage_unavailable, its message naming the cause but not the
//     path; the account is read back from the file, so the request changed
//     nothing, in memory either. Reads go on; writes work again as soon as
//     the disk takes them (store_records.go, storeFailed).
//   - The storage engine, package storage, keeps records by account,
//     bucket and key, knowing nothing of what they mean; the objects
//     (package model) are its Records. Without a data file the store is
//     storage.NoCopy: memory is the only copy, since a second would
//     double what the sandbox keeps, uncounted, and nothing is encoded.
//   - The data file records its format (storage, dataFormat). A file of
//     an older format is copied to <file>.v<N>.bak, then upgraded in
//     place, and the log says so; one of a newer format is refused at open
//     with both versions, rather than misread.
//   - A write is answered once it is on disk in the write-ahead log beside
//     the data file; concurrent writes share a record of it and its sync
//     (group commit, storage). A request holds its account's
//     lock until then, so requests of one account are written one after
//     another, and those of many accounts together. A checkpointer applies
//     the log to the data file in the background.
package sandbox

import (
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/billing"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/clock"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/delivery"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/form"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/ids"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/keys"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/logmask"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/metrics"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/model"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/storage"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// Options configure a Server. The zero value is a memory-only server that
// admits every well-formed sandbox secret key.
type Options struct {
	// Keys, when non-empty, are the only secret keys admitted; any other
	// key gets 401 invalid_api_key.
	Keys []string
	// Store keeps the state across restarts (see storage.Open); nil keeps
	// it in memory only (storage.NoCopy). The server owns it from New on
	// and closes it in Close.
	Store storage.Store
	// Logger receives operational logs; nil discards them. Keys and the
	// Authorization header are never logged, and whatever looks like a
	// key elsewhere (pasted into a path, say) is masked (logmask.Wrap).
	Logger *slog.Logger
	// Clock is the time of timestamps and of the work that waits:
	// idempotency expiry, idle accounts, delivery retries, the rate_limit
	// fault's window; nil is the real clock. Latency faults and request
	// timeouts always take real time.
	Clock clock.Clock
	// Webhooks configure event delivery (see package delivery).
	Webhooks WebhookOptions
	// Limits bound the accounts and the bytes the server keeps (see
	// bounds.go); the zero value bounds nothing.
	Limits Limits
	// DunningEnd is the status a subscription ends in when the retries of
	// a renewal's invoice run out: one of DunningEnds, "" for the first
	// (canceled).
	DunningEnd string
	// FaultSeed starts every account's fault decisions (error_rate and
	// drop_rate), from 1 to wire.FaultSeedMax; 0 gives each account a
	// random seed. GET /_sandbox/faults tells the seed in use.
	FaultSeed int64
}

// Server is the sandbox's http.Handler. It is safe for concurrent use.
type Server struct {
	log     *slog.Logger
	clock   clock.Clock
	keys    atomic.Pointer[keys.Set] // nil admits every key; see SetKeys
	store   storage.Store
	durable bool // Options.Store was given, so deliveries are recorded
	mux     *http.ServeMux
	hooks   *delivery.Engine
	// renewals runs the subscriptions' due steps on the clock
	// (renewals.go); dunningEnd is Options.DunningEnd.
	renewals   *billing.Runner
	dunningEnd string
	// metrics are the server's Prometheus metrics (metrics.go).
	metrics *metrics.Metrics

	mu       sync.RWMutex
	accounts map[[32]byte]*account
	// publishable finds the hash of an account of s.accounts by its
	// publishable key (auth.go); unused with a key list.
	publishable map[string][32]byte
	// dropping holds the idle accounts whose records are being deleted
	// from the store; their keys wait for it before making a new account.
	dropping map[[32]byte]chan struct{}

	limits    Limits
	faultSeed int64
	// total is the bytes all accounts keep (bounds.go).
	total atomic.Int64
	// sweepTimer is the next sweep of idle accounts, nil once stopped;
	// sweepMu is held for a sweep and for stopping them.
	sweepMu    sync.Mutex
	sweepTimer clock.Timer

	connections atomic.Int64
	// storeErr is set when a write to the store failed and reading the
	// account back failed too. From then on the server refuses requests:
	// memory and disk may disagree. A failed write alone only fails its
	// request (see storeFailed).
	storeErr atomic.Pointer[error]
	// backgroundFailing is set while writes made outside requests fail,
	// so that their failure is logged once, not at every retry.
	backgroundFailing atomic.Bool
	closeOnce         sync.Once
	closeErr          error

	// afterReserve, when set (by tests), runs between reserving an
	// Idempotency-Key and acting on the request, the window in which a
	// concurrent repeat gets idempotency_key_in_use.
	afterReserve func()
}

// New returns a Server ready to serve, with the state of opts.Store loaded.
func New(opts Options) (*Server, error) {
	store := opts.Store
	if store == nil {
		store = storage.NoCopy()
	}
	s := &Server{
		log:         opts.Logger,
		clock:       opts.Clock,
		store:       store,
		durable:     opts.Store != nil,
		accounts:    make(map[[32]byte]*account),
		publishable: make(map[string][32]byte),
		dropping:    make(map[[32]byte]chan struct{}),
		limits:      opts.Limits,
		faultSeed:   opts.FaultSeed,
		mux:         http.NewServeMux(),
	}
	switch {
	case opts.DunningEnd == "":
		s.dunningEnd = DunningEnds[0]
	case slices.Contains(DunningEnds, opts.DunningEnd):
		s.dunningEnd = opts.DunningEnd
	default:
		return nil, fmt.Errorf("sandbox: dunning end %q is not one of %s", opts.DunningEnd, strings.Join(DunningEnds, ", "))
	}
	if s.faultSeed < 0 || s.faultSeed > wire.FaultSeedMax {
		return nil, fmt.Errorf("sandbox: fault seed %d is out of range; use 1 to %d, or 0 for a random seed", s.faultSeed, int64(wire.FaultSeedMax))
	}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	} else {
		s.log = slog.New(logmask.Wrap(s.log.Handler()))
	}
	if s.clock == nil {
		s.clock = clock.Real()
	}
	if len(opts.Keys) > 0 {
		if err := s.SetKeys(opts.Keys); err != nil {
			return nil, err
		}
	}
	var err error
	if s.hooks, err = delivery.New(opts.Webhooks, deliveryHost{s}, s.clock); err != nil {
		return nil, fmt.Errorf("sandbox: %w", err)
	}
	for _, note := range s.store.Notes() {
		s.log.Info(note)
	}
	if err := s.loadStore(); err != nil {
		return nil, err
	}
	s.metrics = newMetrics(s)
	s.hooks.Start(func(yield func(delivery.Account) bool) {
		for _, a := range s.accounts {
			if !yield(a) {
				return
			}
		}
	})
	s.startSweeper()
	s.renewals = billing.NewRunner(s.clock, s.runRenewals)
	s.renewals.Start()
	for i := range routes {
		rt := &routes[i]
		s.mux.HandleFunc(rt.pattern, func(w http.ResponseWriter, r *http.Request) { s.serve(w, r, rt) })
	}
	s.handleOperational()
	s.mux.HandleFunc("/", s.serveUnknown)
	return s, nil
}

// now is the time on the server's clock.
func (s *Server) now() time.Time { return s.clock.Now() }

// ServeHTTP answers one request.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set(wire.HeaderRequestID, ids.RequestID())
	s.mux.ServeHTTP(w, r)
}

// ConnState counts accepted connections for /_sandbox/stats; wire it into
// http.Server.ConnState.
func (s *Server) ConnState(_ net.Conn, state http.ConnState) {
	if state == http.StateNew {
		s.connections.Add(1)
	}
}

// Close closes the store. The server must not serve afterwards.
func (s *Server) Close() error {
	s.closeOnce.Do(func() {
		s.stopSweeper()
		if s.renewals != nil {
			s.renewals.Stop()
		}
		s.hooks.Stop()
		s.closeErr = s.store.Close()
	})
	return s.closeErr
}

// StoreHealthy reports whether the data file answers; nil without one. It
// reads the file and, when the last write failed, tries an empty write, so
// that a full or read-only disk reports an error until it takes writes
// again. The error names the cause, never the file's path: it is meant for
// a health endpoint.
func (s *Server) StoreHealthy() error {
	if s.storeErr.Load() != nil {
		return errors.New("the sandbox's data file failed in a way that leaves its state uncertain; restart it")
	}
	if err := s.store.Health(); err != nil {
		return fmt.Errorf("the data file does not take writes (%s)", storageCause(err))
	}
	return nil
}

// call is one request being handled, with the account locked.
type call struct {
	s    *Server
	a    *account
	r    *http.Request
	f    form.Form
	now  time.Time
	unix int64
	// ops are the store writes of the request, committed before it is
	// answered; nil without a store.
	ops []storage.Op
	// undo takes back the request's changes to the delivery book, which
	// reading the account back from the store does not restore (see
	// account.restore); run when the commit fails.
	undo []delivery.Undo
	// partial is set once the request committed part of its changes
	// (commitPart): a later failure then changed something.
	partial bool
	// newSub is the subscription the request creates, announced once by
	// its create rather than at each change on the way.
	newSub  *model.Subscription
	scratch []byte    // an object's JSON made only for an event (events.go)
	wall    time.Time // the server's time for the call's events (wallNow)
}

// route is one endpoint.
type route struct {
	pattern string // net/http pattern, e.g. "GET /v1/customers/{id}"
	name    string // stats key, e.g. "GET /v1/customers/:id"
	idx     int    // index in routes, for per-route counters
	v1      bool   // counted in stats, subject to faults
	write   bool   // takes the account's write lock
	public  bool   // a publishable key may call it (POST /v1/tokens only)
	grows   bool   // may add records: refused at a byte limit (bounds.go)
	fn      func(*call) response
}

// routes are every endpoint of the contract. Built in init because the
// stats handler reads routes, which a var initializer cannot allow.
var routes []route

func init() {
	def := func(method, path string, fn func(*call) response) route {
		pattern := method + " " + path
		name := strings.NewReplacer("{", ":", "}", "").Replace(pattern)
		return route{
			pattern: pattern, name: name, fn: fn,
			v1:    strings.HasPrefix(path, wire.APIVersionPrefix+"/"),
			write: method != http.MethodGet,
			// An advance finds room for each step itself (testclocks.go).
			grows: method == http.MethodPost && path != wire.PathSandboxReset && path != wire.PathSandboxFaults && path != wire.PathSandboxBilling && path != wire.PathTestClockAdvance,
		}
	}
	publicRoute := func(rt route) route { rt.public = true; return rt }
	const get, post, del = http.MethodGet, http.MethodPost, http.MethodDelete
	routes = []route{
		def(post, wire.PathCustomers, (*call).createCustomer),
		def(get, wire.PathCustomers, (*call).listCustomers),
		def(get, wire.PathCustomer, (*call).retrieveCustomer),
		def(post, wire.PathCustomer, (*call).updateCustomer),
		def(del, wire.PathCustomer, (*call).deleteCustomer),
		def(post, wire.PathCustomerSources, (*call).addSource),
		def(get, wire.PathCustomerSource, (*call).retrieveSource),
		def(del, wire.PathCustomerSource, (*call).removeSource),
		publicRoute(def(post, wire.PathTokens, (*call).createToken)),
		def(post, wire.PathPayments, (*call).createPayment),
		def(get, wire.PathPayments, (*call).listPayments),
		def(get, wire.PathPayment, (*call).retrievePayment),
		def(post, wire.PathPayment, (*call).updatePayment),
		def(post, wire.PathPaymentCapture, (*call).capturePayment),
		def(post, wire.PathPaymentRefund, (*call).refundPayment),
		def(post, wire.PathProducts, (*call).createProduct),
		def(get, wire.PathProducts, (*call).listProducts),
		def(get, wire.PathProduct, (*call).retrieveProduct),
		def(post, wire.PathProduct, (*call).updateProduct),
		def(del, wire.PathProduct, (*call).deleteProduct),
		def(post, wire.PathPrices, (*call).createPrice),
		def(get, wire.PathPrices, (*call).listPrices),
		def(get, wire.PathPrice, (*call).retrievePrice),
		def(post, wire.PathPrice, (*call).updatePrice),
		def(post, wire.PathSubscriptions, (*call).createSubscription),
		def(get, wire.PathSubscriptions, (*call).listSubscriptions),
		def(get, wire.PathSubscription, (*call).retrieveSubscription),
		def(post, wire.PathSubscription, (*call).updateSubscription),
		def(del, wire.PathSubscription, (*call).cancelSubscription),
		def(get, wire.PathInvoices, (*call).listInvoices),
		def(get, wire.PathInvoice, (*call).retrieveInvoice),
		def(post, wire.PathInvoicePay, (*call).payInvoice),
		def(post, wire.PathInvoiceVoid, (*call).voidInvoice),
		def(post, wire.PathTestClocks, (*call).createTestClock),
		def(get, wire.PathTestClocks, (*call).listTestClocks),
		def(get, wire.PathTestClock, (*call).retrieveTestClock),
		def(del, wire.PathTestClock, (*call).deleteTestClock),
		def(post, wire.PathTestClockAdvance, (*call).advanceTestClock),
		def(post, wire.PathWebhookEndpoints, (*call).createWebhookEndpoint),
		def(get, wire.PathWebhookEndpoints, (*call).listWebhookEndpoints),
		def(get, wire.PathWebhookEndpoint, (*call).retrieveWebhookEndpoint),
		def(post, wire.PathWebhookEndpoint, (*call).updateWebhookEndpoint),
		def(del, wire.PathWebhookEndpoint, (*call).deleteWebhookEndpoint),
		def(post, wire.PathWebhookEndpointRollSecret, (*call).rollWebhookEndpointSecret),
		def(get, wire.PathEvents, (*call).listEvents),
		def(get, wire.PathEvent, (*call).retrieveEvent),
		def(post, wire.PathSandboxPaymentComplete, (*call).completePayment),
		def(post, wire.PathSandboxPaymentDispute, (*call).disputePayment),
		def(post, wire.PathSandboxReset, (*call).reset),
		def(get, wire.PathSandboxStats, (*call).stats),
		def(get, wire.PathSandboxAccount, (*call).account),
		def(get, wire.PathSandboxFaults, (*call).getFaults),
		def(post, wire.PathSandboxFaults, (*call).setFaults),
		def(get, wire.PathSandboxBilling, (*call).getBilling),
		def(post, wire.PathSandboxBilling, (*call).setBilling),
		def(get, wire.PathSandboxDeliveries, (*call).listDeliveries),
		def(get, wire.PathSandboxRequests, (*call).listRequests),
		def(post, wire.PathSandboxEventResend, (*call).resendEvent),
	}
	for i := range routes {
		routes[i].idx = i
	}
}
