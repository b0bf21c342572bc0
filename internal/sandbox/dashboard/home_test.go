package dashboard

import (
	"encoding/json"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// The home page's rendering, from summaries built by hand: a stand-in
// for the sandbox's handler answers the sign-in's account and the
// summary, so that every shape of figures can be drawn here. The tests
// against the real sandbox are in home_real_test.go.

// summaryAPI answers GET /_sandbox/account and GET /_sandbox/summary.
type summaryAPI struct {
	sum  wire.Summary
	days string // the last days asked for
}

func (a *summaryAPI) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	switch r.URL.Path {
	case wire.PathSandboxAccount:
		_ = json.NewEncoder(w).Encode(wire.SandboxAccount{Object: "sandbox.account", PublishableKey: "pk_sandbox_home"})
	case wire.PathSandboxSummary:
		a.days = r.URL.Query().Get(wire.ParamSummaryDays)
		_ = json.NewEncoder(w).Encode(a.sum)
	default:
		w.WriteHeader(http.StatusNotFound)
		_, _ = w.Write([]byte(`{"error":{"type":"invalid_request_error","code":"resource_missing","message":"Unknown path."}}`))
	}
}

// homePage signs in to a dashboard over api and returns GET path's page.
func homePage(t *testing.T, api *summaryAPI, path string) string {
	t.Helper()
	d, err := New(Options{API: api})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(d)
	t.Cleanup(ts.Close)
	hc := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := hc.PostForm(ts.URL+"/sign-in", url.Values{"key": {wire.SecretKeySandboxPrefix + "home0001"}})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/" {
		t.Fatalf("sign-in: %d to %q", resp.StatusCode, resp.Header.Get("Location"))
	}
	req, _ := http.NewRequest(http.MethodGet, ts.URL+path, nil)
	for _, c := range resp.Cookies() {
		req.AddCookie(c)
	}
	page, err := hc.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer page.Body.Close()
	b, err := io.ReadAll(page.Body)
	if err != nil {
		t.Fatal(err)
	}
	if page.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %d\n%s", path, page.StatusCode, b)
	}
	if got := page.Header.Get("Content-Security-Policy"); got != csp {
		t.Errorf("CSP %q", got)
	}
	return string(b)
}

// summary is a summary of days days up to until, with days' activity.
func summary(until string, days int, active ...wire.SummaryDay) wire.Summary {
	u, _ := time.Parse(time.DateOnly, until)
	return wire.Summary{
		Object: wire.ObjectSummary, Now: until + "T12:00:00Z", From: u.AddDate(0, 0, 1-days).Format(time.DateOnly), Until: until,
		Counts: wire.SummaryCounts{
			Customers: 3, Cards: 4, WebhookEndpoints: 1,
			PaymentsByStatus:      map[string]int64{"approved": 1200, "declined": 3, "disputed": 1},
			SubscriptionsByStatus: map[string]int64{"active": 2, "past_due": 1},
			InvoicesByStatus:      map[string]int64{"open": 1, "paid": 9},
		},
		MRRBefore: []wire.SummaryAmount{{Currency: "USD", Amount: 3998}},
		Days:      active,
	}
}

func volume(cur string, approved, declined, refunded, disputed int64) wire.SummaryVolume {
	return wire.SummaryVolume{Currency: cur,
		Approved: wire.SummaryTally{Count: 1, Amount: approved}, Declined: wire.SummaryTally{Count: 1, Amount: declined},
		Refunded: wire.SummaryTally{Count: 1, Amount: refunded}, Disputed: wire.SummaryTally{Count: 1, Amount: disputed}}
}

func TestHome_RendersFiguresChartsAndTables(t *testing.T) {
	t.Parallel()
	api := &summaryAPI{sum: summary("2026-11-25", 90,
		wire.SummaryDay{Date: "2026-11-20", Payments: []wire.SummaryVolume{volume("USD", 1999, 500, 250, 0), volume("JPY", 1200, 0, 0, 0)},
			MRRChange: []wire.SummaryAmount{{Currency: "USD", Amount: 1999}}, RenewalsPaid: 2, RenewalsFailed: 1, DeliveriesSucceeded: 5, DeliveriesFailed: 2},
		wire.SummaryDay{Date: "2026-11-25", Payments: []wire.SummaryVolume{volume("USD", 100, 0, 0, 899)}},
	)}
	page := homePage(t, api, "/")
	if api.days != "" {
		t.Errorf("the page asked for %q days, want the API's default", api.days)
	}
	for _, want := range []string{
		`<title>Home · payments-sandbox</title>`, `<a href="/" aria-current="page">Home</a>`,
		`id="live" data-live`, `<span class="n" id="n-customers">3</span> customers`, `<span class="n" id="n-cards">4</span> cards`,
		`<span class="n" id="n-invoices-open">1</span> open invoice<`, `<span class="n" id="n-invoices-uncollectible">0</span>`,
		`href="/payments?status=approved"><span class="badge ok">approved</span> 1,200</a>`,
		`href="/subscriptions?status=past_due"`,
		// A chart per currency, each an image with its title and description.
		`<figcaption id="volume-JPY-cap">Payments in JPY by day</figcaption>`, `id="volume-USD-cap">Payments in USD by day`,
		`role="img" aria-labelledby="volume-USD-title volume-USD-desc"`,
		`Approved 2 payments, $20.99; Declined 2 payments, $5.00; Refunded 2 payments, $2.50; Disputed 2 payments, $8.99.`,
		// The legend links each series to its list, filtered.
		`<a href="/payments?created%5Bgte%5D=2026-08-28T00%3A00%3A00Z&amp;created%5Blt%5D=2026-11-26T00%3A00%3A00Z&amp;status=declined">Declined</a>: 2 payments, $5.00`,
		// The table holds every figure; its days link to their payments.
		`<th scope="row"><a href="/payments?created%5Bgte%5D=2026-11-20T00%3A00%3A00Z&amp;created%5Blt%5D=2026-11-21T00%3A00%3A00Z">2026-11-20</a></th><td class="fig" data-label="Approved">1 payment, $19.99</td>`,
		`fill="url(#pat-bad)"`, `<pattern id="pat-bad"`,
		// MRR: the baseline and the day's change.
		`Monthly recurring revenue in USD`, `<td class="fig" data-label="Change">&#43;$19.99</td><td class="fig" data-label="At the end">$59.97</td>`,
		`$39.98 before 2026-08-28, $59.97 on 2026-11-25`, `href="/subscriptions?status=active">Active subscriptions</a>`,
		// Renewals by week over 90 days; deliveries by day.
		`Renewals by week`, `<a href="/invoices?created%5Bgte%5D=2026-08-28T00%3A00%3A00Z&amp;created%5Blt%5D=2026-11-26T00%3A00%3A00Z&amp;status=paid">Paid</a>: 2 renewals`,
		`&amp;status=open">Failed</a>: 1 renewal`, `<th scope="row"><a href="/invoices?created%5Bgte%5D=2026-11-16T00%3A00%3A00Z&amp;created%5Blt%5D=2026-11-23T00%3A00%3A00Z">2026-11-16</a></th>`,
		`Webhook deliveries by day`, `Succeeded</a>: 5 attempts`,
		`The account's time: <time datetime="2026-11-25T12:00:00Z">`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %s", want)
		}
	}
	if testing.Verbose() {
		t.Log(page)
	}
	if strings.Contains(page, "test clock") {
		t.Error("the page speaks of test clocks, and the account has none")
	}
	if strings.Index(page, `id="volume-USD-cap"`) > strings.Index(page, `id="volume-JPY-cap"`) {
		t.Error("JPY's volume comes before USD's, which has more payments")
	}
	if n := strings.Count(page, `<svg class="plot"`); n != 5 {
		t.Errorf("%d charts, want 5 (2 currencies' volume, MRR, renewals, deliveries)", n)
	}
	if regexp.MustCompile(`\sstyle=`).MatchString(page) || strings.Contains(page, "<script>") {
		t.Error("inline style or script: the CSP forbids them")
	}
	// Every bar is within the drawing, and a bar per non-empty series.
	for _, m := range regexp.MustCompile(`<rect class="bar" x="([-\d.]+)" y="([-\d.]+)" width="([-\d.]+)" height="([-\d.]+)"`).FindAllStringSubmatch(page, -1) {
		x, y, w, h := num(t, m[1]), num(t, m[2]), num(t, m[3]), num(t, m[4])
		if x < plotLeft || x+w > plotRight+0.01 || y < plotTop-0.01 || y+h > plotBottom+0.01 || w <= 0 || h <= 0 {
			t.Errorf("a bar outside the plot: %v", m[0])
		}
	}
}

func num(t *testing.T, s string) float64 {
	t.Helper()
	var f float64
	if err := json.Unmarshal([]byte(s), &f); err != nil {
		t.Fatalf("%q: %v", s, err)
	}
	return f
}

func TestHome_EmptyAccount(t *testing.T) {
	t.Parallel()
	api := &summaryAPI{sum: wire.Summary{Object: wire.ObjectSummary, Now: "2026-11-25T09:30:00Z", From: "2026-08-28", Until: "2026-11-25"}}
	page := homePage(t, api, "/")
	for _, want := range []string{"Nothing here yet", `id="n-customers">0</span>`, "No payments.", "No subscriptions."} {
		if !strings.Contains(page, want) {
			t.Errorf("the empty page lacks %q", want)
		}
	}
	if strings.Contains(page, `<svg class="plot"`) {
		t.Error("the empty account's page draws charts")
	}
}

func TestHome_TestClocksAndSpan(t *testing.T) {
	t.Parallel()
	// A year of monthly renewals on a clock: the year's bars are months.
	var days []wire.SummaryDay
	for m := range 12 {
		days = append(days, wire.SummaryDay{Date: time.Date(2026, time.Month(m+1), 15, 0, 0, 0, 0, time.UTC).Format(time.DateOnly), RenewalsPaid: 10, RenewalsFailed: int64(m % 3)})
	}
	sum := summary("2026-12-31", 366, days...)
	sum.TestClocks = 1
	api := &summaryAPI{sum: sum}
	page := homePage(t, api, "/?days=366")
	if api.days != "366" {
		t.Errorf("the page asked for %q days, want 366", api.days)
	}
	for _, want := range []string{
		`<a href="/test-clocks">1 test clock</a>: the payments, subscriptions and invoices of customers on a clock count on the clock's days, and the account's time is the latest`,
		`Renewals by month`, `<th scope="col">Month</th>`, `>2026-03</a></th><td class="fig" data-label="Paid">10</td><td class="fig" data-label="Failed">2</td>`,
		`<a href="/?days=366" aria-current="true" class="current">1 year</a>`, "No payments from 2025-12-31 to 2026-12-31.",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %s", want)
		}
	}
	if n := strings.Count(page, "<title>2026-"); n != 12+8 {
		t.Errorf("%d renewal bars' parts, want 20 (12 months paid, 8 with failures)", n)
	}
}

func TestHome_HostileAndHugeValues(t *testing.T) {
	t.Parallel()
	evil := `<script>alert("x")</script>`
	sum := summary("2026-11-25", 1,
		wire.SummaryDay{Date: "2026-11-25", Payments: []wire.SummaryVolume{volume(evil, math.MaxInt64, math.MaxInt64, 1, 1)},
			MRRChange: []wire.SummaryAmount{{Currency: "USD", Amount: math.MinInt64}}})
	sum.Counts.PaymentsByStatus[evil] = 1
	sum.MRRBefore = append(sum.MRRBefore, wire.SummaryAmount{Currency: evil, Amount: 5})
	page := homePage(t, &summaryAPI{sum: sum}, "/?days=1")
	if strings.Contains(page, evil) || strings.Contains(page, `<script>alert`) {
		t.Error("a hostile currency is written as markup")
	}
	if !strings.Contains(page, "&lt;script&gt;") {
		t.Error("the hostile currency is not shown as text")
	}
	if strings.Contains(page, "NaN") || strings.Contains(page, "Inf") {
		t.Error("a coordinate is not a number")
	}
	// Totals past int64 stay at its end instead of turning negative.
	if !strings.Contains(page, "9223372036854775807") {
		t.Error("the huge total is not shown whole")
	}
}

func TestHome_SummaryOutOfShape(t *testing.T) {
	t.Parallel()
	for _, span := range [][2]string{{"2026-11-25", "2026-11-24"}, {"2024-01-01", "2026-11-25"}, {"yesterday", "2026-11-25"}} {
		if _, err := homeOf(&wire.Summary{From: span[0], Until: span[1]}); err == nil {
			t.Errorf("a summary from %s to %s is drawn", span[0], span[1])
		}
	}
}

func TestChart_Periods(t *testing.T) {
	t.Parallel()
	d := func(s string) time.Time { v, _ := time.Parse(time.DateOnly, s); return v }
	for _, tc := range []struct {
		from, until, unit string
		want              []string
	}{
		{"2026-11-01", "2026-11-03", unitDay, []string{"2026-11-01", "2026-11-02", "2026-11-03"}},
		// 2026-11-04 is a Wednesday: the first week is cut to its start.
		{"2026-11-04", "2026-11-17", unitWeek, []string{"2026-11-04", "2026-11-09", "2026-11-16"}},
		{"2025-12-31", "2026-03-01", unitMonth, []string{"2025-12", "2026-01", "2026-02", "2026-03"}},
		{"2026-02-28", "2026-02-28", unitMonth, []string{"2026-02"}},
	} {
		ps := periodsOf(d(tc.from), d(tc.until), tc.unit)
		var got []string
		for _, p := range ps {
			got = append(got, p.Label)
		}
		if strings.Join(got, " ") != strings.Join(tc.want, " ") {
			t.Errorf("%s..%s by %s: %v, want %v", tc.from, tc.until, tc.unit, got, tc.want)
		}
		if ps[0].From != d(tc.from) || !ps[len(ps)-1].Until.Equal(d(tc.until).AddDate(0, 0, 1)) {
			t.Errorf("%s..%s by %s: the periods span %s..%s", tc.from, tc.until, tc.unit, ps[0].From, ps[len(ps)-1].Until)
		}
		if periodIndex(ps, d(tc.until)) != len(ps)-1 || periodIndex(ps, d(tc.from).AddDate(0, 0, -1)) != -1 || periodIndex(ps, d(tc.until).AddDate(0, 0, 1)) != -1 {
			t.Errorf("%s..%s by %s: periodIndex misplaces the ends", tc.from, tc.until, tc.unit)
		}
	}
	if n := len(periodsOf(d("2025-11-26"), d("2026-11-26"), unitDay)); n != 366 {
		t.Errorf("366 days make %d periods", n)
	}
}

func TestChart_Scale(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ lo, hi, wantMin, wantMax, wantStep float64 }{
		{0, 0, 0, 1, 1},
		{0, 3, 0, 3, 1},
		{0, 1999, 0, 2000, 500},
		{-350, 1000, -500, 1000, 500},
		{0, math.MaxInt64, 0, 1e19, 5e18},
	} {
		lo, hi, st := niceScale(tc.lo, tc.hi)
		if lo != tc.wantMin || hi != tc.wantMax || st != tc.wantStep {
			t.Errorf("niceScale(%v, %v) = %v, %v, %v; want %v, %v, %v", tc.lo, tc.hi, lo, hi, st, tc.wantMin, tc.wantMax, tc.wantStep)
		}
	}
	if addSat(math.MaxInt64, 1) != math.MaxInt64 || addSat(math.MinInt64, -1) != math.MinInt64 || addSat(2, -3) != -1 {
		t.Error("addSat wraps")
	}
	if toInt64(1e19) != math.MaxInt64 || toInt64(-1e19) != math.MinInt64 {
		t.Error("toInt64 wraps")
	}
}

func TestChart_StepLineCrossesZero(t *testing.T) {
	t.Parallel()
	var c chart
	step(&c, []string{"a", "b", "c"}, []int64{1000, -500, 0}, formatInt)
	a := newAxis(-500, 1000)
	want := "M8 " + ftoa(a.y(1000)) + " H216 V" + ftoa(a.y(-500)) + " H424 V" + ftoa(a.y(0)) + " H632"
	if c.Path != want {
		t.Errorf("path %q, want %q", c.Path, want)
	}
	zero := 0
	for _, tk := range c.Ticks {
		if tk.Zero {
			zero++
			if tk.Y != a.y(0) {
				t.Errorf("the zero line at %v, want %v", tk.Y, a.y(0))
			}
		}
	}
	if zero != 1 || c.Ticks[0].Label != "-500" {
		t.Errorf("ticks %+v: want one zero line and -500 at the bottom", c.Ticks)
	}
	if len(c.XLabels) != 3 || c.XLabels[0].Anchor != "start" || c.XLabels[2].Anchor != "end" {
		t.Errorf("x labels %+v", c.XLabels)
	}
}

func ftoa(f float64) string {
	b, _ := json.Marshal(f)
	return string(b)
}

func TestChart_366Days(t *testing.T) {
	t.Parallel()
	var days []wire.SummaryDay
	until := time.Date(2026, 11, 25, 0, 0, 0, 0, time.UTC)
	for i := range 366 {
		days = append(days, wire.SummaryDay{Date: until.AddDate(0, 0, -i).Format(time.DateOnly),
			Payments:  []wire.SummaryVolume{volume("EUR", int64(i)*100, 50, 0, 0)},
			MRRChange: []wire.SummaryAmount{{Currency: "EUR", Amount: int64(i%7) - 3}}, DeliveriesSucceeded: 1})
	}
	sum := summary("2026-11-25", 366, days...)
	sum.Days = reverse(days)
	h, err := homeOf(&sum)
	if err != nil {
		t.Fatal(err)
	}
	if len(h.Volume) != 1 || len(h.Volume[0].Table.Rows) != 13 {
		t.Fatalf("a year's volume: %d charts, want 1 of 13 months", len(h.Volume))
	}
	if len(h.MRR) != 2 || strings.Count(h.MRR[1].Path, "H") != 366 {
		t.Errorf("MRR charts %d (want USD's and EUR's), EUR's line has %d steps, want 366", len(h.MRR), strings.Count(h.MRR[1].Path, "H"))
	}
	if h.Deliveries == nil || len(h.Deliveries.Rects) != 13 {
		t.Errorf("deliveries by month: %+v", h.Deliveries)
	}
}

func reverse[T any](s []T) []T {
	out := make([]T, len(s))
	for i, v := range s {
		out[len(s)-1-i] = v
	}
	return out
}

// BenchmarkHome_Render is the page's own cost, the summary aside: a year
// of days, each with payments in three currencies, MRR changes, renewals
// and deliveries, drawn and rendered in-process.
func BenchmarkHome_Render(b *testing.B) {
	until := time.Date(2026, 11, 25, 0, 0, 0, 0, time.UTC)
	var days []wire.SummaryDay
	for i := 365; i >= 0; i-- {
		day := wire.SummaryDay{Date: until.AddDate(0, 0, -i).Format(time.DateOnly), RenewalsPaid: int64(i % 40), RenewalsFailed: int64(i % 3),
			DeliveriesSucceeded: int64(i * 7), DeliveriesFailed: int64(i % 11)}
		for _, cur := range []string{"EUR", "JPY", "USD"} {
			day.Payments = append(day.Payments, volume(cur, int64(i)*10_000, int64(i)*100, int64(i)*50, int64(i)))
			day.MRRChange = append(day.MRRChange, wire.SummaryAmount{Currency: cur, Amount: int64(i%9) - 4})
		}
		days = append(days, day)
	}
	api := &summaryAPI{sum: summary("2026-11-25", 366, days...)}
	d, err := New(Options{API: api})
	if err != nil {
		b.Fatal(err)
	}
	signIn := httptest.NewRequest(http.MethodPost, "/sign-in", strings.NewReader(url.Values{"key": {wire.SecretKeySandboxPrefix + "home0001"}}.Encode()))
	signIn.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	w := httptest.NewRecorder()
	d.ServeHTTP(w, signIn)
	req := httptest.NewRequest(http.MethodGet, "/?days=366", nil)
	req.AddCookie(w.Result().Cookies()[0])
	b.ReportAllocs()
	for b.Loop() {
		w := httptest.NewRecorder()
		d.ServeHTTP(w, req)
		if w.Code != http.StatusOK {
			b.Fatalf("%d %s", w.Code, w.Body)
		}
	}
	b.ReportMetric(float64(b.Elapsed())/float64(time.Millisecond)/float64(b.N), "ms/page")
}

// TestHome_LiveRefreshWithoutSession: live.js's refresh of a home page
// whose session ended is a 401, as on the other pages, and not the
// sign-in form it would swap nothing of.
func TestHome_LiveRefreshWithoutSession(t *testing.T) {
	t.Parallel()
	d, err := New(Options{API: &summaryAPI{}})
	if err != nil {
		t.Fatal(err)
	}
	w := httptest.NewRecorder()
	r := httptest.NewRequest(http.MethodGet, "/", nil)
	r.Header.Set(liveHeader, "1")
	d.ServeHTTP(w, r)
	if w.Code != http.StatusUnauthorized || w.Body.Len() != 0 {
		t.Errorf("a live refresh without a session: %d %q, want an empty 401", w.Code, w.Body)
	}
	w = httptest.NewRecorder()
	d.ServeHTTP(w, httptest.NewRequest(http.MethodGet, "/", nil))
	if w.Code != http.StatusOK || !strings.Contains(w.Body.String(), `name="key"`) {
		t.Errorf("GET / without a session: %d, want the sign-in form", w.Code)
	}
}
