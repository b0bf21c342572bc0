package sandbox_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// TestList_Paging holds the paging rules every list shares (package listing): the
// same limit, cursors and errors on each. A list's own filters are tested
// with it.
func TestList_Paging(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	for range 2 {
		e.customer(vals("email", "ada@example.com"))
		e.payment(pay("1000", "USD", "tok_visa"))
		e.post(wire.PathWebhookEndpoints, vals("url", "http://127.0.0.1:9/hooks", "enabled_events[]", "*")).ok(nil)
		e.price(e.product("name", "Gold").ID)
	}
	type page struct {
		ids     []string
		hasMore bool
	}
	get := func(e *env, path string, q ...string) page {
		e.t.Helper()
		var l wire.List[struct {
			ID string `json:"id"`
		}]
		res := e.get(path, vals(q...))
		if res.status != 200 {
			e.t.Fatalf("GET %s?%s: %d %s", path, vals(q...).Encode(), res.status, res.body)
		}
		if err := json.Unmarshal(res.body, &l); err != nil {
			e.t.Fatalf("decoding %s: %v", res.body, err)
		}
		if l.Object != "list" || l.URL != path {
			e.t.Errorf("envelope object %q url %q; want list %s", l.Object, l.URL, path)
		}
		var p page
		for _, x := range l.Data {
			p.ids = append(p.ids, x.ID)
		}
		p.hasMore = l.HasMore
		return p
	}
	limitMessage := fmt.Sprintf("from %d to %d", wire.ListLimitMin, wire.ListLimitMax)

	// A subscription of three items, for the lists of its items and of
	// its first invoice's lines.
	cu := e.customer(vals("source", "tok_visa"))
	sub := e.subscribe("customer", cu.ID, "items[0][price]", e.plan("1500").ID, "items[1][price]", e.plan("700").ID,
		"items[2][price]", e.plan("300").ID)
	bySub := []string{wire.ParamSubscription, sub.ID}
	// And a customer of three sources, for the list of its sources.
	for _, tok := range []string{"tok_mastercard", "tok_amex"} {
		e.post(wire.PathCustomers+"/"+cu.ID+"/sources", vals("source", tok)).ok(nil)
	}
	sourcesPath := wire.PathCustomers + "/" + cu.ID + "/sources"

	// Every list the API serves; a new one adds itself here, with the
	// filter it requires (query).
	for _, list := range []struct {
		path, prefix string
		query        []string
	}{
		{wire.PathCustomers, wire.CustomerIDPrefix, nil},
		{wire.PathPayments, wire.PaymentIDPrefix, nil},
		{wire.PathEvents, wire.EventIDPrefix, nil},
		{wire.PathWebhookEndpoints, wire.WebhookEndpointIDPrefix, nil},
		{wire.PathProducts, wire.ProductIDPrefix, nil},
		{wire.PathPrices, wire.PriceIDPrefix, nil},
		{wire.PathSubscriptionItems, wire.SubscriptionItemIDPrefix, bySub},
		{wire.PathInvoices + "/" + sub.LatestInvoice + "/lines", wire.InvoiceLineIDPrefix, nil},
		{sourcesPath, wire.SourceIDPrefix, nil},
	} {
		all := get(e, list.path, append(slices.Clone(list.query), wire.ParamLimit, "100")...)
		if len(all.ids) < 2 || all.hasMore {
			t.Fatalf("%s: %v (has_more %v); want at least two objects, all of them", list.path, all.ids, all.hasMore)
		}
		// A subscription's items, an invoice's lines and a customer's
		// sources page in their embedded order.
		if list.query != nil || list.prefix == wire.InvoiceLineIDPrefix || list.prefix == wire.SourceIDPrefix {
			var embedded []string
			for _, it := range sub.Items.Data {
				embedded = append(embedded, it.ID)
			}
			if list.prefix == wire.InvoiceLineIDPrefix {
				embedded = embedded[:0]
				for _, l := range e.invoice(sub.LatestInvoice).Lines.Data {
					embedded = append(embedded, l.ID)
				}
			}
			if list.prefix == wire.SourceIDPrefix {
				embedded = embedded[:0]
				var c wire.Customer
				e.get(wire.PathCustomers+"/"+cu.ID, nil).ok(&c)
				for _, s := range c.Sources.Data {
					embedded = append(embedded, s.ID)
				}
				if len(embedded) != 3 {
					t.Fatalf("customer %s has sources %v; want 3", cu.ID, embedded)
				}
			}
			if !slices.Equal(all.ids, embedded) {
				t.Errorf("%s: %v; want the embedded list's order %v", list.path, all.ids, embedded)
			}
		}
		newest, second, oldest := all.ids[0], all.ids[1], all.ids[len(all.ids)-1]
		absent := list.prefix + strings.Repeat("A", wire.IDRandomLength)
		// An object of the account, but of another list.
		other := wire.PathCustomers
		if list.path == wire.PathCustomers {
			other = wire.PathPayments
		}
		otherKind := get(e, other, wire.ParamLimit, "1").ids[0]
		for _, tc := range []struct {
			name string
			q    []string
			want page // when param is ""
			// param and code of the 400 refusal, if any.
			param, code string
		}{
			{name: "default", want: page{ids: all.ids[:min(len(all.ids), wire.ListLimitDefault)], hasMore: len(all.ids) > wire.ListLimitDefault}},
			{name: "limit empty is the default", q: []string{wire.ParamLimit, ""}, want: page{ids: all.ids[:min(len(all.ids), wire.ListLimitDefault)], hasMore: len(all.ids) > wire.ListLimitDefault}},
			{name: "limit 1", q: []string{wire.ParamLimit, "1"}, want: page{ids: []string{newest}, hasMore: true}},
			{name: "limit 100", q: []string{wire.ParamLimit, "100"}, want: all},
			{name: "starting_after", q: []string{wire.ParamLimit, "1", wire.ParamStartingAfter, newest}, want: page{ids: []string{second}, hasMore: len(all.ids) > 2}},
			{name: "starting_after the oldest", q: []string{wire.ParamStartingAfter, oldest}, want: page{}},
			{name: "ending_before", q: []string{wire.ParamLimit, "1", wire.ParamEndingBefore, second}, want: page{ids: []string{newest}}},
			{name: "ending_before the newest", q: []string{wire.ParamEndingBefore, newest}, want: page{}},

			{name: "limit 0", q: []string{wire.ParamLimit, "0"}, param: wire.ParamLimit, code: wire.ErrorCodeParameterInvalid},
			{name: "limit 101", q: []string{wire.ParamLimit, "101"}, param: wire.ParamLimit, code: wire.ErrorCodeParameterInvalid},
			{name: "limit -1", q: []string{wire.ParamLimit, "-1"}, param: wire.ParamLimit, code: wire.ErrorCodeParameterInvalid},
			{name: "limit leading zero", q: []string{wire.ParamLimit, "05"}, param: wire.ParamLimit, code: wire.ErrorCodeParameterInvalid},
			{name: "limit plus sign", q: []string{wire.ParamLimit, "+5"}, param: wire.ParamLimit, code: wire.ErrorCodeParameterInvalid},
			{name: "limit leading blank", q: []string{wire.ParamLimit, " 5"}, param: wire.ParamLimit, code: wire.ErrorCodeParameterInvalid},
			{name: "limit trailing blank", q: []string{wire.ParamLimit, "5 "}, param: wire.ParamLimit, code: wire.ErrorCodeParameterInvalid},
			{name: "limit exponent", q: []string{wire.ParamLimit, "1e1"}, param: wire.ParamLimit, code: wire.ErrorCodeParameterInvalid},
			{name: "limit fraction", q: []string{wire.ParamLimit, "5.0"}, param: wire.ParamLimit, code: wire.ErrorCodeParameterInvalid},
			{name: "limit word", q: []string{wire.ParamLimit, "ten"}, param: wire.ParamLimit, code: wire.ErrorCodeParameterInvalid},
			{name: "limit huge", q: []string{wire.ParamLimit, "99999999999999999999"}, param: wire.ParamLimit, code: wire.ErrorCodeParameterInvalid},
			{name: "both cursors", q: []string{wire.ParamStartingAfter, newest, wire.ParamEndingBefore, oldest}, param: wire.ParamEndingBefore, code: wire.ErrorCodeParameterInvalid},
			{name: "starting_after absent", q: []string{wire.ParamStartingAfter, absent}, param: wire.ParamStartingAfter, code: wire.ErrorCodeResourceMissing},
			{name: "starting_after of another list", q: []string{wire.ParamStartingAfter, otherKind}, param: wire.ParamStartingAfter, code: wire.ErrorCodeResourceMissing},
			{name: "ending_before malformed", q: []string{wire.ParamEndingBefore, "nope"}, param: wire.ParamEndingBefore, code: wire.ErrorCodeResourceMissing},
			{name: "unknown parameter", q: []string{"page", "2"}, param: "page", code: wire.ErrorCodeParameterUnknown},
		} {
			t.Run(list.path+"/"+tc.name, func(t *testing.T) {
				e := *e
				e.t = t
				q := append(slices.Clone(list.query), tc.q...)
				if tc.param == "" {
					got := get(&e, list.path, q...)
					if !slices.Equal(got.ids, tc.want.ids) || got.hasMore != tc.want.hasMore {
						t.Errorf("got %v has_more %v; want %v has_more %v", got.ids, got.hasMore, tc.want.ids, tc.want.hasMore)
					}
					return
				}
				eb := e.get(list.path, vals(q...)).fails(400, wire.ErrorTypeInvalidRequest, tc.code, tc.param)
				if tc.param == wire.ParamLimit && !strings.Contains(eb.Error.Message, limitMessage) {
					t.Errorf("message %q does not give the range (%s)", eb.Error.Message, limitMessage)
				}
			})
		}
	}
}

// partWriter records each Write of an answer and runs between on every
// write after the first: what another client does while this one's
// answer is being sent.
type partWriter struct {
	header  http.Header
	status  int
	body    bytes.Buffer
	writes  []int
	between func(n int)
}

func (w *partWriter) Header() http.Header { return w.header }
func (w *partWriter) WriteHeader(s int)   { w.status = s }
func (w *partWriter) Write(b []byte) (int, error) {
	if len(w.writes) > 0 && w.between != nil {
		w.between(len(w.writes))
	}
	w.writes = append(w.writes, len(b))
	return w.body.Write(b)
}

// TestList_LongAnswerStreams: a page longer than one part (32 KiB) is
// written a part at a time, without Content-Length, and the account's lock
// is free between parts: another request of the account runs while the
// answer is sent (a deleted customer is then left out of the rest), so a
// client that reads slowly holds one part, not the page, and no lock.
func TestList_LongAnswerStreams(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	var ids []string // newest first
	for i := range 60 {
		f := url.Values{"name": {fmt.Sprint("Customer ", i)}}
		for k := range 10 {
			f.Set(fmt.Sprintf("metadata[k%d]", k), strings.Repeat("<", 500))
		}
		ids = slices.Insert(ids, 0, e.customer(f).ID)
	}
	gone := ids[50]
	w := &partWriter{header: http.Header{}}
	w.between = func(n int) {
		if n != 1 {
			return
		}
		done := make(chan *result, 1)
		go func() { done <- e.del(wire.PathCustomers + "/" + gone) }()
		select {
		case r := <-done:
			if r.status != 200 {
				t.Errorf("deleting %s while the list is sent: %d %s", gone, r.status, r.body)
			}
		case <-time.After(10 * time.Second):
			t.Fatal("a delete waited 10s while a list answer was being sent: the list holds the account's lock")
		}
	}
	r := httptest.NewRequest(http.MethodGet, wire.PathCustomers+"?limit=100", nil)
	r.SetBasicAuth(e.key, "")
	e.srv.ServeHTTP(w, r)
	if w.status != 200 || w.header.Get("Content-Length") != "" {
		t.Fatalf("status %d, Content-Length %q: want 200 streamed without one", w.status, w.header.Get("Content-Length"))
	}
	t.Logf("%d bytes in %d writes: %v", w.body.Len(), len(w.writes), w.writes)
	if len(w.writes) < 3 {
		t.Errorf("the answer came in %d writes, want parts of at most 32 KiB and an object", len(w.writes))
	}
	for _, n := range w.writes {
		if n > 32<<10+40<<10 {
			t.Errorf("a write of %d bytes: more than a part and one customer", n)
		}
	}
	var l wire.List[wire.Customer]
	if err := json.Unmarshal(w.body.Bytes(), &l); err != nil {
		t.Fatalf("the streamed answer does not decode: %v", err)
	}
	var got []string
	for _, cu := range l.Data {
		got = append(got, cu.ID)
	}
	want := slices.Delete(slices.Clone(ids), 50, 51)
	if !slices.Equal(got, want) || l.HasMore || l.URL != wire.PathCustomers {
		t.Errorf("got %d customers %v (has_more %v, url %q), want %d without the deleted %s", len(got), got, l.HasMore, l.URL, len(want), gone)
	}
}

// TestList_CreatedFilters: every list with a created filter reads it the
// one way (form.CreatedRange): two objects a second apart, and the
// exclusive bound in Unix seconds keeps the newer, the inclusive one in
// RFC 3339 the older; a bound that is not a time is 400 naming it.
func TestList_CreatedFilters(t *testing.T) {
	t.Parallel()
	e, clk := listEnv(t) // 2030-01-01T00:00:00Z, Unix 1893456000
	cu := e.customer(vals("source", "tok_visa"))
	olderPrice := e.plan("1000")
	olderSub := e.subscribe("customer", cu.ID, "items[0][price]", olderPrice.ID)
	clk.Advance(time.Second)
	newerPrice := e.plan("2000")
	newerSub := e.subscribe("customer", cu.ID, "items[0][price]", newerPrice.ID)
	ids := func(path string, q ...string) []string {
		t.Helper()
		var l wire.List[json.RawMessage]
		if err := json.Unmarshal(e.get(path, vals(q...)).ok(nil).body, &l); err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, raw := range l.Data {
			var o struct {
				ID string `json:"id"`
			}
			if err := json.Unmarshal(*raw, &o); err != nil {
				t.Fatal(err)
			}
			out = append(out, o.ID)
		}
		return out
	}
	for _, tc := range []struct {
		path         string
		older, newer string
	}{
		{wire.PathProducts, olderPrice.Product, newerPrice.Product},
		{wire.PathPrices, olderPrice.ID, newerPrice.ID},
		{wire.PathSubscriptions, olderSub.ID, newerSub.ID},
		{wire.PathInvoices, e.invoices(olderSub.ID)[0].ID, e.invoices(newerSub.ID)[0].ID},
	} {
		if got := ids(tc.path, "created[gt]", "1893456000"); !slices.Equal(got, []string{tc.newer}) {
			t.Errorf("%s created[gt]: %v, want %s", tc.path, got, tc.newer)
		}
		if got := ids(tc.path, "created[lte]", "2030-01-01T00:00:00Z"); !slices.Equal(got, []string{tc.older}) {
			t.Errorf("%s created[lte]: %v, want %s", tc.path, got, tc.older)
		}
		e.get(tc.path, vals("created[lt]", "2030-01-01")).fails(400, wire.ErrorTypeInvalidRequest, wire.ErrorCodeParameterInvalid, "created[lt]")
	}
}
