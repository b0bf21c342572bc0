package dashboard_test

import (
	"encoding/json"
	"fmt"
	"html"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/clock"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/dashboard"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/sandboxtest"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// The home page against the real sandbox and its GET /_sandbox/summary.
// home_test.go draws it from summaries built by hand.

// seedHome makes a little of everything the home page counts, with
// hostile names: customers and cards, payments approved, declined,
// refunded and disputed in two currencies, a subscription and a webhook
// endpoint.
func (s *site) seedHome(key string) {
	s.t.Helper()
	var c wire.Customer
	s.api(key, http.MethodPost, wire.PathCustomers, url.Values{"email": {"ada@example.com"}, "name": {hostile}, "source": {"tok_visa"}}, &c)
	s.api(key, http.MethodPost, wire.PathPayments, url.Values{"amount": {"1999"}, "currency": {"USD"}, "customer": {c.ID}, "description": {hostile}}, nil)
	s.api(key, http.MethodPost, wire.PathPayments, url.Values{"amount": {"1200"}, "currency": {"JPY"}, "source": {"tok_visa"}}, nil)
	// A declined payment is answered 402, and kept.
	declined, err := sandboxtest.Do(http.DefaultClient, s.url, sandboxtest.Request{Method: http.MethodPost, Path: wire.PathPayments, Key: key,
		Form: url.Values{"amount": {"500"}, "currency": {"USD"}, "source": {"tok_declined"}}})
	if err != nil || declined.Status != http.StatusPaymentRequired {
		s.t.Fatalf("a declined payment: %v %+v", err, declined)
	}
	var refunded, disputed wire.Payment
	s.api(key, http.MethodPost, wire.PathPayments, url.Values{"amount": {"3000"}, "currency": {"USD"}, "source": {"tok_visa"}}, &refunded)
	s.api(key, http.MethodPost, wire.PathPayments+"/"+refunded.ID+"/refund", nil, nil)
	s.api(key, http.MethodPost, wire.PathPayments, url.Values{"amount": {"899"}, "currency": {"USD"}, "source": {"tok_visa"}}, &disputed)
	s.api(key, http.MethodPost, "/_sandbox/payments/"+disputed.ID+"/dispute", nil, nil)
	var prod wire.Product
	var price wire.Price
	s.api(key, http.MethodPost, wire.PathProducts, url.Values{"name": {hostile}}, &prod)
	s.api(key, http.MethodPost, wire.PathPrices, url.Values{"product": {prod.ID}, "currency": {"USD"}, "unit_amount": {"1999"},
		"recurring[interval]": {"month"}, "nickname": {hostile}}, &price)
	s.api(key, http.MethodPost, wire.PathSubscriptions, url.Values{"customer": {c.ID}, "items[0][price]": {price.ID}}, nil)
	s.api(key, http.MethodPost, wire.PathWebhookEndpoints, url.Values{"url": {"http://127.0.0.1:1/hooks"}, "enabled_events[]": {"*"}}, nil)
}

// TestDashboard_Home: the home page counts what the account holds, draws
// its charts, and every link on it opens a list, filtered as it says.
func TestDashboard_Home(t *testing.T) {
	t.Parallel()
	s := newSite(t, siteOptions{})
	key := sandboxtest.NewKey(t)
	s.seedHome(key)
	b := s.browser()
	b.signIn(key)
	pg := b.get("/")
	if pg.status != http.StatusOK {
		t.Fatalf("GET /: %d %s", pg.status, pg.body)
	}
	contains(t, "the home page", pg, `<a href="/" aria-current="page">Home</a>`, `id="n-customers">1</span> customer<`,
		`id="n-cards">1</span> card<`, `id="n-endpoints">1</span> webhook endpoint<`,
		`<span class="badge bad">declined</span> 1</a>`, `<span class="badge bad">disputed</span> 1</a>`,
		`<span class="badge ok">active</span> 1</a>`, `id="volume-USD-cap"`, `id="volume-JPY-cap"`, `id="mrr-USD-cap"`,
		`Monthly recurring revenue</a>: $0.00 before`, `$19.99 on`, `<svg class="plot" viewBox="0 0 640 240" role="img"`)
	if strings.Contains(pg.body, hostile) {
		t.Error("a hostile name is written as markup")
	}
	// Every link of the page's own part opens a page; a status link's
	// list has that status chosen.
	main := pg.body[strings.Index(pg.body, `<main id="main">`):]
	seen := map[string]bool{}
	for _, m := range regexp.MustCompile(`href="([^"]+)"`).FindAllStringSubmatch(main, -1) {
		link := html.UnescapeString(m[1])
		if seen[link] {
			continue
		}
		seen[link] = true
		got := b.get(link)
		if got.status != http.StatusOK {
			t.Errorf("the link %s: %d", link, got.status)
			continue
		}
		u, _ := url.Parse(link)
		if st := u.Query().Get(wire.ParamStatus); st != "" && !strings.Contains(got.body, `<option value="`+st+`" selected>`) {
			t.Errorf("the link %s: the list is not filtered by %s", link, st)
		}
		if u.Query().Get(wire.ParamCreatedGTE) != "" && !strings.Contains(got.body, `name="created[gte]"`) {
			t.Errorf("the link %s: the list is not filtered by day", link)
		}
	}
	if len(seen) < 15 {
		t.Errorf("%d links on the home page, want at least 15: %v", len(seen), seen)
	}
	if pg := b.get("/?days=0"); pg.status != http.StatusBadRequest || !strings.Contains(pg.body, wire.ParamSummaryDays) {
		t.Errorf("GET /?days=0: %d, want the API's 400 naming %s", pg.status, wire.ParamSummaryDays)
	}
}

// yearOfRenewals puts two customers on a test clock, one whose card
// declines after its first charge, and advances the clock a year, a month
// at a time. The sandbox's own clock stands at the test clock's start,
// so the account's latest time is the clock's.
func (s *site) yearOfRenewals(key string) {
	s.t.Helper()
	var prod wire.Product
	var price wire.Price
	s.api(key, http.MethodPost, wire.PathProducts, url.Values{"name": {"Pro"}}, &prod)
	s.api(key, http.MethodPost, wire.PathPrices, url.Values{"product": {prod.ID}, "currency": {"EUR"}, "unit_amount": {"1500"},
		"recurring[interval]": {"month"}}, &price)
	var tc wire.TestClock
	s.api(key, http.MethodPost, wire.PathTestClocks, url.Values{"name": {hostile}, "frozen_time": {clockStart}}, &tc)
	var good wire.Customer
	s.api(key, http.MethodPost, wire.PathCustomers, url.Values{"email": {"good@example.com"}, "source": {"tok_visa"}, "test_clock": {tc.ID}}, &good)
	s.api(key, http.MethodPost, wire.PathSubscriptions, url.Values{"customer": {good.ID}, "items[0][price]": {price.ID}}, nil)
	s.onClock(key, tc.ID, price.ID)
	start, _ := time.Parse(time.RFC3339, clockStart)
	for m := 1; m <= 12; m++ {
		s.api(key, http.MethodPost, wire.PathTestClocks+"/"+tc.ID+"/advance", url.Values{"frozen_time": {start.AddDate(0, m, 0).Format(time.RFC3339)}}, &tc)
		if tc.Status != wire.TestClockStatusReady {
			s.t.Fatalf("the clock is %s after its advance", tc.Status)
		}
	}
}

// TestBrowser_Home: the home page in Chromium, at a phone's width and a
// wide screen's: an empty account's page says so and draws no chart; a
// year of renewals on a test clock is drawn by month, on the clock's time;
// hostile names stay text; the figures change as the account does,
// without a reload.
func TestBrowser_Home(t *testing.T) {
	start, _ := time.Parse(time.RFC3339, clockStart)
	s := newSite(t, siteOptions{sandbox: sandbox.Options{Clock: clock.NewFake(start)}})
	empty, busy := sandboxtest.NewKey(t), sandboxtest.NewKey(t)
	s.seedHome(busy)
	s.yearOfRenewals(busy)

	browser := newBrowser(t)
	e := newTab(t, browser)
	e.signIn(s.url, empty)
	b := newTab(t, browser)
	b.signIn(s.url, busy)
	for _, width := range []int64{375, 1440} {
		e.do("sizing the window", chromedp.EmulateViewport(width, 900))
		e.open(s.url + "/")
		e.waitFor("the empty account's home page", `document.querySelector("h1").textContent === "Home" && document.getElementById("n-customers")`)
		e.clean("the empty home page")
		if !eval[bool](e, `document.body.innerText.includes("Nothing here yet") && document.querySelectorAll("svg.plot").length === 0`) {
			t.Errorf("at %d pixels: the empty account's page is not the empty state", width)
		}

		b.do("sizing the window", chromedp.EmulateViewport(width, 900))
		b.open(s.url + "/?days=366")
		b.waitFor("the busy account's home page", `document.querySelector("h1").textContent === "Home" && document.getElementById("renewals")`)
		b.clean("the home page")
		if over := eval[string](b, overflowJS); over != "" {
			t.Errorf("the home page at %d pixels: wider than its box: %s", width, over)
		}
		for what, js := range map[string]string{
			"a chart drawn, with its title and description": `(() => { const c = document.querySelector("#volume-USD svg.plot");
				return c && c.getBoundingClientRect().width > 250 && c.getBoundingClientRect().height > 90 && c.getAttribute("role") === "img" &&
					document.getElementById(c.getAttribute("aria-labelledby").split(" ")[1]).textContent.includes("Approved") })()`,
			"the figures as tables":       `document.querySelectorAll("figure.chart details table thead th").length >= 10`,
			"renewals by month":           `document.querySelector("#renewals figcaption").textContent === "Renewals by month" && document.querySelectorAll("#renewals rect.bar").length >= 12`,
			"twelve renewals paid":        `document.querySelector("#renewals .legend").textContent.includes("Paid: 12 renewals")`,
			"the clock's time said":       `document.getElementById("home-time").textContent.includes("2027-01-15") && document.getElementById("home-time").textContent.includes("1 test clock")`,
			"the hostile names as text":   `!document.querySelector("main img") && !document.body.innerHTML.includes("<img src=x")`,
			"every chart reached by keys": `[...document.querySelectorAll("figure.chart")].every(f => f.querySelector("summary") && f.querySelector("a[href]"))`,
		} {
			if !eval[bool](b, js) {
				t.Errorf("the home page at %d pixels: not so: %s", width, what)
			}
		}
	}

	// Live: a new customer is counted without a reload.
	b.do("marking the page", chromedp.Evaluate[chromedp.Void](`window.__sameDocument = true`))
	before := eval[string](b, `document.getElementById("n-customers").textContent`)
	s.api(busy, http.MethodPost, wire.PathCustomers, url.Values{"email": {"live@example.com"}}, nil)
	b.waitFor("the new customer counted", `document.getElementById("n-customers").textContent !== "`+before+`"`)
	if !eval[bool](b, `window.__sameDocument === true`) {
		t.Error("the page was reloaded to count the new customer")
	}
	b.clean("the home page, refreshed")
}

// BenchmarkDashboard_Home renders the home page of an account of 100,000
// payments (approved, declined, refunded, disputed, in three currencies),
// signed in, in-process: the summary's counters make it cost what a small
// account's does. The target is under 50 ms an answer.
func BenchmarkDashboard_Home(b *testing.B) {
	srv, err := sandbox.New(sandbox.Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { srv.Close() })
	dash, err := dashboard.New(dashboard.Options{API: srv.Internal(), Fallback: srv})
	if err != nil {
		b.Fatal(err)
	}
	seed := time.Now().UnixNano()
	b.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(uint64(seed), 0))
	key := wire.SecretKeySandboxPrefix + "homebench0001"
	api := func(method, path, body string) []byte {
		r := httptest.NewRequest(method, path, strings.NewReader(body))
		if method == http.MethodPost {
			r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		}
		r.SetBasicAuth(key, "")
		w := httptest.NewRecorder()
		srv.Internal().ServeHTTP(w, r)
		if w.Code != http.StatusOK && w.Code != http.StatusPaymentRequired { // a declined payment is 402
			b.Fatalf("%s %s: %d %s", method, path, w.Code, w.Body)
		}
		return w.Body.Bytes()
	}
	const payments = 100_000
	currencies := []string{"USD", "EUR", "JPY"}
	start := time.Now()
	for i := range payments {
		src := "tok_visa"
		if rng.IntN(10) == 0 {
			src = "tok_declined"
		}
		body := fmt.Sprintf("amount=%d&currency=%s&source=%s", 100+rng.IntN(100_000), currencies[rng.IntN(len(currencies))], src)
		out := api(http.MethodPost, wire.PathPayments, body)
		if src == "tok_visa" && i%50 == 0 {
			var p wire.Payment
			if err := json.Unmarshal(out, &p); err != nil {
				b.Fatal(err)
			}
			if i%100 == 0 {
				api(http.MethodPost, wire.PathPayments+"/"+p.ID+"/refund", "")
			} else {
				api(http.MethodPost, "/_sandbox/payments/"+p.ID+"/dispute", "")
			}
		}
	}
	b.Logf("seeded %d payments in %s", payments, time.Since(start).Round(time.Millisecond))

	signIn := httptest.NewRequest(http.MethodPost, "/sign-in", strings.NewReader(url.Values{"key": {key}}.Encode()))
	signIn.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	w := httptest.NewRecorder()
	dash.ServeHTTP(w, signIn)
	cookies := w.Result().Cookies()
	if w.Code != http.StatusSeeOther || len(cookies) != 1 {
		b.Fatalf("sign-in: %d %s", w.Code, w.Body)
	}
	home := httptest.NewRequest(http.MethodGet, "/", nil)
	home.AddCookie(cookies[0])
	b.ReportAllocs()
	for b.Loop() {
		w := httptest.NewRecorder()
		dash.ServeHTTP(w, home)
		if w.Code != http.StatusOK || !strings.Contains(w.Body.String(), `id="volume-USD"`) {
			b.Fatalf("GET /: %d %s", w.Code, w.Body)
		}
	}
	b.ReportMetric(float64(b.Elapsed())/float64(time.Millisecond)/float64(b.N), "ms/page")
}
