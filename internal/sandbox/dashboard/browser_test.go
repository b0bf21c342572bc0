package dashboard_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/clock"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/sandboxtest"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// The browser tests drive Debian's headless Chromium with chromedp. They
// fail when Chromium is missing, so that CI never passes without them;
// PAYMENTS_SKIP_BROWSER_TESTS=1 skips them, loudly, on a machine without
// it. PAYMENTS_CHROMIUM names another binary.

const defaultChromium = "/usr/bin/chromium"

// skipBrowserEnv is the one way to skip the browser tests.
const skipBrowserEnv = "PAYMENTS_SKIP_BROWSER_TESTS"

func chromiumPath(t *testing.T) string {
	t.Helper()
	path := os.Getenv("PAYMENTS_CHROMIUM")
	if path == "" {
		path = defaultChromium
	}
	if _, err := os.Stat(path); err != nil {
		if os.Getenv(skipBrowserEnv) == "1" {
			t.Skipf("SKIPPED: Chromium is not at %s and %s=1 says to skip the browser tests", path, skipBrowserEnv)
		}
		t.Fatalf("Chromium is not at %s (%v): install it (apt-get install chromium), name it with PAYMENTS_CHROMIUM, or set %s=1 to skip the browser tests", path, err, skipBrowserEnv)
	}
	return path
}

// newBrowser starts a headless Chromium with a fresh profile, for the
// test's life, and returns its first tab.
func newBrowser(t *testing.T) context.Context {
	t.Helper()
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(),
		chromedp.ExecPath(chromiumPath(t)),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1280, 900),
	)
	ctx, cancel := chromedp.NewContext(alloc)
	t.Cleanup(func() {
		cancel()
		cancelAlloc()
	})
	if err := chromedp.Do(ctx); err != nil { // starts the browser, with no timeout
		t.Fatalf("starting Chromium: %v", err)
	}
	return ctx
}

// tab is one browser tab: its own cookies when made by newTab.
type tab struct {
	t   *testing.T
	ctx context.Context
	// alerts counts the dialogs the pages opened (alert, confirm…).
	mu     sync.Mutex
	alerts []string
}

// watch is run in every page before its scripts: it records what a page
// would alert and every Content-Security-Policy violation.
const watch = `window.__alerts = []; window.__csp = [];
window.alert = function (m) { window.__alerts.push(String(m)); };
document.addEventListener('securitypolicyviolation', function (e) { window.__csp.push(e.violatedDirective + ' ' + e.blockedURI); });`

func openTab(t *testing.T, ctx context.Context) *tab {
	t.Helper()
	tb := &tab{t: t, ctx: ctx}
	dialogs := chromedp.Events(ctx, page.JavascriptDialogOpening)
	go func() {
		for ev, err := range dialogs {
			if err != nil {
				return
			}
			tb.mu.Lock()
			tb.alerts = append(tb.alerts, ev.Message)
			tb.mu.Unlock()
			_, _ = chromedp.Call(ctx, page.HandleJavaScriptDialog, page.HandleJavaScriptDialogParams{Accept: true})
		}
	}()
	if _, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: watch}); err != nil {
		t.Fatal(err)
	}
	return tb
}

// newTab is a tab in a browser context of its own: another person.
func newTab(t *testing.T, browser context.Context) *tab {
	t.Helper()
	ctx, cancel := chromedp.NewContext(browser, chromedp.WithNewBrowserContext())
	t.Cleanup(cancel)
	if err := chromedp.Do(ctx); err != nil {
		t.Fatal(err)
	}
	return openTab(t, ctx)
}

// timeout bounds each step; the machine may be loaded.
const timeout = 60 * time.Second

func (b *tab) do(what string, actions ...chromedp.Action[chromedp.Void]) {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, timeout)
	defer cancel()
	if err := chromedp.Do(ctx, actions...); err != nil {
		b.t.Fatalf("%s: %v", what, err)
	}
}

// clickAndLoad clicks and waits for the page it leads to.
func (b *tab) clickAndLoad(what, css string) {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, timeout)
	defer cancel()
	if _, err := chromedp.Run(ctx, chromedp.WaitEvent(page.LoadEventFired, nil, chromedp.Click(chromedp.CSS(css)))); err != nil {
		b.t.Fatalf("%s: %v", what, err)
	}
}

func (b *tab) open(path string) {
	b.t.Helper()
	b.do("opening "+path, chromedp.Navigate(path))
}

func eval[T any](b *tab, js string) T {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, timeout)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](js))
	if err != nil {
		b.t.Fatalf("evaluating %s: %v", js, err)
	}
	return v
}

// waitFor waits until the expression is true in the current page, across
// navigations, or fails the test at the deadline with what the page says.
func (b *tab) waitFor(what, js string) {
	b.t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		ctx, cancel := context.WithTimeout(b.ctx, 5*time.Second)
		ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool]("!!("+js+")"))
		cancel()
		if err == nil && ok {
			return
		}
		if time.Now().After(deadline) {
			text, _ := chromedp.Run(b.ctx, chromedp.Evaluate[string](`location.href + "\n" + (document.body ? document.body.innerText : "")`))
			b.t.Fatalf("%s: not so within %s (last error %v); the page:\n%s", what, timeout, err, text)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// clean checks that nothing alerted and nothing broke the page's CSP.
func (b *tab) clean(where string) {
	b.t.Helper()
	if n := eval[int](b, `window.__alerts.length + document.querySelectorAll("img").length`); n != 0 {
		b.t.Errorf("%s: %d alerts or img elements", where, n)
	}
	if v := eval[[]string](b, `window.__csp`); len(v) != 0 {
		b.t.Errorf("%s: Content-Security-Policy violations %v", where, v)
	}
	// Usable: every control labelled, every button named, every table
	// with headers, nothing taken out of the keyboard's reach.
	if bad := eval[[]string](b, usable); len(bad) != 0 {
		b.t.Errorf("%s: %v", where, bad)
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(b.alerts) != 0 {
		b.t.Errorf("%s: dialogs opened: %q", where, b.alerts)
	}
}

// usable lists what a page lacks for a keyboard or a screen reader.
const usable = `(function () {
  var bad = [];
  document.querySelectorAll('input:not([type=hidden]), select, textarea').forEach(function (e) {
    if (e.labels.length === 0 && !e.getAttribute('aria-label')) { bad.push('control without a label: ' + (e.name || e.id)); }
  });
  document.querySelectorAll('button, a').forEach(function (e) {
    if (e.textContent.trim() === '' && !e.getAttribute('aria-label')) { bad.push('nameless ' + e.tagName); }
    if (e.getAttribute('tabindex') === '-1') { bad.push('out of keyboard reach: ' + e.textContent.trim()); }
  });
  document.querySelectorAll('table').forEach(function (t) {
    if (!t.querySelector('thead th')) { bad.push('table without headers'); }
  });
  return bad;
}())`

func (b *tab) signIn(site, key string) {
	b.t.Helper()
	b.open(site + "/")
	b.do("waiting for the form", chromedp.WaitVisible(chromedp.ID("key")))
	b.clean("the sign-in form")
	b.do("typing the key", chromedp.SendKeys(chromedp.ID("key"), key))
	b.clickAndLoad("signing in", `form.signin button[type="submit"]`)
	b.waitFor("the home page after signing in", `location.pathname === "/" && document.querySelector('form[action="/sign-out"]')`)
}

// receiver is a webhook endpoint in the test.
type receiver struct {
	*httptest.Server
	hits chan string
}

func newReceiver(t *testing.T) *receiver {
	rc := &receiver{hits: make(chan string, 100)}
	rc.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		rc.hits <- string(b)
	}))
	t.Cleanup(rc.Close)
	return rc
}

// waitHit waits for a delivery whose body holds want.
func (rc *receiver) waitHit(t *testing.T, want string) {
	t.Helper()
	deadline := time.After(timeout)
	for {
		select {
		case h := <-rc.hits:
			if strings.Contains(h, want) {
				return
			}
		case <-deadline:
			t.Fatalf("no delivery of %s within %s", want, timeout)
		}
	}
}

func (rc *receiver) drain() {
	for len(rc.hits) > 0 {
		<-rc.hits
	}
}

// TestBrowser_Dashboard drives the dashboard in Chromium as a person
// would: sign in, watch objects made through the API appear, complete a
// 3-D Secure payment, resend an event to a receiver, meet a hostile name,
// fail to reach another account, be refused a cross-site POST, sign out.
func TestBrowser_Dashboard(t *testing.T) {
	s := newSite(t, siteOptions{})
	alice, mallory := sandboxtest.NewKey(t), sandboxtest.NewKey(t)
	rc := newReceiver(t)
	var ep wire.WebhookEndpoint
	s.api(alice, http.MethodPost, wire.PathWebhookEndpoints, url.Values{"url": {rc.URL}, "enabled_events[]": {"*"}}, &ep)
	var c wire.Customer
	s.api(alice, http.MethodPost, wire.PathCustomers, url.Values{"email": {"alice@example.com"}, "name": {hostile}, "source": {"tok_visa"}}, &c)
	var pending wire.Payment
	s.api(alice, http.MethodPost, wire.PathPayments, url.Values{"amount": {"1200"}, "currency": {"JPY"}, "source": {"tok_3ds"}}, &pending)

	browser := newBrowser(t)
	b := newTab(t, browser)
	b.signIn(s.url, alice)
	b.clickAndLoad("opening the customers page", `nav[aria-label=Main] a[href="/customers"]`)
	b.waitFor("alice's customer listed", `document.body.innerText.includes("alice@example.com")`)
	if !eval[bool](b, `document.body.innerText.includes(`+"`"+hostile+"`"+`)`) {
		t.Error("the hostile name is not shown as text")
	}
	b.clean("customers")

	// Live: a customer made through the API appears without a reload.
	b.do("marking the page", chromedp.Evaluate[chromedp.Void](`window.__sameDocument = true`))
	s.api(alice, http.MethodPost, wire.PathCustomers, url.Values{"email": {"live@example.com"}}, nil)
	b.waitFor("the new customer appearing", `document.body.innerText.includes("live@example.com")`)
	if !eval[bool](b, `window.__sameDocument === true`) {
		t.Error("the page was reloaded to show the new customer")
	}

	b.open(s.url + "/customers/" + c.ID)
	b.waitFor("the customer page", `document.querySelector("h1").textContent.includes("`+c.ID+`")`)
	b.clean("customer")

	// 3-D Secure: the pending payment completes and its status changes.
	b.open(s.url + "/payments/" + pending.ID)
	b.waitFor("the pending payment", `document.getElementById("payment-status").textContent === "pending" && document.body.innerText.includes("¥1,200")`)
	b.do("choosing the outcome", chromedp.SetValue(chromedp.ID("outcome"), "approved"))
	b.clickAndLoad("completing 3-D Secure", `form[action$="/complete"] button`)
	b.waitFor("the payment approved", `document.getElementById("payment-status").textContent === "approved" && document.querySelector(".flash").textContent.includes("is now approved")`)
	b.clean("payment")

	// Resend: the event reaches the receiver again, and its page shows the
	// new attempt.
	var evs wire.EventList
	s.api(alice, http.MethodGet, wire.PathEvents, url.Values{"type": {wire.EventPaymentPending}}, &evs)
	ev := evs.Data[0]
	b.open(s.url + "/events/" + ev.ID)
	b.waitFor("the first delivery listed", `document.querySelectorAll("#live tbody tr td.num").length >= 1`)
	rc.drain()
	b.do("choosing the endpoint", chromedp.SetValue(chromedp.ID("endpoint"), ep.ID))
	b.clickAndLoad("resending", `form[action$="/resend"] button`)
	b.waitFor("the resend's message", `document.querySelector(".flash").textContent.includes("resent")`)
	rc.waitHit(t, ev.ID)
	b.waitFor("the second attempt listed", `document.querySelectorAll("#live tbody tr").length >= 2`)
	b.clean("event")

	// Long values, as real accounts have: a UUID idempotency key (twice,
	// so one is a replay with an error code), a long path, and a payment
	// whose customer was deleted.
	uuidKey := "3f2b9c7e-8d41-4a6b-9e0f-5c1d2a3b4c5d-retry-0001"
	for range 2 {
		_, _ = sandboxtest.Do(http.DefaultClient, s.url, sandboxtest.Request{Method: http.MethodPost, Path: wire.PathPayments, Key: alice,
			Form: url.Values{"amount": {"100"}, "currency": {"USD"}, "source": {"tok_declined"}}, IdempotencyKey: uuidKey})
	}
	_, _ = sandboxtest.Do(http.DefaultClient, s.url, sandboxtest.Request{Method: http.MethodGet, Key: alice,
		Path: "/v1/customers/cus_" + strings.Repeat("x", 60) + "/sources/src_" + strings.Repeat("y", 60)})
	var leaving wire.Customer
	s.api(alice, http.MethodPost, wire.PathCustomers, url.Values{"email": {"leaving@example.com"}, "source": {"tok_visa"}}, &leaving)
	var orphan wire.Payment
	s.api(alice, http.MethodPost, wire.PathPayments, url.Values{"amount": {"250000"}, "currency": {"EUR"}, "customer": {leaving.ID},
		"description": {"A description long enough to need more than one line on a phone, as real ones do"}}, &orphan)
	s.api(alice, http.MethodDelete, "/v1/customers/"+leaving.ID, nil, nil)

	// Readable on a phone and on a wide screen: no page is wider than the
	// window, and no table is wider than its box (on a phone each row is a
	// block of labelled lines; on a wide screen long values wrap).
	for _, width := range []int64{375, 1440} {
		b.do("sizing the window", chromedp.EmulateViewport(width, 900))
		for _, path := range []string{"/customers", "/customers/" + c.ID, "/payments", "/payments/" + pending.ID, "/payments/" + orphan.ID,
			"/events", "/events/" + ev.ID, "/webhooks", "/requests", "/reset"} {
			b.open(s.url + path)
			b.waitFor(path, `document.querySelector("h1") && document.querySelector("nav[aria-label=Main]")`)
			b.clean(path)
			if over := eval[string](b, overflowJS); over != "" {
				t.Errorf("%s at %d pixels: wider than its box: %s", path, width, over)
			}
		}
	}
	b.open(s.url + "/payments/" + orphan.ID)
	b.waitFor("the deleted customer", `document.body.innerText.includes("`+leaving.ID+` deleted")`)
	if eval[bool](b, `!!document.querySelector('a[href="/customers/`+leaving.ID+`"]')`) {
		t.Error("the payment links to its deleted customer")
	}

	// Another account sees none of alice's objects, by any URL.
	m := newTab(t, browser)
	m.signIn(s.url, mallory)
	for _, path := range []string{"/customers/" + c.ID, "/payments/" + pending.ID, "/events/" + ev.ID} {
		m.open(s.url + path)
		m.waitFor(path+" not found", `document.querySelector("h1").textContent === "Not found"`)
	}
	m.open(s.url + "/customers")
	m.waitFor("mallory's customers", `document.querySelector("h1").textContent === "Customers"`)
	if eval[bool](m, `document.body.innerText.includes("alice@example.com")`) {
		t.Error("mallory sees alice's customer")
	}

	// A form on another site that posts to the dashboard is refused.
	evil := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprintf(w, `<!doctype html><form id="f" method="post" action="%s/reset"><input type="hidden" name="confirm" value="yes"></form><script>document.getElementById("f").submit()</script>`, s.url)
	}))
	defer evil.Close()
	u, _ := url.Parse(evil.URL)
	b.open("http://localhost:" + u.Port() + "/")
	b.waitFor("the cross-site POST refused", `location.href.startsWith("`+s.url+`") && document.body.innerText.includes("403 Forbidden")`)
	var still wire.Payment
	s.api(alice, http.MethodGet, "/v1/payments/"+pending.ID, nil, &still) // fails the test if reset went through

	// Signing out ends the session: the pages ask to sign in again.
	b.open(s.url + "/customers")
	b.clickAndLoad("signing out", `form[action="/sign-out"] button`)
	b.waitFor("the sign-in form", `location.pathname === "/" && document.getElementById("key")`)
	b.open(s.url + "/payments")
	b.waitFor("the sign-in form again", `document.getElementById("key") && document.querySelector("h1").textContent === "Sign in"`)
}

// overflowJS names what is wider than its box on the page shown: the page
// itself, or a table (by its caption); "" when everything fits.
const overflowJS = `(() => {
	const over = [];
	if (document.documentElement.scrollWidth > window.innerWidth) over.push("the page (" + document.documentElement.scrollWidth + " px)");
	for (const box of document.querySelectorAll(".table")) {
		if (box.scrollWidth > box.clientWidth + 1) {
			const c = box.querySelector("caption");
			over.push("the table " + JSON.stringify(c ? c.textContent : "") + " (" + box.scrollWidth + " of " + box.clientWidth + " px)");
		}
	}
	return over.join(", ");
})()`

// TestBrowser_Screenshots writes the guide's screenshots, when asked (make
// screenshots sets PAYMENTS_SCREENSHOTS_DIR): the main pages at 1440 and
// 375 pixels wide, PNG, of an account seeded with a little of everything
// and a year of renewals on a test clock.
func TestBrowser_Screenshots(t *testing.T) {
	dir := os.Getenv("PAYMENTS_SCREENSHOTS_DIR")
	if dir == "" {
		t.Skip("writes screenshots only when PAYMENTS_SCREENSHOTS_DIR names a folder (make screenshots)")
	}
	// The times shown start at a fixed moment, so that the pictures do not
	// date; they run at the real pace from there.
	base, started := time.Date(2026, 11, 25, 9, 30, 0, 0, time.UTC), time.Now()
	s := newSite(t, siteOptions{sandbox: sandbox.Options{Clock: clock.Offset(base.Sub(started)), Webhooks: sandbox.WebhookOptions{Attempts: 3, RetryBase: 50 * time.Millisecond, Timeout: 2 * time.Second}}})
	key := sandboxtest.NewKey(t)
	// A receiver that keeps nothing: the year of renewals below sends it
	// hundreds of events.
	ok := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { _, _ = io.Copy(io.Discard, r.Body) }))
	defer ok.Close()
	down := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusServiceUnavailable) }))
	defer down.Close()
	s.api(key, http.MethodPost, wire.PathWebhookEndpoints, url.Values{"url": {ok.URL + "/webhooks"}, "enabled_events[]": {"*"}, "description": {"Order service"}}, nil)
	s.api(key, http.MethodPost, wire.PathWebhookEndpoints, url.Values{"url": {down.URL + "/hooks"}, "enabled_events[]": {wire.EventPaymentApproved, wire.EventPaymentDisputed}}, nil)
	people := []struct{ email, name, tok string }{
		{"ada@example.com", "Ada Lovelace", "tok_visa"},
		{"grace@example.com", "Grace Hopper", "tok_mastercard"},
		{"alan@example.com", "Alan Turing", "tok_amex"},
		{"katherine@example.com", "Katherine Johnson", "tok_visa"},
	}
	var ids []string
	for _, p := range people {
		var c wire.Customer
		s.api(key, http.MethodPost, wire.PathCustomers, url.Values{"email": {p.email}, "name": {p.name}, "source": {p.tok}, "metadata[plan]": {"pro"}}, &c)
		ids = append(ids, c.ID)
	}
	var pay wire.Payment
	for i, p := range []url.Values{
		{"amount": {"1999"}, "currency": {"USD"}, "customer": {ids[0]}, "description": {"Pro plan, November"}},
		{"amount": {"1200"}, "currency": {"JPY"}, "source": {"tok_3ds"}, "description": {"Tea set"}},
		{"amount": {"4550"}, "currency": {"EUR"}, "customer": {ids[1]}, "capture": {"false"}},
		{"amount": {"250000"}, "currency": {"GBP"}, "customer": {ids[2]}, "description": {"Annual licence"}},
		{"amount": {"899"}, "currency": {"BRL"}, "source": {"tok_dispute"}},
	} {
		var got wire.Payment
		s.api(key, http.MethodPost, wire.PathPayments, p, &got)
		if i == 1 {
			pay = got
		}
		if i == 3 {
			s.api(key, http.MethodPost, "/v1/payments/"+got.ID+"/refund", url.Values{"amount": {"50000"}}, nil)
		}
		if i == 4 {
			s.api(key, http.MethodPost, "/_sandbox/payments/"+got.ID+"/dispute", nil, nil)
		}
	}
	// A plan, two customers on it, and one on a test clock whose renewal,
	// a month on, is declined.
	var prod wire.Product
	var plan, seat wire.Price
	s.api(key, http.MethodPost, wire.PathProducts, url.Values{"name": {"Pro"}}, &prod)
	s.api(key, http.MethodPost, wire.PathPrices, url.Values{"product": {prod.ID}, "currency": {"USD"}, "unit_amount": {"1999"},
		"recurring[interval]": {"month"}, "nickname": {"Pro monthly"}}, &plan)
	s.api(key, http.MethodPost, wire.PathPrices, url.Values{"product": {prod.ID}, "currency": {"USD"}, "unit_amount": {"500"},
		"recurring[interval]": {"month"}, "nickname": {"Extra seat"}}, &seat)
	s.api(key, http.MethodPost, wire.PathSubscriptions, url.Values{"customer": {ids[0]}, "items[0][price]": {plan.ID},
		"items[1][price]": {seat.ID}, "items[1][quantity]": {"3"}}, nil)
	s.api(key, http.MethodPost, wire.PathSubscriptions, url.Values{"customer": {ids[3]}, "items[0][price]": {plan.ID}, "trial_period_days": {"14"}}, nil)
	var tc wire.TestClock
	s.api(key, http.MethodPost, wire.PathTestClocks, url.Values{"name": {"March renewals"}, "frozen_time": {"2026-03-01T09:00:00Z"}}, &tc)
	var late wire.Customer
	s.api(key, http.MethodPost, wire.PathCustomers, url.Values{"email": {"mary@example.com"}, "name": {"Mary Jackson"},
		"source": {"tok_declined_later"}, "test_clock": {tc.ID}}, &late)
	var dunning wire.Subscription
	s.api(key, http.MethodPost, wire.PathSubscriptions, url.Values{"customer": {late.ID}, "items[0][price]": {plan.ID}}, &dunning)
	s.api(key, http.MethodPost, wire.PathTestClocks+"/"+tc.ID+"/advance", url.Values{"frozen_time": {"2026-04-01T09:00:00Z"}}, &tc)
	s.api(key, http.MethodGet, wire.PathSubscriptions+"/"+dunning.ID, nil, &dunning)
	// A year of renewals on another clock, for the home page's charts:
	// three customers on the plan, the clock advanced a month at a time
	// to a few days before the sandbox's own time.
	var year wire.TestClock
	yearStart := time.Date(2025, 11, 20, 9, 0, 0, 0, time.UTC)
	s.api(key, http.MethodPost, wire.PathTestClocks, url.Values{"name": {"A year of renewals"}, "frozen_time": {yearStart.Format(time.RFC3339)}}, &year)
	for i, tok := range []string{"tok_visa", "tok_mastercard", "tok_declined_later"} {
		var c wire.Customer
		s.api(key, http.MethodPost, wire.PathCustomers, url.Values{"email": {fmt.Sprintf("team%d@example.com", i+1)}, "source": {tok}, "test_clock": {year.ID}}, &c)
		s.api(key, http.MethodPost, wire.PathSubscriptions, url.Values{"customer": {c.ID}, "items[0][price]": {plan.ID},
			"items[1][price]": {seat.ID}, "items[1][quantity]": {fmt.Sprint(i + 1)}}, nil)
	}
	for m := 1; m <= 12; m++ {
		s.api(key, http.MethodPost, wire.PathTestClocks+"/"+year.ID+"/advance", url.Values{"frozen_time": {yearStart.AddDate(0, m, 0).Format(time.RFC3339)}}, &year)
	}
	// A few requests that fail, for the request log.
	_, _ = sandboxtest.Do(http.DefaultClient, s.url, sandboxtest.Request{Method: http.MethodGet, Path: "/v1/customers/cus_missing", Key: key})
	_, _ = sandboxtest.Do(http.DefaultClient, s.url, sandboxtest.Request{Method: http.MethodPost, Path: wire.PathPayments, Key: key, Form: url.Values{"amount": {"100"}, "currency": {"USD"}, "source": {"tok_declined"}}, IdempotencyKey: "order-1042"})
	_, _ = sandboxtest.Do(http.DefaultClient, s.url, sandboxtest.Request{Method: http.MethodPost, Path: wire.PathPayments, Key: key, Form: url.Values{"amount": {"100"}, "currency": {"USD"}, "source": {"tok_declined"}}, IdempotencyKey: "order-1042"})
	var evs wire.EventList
	s.api(key, http.MethodGet, wire.PathEvents, url.Values{"type": {wire.EventPaymentApproved}}, &evs)
	// Wait for the failing endpoint's retries to finish, so that the
	// pages show them.
	deadline := time.Now().Add(timeout)
	for {
		var dl struct {
			Data []struct {
				NextRetryAt *string `json:"next_retry_at"`
			}
		}
		s.api(key, http.MethodGet, wire.PathSandboxDeliveries, nil, &dl)
		done := 0
		for _, d := range dl.Data {
			if d.NextRetryAt == nil {
				done++
			}
		}
		if len(dl.Data) > 0 && dl.Data[0].NextRetryAt == nil && done >= 12 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("deliveries still retrying after %s", timeout)
		}
		time.Sleep(50 * time.Millisecond)
	}

	b := newTab(t, newBrowser(t))
	b.signIn(s.url, key)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	pages := []struct{ name, path string }{
		{"home", "/?days=366"},
		{"customers", "/customers"},
		{"customer", "/customers/" + ids[0]},
		{"payments", "/payments"},
		{"payment", "/payments/" + pay.ID},
		{"subscriptions", "/subscriptions"},
		{"subscription", "/subscriptions/" + dunning.ID},
		{"invoice", "/invoices/" + dunning.LatestInvoice},
		{"test-clock", "/test-clocks/" + tc.ID},
		{"events", "/events"},
		{"event", "/events/" + evs.Data[0].ID},
		{"webhooks", "/webhooks"},
		{"requests", "/requests"},
	}
	for _, width := range []int64{1440, 375} {
		height := int64(900)
		if width < 600 {
			height = 812
		}
		b.do("sizing the window", chromedp.EmulateViewport(width, height))
		for _, p := range pages {
			b.open(s.url + p.path)
			b.waitFor(p.name, `document.querySelector("h1")`)
			if p.name == "home" {
				b.waitFor("the home page's charts", `document.getElementById("volume-USD") && document.getElementById("renewals")`)
			}
			b.clean(p.name)
			ctx, cancel := context.WithTimeout(b.ctx, timeout)
			shot := chromedp.CaptureScreenshot()
			switch {
			case p.name == "home" && width >= 600:
				shot = chromedp.FullScreenshot(100) // every chart, not the figures alone; 100 is PNG
			case p.name == "home":
				// A phone's screen holds the counts alone: show it the charts.
				b.do("scrolling to the charts", chromedp.Evaluate[chromedp.Void](`document.getElementById("h-volume").scrollIntoView()`))
			}
			png, err := chromedp.Run(ctx, shot)
			cancel()
			if err != nil {
				t.Fatal(err)
			}
			if over := eval[string](b, overflowJS); over != "" {
				t.Errorf("%s at %d pixels: wider than its box: %s", p.name, width, over)
			}
			file := filepath.Join(dir, fmt.Sprintf("dashboard-%s-%d.png", p.name, width))
			if err := os.WriteFile(file, png, 0o644); err != nil {
				t.Fatal(err)
			}
			t.Logf("wrote %s", file)
		}
	}
}
