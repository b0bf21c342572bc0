package dashboard

import (
	"cmp"
	"fmt"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// homeSpan is one of the home page's choices of how many days its charts
// cover.
type homeSpan struct {
	Days    int
	Label   string
	Current bool
}

// The year is the API's longest span, 366 days, so that it holds a whole
// year in a leap year too.
var homeSpans = []homeSpan{{Days: 30, Label: "30 days"}, {Days: wire.SummaryDaysDefault, Label: "90 days"}, {Days: wire.SummaryDaysMax, Label: "1 year"}}

// Bars are days up to dailyDaysMax days and months beyond, since a year
// of daily bars is too thin to read. Renewals come once a period, so past
// renewalDailyMax days their bars are weeks until they are months.
const (
	dailyDaysMax    = 92
	renewalDailyMax = 31
)

type homeData struct {
	// Now is the account's time (wire.Summary.Now); From and Until the
	// days the charts cover.
	Now, From, Until string
	Days             int
	Spans            []homeSpan
	TestClocks       int64
	Customers        int64
	Cards            int64
	Endpoints        int64
	Payments         []statusCount
	Subscriptions    []statusCount
	Invoices         []statusCount
	// Empty is an account with nothing at all: the page says so
	// instead of drawing empty charts.
	Empty      bool
	Volume     []chart
	MRR        []chart
	Renewals   *chart
	Deliveries *chart
}

// statusCount is how many objects have a status, and the list of them.
type statusCount struct {
	Status string
	N      int64
	Link   string
}

// overview is the home page (GET / signed in): the account at a glance,
// from GET /_sandbox/summary, the one request it makes.
func (d *Dashboard) overview(w http.ResponseWriter, r *http.Request, ss *session) {
	q := url.Values{}
	if v := r.URL.Query().Get(wire.ParamSummaryDays); v != "" {
		q.Set(wire.ParamSummaryDays, v) // the API checks it, and says what is wrong
	}
	var sum wire.Summary
	if err := d.get(r.Context(), ss, wire.PathSandboxSummary, q, &sum); err != nil {
		d.fail(w, r, ss, "home", err)
		return
	}
	data, err := homeOf(&sum)
	if err != nil {
		d.fail(w, r, ss, "home", err)
		return
	}
	d.render(w, r, ss, http.StatusOK, "home.html", &view{Title: "Home", Nav: "home", Live: true, Data: data})
}

// homeOf turns a summary into the page's figures and charts.
func homeOf(s *wire.Summary) (*homeData, error) {
	from, err1 := time.Parse(time.DateOnly, s.From)
	until, err2 := time.Parse(time.DateOnly, s.Until)
	days := int(until.Sub(from)/(24*time.Hour)) + 1
	if err1 != nil || err2 != nil || days < 1 || days > wire.SummaryDaysMax {
		return nil, fmt.Errorf("the sandbox's summary spans %q to %q, not 1 to %d days", s.From, s.Until, wire.SummaryDaysMax)
	}
	h := &homeData{
		Now: s.Now, From: s.From, Until: s.Until, Days: days, TestClocks: s.TestClocks,
		Customers: s.Counts.Customers, Cards: s.Counts.Cards, Endpoints: s.Counts.WebhookEndpoints,
		Payments:      statusCounts(s.Counts.PaymentsByStatus, wire.PaymentStatuses, "/payments"),
		Subscriptions: statusCounts(s.Counts.SubscriptionsByStatus, wire.SubscriptionStatuses, "/subscriptions"),
	}
	for _, sp := range homeSpans {
		sp.Current = sp.Days == days
		h.Spans = append(h.Spans, sp)
	}
	for _, st := range []string{wire.InvoiceStatusOpen, wire.InvoiceStatusUncollectible} {
		h.Invoices = append(h.Invoices, statusCount{Status: st, N: s.Counts.InvoicesByStatus[st], Link: "/invoices?" + url.Values{wire.ParamStatus: {st}}.Encode()})
	}
	h.Empty = s.Counts.Customers == 0 && len(s.Counts.PaymentsByStatus) == 0 && len(s.Counts.SubscriptionsByStatus) == 0 &&
		len(s.Counts.InvoicesByStatus) == 0 && s.Counts.WebhookEndpoints == 0 && len(s.Days) == 0 && len(s.MRRBefore) == 0
	if h.Empty {
		return h, nil
	}
	fine := unitDay
	if days > dailyDaysMax {
		fine = unitMonth
	}
	renewUnit := fine
	if days > renewalDailyMax && days <= dailyDaysMax {
		renewUnit = unitWeek
	}
	h.Volume = volumeCharts(s, periodsOf(from, until, fine), fine)
	h.MRR = mrrCharts(s, from, until, periodsOf(from, until, fine), fine)
	h.Renewals = renewalsChart(s, periodsOf(from, until, renewUnit), renewUnit)
	h.Deliveries = deliveriesChart(s, periodsOf(from, until, fine), fine)
	return h, nil
}

// statusCounts lists the statuses with objects, in the API's order of
// statuses and then any other by name, each linking to its list.
func statusCounts(m map[string]int64, order []string, list string) []statusCount {
	var out []statusCount
	add := func(st string) {
		if n := m[st]; n > 0 {
			out = append(out, statusCount{Status: st, N: n, Link: list + "?" + url.Values{wire.ParamStatus: {st}}.Encode()})
		}
	}
	for _, st := range order {
		add(st)
	}
	for _, st := range slices.Sorted(maps.Keys(m)) {
		if !slices.Contains(order, st) {
			add(st)
		}
	}
	return out
}

// createdQuery filters a list to the objects made in a period.
func createdQuery(q url.Values, from, until time.Time) url.Values {
	q.Set(wire.ParamCreatedGTE, from.Format(time.RFC3339))
	q.Set(wire.ParamCreatedLT, until.Format(time.RFC3339))
	return q
}

// dayIn is the period holding a summary day, -1 for none.
func dayIn(ps []period, date string) int {
	t, err := time.Parse(time.DateOnly, date)
	if err != nil {
		return -1
	}
	return periodIndex(ps, t)
}

// formatInt writes a count grouped by thousands.
func formatInt(n int64) string {
	s := strconv.FormatInt(n, 10)
	if n < 0 {
		return "-" + groupDigits(s[1:])
	}
	return groupDigits(s)
}

// plural writes n and its noun: "1 payment", "2 payments".
func plural(n int64, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return formatInt(n) + " " + noun + "s"
}

// volumeSeries are the payment volume's series, in stacking order.
var volumeSeries = []struct{ name, status, fill string }{
	{"Approved", wire.PaymentStatusApproved, fillOK},
	{"Declined", wire.PaymentStatusDeclined, fillBad},
	{"Refunded", wire.PaymentStatusRefunded, fillBack},
	{"Disputed", wire.PaymentStatusDisputed, fillWarn},
}

// volumeCharts draws a chart of payment volume per currency: each
// period's approved, declined, refunded and disputed amounts, stacked.
// The currency of the most payments comes first.
func volumeCharts(s *wire.Summary, ps []period, unit string) []chart {
	type cell struct{ count, amount [4]int64 }
	byCur := map[string][]cell{}
	for _, day := range s.Days {
		p := dayIn(ps, day.Date)
		if p < 0 {
			continue
		}
		for _, v := range day.Payments {
			cs := byCur[v.Currency]
			if cs == nil {
				cs = make([]cell, len(ps))
				byCur[v.Currency] = cs
			}
			for i, t := range []wire.SummaryTally{v.Approved, v.Declined, v.Refunded, v.Disputed} {
				cs[p].count[i] = addSat(cs[p].count[i], t.Count)
				cs[p].amount[i] = addSat(cs[p].amount[i], t.Amount)
			}
		}
	}
	made := func(cs []cell) (n int64) {
		for _, cl := range cs {
			for _, c := range cl.count {
				n = addSat(n, c)
			}
		}
		return n
	}
	curs := slices.SortedFunc(maps.Keys(byCur), func(a, b string) int {
		if na, nb := made(byCur[a]), made(byCur[b]); na != nb {
			return cmp.Compare(nb, na)
		}
		return strings.Compare(a, b)
	})
	span := createdQuery(url.Values{}, ps[0].From, ps[len(ps)-1].Until)
	var out []chart
	for _, cur := range curs {
		cs := byCur[cur]
		money := func(n int64) string { return formatMoney(n, cur) }
		c := chart{
			ID: "volume-" + cur, Title: "Payments in " + cur + " by " + unit,
			LinkText: "Payments of these days", Link: "/payments?" + span.Encode(),
		}
		var total [4]struct{ count, amount int64 }
		values := make([][]int64, len(ps))
		fills := make([]string, len(volumeSeries))
		c.Table = chartTable{Caption: c.Title + ", the " + unit + "s without payments left out", Head: []string{periodHead(unit)}}
		for i, sr := range volumeSeries {
			fills[i] = sr.fill
			c.Table.Head = append(c.Table.Head, sr.name)
		}
		for p, cl := range cs {
			values[p] = cl.amount[:]
			var figs []string
			some := false
			for i := range volumeSeries {
				total[i].count = addSat(total[i].count, cl.count[i])
				total[i].amount = addSat(total[i].amount, cl.amount[i])
				figs = append(figs, tally(cl.count[i], cl.amount[i], money))
				some = some || cl.count[i] != 0 || cl.amount[i] != 0
			}
			if some {
				c.Table.addRow(chartRow{Label: ps[p].Label, Link: "/payments?" + createdQuery(url.Values{}, ps[p].From, ps[p].Until).Encode()}, figs...)
			}
		}
		desc := fmt.Sprintf("Stacked bars, one a %s from %s to %s:", unit, ps[0].From.Format(time.DateOnly), ps[len(ps)-1].Until.AddDate(0, 0, -1).Format(time.DateOnly))
		for i, sr := range volumeSeries {
			tot := tally(total[i].count, total[i].amount, money)
			c.Series = append(c.Series, chartSeries{Name: sr.name, Fill: sr.fill, Total: tot,
				Link: "/payments?" + createdQuery(url.Values{wire.ParamStatus: {sr.status}}, ps[0].From, ps[len(ps)-1].Until).Encode()})
			desc += " " + sr.name + " " + tot + ";"
		}
		c.Desc = desc[:len(desc)-1] + "."
		stack(&c, ps, values, fills, money, func(p, s int) string {
			return ps[p].Label + " · " + volumeSeries[s].name + ": " + tally(cs[p].count[s], cs[p].amount[s], money)
		})
		out = append(out, c)
	}
	return out
}

// tally writes a count of payments and their amount.
func tally(count, amount int64, money func(int64) string) string {
	return plural(count, "payment") + ", " + money(amount)
}

// periodHead is the heading of a table's period column.
func periodHead(unit string) string {
	switch unit {
	case unitMonth:
		return "Month"
	case unitWeek:
		return "Week from"
	}
	return "Day"
}

// mrrCharts draws the monthly recurring revenue of each currency, day by
// day: the summary's baseline plus each day's changes. Its table says it
// by period, as the bars do, so that a year is a dozen rows.
func mrrCharts(s *wire.Summary, from, until time.Time, ps []period, unit string) []chart {
	before := map[string]int64{}
	for _, a := range s.MRRBefore {
		before[a.Currency] = addSat(before[a.Currency], a.Amount)
	}
	n := int(until.Sub(from)/(24*time.Hour)) + 1
	changes := map[string][]int64{}
	for _, day := range s.Days {
		t, err := time.Parse(time.DateOnly, day.Date)
		if err != nil || t.Before(from) || t.After(until) {
			continue
		}
		i := int(t.Sub(from) / (24 * time.Hour))
		for _, a := range day.MRRChange {
			ch := changes[a.Currency]
			if ch == nil {
				ch = make([]int64, n)
				changes[a.Currency] = ch
			}
			ch[i] = addSat(ch[i], a.Amount)
		}
	}
	curs := slices.Collect(maps.Keys(before))
	for cur := range changes {
		if _, ok := before[cur]; !ok {
			curs = append(curs, cur)
		}
	}
	slices.Sort(curs)
	labels := make([]string, n)
	for i := range labels {
		labels[i] = from.AddDate(0, 0, i).Format(time.DateOnly)
	}
	var out []chart
	for _, cur := range curs {
		money := func(v int64) string { return formatMoney(v, cur) }
		ch := changes[cur]
		values := make([]int64, n)
		v := before[cur]
		c := chart{
			ID: "mrr-" + cur, Title: "Monthly recurring revenue in " + cur,
			Link: "/subscriptions?" + url.Values{wire.ParamStatus: {wire.SubscriptionStatusActive}}.Encode(), LinkText: "Active subscriptions",
		}
		c.Table = chartTable{Caption: c.Title + ", the " + unit + "s it changed", Head: []string{periodHead(unit), "Change", "At the end"}}
		c.Table.addRow(chartRow{Label: "Before " + labels[0]}, "—", money(v))
		p, change := 0, int64(0)
		for i := range n {
			if ch != nil {
				v = addSat(v, ch[i])
				change = addSat(change, ch[i])
			}
			values[i] = v
			if i == n-1 || !ps[p].Until.After(from.AddDate(0, 0, i+1)) {
				if change != 0 {
					sign := "+"
					if change < 0 {
						sign = ""
					}
					c.Table.addRow(chartRow{Label: ps[p].Label}, sign+money(change), money(v))
				}
				p, change = p+1, 0
			}
		}
		c.Series = []chartSeries{{Name: "Monthly recurring revenue", Fill: "", Total: money(before[cur]) + " before " + labels[0] + ", " + money(v) + " on " + labels[n-1], Link: c.Link}}
		c.Desc = fmt.Sprintf("A line, one step a day from %s to %s: %s before, %s at the end.", labels[0], labels[n-1], money(before[cur]), money(v))
		step(&c, labels, values, money)
		out = append(out, c)
	}
	return out
}

// pair is a chart of two counts a period, stacked: the renewals or the
// deliveries.
type pair struct {
	id, title, noun string
	names, links    [2]string
	link, linkText  string
	// rowLink is the list of a period's objects, nil for none.
	rowLink func(period) string
	pick    func(*wire.SummaryDay) (int64, int64)
}

func pairChart(s *wire.Summary, ps []period, unit string, pc pair) *chart {
	values := make([][]int64, len(ps))
	for p := range values {
		values[p] = make([]int64, 2)
	}
	for i := range s.Days {
		p := dayIn(ps, s.Days[i].Date)
		if p < 0 {
			continue
		}
		a, b := pc.pick(&s.Days[i])
		values[p][0], values[p][1] = addSat(values[p][0], a), addSat(values[p][1], b)
	}
	c := &chart{ID: pc.id, Title: pc.title + " by " + unit, Link: pc.link, LinkText: pc.linkText}
	c.Table = chartTable{Caption: c.Title + ", the " + unit + "s without any left out", Head: []string{periodHead(unit), pc.names[0], pc.names[1]}}
	var tot [2]int64
	for p, v := range values {
		tot[0], tot[1] = addSat(tot[0], v[0]), addSat(tot[1], v[1])
		if v[0] != 0 || v[1] != 0 {
			row := chartRow{Label: ps[p].Label}
			if pc.rowLink != nil {
				row.Link = pc.rowLink(ps[p])
			}
			c.Table.addRow(row, formatInt(v[0]), formatInt(v[1]))
		}
	}
	if tot[0] == 0 && tot[1] == 0 {
		return nil
	}
	fills := []string{fillOK, fillBad}
	for i := range 2 {
		c.Series = append(c.Series, chartSeries{Name: pc.names[i], Fill: fills[i], Total: plural(tot[i], pc.noun), Link: pc.links[i]})
	}
	c.Desc = fmt.Sprintf("Stacked bars, one a %s from %s to %s: %s %s, %s %s.", unit, ps[0].Label, ps[len(ps)-1].Label,
		pc.names[0], plural(tot[0], pc.noun), pc.names[1], plural(tot[1], pc.noun))
	stack(c, ps, values, fills, formatInt, func(p, s int) string {
		return ps[p].Label + " · " + pc.names[s] + ": " + plural(values[p][s], pc.noun)
	})
	return c
}

// renewalsChart links to the invoices of its days; a failed renewal's
// invoice is open while its retries last.
func renewalsChart(s *wire.Summary, ps []period, unit string) *chart {
	invoices := func(q url.Values, from, until time.Time) string {
		return "/invoices?" + createdQuery(q, from, until).Encode()
	}
	from, until := ps[0].From, ps[len(ps)-1].Until
	return pairChart(s, ps, unit, pair{
		id: "renewals", title: "Renewals", noun: "renewal", names: [2]string{"Paid", "Failed"},
		links: [2]string{
			invoices(url.Values{wire.ParamStatus: {wire.InvoiceStatusPaid}}, from, until),
			invoices(url.Values{wire.ParamStatus: {wire.InvoiceStatusOpen}}, from, until),
		},
		link: invoices(url.Values{}, from, until), linkText: "Invoices of these days",
		rowLink: func(p period) string { return invoices(url.Values{}, p.From, p.Until) },
		pick:    func(d *wire.SummaryDay) (int64, int64) { return d.RenewalsPaid, d.RenewalsFailed },
	})
}

// deliveriesChart links to the webhooks page, which lists each endpoint's
// latest attempts.
func deliveriesChart(s *wire.Summary, ps []period, unit string) *chart {
	return pairChart(s, ps, unit, pair{
		id: "deliveries", title: "Webhook deliveries", noun: "attempt", names: [2]string{"Succeeded", "Failed"},
		links: [2]string{"/webhooks", "/webhooks"}, link: "/webhooks", linkText: "Webhook endpoints and their deliveries",
		pick: func(d *wire.SummaryDay) (int64, int64) { return d.DeliveriesSucceeded, d.DeliveriesFailed },
	})
}
