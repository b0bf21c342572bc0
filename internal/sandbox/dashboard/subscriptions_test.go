package dashboard_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/sandboxtest"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// billing is what billing seeds: a paid monthly subscription of two items,
// one in trial, one incomplete (its first charge declined, its invoice
// open) and one canceled.
type billing struct {
	paid, trial, incomplete, canceled *wire.Subscription
	monthly, addon                    *wire.Price
	open                              *wire.Invoice
}

// billing makes the subscriptions of billing through the API.
func (s *site) billing(key string) billing {
	s.t.Helper()
	var b billing
	gold, _, monthly := s.catalog(key)
	b.monthly, b.addon = monthly, &wire.Price{}
	s.api(key, http.MethodPost, wire.PathPrices, url.Values{"product": {gold.ID}, "currency": {"USD"}, "unit_amount": {"250"},
		"recurring[interval]": {"month"}, "nickname": {"Extra seat"}}, b.addon)
	var good, later wire.Customer
	s.api(key, http.MethodPost, wire.PathCustomers, url.Values{"email": {"ada@example.com"}, "source": {"tok_visa"}}, &good)
	s.api(key, http.MethodPost, wire.PathCustomers, url.Values{"email": {"grace@example.com"}, "source": {"tok_declined_later"}}, &later)
	sub := func(form url.Values) *wire.Subscription {
		var out wire.Subscription
		s.api(key, http.MethodPost, wire.PathSubscriptions, form, &out)
		return &out
	}
	b.paid = sub(url.Values{"customer": {good.ID}, "items[0][price]": {monthly.ID}, "items[0][quantity]": {"2"},
		"items[1][price]": {b.addon.ID}, "metadata[team]": {"north"}})
	b.trial = sub(url.Values{"customer": {good.ID}, "items[0][price]": {b.addon.ID}, "trial_period_days": {"14"}})
	sub(url.Values{"customer": {later.ID}, "items[0][price]": {monthly.ID}})
	b.incomplete = sub(url.Values{"customer": {later.ID}, "items[0][price]": {b.addon.ID}})
	b.canceled = sub(url.Values{"customer": {good.ID}, "items[0][price]": {monthly.ID}})
	s.api(key, http.MethodDelete, wire.PathSubscriptions+"/"+b.canceled.ID, nil, b.canceled)
	b.open = &wire.Invoice{}
	s.api(key, http.MethodGet, wire.PathInvoices+"/"+b.incomplete.LatestInvoice, nil, b.open)
	if b.paid.Status != wire.SubscriptionStatusActive || b.trial.Status != wire.SubscriptionStatusTrialing ||
		b.incomplete.Status != wire.SubscriptionStatusIncomplete || b.open.Status != wire.InvoiceStatusOpen {
		s.t.Fatalf("seeded %s, %s, %s and an invoice %s", b.paid.Status, b.trial.Status, b.incomplete.Status, b.open.Status)
	}
	return b
}

func contains(t *testing.T, what string, pg answer, wants ...string) {
	t.Helper()
	for _, want := range wants {
		if !strings.Contains(pg.body, want) {
			t.Errorf("%s lacks %q", what, want)
		}
	}
}

// TestDashboard_Subscriptions: the subscriptions page lists and filters
// them as the API does, and a subscription's page shows its period, items
// and invoices; another account sees none of them.
func TestDashboard_Subscriptions(t *testing.T) {
	t.Parallel()
	s := newSite(t, siteOptions{})
	key := sandboxtest.NewKey(t)
	bl := s.billing(key)
	b := s.browser()
	b.signIn(key)

	pg := b.get("/subscriptions")
	if pg.status != http.StatusOK {
		t.Fatalf("GET /subscriptions: %d %s", pg.status, pg.body)
	}
	contains(t, "the subscriptions page", pg, bl.paid.ID, bl.trial.ID, bl.incomplete.ID, "2 × $15.00 (Monthly)", "1 × $2.50 (Extra seat)",
		"$32.50 every month", `<span class="badge ok">active</span>`, `<span class="badge wait">trialing</span>`,
		`<span class="badge wait">incomplete</span>`, `href="/customers/`+bl.paid.Customer+`"`, `aria-current="page">Subscriptions`)
	if strings.Contains(pg.body, bl.canceled.ID) {
		t.Error("the default list shows a canceled subscription")
	}
	for _, tc := range []struct {
		query      string
		has, hasnt []string
	}{
		{"status=all", []string{bl.canceled.ID, bl.paid.ID}, nil},
		{"status=canceled", []string{bl.canceled.ID}, []string{bl.paid.ID}},
		{"status=trialing", []string{bl.trial.ID}, []string{bl.paid.ID, bl.incomplete.ID}},
		{"customer=" + bl.incomplete.Customer, []string{bl.incomplete.ID}, []string{bl.paid.ID}},
	} {
		pg := b.get("/subscriptions?" + tc.query)
		for _, id := range tc.has {
			if !strings.Contains(pg.body, id) {
				t.Errorf("/subscriptions?%s lacks %s", tc.query, id)
			}
		}
		for _, id := range tc.hasnt {
			if strings.Contains(pg.body, id) {
				t.Errorf("/subscriptions?%s shows %s", tc.query, id)
			}
		}
	}
	if pg := b.get("/subscriptions?status=sleeping"); pg.status != http.StatusBadRequest || !strings.Contains(pg.body, "is not a subscription status") {
		t.Errorf("/subscriptions?status=sleeping: %d, want 400 with the API's message", pg.status)
	}

	pg = b.get("/subscriptions/" + bl.paid.ID)
	contains(t, "a subscription's page", pg, bl.paid.Items.Data[0].ID, bl.paid.Items.Data[1].ID, bl.monthly.ID, "$30.00", "$32.50 every month",
		" days)", "renews", "team", "north", `href="/invoices/`+bl.paid.LatestInvoice+`"`, `id="subscription-status">active<`)
	pg = b.get("/subscriptions/" + bl.trial.ID)
	contains(t, "a trial's page", pg, "(14 days)", "trialing")
	pg = b.get("/subscriptions/" + bl.canceled.ID)
	contains(t, "a canceled subscription's page", pg, `id="subscription-status">canceled<`)
	if strings.Contains(pg.body, "Canceled</dt><dd>—") {
		t.Error("a canceled subscription's page does not say when")
	}
	ended := `id="subscription-at-period-end">nothing: it has ended<`
	contains(t, "a canceled subscription's page", pg, ended)
	pg = b.get("/subscriptions/" + bl.incomplete.ID)
	contains(t, "an incomplete subscription's page", pg, `id="subscription-at-period-end">nothing: it expires unless its first invoice is paid<`)

	// A subscription canceled because its customer was deleted has ended
	// too, though cancel_at_period_end was never set.
	var gone wire.Customer
	s.api(key, http.MethodPost, wire.PathCustomers, url.Values{"source": {"tok_visa"}}, &gone)
	var orphan wire.Subscription
	s.api(key, http.MethodPost, wire.PathSubscriptions, url.Values{"customer": {gone.ID}, "items[0][price]": {bl.monthly.ID}}, &orphan)
	pg = b.get("/subscriptions/" + orphan.ID)
	contains(t, "a live subscription's page", pg, `id="subscription-at-period-end">renews<`)
	s.api(key, http.MethodDelete, wire.PathCustomers+"/"+gone.ID, nil, nil)
	pg = b.get("/subscriptions/" + orphan.ID)
	contains(t, "the page of a subscription whose customer was deleted", pg, `id="subscription-status">canceled<`, ended)
	if strings.Contains(pg.body, "renews") {
		t.Error("the page of a subscription whose customer was deleted says it renews")
	}

	m := s.browser()
	m.signIn(sandboxtest.NewKey(t))
	if pg := m.get("/subscriptions/" + bl.paid.ID); pg.status != http.StatusNotFound {
		t.Errorf("another account's subscription: %d, want 404", pg.status)
	}
	if pg := m.get("/subscriptions"); strings.Contains(pg.body, bl.paid.ID) || !strings.Contains(pg.body, "No subscriptions") {
		t.Error("another account sees the subscriptions")
	}
}

// TestDashboard_Invoices: the invoices page lists and filters them, an
// invoice's page shows its lines and every attempt's payment, and its
// forms pay or void an open invoice, same-origin only.
func TestDashboard_Invoices(t *testing.T) {
	t.Parallel()
	s := newSite(t, siteOptions{})
	key := sandboxtest.NewKey(t)
	bl := s.billing(key)
	b := s.browser()
	b.signIn(key)

	pg := b.get("/invoices")
	contains(t, "the invoices page", pg, bl.open.ID, bl.paid.LatestInvoice, `<span class="badge wait">open</span>`,
		`<span class="badge ok">paid</span>`, "$32.50", `aria-current="page">Invoices`)
	pg = b.get("/invoices?status=open")
	if !strings.Contains(pg.body, bl.open.ID) || strings.Contains(pg.body, bl.paid.LatestInvoice) {
		t.Error("/invoices?status=open does not keep only the open invoice")
	}
	pg = b.get("/invoices?subscription=" + bl.paid.ID)
	if !strings.Contains(pg.body, bl.paid.LatestInvoice) || strings.Contains(pg.body, bl.open.ID) {
		t.Error("/invoices?subscription= does not keep only the subscription's invoices")
	}
	// The home page's renewals link to the invoices of a span of days;
	// the form keeps the span, and "Any time" keeps the other filters.
	today := time.Now().UTC().Truncate(24 * time.Hour)
	days := func(from, until time.Time) string {
		return url.Values{wire.ParamStatus: {wire.InvoiceStatusOpen},
			wire.ParamCreatedGTE: {from.Format(time.RFC3339)}, wire.ParamCreatedLT: {until.Format(time.RFC3339)}}.Encode()
	}
	yesterday := today.AddDate(0, 0, -1) // a day either side: the test may run across midnight
	pg = b.get("/invoices?" + days(yesterday, today.AddDate(0, 0, 2)))
	contains(t, "the open invoices of these days", pg, bl.open.ID, `<input type="hidden" name="created[gte]" value="`+yesterday.Format(time.RFC3339)+`">`,
		`<a href="/invoices?status=open">Any time</a>`)
	if pg := b.get("/invoices?" + days(today.AddDate(0, 0, 2), today.AddDate(0, 0, 3))); strings.Contains(pg.body, bl.open.ID) || !strings.Contains(pg.body, "No invoices.") {
		t.Errorf("the invoices of the day after tomorrow: %s", pg.body)
	}

	pg = b.get("/invoices/" + bl.paid.LatestInvoice)
	contains(t, "a paid invoice's page", pg, bl.paid.Items.Data[1].ID, bl.addon.ID, "$30.00", "$2.50", "subscription create",
		`id="invoice-status">paid<`, "none scheduled")
	if strings.Contains(pg.body, "Pay now") {
		t.Error("a paid invoice offers to pay it")
	}

	for _, h := range [][]string{{"Sec-Fetch-Site", "cross-site"}, {"Origin", "http://evil.example"}} {
		for _, action := range []string{"/pay", "/void"} {
			if pg := b.do(http.MethodPost, "/invoices/"+bl.open.ID+action, url.Values{}, h...); pg.status != http.StatusForbidden {
				t.Errorf("POST %s with %v: %d, want 403", action, h, pg.status)
			}
		}
	}
	pg = b.get("/invoices/" + bl.open.ID)
	contains(t, "an open invoice's page", pg, `action="/invoices/`+bl.open.ID+`/pay"`, `action="/invoices/`+bl.open.ID+`/void"`, bl.open.Payment, "declined")
	pg = b.follow(b.post("/invoices/"+bl.open.ID+"/pay", nil))
	contains(t, "the page after Pay now", pg, "Attempt 2 made and declined", `id="invoice-status">open<`)
	var after wire.Invoice
	s.api(key, http.MethodGet, wire.PathInvoices+"/"+bl.open.ID, nil, &after)
	if after.AttemptCount != 2 || after.Payment == bl.open.Payment {
		t.Fatalf("after Pay now: %+v", after)
	}
	contains(t, "the attempts", pg, bl.open.Payment, after.Payment)
	if strings.Index(pg.body, bl.open.Payment) > strings.Index(pg.body, after.Payment) {
		t.Error("the attempts are not oldest first")
	}
	pg = b.follow(b.post("/invoices/"+bl.open.ID+"/void", nil))
	contains(t, "the page after Void", pg, "is void", `id="invoice-status">void<`)
	pg = b.follow(b.post("/invoices/"+bl.open.ID+"/void", nil))
	if !strings.Contains(pg.body, `class="flash error"`) {
		t.Errorf("voiding a void invoice: %s", pg.body)
	}

	m := s.browser()
	m.signIn(sandboxtest.NewKey(t))
	if pg := m.get("/invoices/" + bl.open.ID); pg.status != http.StatusNotFound {
		t.Errorf("another account's invoice: %d, want 404", pg.status)
	}
	if pg := m.follow(m.post("/invoices/"+bl.paid.LatestInvoice+"/void", nil)); !strings.Contains(pg.body, `class="flash error"`) {
		t.Error("another account voided an invoice")
	}
}

// TestBrowser_Subscriptions drives the subscription and invoice pages in
// Chromium: a subscription made through the API appearing without a
// reload, the way from a subscription to its invoice and its attempts, the
// Pay now form, and every page no wider than the window at 375 and 1440
// pixels.
func TestBrowser_Subscriptions(t *testing.T) {
	s := newSite(t, siteOptions{})
	key := sandboxtest.NewKey(t)
	bl := s.billing(key)
	b := newTab(t, newBrowser(t))
	b.signIn(s.url, key)
	b.clickAndLoad("opening the subscriptions page", `nav[aria-label=Main] a[href="/subscriptions"]`)
	b.waitFor("the subscriptions listed", `document.querySelector("h1").textContent === "Subscriptions" && document.getElementById("`+bl.paid.ID+`") !== null`)
	b.clean("subscriptions")

	b.do("marking the page", chromedp.Evaluate[chromedp.Void](`window.__sameDocument = true`))
	var more wire.Subscription
	s.api(key, http.MethodPost, wire.PathSubscriptions, url.Values{"customer": {bl.paid.Customer}, "items[0][price]": {bl.addon.ID}, "items[0][quantity]": {"7"}}, &more)
	b.waitFor("the new subscription appearing", `document.getElementById("`+more.ID+`") !== null && document.body.innerText.includes("$17.50")`)
	if !eval[bool](b, `window.__sameDocument === true`) {
		t.Error("the page was reloaded to show the new subscription")
	}

	b.clickAndLoad("opening a subscription", `a[href="/subscriptions/`+bl.incomplete.ID+`"]`)
	b.waitFor("the subscription's page", `document.getElementById("subscription-status").textContent === "incomplete"`)
	b.clean("a subscription")
	b.clickAndLoad("opening its invoice", `main dl a[href="/invoices/`+bl.open.ID+`"]`)
	b.waitFor("the invoice's attempts", `document.getElementById("invoice-status").textContent === "open" && document.body.innerText.includes("`+bl.open.Payment+`")`)
	b.clean("an invoice")
	b.clickAndLoad("paying it now", `form[action="/invoices/`+bl.open.ID+`/pay"] button`)
	b.waitFor("the second attempt", `document.body.innerText.includes("Attempt 2 made") && document.querySelectorAll("#live-history a[href^='/payments/pay_']").length >= 4`)

	for _, width := range []int64{375, 1440} {
		b.do("sizing the window", chromedp.EmulateViewport(width, 900))
		for _, path := range []string{"/subscriptions", "/subscriptions?status=all", "/subscriptions/" + bl.paid.ID, "/subscriptions/" + bl.trial.ID,
			"/invoices", "/invoices/" + bl.open.ID, "/invoices/" + bl.paid.LatestInvoice} {
			b.open(s.url + path)
			b.waitFor(path, `document.querySelector("h1") && document.querySelector("nav[aria-label=Main]")`)
			b.clean(path)
			if over := eval[string](b, overflowJS); over != "" {
				t.Errorf("%s at %d pixels: wider than its box: %s", path, width, over)
			}
		}
	}
}

// TestDashboard_UncollectibleInvoice: an invoice whose retries ran out can
// still be paid from its page, not voided.
func TestDashboard_UncollectibleInvoice(t *testing.T) {
	t.Parallel()
	s := newSite(t, siteOptions{})
	key := sandboxtest.NewKey(t)
	_, _, monthly := s.catalog(key)
	var k wire.TestClock
	s.api(key, http.MethodPost, wire.PathTestClocks, url.Values{"frozen_time": {"2026-01-01T00:00:00Z"}}, &k)
	var cu wire.Customer
	s.api(key, http.MethodPost, wire.PathCustomers, url.Values{"source": {"tok_declined_later"}, "test_clock": {k.ID}}, &cu)
	var sub wire.Subscription
	s.api(key, http.MethodPost, wire.PathSubscriptions, url.Values{"customer": {cu.ID}, "items[0][price]": {monthly.ID}}, &sub)
	s.api(key, http.MethodPost, wire.PathTestClocks+"/"+k.ID+"/advance", url.Values{"frozen_time": {"2026-02-20T00:00:00Z"}}, nil)
	s.api(key, http.MethodGet, wire.PathSubscriptions+"/"+sub.ID, nil, &sub)
	b := s.browser()
	b.signIn(key)
	pg := b.get("/invoices/" + sub.LatestInvoice)
	contains(t, "an uncollectible invoice's page", pg, `id="invoice-status">uncollectible<`, `action="/invoices/`+sub.LatestInvoice+`/pay"`)
	if strings.Contains(pg.body, `/void"`) {
		t.Error("an uncollectible invoice's page offers to void it")
	}
}
