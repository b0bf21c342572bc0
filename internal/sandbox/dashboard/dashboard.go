// Package dashboard is payments-sandbox's web dashboard: server-rendered
// pages (html/template) of one account: a home page of its figures and
// charts, its customers, payments, events, webhook deliveries and
// requests, and forms for the sandbox's controls.
// Everything it serves is embedded; it needs no other host.
//
// It reads and acts only through the sandbox's own HTTP handler, called
// in-process with the session's key (api.go), so a page shows exactly
// what the API answers and the dashboard needs nothing of the sandbox's
// internals; the sandbox imports nothing of it. ARCHITECTURE.md draws the
// doors; the guide "The sandbox dashboard" describes it for users.
//
// Decisions:
//   - Signing in takes a secret key in a POST form, checked by an
//     in-process request (a 401 or 403 is a wrong key, so a sandbox
//     started with -key admits only those keys here too). The key stays
//     on the server, in memory, behind a random session id of 256 bits:
//     the cookie holds only that id (HttpOnly, SameSite=Strict, Secure
//     over https, a proxy's X-Forwarded-Proto included). A session unused
//     for IdleTimeout (DefaultIdleTimeout) ends; signing out ends it at
//     once; at most maxSessionsPerKey are kept per key and maxSessions in
//     all, a key's sign-in past its own cap ending its own session used
//     least recently (so one key holder cannot sign the others out), and
//     one past the total ending that of the key holding the most. The
//     pages show the account's publishable key, read at sign-in from
//     GET /_sandbox/account.
//   - A signed-in page's work (its in-process requests, answered whole,
//     and its rendering) waits for one of maxWork slots, at most
//     maxWorkPerKey of them per key (work.go): the memory of pages built
//     at once stays bounded however many connections ask.
//   - Every action is a POST form that redirects back with a message
//     (post/redirect/get); cross-origin POSTs are refused with 403 by
//     http.CrossOriginProtection. Every page works without JavaScript;
//     static/live.js only refreshes a page's live part while it is open.
//   - One Content-Security-Policy for every page (securityHeaders): no
//     inline script or style, nothing from another origin, no framing.
//   - The home page's charts are inline SVG written by the server
//     (chart.go, templates/home.html): fills are SVG attributes and
//     patterns defined once in the page, not styles, so the policy
//     holds; no charting script or library.
package dashboard

import (
	"embed"
	"errors"
	"html/template"
	"io/fs"
	"log/slog"
	"net/http"
	"time"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/clock"
)

//go:embed templates/*.html
var templateFS embed.FS

//go:embed static
var staticFS embed.FS

// DefaultIdleTimeout is how long a session may go unused before it ends.
const DefaultIdleTimeout = 30 * time.Minute

// Options configure a Dashboard.
type Options struct {
	// API is the sandbox's handler for in-process requests: the
	// dashboard sends it the session's key as any client would
	// (sandbox.Server.Internal).
	API http.Handler
	// Fallback serves every path the dashboard does not (the API's own
	// 404 for an unknown path, say); nil answers 404.
	Fallback http.Handler
	// IdleTimeout ends a session unused this long; 0 is DefaultIdleTimeout.
	IdleTimeout time.Duration
	// Logger receives sign-ins and sign-outs (never a key); nil discards.
	Logger *slog.Logger
	// Clock is the time of session expiry; nil is the real clock.
	Clock clock.Clock
}

// Dashboard is the dashboard's http.Handler.
type Dashboard struct {
	api      http.Handler
	log      *slog.Logger
	sessions *sessions
	work     *work
	pages    map[string]*template.Template
	mux      *http.ServeMux
	// overviewPage is the home page, which GET / serves once signed in.
	overviewPage http.Handler
	// now is the dashboard's clock: the time a new test clock's form
	// starts from.
	now func() time.Time
}

// New returns a Dashboard serving the account behind each session's key.
func New(o Options) (*Dashboard, error) {
	if o.API == nil {
		return nil, errors.New("dashboard: Options.API is nil; pass the sandbox's handler (sandbox.Server.Internal)")
	}
	d := &Dashboard{api: o.API, log: o.Logger, mux: http.NewServeMux(), work: newWork()}
	if d.log == nil {
		d.log = slog.New(slog.DiscardHandler)
	}
	idle := o.IdleTimeout
	if idle <= 0 {
		idle = DefaultIdleTimeout
	}
	clk := o.Clock
	if clk == nil {
		clk = clock.Real()
	}
	d.sessions = newSessions(idle, clk.Now)
	d.now = clk.Now
	var err error
	if d.pages, err = parsePages(); err != nil {
		return nil, err
	}
	static, err := fs.Sub(staticFS, "static")
	if err != nil {
		return nil, err
	}
	fallback := o.Fallback
	if fallback == nil {
		fallback = http.NotFoundHandler()
	}

	m := d.mux
	m.Handle("/", fallback)
	m.Handle("GET /static/", securityHeaders(cacheStatic(http.StripPrefix("/static/", http.FileServerFS(static)))))
	page := func(pattern string, h func(http.ResponseWriter, *http.Request, *session)) {
		m.Handle(pattern, d.protect(d.signedIn(h)))
	}
	d.overviewPage = d.signedIn(d.overview)
	m.Handle("GET /{$}", d.protect(http.HandlerFunc(d.home)))
	m.Handle("POST /sign-in", d.protect(http.HandlerFunc(d.signIn)))
	page("POST /sign-out", d.signOut)
	page("GET /customers", d.customers)
	page("GET /customers/{id}", d.customer)
	page("GET /payments", d.payments)
	page("GET /payments/{id}", d.payment)
	page("POST /payments/{id}/complete", d.completePayment)
	page("POST /payments/{id}/dispute", d.disputePayment)
	page("GET /products", d.products)
	page("GET /subscriptions", d.subscriptions)
	page("GET /subscriptions/{id}", d.subscription)
	page("GET /invoices", d.invoices)
	page("GET /invoices/{id}", d.invoice)
	page("POST /invoices/{id}/pay", d.payInvoice)
	page("POST /invoices/{id}/void", d.voidInvoice)
	page("GET /test-clocks", d.testClocks)
	page("POST /test-clocks", d.createTestClock)
	page("GET /test-clocks/{id}", d.testClock)
	page("POST /test-clocks/{id}/advance", d.advanceTestClock)
	page("GET /events", d.events)
	page("GET /events/{id}", d.event)
	page("POST /events/{id}/resend", d.resendEvent)
	page("GET /webhooks", d.webhooks)
	page("GET /requests", d.requests)
	page("GET /reset", d.resetForm)
	page("POST /reset", d.reset)
	return d, nil
}

// ServeHTTP serves the dashboard's pages, or passes the request to the
// fallback.
func (d *Dashboard) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	d.mux.ServeHTTP(w, r)
}

// csp is the one policy of every page: only this origin's script, style
// and images, forms posting only here, and no framing.
const csp = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; " +
	"form-action 'self'; frame-ancestors 'none'; base-uri 'none'"

// securityHeaders sets the headers every dashboard answer carries.
func securityHeaders(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hd := w.Header()
		hd.Set("Content-Security-Policy", csp)
		hd.Set("X-Content-Type-Options", "nosniff")
		hd.Set("Referrer-Policy", "no-referrer")
		hd.Set("X-Frame-Options", "DENY")
		hd.Set("Cross-Origin-Opener-Policy", "same-origin")
		h.ServeHTTP(w, r)
	})
}

// protect refuses cross-origin POSTs (403) and sets the security headers.
func (d *Dashboard) protect(h http.Handler) http.Handler {
	cop := http.NewCrossOriginProtection()
	cop.SetDenyHandler(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		http.Error(w, "403 Forbidden: a cross-origin request to the dashboard was refused. Use the dashboard's own forms.", http.StatusForbidden)
	}))
	return securityHeaders(cop.Handler(h))
}

func cacheStatic(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-cache")
		h.ServeHTTP(w, r)
	})
}
