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
	// idempotency expiry, events' retention, idle accounts, deliveries
	// and their retries, the rate_limit fault's window; nil is the real
	// clock. A test clock sets its objects' times only, never this.
	// Latency faults and request timeouts always take real time.
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
	now  time.Time // the objects' time: the server's, a test clock's (onClock), a renewal step's
	unix int64
	wall time.Time // the server's, whatever now is: every duty on real time reads it (wallNow)
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
	scratch []byte // an object's JSON made only for an event (events.go)
	// sumStaged are the summary's days staged for the next commit
	// (summary.go).
	sumStaged []*model.SummaryDay
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
		def(get, wire.PathCustomerSources, (*call).listSources),
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
		def(get, wire.PathInvoiceLines, (*call).listInvoiceLines),
		def(get, wire.PathSubscriptionItems, (*call).listSubscriptionItems),
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
		def(get, wire.PathSandboxSummary, (*call).summary),
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
