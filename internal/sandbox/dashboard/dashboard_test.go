package dashboard_test

import (
	"encoding/base64"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/clock"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/sandboxtest"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

const hostile = `<img src=x onerror=alert(1)>`

func TestDashboard_SignIn(t *testing.T) {
	t.Parallel()
	s := newSite(t, siteOptions{})
	key := sandboxtest.NewKey(t)
	b := s.browser()

	home := b.get("/")
	if home.status != http.StatusOK || !strings.Contains(home.body, `<label for="key">Secret key</label>`) ||
		!strings.Contains(home.body, `name="key" type="password"`) {
		t.Fatalf("GET / is not the sign-in form: %d %s", home.status, home.body)
	}
	var pk wire.SandboxAccount
	s.api(key, http.MethodGet, wire.PathSandboxAccount, nil, &pk)
	for _, bad := range []string{"sk_live_abcdefgh1234", "nope", wire.SecretKeySandboxPrefix + "x", pk.PublishableKey} {
		p := b.post("/sign-in", url.Values{"key": {bad}})
		if p.status != http.StatusUnauthorized || !strings.Contains(p.body, "That key was not accepted") ||
			!strings.Contains(p.body, `name="key"`) || strings.Contains(p.body, bad) || p.header.Get("Set-Cookie") != "" {
			t.Errorf("wrong key %q: %d, cookie %q: %s", bad, p.status, p.header.Get("Set-Cookie"), p.body)
		}
	}
	if p := b.post("/sign-in", url.Values{"key": {""}}); p.status != http.StatusBadRequest || !strings.Contains(p.body, "Enter a secret key") {
		t.Errorf("empty key: %d %s", p.status, p.body)
	}

	p := b.post("/sign-in", url.Values{"key": {key}})
	if p.status != http.StatusSeeOther || p.header.Get("Location") != "/" {
		t.Fatalf("sign-in: %d %s", p.status, p.body)
	}
	cookies := (&http.Response{Header: p.header}).Cookies()
	if len(cookies) != 1 {
		t.Fatalf("cookies %v", cookies)
	}
	c := cookies[0]
	raw, err := base64.RawURLEncoding.DecodeString(c.Value)
	if err != nil || len(raw) < 16 || !c.HttpOnly || c.SameSite != http.SameSiteStrictMode || c.Secure || c.Path != "/" || c.MaxAge <= 0 {
		t.Errorf("session cookie %+v (%d random bytes): want ≥16 random bytes, HttpOnly, SameSite=Strict, not Secure over http", c, len(raw))
	}
	if strings.Contains(p.header.Get("Set-Cookie"), key) {
		t.Error("the cookie holds the key")
	}
	// Behind a proxy that terminates TLS, the cookie is Secure.
	https := s.browser().do(http.MethodPost, "/sign-in", url.Values{"key": {key}}, "X-Forwarded-Proto", "https")
	if cs := (&http.Response{Header: https.header}).Cookies(); len(cs) != 1 || !cs[0].Secure {
		t.Errorf("cookie over https: %v", cs)
	}
	// Signed in, / is the account's home page (home_real_test.go checks
	// what it shows), no longer the form.
	if again := b.get("/"); strings.Contains(again.body, `name="key"`) || !strings.Contains(again.body, `<a href="/" aria-current="page">Home</a>`) {
		t.Errorf("GET / signed in: %d, not the home page: %s", again.status, again.body)
	}
	var acct wire.SandboxAccount
	s.api(key, http.MethodGet, wire.PathSandboxAccount, nil, &acct)
	for _, path := range []string{"/customers", "/payments", "/events", "/webhooks", "/requests", "/reset"} {
		pg := b.get(path)
		if pg.status != http.StatusOK {
			t.Errorf("%s: %d", path, pg.status)
		}
		if acct.PublishableKey == "" || !strings.Contains(pg.body, "Publishable key <code>"+acct.PublishableKey+"</code>") {
			t.Errorf("%s does not show the publishable key %q", path, acct.PublishableKey)
		}
		if strings.Contains(pg.body, key) {
			t.Errorf("%s shows the key", path)
		}
		for _, name := range []string{"Customers", "Payments", "Events", "Webhooks", "Requests"} {
			if !regexp.MustCompile(`<a href="/` + strings.ToLower(name) + `"( aria-current="page")?>` + name + `</a>`).MatchString(pg.body) {
				t.Errorf("%s: no navigation link %q", path, name)
			}
		}
	}
	if strings.Contains(s.logText(), key) {
		t.Error("the logs hold the key")
	}
}

// TestDashboard_SignInAdmitsOnlyKeys: a sandbox started with -key admits
// only those keys to the dashboard too.
func TestDashboard_SignInAdmitsOnlyKeys(t *testing.T) {
	t.Parallel()
	k1, k2 := sandboxtest.NewKey(t), sandboxtest.NewKey(t)
	s := newSite(t, siteOptions{sandbox: sandbox.Options{Keys: []string{k1}}})
	b := s.browser()
	if p := b.post("/sign-in", url.Values{"key": {k2}}); p.status != http.StatusUnauthorized || !strings.Contains(p.body, "admits only the keys") {
		t.Errorf("a key not admitted: %d %s", p.status, p.body)
	}
	b.signIn(k1)
}

func TestDashboard_SignOutEndsTheSession(t *testing.T) {
	t.Parallel()
	s := newSite(t, siteOptions{})
	b := s.browser()
	b.signIn(sandboxtest.NewKey(t))
	u, _ := url.Parse(s.url)
	old := b.hc.Jar.Cookies(u)
	if p := b.post("/sign-out", nil); p.status != http.StatusSeeOther || p.header.Get("Location") != "/" {
		t.Fatalf("sign-out: %d %s", p.status, p.body)
	}
	// The old cookie, sent again, opens nothing: the session is gone on the server.
	replay := s.browser()
	replay.hc.Jar.SetCookies(u, old)
	if p := replay.get("/customers"); p.status != http.StatusUnauthorized || !strings.Contains(p.body, `name="key"`) {
		t.Errorf("the signed-out session still works: %d", p.status)
	}
}

func TestDashboard_IdleSessionEnds(t *testing.T) {
	t.Parallel()
	clk := clock.NewFake(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))
	s := newSite(t, siteOptions{idle: 10 * time.Minute, clock: clk})
	b := s.browser()
	b.signIn(sandboxtest.NewKey(t))
	advance := clk.Advance
	advance(9 * time.Minute)
	if p := b.get("/customers"); p.status != http.StatusOK {
		t.Fatalf("a session used 9 min ago: %d", p.status)
	}
	advance(9 * time.Minute) // 18 min since sign-in, 9 since last use
	if p := b.get("/customers"); p.status != http.StatusOK {
		t.Fatalf("the idle time counts from the last use: %d", p.status)
	}
	advance(11 * time.Minute)
	if p := b.get("/customers"); p.status != http.StatusUnauthorized {
		t.Errorf("a session idle 11 min of 10: %d", p.status)
	}
}

func TestDashboard_SecurityHeaders(t *testing.T) {
	t.Parallel()
	s := newSite(t, siteOptions{})
	b := s.browser()
	b.signIn(sandboxtest.NewKey(t))
	for _, path := range []string{"/", "/customers", "/static/style.css", "/static/live.js", "/payments/pay_nope"} {
		p := b.get(path)
		csp := p.header.Get("Content-Security-Policy")
		for _, want := range []string{"default-src 'none'", "script-src 'self'", "frame-ancestors 'none'"} {
			if !strings.Contains(csp, want) {
				t.Errorf("%s: CSP %q lacks %q", path, csp, want)
			}
		}
		if strings.Contains(csp, "unsafe") {
			t.Errorf("%s: CSP %q allows unsafe sources", path, csp)
		}
		if p.header.Get("X-Content-Type-Options") != "nosniff" || p.header.Get("Referrer-Policy") != "no-referrer" {
			t.Errorf("%s: headers %v", path, p.header)
		}
		if regexp.MustCompile(`<script(?:\s[^>]*)?>[^<]`).MatchString(p.body) || regexp.MustCompile(`\son[a-z]+=`).MatchString(p.body) {
			t.Errorf("%s has inline script", path)
		}
		if regexp.MustCompile(`(?:src|href)="(?:https?:)?//`).MatchString(p.body) {
			t.Errorf("%s refers to another host", path)
		}
	}
}

// TestDashboard_HostileDataIsText: whatever an account holds is shown as
// text, never as markup.
func TestDashboard_HostileDataIsText(t *testing.T) {
	t.Parallel()
	s := newSite(t, siteOptions{})
	key := sandboxtest.NewKey(t)
	var c wire.Customer
	s.api(key, http.MethodPost, wire.PathCustomers, url.Values{
		"name": {hostile}, "email": {"x@example.com"}, "metadata[" + hostile + "]": {hostile}, "source": {"tok_visa"},
	}, &c)
	var p wire.Payment
	s.api(key, http.MethodPost, wire.PathPayments, url.Values{
		"amount": {"100"}, "currency": {"USD"}, "customer": {c.ID}, "description": {hostile},
	}, &p)
	b := s.browser()
	b.signIn(key)
	var ev wire.EventList
	s.api(key, http.MethodGet, wire.PathEvents, url.Values{"limit": {"1"}}, &ev)
	for _, path := range []string{"/customers", "/customers/" + c.ID, "/payments", "/payments/" + p.ID, "/events/" + ev.Data[0].ID} {
		pg := b.get(path)
		if strings.Contains(pg.body, "<img") {
			t.Errorf("%s renders the hostile name as markup", path)
		}
		if !strings.Contains(pg.body, "&lt;img src=x onerror=alert(1)&gt;") &&
			!strings.Contains(pg.body, `\u003cimg src=x onerror=alert(1)\u003e`) {
			t.Errorf("%s does not show the hostile value as text", path)
		}
	}
}

// TestDashboard_OtherAccountsAreUnreachable: a session sees its account
// only, by any URL, and cannot act on another's objects.
func TestDashboard_OtherAccountsAreUnreachable(t *testing.T) {
	t.Parallel()
	s := newSite(t, siteOptions{})
	alice, mallory := sandboxtest.NewKey(t), sandboxtest.NewKey(t)
	var c wire.Customer
	s.api(alice, http.MethodPost, wire.PathCustomers, url.Values{"email": {"alice@example.com"}, "source": {"tok_visa"}}, &c)
	var p wire.Payment
	s.api(alice, http.MethodPost, wire.PathPayments, url.Values{"amount": {"100"}, "currency": {"USD"}, "source": {"tok_3ds"}}, &p)
	var ev wire.EventList
	s.api(alice, http.MethodGet, wire.PathEvents, nil, &ev)

	b := s.browser()
	b.signIn(mallory)
	for _, path := range []string{"/customers/" + c.ID, "/payments/" + p.ID, "/events/" + ev.Data[0].ID} {
		if pg := b.get(path); pg.status != http.StatusNotFound || strings.Contains(pg.body, "alice@example.com") {
			t.Errorf("%s: %d", path, pg.status)
		}
	}
	for _, path := range []string{"/customers", "/payments", "/events", "/requests", "/customers?email=alice@example.com"} {
		if pg := b.get(path); strings.Contains(pg.body, c.ID) || strings.Contains(pg.body, p.ID) || strings.Contains(pg.body, "No customers with") != strings.Contains(path, "email") {
			t.Errorf("%s shows alice's objects", path)
		}
	}
	pg := b.follow(b.post("/payments/"+p.ID+"/complete", url.Values{"outcome": {"approved"}}))
	if !strings.Contains(pg.body, "No such payment") {
		t.Errorf("completing another account's payment: %s", pg.body)
	}
	var still wire.Payment
	s.api(alice, http.MethodGet, "/v1/payments/"+p.ID, nil, &still)
	if still.Status != wire.PaymentStatusPending {
		t.Errorf("alice's payment is %s", still.Status)
	}
}

// TestDashboard_CrossSiteActionsAreRefused: a form posted from another
// site gets 403 and changes nothing.
func TestDashboard_CrossSiteActionsAreRefused(t *testing.T) {
	t.Parallel()
	s := newSite(t, siteOptions{})
	key := sandboxtest.NewKey(t)
	var p wire.Payment
	s.api(key, http.MethodPost, wire.PathPayments, url.Values{"amount": {"100"}, "currency": {"USD"}, "source": {"tok_3ds"}}, &p)
	b := s.browser()
	b.signIn(key)
	for _, h := range [][]string{
		{"Sec-Fetch-Site", "cross-site"},
		{"Sec-Fetch-Site", "same-site"},
		{"Origin", "http://evil.example"},
	} {
		for _, path := range []string{"/payments/" + p.ID + "/complete", "/reset", "/sign-out"} {
			pg := b.do(http.MethodPost, path, url.Values{"outcome": {"approved"}, "confirm": {"yes"}}, h...)
			if pg.status != http.StatusForbidden {
				t.Errorf("POST %s with %v: %d", path, h, pg.status)
			}
		}
	}
	var still wire.Payment
	s.api(key, http.MethodGet, "/v1/payments/"+p.ID, nil, &still)
	if still.Status != wire.PaymentStatusPending {
		t.Errorf("the payment is %s after refused requests", still.Status)
	}
	if pg := b.get("/customers"); pg.status != http.StatusOK {
		t.Errorf("the session ended through a refused sign-out: %d", pg.status)
	}
}

func TestDashboard_Actions(t *testing.T) {
	t.Parallel()
	s := newSite(t, siteOptions{})
	key := sandboxtest.NewKey(t)
	hits := make(chan string, 16)
	rc := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		hits <- string(body)
	}))
	defer rc.Close()
	var ep wire.WebhookEndpoint
	s.api(key, http.MethodPost, wire.PathWebhookEndpoints, url.Values{"url": {rc.URL}, "enabled_events[]": {"*"}}, &ep)
	var p wire.Payment
	s.api(key, http.MethodPost, wire.PathPayments, url.Values{"amount": {"1200"}, "currency": {"JPY"}, "source": {"tok_3ds"}}, &p)
	<-hits // payment.pending

	b := s.browser()
	b.signIn(key)
	pg := b.get("/payments/" + p.ID)
	if !strings.Contains(pg.body, "¥1,200") || !strings.Contains(pg.body, `<label for="outcome">Outcome</label>`) || strings.Contains(pg.body, "Open a dispute") {
		t.Fatalf("a pending payment's page: %s", pg.body)
	}
	pg = b.follow(b.post("/payments/"+p.ID+"/complete", url.Values{"outcome": {"approved"}}))
	if !strings.Contains(pg.body, "is now approved") || !strings.Contains(pg.body, `id="payment-status">approved<`) {
		t.Errorf("after completing: %s", pg.body)
	}
	if again := b.get("/payments/" + p.ID); strings.Contains(again.body, "is now approved") {
		t.Error("the message is shown twice")
	}
	pg = b.follow(b.post("/payments/"+p.ID+"/dispute", nil))
	if !strings.Contains(pg.body, "is now disputed") {
		t.Errorf("after disputing: %s", pg.body)
	}
	pg = b.follow(b.post("/payments/"+p.ID+"/complete", url.Values{"outcome": {"approved"}}))
	if !strings.Contains(pg.body, `class="flash error"`) || !strings.Contains(pg.body, "only a pending payment") {
		t.Errorf("completing a disputed payment: %s", pg.body)
	}

	var evs wire.EventList
	s.api(key, http.MethodGet, wire.PathEvents, url.Values{"type": {wire.EventPaymentPending}}, &evs)
	for len(hits) > 0 {
		<-hits
	}
	pg = b.follow(b.post("/events/"+evs.Data[0].ID+"/resend", url.Values{"endpoint": {ep.ID}}))
	if !strings.Contains(pg.body, "resent") {
		t.Errorf("after resending: %s", pg.body)
	}
	// Deliveries of the later events may still come first.
	for deadline := time.After(15 * time.Second); ; {
		var got string
		select {
		case got = <-hits:
		case <-deadline:
			t.Fatal("the resend reached no receiver within 15s")
		}
		if strings.Contains(got, evs.Data[0].ID) {
			break
		}
	}

	pg = b.follow(b.post("/reset", nil))
	if !strings.Contains(pg.body, "Tick the box") {
		t.Errorf("reset without confirming: %s", pg.body)
	}
	pg = b.follow(b.post("/reset", url.Values{"confirm": {"yes"}}))
	if !strings.Contains(pg.body, "Account reset") {
		t.Errorf("after reset: %s", pg.body)
	}
	if pg := b.get("/payments/" + p.ID); pg.status != http.StatusNotFound {
		t.Errorf("the payment after reset: %d", pg.status)
	}
}

// TestDashboard_Lists: the pages show what the API answers, with cursors,
// filters and the request log.
func TestDashboard_Lists(t *testing.T) {
	t.Parallel()
	s := newSite(t, siteOptions{})
	key := sandboxtest.NewKey(t)
	for i := range 25 {
		s.api(key, http.MethodPost, wire.PathCustomers, url.Values{"email": {"c" + string(rune('a'+i)) + "@example.com"}}, nil)
	}
	s.api(key, http.MethodPost, wire.PathPayments, url.Values{"amount": {"1999"}, "currency": {"USD"}, "source": {"tok_visa"}}, nil)
	s.api(key, http.MethodPost, wire.PathPayments, url.Values{"amount": {"500"}, "currency": {"USD"}, "source": {"tok_3ds"}}, nil)
	b := s.browser()
	b.signIn(key)

	first := b.get("/customers")
	if !strings.Contains(first.body, "cy@example.com") || strings.Contains(first.body, "ca@example.com") {
		t.Errorf("page 1 is not the newest 20")
	}
	next := regexp.MustCompile(`href="(/customers\?starting_after=[^"]+)" rel="next"`).FindStringSubmatch(first.body)
	if next == nil {
		t.Fatalf("no next link on page 1")
	}
	second := b.get(strings.ReplaceAll(next[1], "&amp;", "&"))
	if !strings.Contains(second.body, "ca@example.com") || strings.Contains(second.body, "cy@example.com") || !strings.Contains(second.body, `rel="prev"`) {
		t.Errorf("page 2: %s", second.body)
	}
	if pg := b.get("/customers?email=CB@example.com"); !strings.Contains(pg.body, "cb@example.com") || strings.Contains(pg.body, "cc@example.com") {
		t.Errorf("search by email")
	}
	if pg := b.get("/payments?status=approved"); !strings.Contains(pg.body, "$19.99") || strings.Contains(pg.body, "$5.00") {
		t.Errorf("payments filtered by status: %s", pg.body)
	}
	// The home page's charts link to the payments of a span of days.
	today := time.Now().UTC().Truncate(24 * time.Hour)
	span := func(from, until time.Time) string {
		return "/payments?" + url.Values{wire.ParamStatus: {wire.PaymentStatusApproved},
			wire.ParamCreatedGTE: {from.Format(time.RFC3339)}, wire.ParamCreatedLT: {until.Format(time.RFC3339)}}.Encode()
	}
	yesterday := today.AddDate(0, 0, -1) // a day either side: the test may run across midnight
	if pg := b.get(span(yesterday, today.AddDate(0, 0, 2))); !strings.Contains(pg.body, "$19.99") || strings.Contains(pg.body, "$5.00") ||
		!strings.Contains(pg.body, `<input type="hidden" name="created[gte]" value="`+yesterday.Format(time.RFC3339)+`">`) ||
		!strings.Contains(pg.body, `<a href="/payments?status=approved">Any time</a>`) {
		t.Errorf("payments of these days: %s", pg.body)
	}
	if pg := b.get(span(today.AddDate(0, 0, 2), today.AddDate(0, 0, 3))); strings.Contains(pg.body, "$19.99") || !strings.Contains(pg.body, "No payments.") {
		t.Errorf("payments of the day after tomorrow: %s", pg.body)
	}
	pg := b.get("/requests?status_class=4xx")
	if strings.Contains(pg.body, ">200<") || strings.Contains(pg.body, key) {
		t.Errorf("requests filtered 4xx: %s", pg.body)
	}
	if pg := b.get("/requests"); !strings.Contains(pg.body, "/v1/customers") {
		t.Errorf("the request log page lacks the API's requests")
	}
}

// TestDashboard_UnknownPathsStayTheAPIs: the dashboard passes paths it
// does not serve back to the sandbox, which answers its own 401 or 404.
func TestDashboard_UnknownPathsStayTheAPIs(t *testing.T) {
	t.Parallel()
	s := newSite(t, siteOptions{})
	key := sandboxtest.NewKey(t)
	for _, path := range []string{"/v1/nope", "/_sandbox/nope", "/nope"} {
		resp, err := sandboxtest.Do(http.DefaultClient, s.url, sandboxtest.Request{Method: http.MethodGet, Path: path, Key: key})
		if err != nil {
			t.Fatal(err)
		}
		if resp.Status != http.StatusNotFound || !strings.Contains(string(resp.Body), wire.ErrorCodeUnrecognizedURL) {
			t.Errorf("%s: %d %s", path, resp.Status, resp.Body)
		}
	}
}

// TestDashboard_DeletedCustomerIsNotALink: a payment keeps its customer's
// id after the customer is deleted; the pages show the id as deleted, not
// as a link to a page that answers "Not found".
func TestDashboard_DeletedCustomerIsNotALink(t *testing.T) {
	t.Parallel()
	s := newSite(t, siteOptions{})
	key := sandboxtest.NewKey(t)
	var kept, gone wire.Customer
	s.api(key, http.MethodPost, wire.PathCustomers, url.Values{"email": {"kept@example.com"}, "source": {"tok_visa"}}, &kept)
	s.api(key, http.MethodPost, wire.PathCustomers, url.Values{"email": {"gone@example.com"}, "source": {"tok_visa"}}, &gone)
	var keptPay, gonePay wire.Payment
	s.api(key, http.MethodPost, wire.PathPayments, url.Values{"amount": {"900"}, "currency": {"GBP"}, "customer": {kept.ID}}, &keptPay)
	s.api(key, http.MethodPost, wire.PathPayments, url.Values{"amount": {"900"}, "currency": {"GBP"}, "customer": {gone.ID}}, &gonePay)
	s.api(key, http.MethodDelete, "/v1/customers/"+gone.ID, nil, nil)

	b := s.browser()
	b.signIn(key)
	for _, path := range []string{"/payments", "/payments/" + gonePay.ID, "/payments/" + keptPay.ID} {
		p := b.get(path)
		if p.status != http.StatusOK {
			t.Fatalf("%s: %d", path, p.status)
		}
		if strings.Contains(p.body, `href="/customers/`+gone.ID+`"`) {
			t.Errorf("%s links to the deleted customer %s", path, gone.ID)
		}
		wantGone := path != "/payments/"+keptPay.ID
		if hasGone := strings.Contains(p.body, "<code>"+gone.ID+"</code> <span class=\"badge\""); hasGone != wantGone {
			t.Errorf("%s shows the deleted customer as deleted: %v, want %v", path, hasGone, wantGone)
		}
		wantKept := path != "/payments/"+gonePay.ID
		if hasKept := strings.Contains(p.body, `href="/customers/`+kept.ID+`"`); hasKept != wantKept {
			t.Errorf("%s links to the customer that is still there: %v, want %v", path, hasKept, wantKept)
		}
	}

	// The events of the deleted customer and of its card outlive it: they
	// name it as deleted too, while the other customer's events link.
	var created wire.EventList
	s.api(key, http.MethodGet, wire.PathEvents+"?type=customer.created", nil, &created)
	var goneCreated string
	for _, ev := range created.Data {
		if strings.Contains(string(ev.Data.Object), gone.ID) {
			goneCreated = ev.ID
		}
	}
	if goneCreated == "" {
		t.Fatalf("no customer.created event for %s in %+v", gone.ID, created.Data)
	}
	for _, path := range []string{"/events", "/events/" + goneCreated} {
		p := b.get(path)
		if p.status != http.StatusOK {
			t.Fatalf("%s: %d", path, p.status)
		}
		if strings.Contains(p.body, `href="/customers/`+gone.ID+`"`) {
			t.Errorf("%s links to the deleted customer %s", path, gone.ID)
		}
		if !strings.Contains(p.body, "<code>"+gone.ID+"</code> <span class=\"badge\"") {
			t.Errorf("%s does not show %s as deleted", path, gone.ID)
		}
	}
	if p := b.get("/events"); !strings.Contains(p.body, `href="/customers/`+kept.ID+`"`) {
		t.Errorf("/events does not link to the customer that is still there, %s", kept.ID)
	}

	// A link to the customer followed before it was deleted (an open tab,
	// a bookmark) says it was deleted and when, not "Not found".
	var deleted wire.EventList
	s.api(key, http.MethodGet, wire.PathEvents+"?type=customer.deleted", nil, &deleted)
	if len(deleted.Data) != 1 {
		t.Fatalf("customer.deleted events: %+v", deleted.Data)
	}
	p := b.get("/customers/" + gone.ID)
	if p.status != http.StatusGone || !strings.Contains(p.body, "Customer "+gone.ID+" was deleted at ") ||
		!strings.Contains(p.body, deleted.Data[0].ID) || strings.Contains(p.body, "Not found") {
		t.Errorf("/customers/%s: %d, want 410 saying it was deleted, naming %s:\n%s", gone.ID, p.status, deleted.Data[0].ID, p.body)
	}
	// A customer that never was is still not found; each section's "Not
	// found" leads back to its own list.
	for _, tc := range []struct{ path, back string }{
		{"/customers/cus_" + strings.Repeat("x", wire.IDRandomLength), "/customers"},
		{"/payments/pay_" + strings.Repeat("x", wire.IDRandomLength), "/payments"},
		{"/events/evt_" + strings.Repeat("x", wire.IDRandomLength), "/events"},
	} {
		p := b.get(tc.path)
		if p.status != http.StatusNotFound || !strings.Contains(p.body, "Not found") || !strings.Contains(p.body, `<a href="`+tc.back+`">Back to the list</a>`) {
			t.Errorf("%s: %d, want 404 Not found leading back to %s:\n%s", tc.path, p.status, tc.back, p.body)
		}
	}
}

// TestDashboard_KeysPastedIntoRequestsAreMasked: a key pasted into a
// path, inside a segment, or into an Idempotency-Key shows on the
// Requests page as [redacted key], and reaches no log line.
func TestDashboard_KeysPastedIntoRequestsAreMasked(t *testing.T) {
	t.Parallel()
	s := newSite(t, siteOptions{})
	key := sandboxtest.NewKey(t)
	pasted := sandboxtest.NewKey(t)
	for _, r := range []sandboxtest.Request{
		{Method: http.MethodGet, Path: wire.PathCustomers + "/key=" + pasted, Key: key},
		{Method: http.MethodPost, Path: wire.PathCustomers, Key: key, Form: url.Values{}, IdempotencyKey: "retry-" + pasted},
	} {
		if _, err := sandboxtest.Do(http.DefaultClient, s.url, r); err != nil {
			t.Fatal(err)
		}
	}
	b := s.browser()
	b.signIn(key)
	pg := b.get("/requests")
	if pg.status != http.StatusOK || strings.Contains(pg.body, pasted) {
		t.Fatalf("/requests: %d, or it shows the pasted key:\n%s", pg.status, pg.body)
	}
	for _, want := range []string{"/v1/customers/key=[redacted key]", "retry-[redacted key]"} {
		if !strings.Contains(pg.body, want) {
			t.Errorf("/requests does not show %q", want)
		}
	}
	if strings.Contains(s.logText(), pasted) || strings.Contains(s.logText(), key) {
		t.Errorf("the logs hold a key:\n%s", s.logText())
	}
}
