package dashboard_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/clock"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/sandboxtest"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// clockStart is the frozen time the tests' clocks start at.
const clockStart = "2026-01-15T12:00:00Z"

// onClock puts a customer whose card declines every charge after its
// first on clock k, subscribed monthly to price.
func (s *site) onClock(key, k, price string) *wire.Subscription {
	s.t.Helper()
	var c wire.Customer
	s.api(key, http.MethodPost, wire.PathCustomers, url.Values{"email": {"late@example.com"}, "source": {"tok_declined_later"}, "test_clock": {k}}, &c)
	var sub wire.Subscription
	s.api(key, http.MethodPost, wire.PathSubscriptions, url.Values{"customer": {c.ID}, "items[0][price]": {price}}, &sub)
	return &sub
}

// TestDashboard_TestClocks: the test clocks page creates a clock and
// lists it; a clock's form advances it, running the renewal due on the
// way, and says how far it went; a move backwards, too far or from
// another site is refused; another account sees nothing of it.
func TestDashboard_TestClocks(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 27, 9, 30, 15, 0, time.UTC)
	s := newSite(t, siteOptions{clock: clock.NewFake(now)})
	key := sandboxtest.NewKey(t)
	b := s.browser()
	b.signIn(key)

	pg := b.get("/test-clocks")
	contains(t, "the empty test clocks page", pg, "No test clocks", `value="2026-11-27T09:30:15Z"`, `aria-current="page">Test clocks`)
	pg = b.follow(b.post("/test-clocks", url.Values{"name": {hostile}, "frozen_time": {"tomorrow"}}))
	contains(t, "a clock with a bad time", pg, `class="flash error"`, "frozen_time")
	created := b.post("/test-clocks", url.Values{"name": {hostile}, "frozen_time": {clockStart}})
	where := created.header.Get("Location")
	id := strings.TrimPrefix(where, "/test-clocks/")
	if !strings.HasPrefix(id, wire.TestClockIDPrefix) {
		t.Fatalf("creating a clock redirected to %q", where)
	}
	pg = b.follow(created)
	contains(t, "a new clock's page", pg, "Test clock "+id+" created", `id="clock-status">ready<`, "2026-01-15 12:00:00",
		`action="/test-clocks/`+id+`/advance"`, `value="2026-02-15T12:00:00Z"`, "&lt;img src=x onerror=alert(1)&gt;")
	if strings.Contains(pg.body, "<img") {
		t.Error("the hostile name is rendered as markup")
	}
	contains(t, "the test clocks page", b.get("/test-clocks"), `href="/test-clocks/`+id+`"`, "2026-01-15 12:00:00")

	_, _, monthly := s.catalog(key)
	sub := s.onClock(key, id, monthly.ID)
	if sub.Status != wire.SubscriptionStatusActive || sub.CurrentPeriodStart != clockStart {
		t.Fatalf("subscription on the clock: %s from %s", sub.Status, sub.CurrentPeriodStart)
	}

	for _, h := range [][]string{{"Sec-Fetch-Site", "cross-site"}, {"Origin", "http://evil.example"}} {
		if pg := b.do(http.MethodPost, "/test-clocks/"+id+"/advance", url.Values{"frozen_time": {"2026-02-15T12:00:00Z"}}, h...); pg.status != http.StatusForbidden {
			t.Errorf("POST advance with %v: %d, want 403", h, pg.status)
		}
	}
	var k wire.TestClock
	s.api(key, http.MethodGet, wire.PathTestClocks+"/"+id, nil, &k)
	if k.FrozenTime != clockStart {
		t.Fatalf("a refused advance moved the clock to %s", k.FrozenTime)
	}

	for _, tc := range []struct{ to, want string }{
		{"2026-01-01T00:00:00Z", "only moves forward"},
		{"2026-06-15T12:00:00Z", "periods of the clock"},
		{"", "frozen_time is required"},
	} {
		pg := b.follow(b.post("/test-clocks/"+id+"/advance", url.Values{"frozen_time": {tc.to}}))
		contains(t, "advancing to "+tc.to, pg, `class="flash error"`, tc.want, `id="clock-status">ready<`)
	}
	pg = b.follow(b.post("/test-clocks/"+id+"/advance", url.Values{"frozen_time": {"2026-02-15T12:00:00Z"}}))
	contains(t, "the page after advancing", pg, "Test clock "+id+" advanced 31 days, to 2026-02-15T12:00:00Z; it is ready.",
		"2026-02-15 12:00:00", `value="2026-03-15T12:00:00Z"`)
	var got wire.Subscription
	s.api(key, http.MethodGet, wire.PathSubscriptions+"/"+sub.ID, nil, &got)
	if got.Status != wire.SubscriptionStatusPastDue || got.LatestInvoice == sub.LatestInvoice {
		t.Fatalf("after the advance the subscription is %s with invoice %s", got.Status, got.LatestInvoice)
	}
	contains(t, "the subscription's page after the advance", b.get("/subscriptions/"+sub.ID),
		`id="subscription-status">past due<`, `href="/invoices/`+got.LatestInvoice+`"`)
	contains(t, "the renewal's page", b.get("/invoices/"+got.LatestInvoice), "subscription cycle", `id="invoice-status">open<`, "declined")

	// A clock with no subscription goes to the last second at once: the
	// advance is told in years, and the form never offers a later time.
	far := b.post("/test-clocks", url.Values{"frozen_time": {clockStart}})
	farID := strings.TrimPrefix(far.header.Get("Location"), "/test-clocks/")
	pg = b.follow(b.post("/test-clocks/"+farID+"/advance", url.Values{"frozen_time": {"9999-12-31T23:59:59Z"}}))
	contains(t, "the page after advancing to the last second", pg,
		"advanced 7973 years 11 months 16 days 11 hours 59 minutes 59 seconds, to 9999-12-31T23:59:59Z", `value="9999-12-31T23:59:59Z"`)
	if strings.Contains(pg.body, "2562047 hours") {
		t.Error("the advance is told as a saturated duration")
	}

	m := s.browser()
	m.signIn(sandboxtest.NewKey(t))
	if pg := m.get("/test-clocks/" + id); pg.status != http.StatusNotFound {
		t.Errorf("another account's clock: %d, want 404", pg.status)
	}
	if pg := m.get("/test-clocks"); strings.Contains(pg.body, id) {
		t.Error("another account sees the clock")
	}
}

// TestBrowser_TestClocks drives the test clock forms in Chromium with
// JavaScript off: a clock created and advanced by the forms alone, and
// the pages no wider than the window at 375 and 1440 pixels.
func TestBrowser_TestClocks(t *testing.T) {
	s := newSite(t, siteOptions{})
	key := sandboxtest.NewKey(t)
	_, _, monthly := s.catalog(key)
	b := newTab(t, newBrowser(t))
	b.signIn(s.url, key)
	b.do("turning JavaScript off", scripts(false))
	b.open(s.url + "/test-clocks")
	b.do("filling in the new clock", chromedp.SetValue(chromedp.ID("name"), "March renewals"),
		chromedp.SetValue(chromedp.ID("frozen_time"), clockStart))
	b.clickAndLoad("creating the clock", `form[action="/test-clocks"] button`)
	id := strings.TrimPrefix(eval[string](b, `location.pathname`), "/test-clocks/")
	b.waitFor("the new clock's page", `document.getElementById("clock-status").textContent === "ready" && document.body.innerText.includes("March renewals")`)
	s.onClock(key, id, monthly.ID)
	b.clickAndLoad("advancing a month", `form[action="/test-clocks/`+id+`/advance"] button`)
	b.waitFor("the advanced clock", `document.body.innerText.includes("advanced 31 days, to 2026-02-15T12:00:00Z") && document.getElementById("frozen-time").innerText.includes("2026-02-15 12:00:00")`)
	b.do("turning JavaScript on", scripts(true))

	for _, width := range []int64{375, 1440} {
		b.do("sizing the window", chromedp.EmulateViewport(width, 900))
		for _, path := range []string{"/test-clocks", "/test-clocks/" + id} {
			b.open(s.url + path)
			b.waitFor(path, `document.querySelector("h1") && document.querySelector("nav[aria-label=Main]")`)
			b.clean(path)
			if over := eval[string](b, overflowJS); over != "" {
				t.Errorf("%s at %d pixels: wider than its box: %s", path, width, over)
			}
		}
	}
}

// scripts turns the page's JavaScript on or off, so that a test sees
// what a browser without it gets.
func scripts(on bool) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: !on})
		return err
	})
}

// TestDashboard_TestClockStoppedShort: an advance that stops at the
// account's byte limit says so, where and why, in its flash and on the
// clock's page.
func TestDashboard_TestClockStoppedShort(t *testing.T) {
	t.Parallel()
	s := newSite(t, siteOptions{sandbox: sandbox.Options{Limits: sandbox.Limits{MaxAccountBytes: 1 << 20}}})
	key := sandboxtest.NewKey(t)
	b := s.browser()
	b.signIn(key)
	var k wire.TestClock
	s.api(key, http.MethodPost, wire.PathTestClocks, url.Values{"frozen_time": {clockStart}}, &k)
	_, _, monthly := s.catalog(key)
	var c wire.Customer
	s.api(key, http.MethodPost, wire.PathCustomers, url.Values{"source": {"tok_visa"}, "test_clock": {k.ID}}, &c)
	// Products of large metadata, then subscriptions until the account
	// is full; deleting the products leaves room for a few renewals only.
	var fillers []string
	for range 8 {
		meta := url.Values{"name": {"filler"}}
		for j := range 40 {
			meta.Set(fmt.Sprintf("metadata[k%d]", j), strings.Repeat("x", 500))
		}
		var p wire.Product
		s.api(key, http.MethodPost, wire.PathProducts, meta, &p)
		fillers = append(fillers, p.ID)
	}
	for i := 0; ; i++ {
		resp, err := sandboxtest.Do(http.DefaultClient, s.url, sandboxtest.Request{Method: http.MethodPost, Path: wire.PathSubscriptions, Key: key,
			Form: url.Values{"customer": {c.ID}, "items[0][price]": {monthly.ID}}})
		if err != nil {
			t.Fatal(err)
		}
		if resp.Status == http.StatusForbidden {
			break
		}
		if resp.Status != http.StatusOK || i > 10000 {
			t.Fatalf("subscription %d: %d %s", i, resp.Status, resp.Body)
		}
	}
	for _, id := range fillers {
		s.api(key, http.MethodDelete, wire.PathProducts+"/"+id, nil, nil)
	}
	pg := b.follow(b.post("/test-clocks/"+k.ID+"/advance", url.Values{"frozen_time": {"2026-02-15T12:00:00Z"}}))
	contains(t, "the page after an advance stopped short", pg, "stopped short of 2026-02-15T12:00:00Z", "-max-account-bytes",
		`id="clock-stopped"`, wire.ErrorCodeAccountLimitExceeded)
}
