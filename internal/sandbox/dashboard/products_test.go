package dashboard_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/sandboxtest"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// catalog makes two products through the API: gold, active, with a
// monthly, a quarterly and an archived one-time price, and an archived
// product named hostile without prices.
func (s *site) catalog(key string) (gold, old *wire.Product, monthly *wire.Price) {
	s.t.Helper()
	gold, old, monthly = &wire.Product{}, &wire.Product{}, &wire.Price{}
	s.api(key, http.MethodPost, wire.PathProducts, url.Values{"name": {"Gold plan"}, "description": {"All features"}}, gold)
	s.api(key, http.MethodPost, wire.PathPrices, url.Values{"product": {gold.ID}, "currency": {"USD"}, "unit_amount": {"1500"},
		"recurring[interval]": {"month"}, "nickname": {"Monthly"}, "lookup_key": {"gold_monthly"}}, monthly)
	s.api(key, http.MethodPost, wire.PathPrices, url.Values{"product": {gold.ID}, "currency": {"EUR"}, "unit_amount": {"4000"},
		"recurring[interval]": {"month"}, "recurring[interval_count]": {"3"}}, nil)
	var setup wire.Price
	s.api(key, http.MethodPost, wire.PathPrices, url.Values{"product": {gold.ID}, "currency": {"JPY"}, "unit_amount": {"1200"}}, &setup)
	s.api(key, http.MethodPost, wire.PathPrices+"/"+setup.ID, url.Values{"active": {"false"}}, nil)
	s.api(key, http.MethodPost, wire.PathProducts, url.Values{"name": {hostile}, "active": {"false"}}, old)
	return gold, old, monthly
}

// TestDashboard_Products: the products page lists each product with its
// prices, filters by active, shows hostile names as text and shows
// nothing of another account's catalog.
func TestDashboard_Products(t *testing.T) {
	t.Parallel()
	s := newSite(t, siteOptions{})
	key := sandboxtest.NewKey(t)
	gold, old, monthly := s.catalog(key)
	b := s.browser()
	b.signIn(key)

	pg := b.get("/products")
	if pg.status != http.StatusOK {
		t.Fatalf("GET /products: %d %s", pg.status, pg.body)
	}
	for _, want := range []string{
		gold.ID, "Gold plan", "All features", monthly.ID, "$15.00", "every month", "Monthly", "gold_monthly",
		"€40.00", "every 3 months", "¥1,200", "once", "inactive", old.ID, "archived",
		"&lt;img src=x onerror=alert(1)&gt;", `aria-current="page">Products`,
	} {
		if !strings.Contains(pg.body, want) {
			t.Errorf("the products page lacks %q", want)
		}
	}
	if strings.Contains(pg.body, "<img") {
		t.Error("the hostile name is rendered as markup")
	}
	for _, tc := range []struct {
		query      string
		has, hasnt string
	}{
		{"active=true", gold.ID, old.ID},
		{"active=false", old.ID, gold.ID},
	} {
		pg := b.get("/products?" + tc.query)
		if !strings.Contains(pg.body, tc.has) || strings.Contains(pg.body, tc.hasnt) {
			t.Errorf("/products?%s: want %s and not %s", tc.query, tc.has, tc.hasnt)
		}
	}
	if pg := b.get("/products?active=maybe"); pg.status != http.StatusBadRequest || !strings.Contains(pg.body, "true or false") {
		t.Errorf("/products?active=maybe: %d, want 400 with the API's message", pg.status)
	}

	m := s.browser()
	m.signIn(sandboxtest.NewKey(t))
	if pg := m.get("/products"); strings.Contains(pg.body, gold.ID) || !strings.Contains(pg.body, "No products") {
		t.Error("another account sees the catalog")
	}
}

// TestBrowser_Products drives the products page in Chromium: the catalog
// listed with its prices, a price made through the API appearing without
// a reload, usable and no wider than the window at 375 and 1440 pixels.
func TestBrowser_Products(t *testing.T) {
	s := newSite(t, siteOptions{})
	key := sandboxtest.NewKey(t)
	gold, old, monthly := s.catalog(key)
	b := newTab(t, newBrowser(t))
	b.signIn(s.url, key)
	b.clickAndLoad("opening the products page", `nav[aria-label=Main] a[href="/products"]`)
	b.waitFor("the catalog listed", `document.querySelector("h1").textContent === "Products" && document.getElementById("`+monthly.ID+`") !== null && document.getElementById("`+old.ID+`") !== null && document.body.innerText.includes("$15.00 every month")`)
	b.clean("products")

	b.do("marking the page", chromedp.Evaluate[chromedp.Void](`window.__sameDocument = true`))
	var yearly wire.Price
	s.api(key, http.MethodPost, wire.PathPrices, url.Values{"product": {gold.ID}, "currency": {"GBP"}, "unit_amount": {"9900"}, "recurring[interval]": {"year"}}, &yearly)
	b.waitFor("the new price appearing", `document.getElementById("`+yearly.ID+`") !== null && document.body.innerText.includes("£99.00 every year")`)
	if !eval[bool](b, `window.__sameDocument === true`) {
		t.Error("the page was reloaded to show the new price")
	}

	b.do("filtering archived products", chromedp.SetValue(chromedp.ID("active"), "false"))
	b.clickAndLoad("filtering", `form.filter button[type="submit"]`)
	b.waitFor("only the archived product", `location.search === "?active=false" && document.getElementById("`+old.ID+`") !== null && document.getElementById("`+gold.ID+`") === null`)
	b.clean("archived products")

	// A lookup key as long as the API takes, in one unbroken word, must
	// wrap rather than widen the table.
	s.api(key, http.MethodPost, wire.PathPrices, url.Values{"product": {gold.ID}, "currency": {"EUR"}, "unit_amount": {"100000"},
		"lookup_key": {strings.Repeat("k", wire.LookupKeyMaxLength)}, "nickname": {strings.Repeat("Enterprise ", 20)}}, nil)
	for _, width := range []int64{375, 1440} {
		b.do("sizing the window", chromedp.EmulateViewport(width, 900))
		b.open(s.url + "/products")
		b.waitFor("the products page", `document.getElementById("`+gold.ID+`") !== null`)
		b.clean("products")
		if over := eval[string](b, overflowJS); over != "" {
			t.Errorf("/products at %d pixels: wider than its box: %s", width, over)
		}
	}
}
