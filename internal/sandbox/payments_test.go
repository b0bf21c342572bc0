package sandbox_test

import (
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/clock"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/sandboxtest"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

func TestCreatePayment_Tokens(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	year := int64(time.Now().UTC().Year() + 3)
	for _, tc := range []struct {
		token, brand, last4, status string
		authCode, captured          bool
	}{
		{sandbox.TokenVisa, "visa", "4242", wire.PaymentStatusApproved, true, true},
		{sandbox.TokenMastercard, "mastercard", "4444", wire.PaymentStatusApproved, true, true},
		{sandbox.TokenAmex, "amex", "8431", wire.PaymentStatusApproved, true, true},
		{sandbox.TokenDispute, "visa", "0259", wire.PaymentStatusApproved, true, true},
		{sandbox.Token3DS, "visa", "3184", wire.PaymentStatusPending, false, false},
	} {
		t.Run(tc.token, func(t *testing.T) {
			e := &env{t: t, url: e.url, key: e.key, hc: e.hc}
			p := e.payment(pay("1234", "JPY", tc.token, "description", "order 7", "metadata[order]", "7"))
			if !rePaymentID.MatchString(p.ID) || p.Object != "payment" || p.Livemode || !reTimestamp.MatchString(p.CreatedAt) ||
				p.Amount != 1234 || p.Currency != "JPY" || p.Status != tc.status || p.Description != "order 7" || p.Metadata["order"] != "7" {
				t.Errorf("payment = %+v", p)
			}
			if p.Source == nil || !reSourceID.MatchString(p.Source.ID) || p.Source.Brand != tc.brand || p.Source.Last4 != tc.last4 ||
				p.Source.ExpMonth != 12 || p.Source.ExpYear != year {
				t.Errorf("source = %+v", p.Source)
			}
			if p.Captured == nil || *p.Captured != tc.captured || p.AmountRefunded == nil || *p.AmountRefunded != 0 {
				t.Errorf("captured %v amount_refunded %v", p.Captured, p.AmountRefunded)
			}
			if got := p.AuthorizationCode != ""; got != tc.authCode || (got && len(p.AuthorizationCode) != 6) {
				t.Errorf("authorization_code = %q", p.AuthorizationCode)
			}
			if p.Customer != "" {
				t.Errorf("customer = %q for a token charge", p.Customer)
			}
		})
	}

	// Declined: 402 card_error naming the payment, which exists.
	eb := e.post("/v1/payments", pay("500", "USD", sandbox.TokenDeclined)).fails(402, wire.ErrorTypeCard, wire.ErrorCodeCardDeclined, "")
	if !rePaymentID.MatchString(eb.Error.Payment) {
		t.Fatalf("402 without a payment id: %+v", eb)
	}
	var declined wire.Payment
	raw := e.get("/v1/payments/"+eb.Error.Payment, nil).ok(&declined).body
	if declined.Status != wire.PaymentStatusDeclined || declined.Source.Last4 != "0002" || *declined.Captured {
		t.Errorf("declined payment = %+v", declined)
	}
	if !strings.Contains(string(raw), `"authorization_code":null`) {
		t.Errorf("declined authorization_code is not null: %s", raw)
	}
	raw = e.get("/v1/payments", nil).body
	if strings.Count(string(raw), `"authorization_code":null`) != 2 {
		t.Errorf("want null authorization_code on the pending and the declined payment: %s", raw)
	}

	// capture=false authorizes only.
	p := e.payment(pay("900", "BRL", sandbox.TokenVisa, "capture", "false"))
	if p.Status != wire.PaymentStatusAuthorized || *p.Captured || p.AuthorizationCode == "" {
		t.Errorf("capture=false: %+v", p)
	}
	if p := e.payment(pay("900", "BRL", sandbox.TokenVisa, "capture", "true")); p.Status != wire.PaymentStatusApproved {
		t.Errorf("capture=true: %s", p.Status)
	}
}

func TestCreatePayment_Customer(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	cu := e.customer(vals("source", sandbox.TokenMastercard))
	var amex wire.Source
	e.post("/v1/customers/"+cu.ID+"/sources", vals("source", sandbox.TokenAmex)).ok(&amex)

	// customer alone charges the default source.
	p := e.payment(pay("100", "CAD", "", "customer", cu.ID))
	if p.Customer != cu.ID || p.Source.ID != cu.DefaultSource || p.Source.Brand != "mastercard" {
		t.Errorf("default charge = %+v source %+v", p, p.Source)
	}
	// source may be one of the customer's src_ ids...
	p = e.payment(pay("100", "CAD", amex.ID, "customer", cu.ID))
	if p.Source.ID != amex.ID || p.Source.Brand != "amex" || p.Customer != cu.ID {
		t.Errorf("src charge = %+v", p.Source)
	}
	// ...or a token, charged for the customer.
	p = e.payment(pay("100", "CAD", sandbox.TokenVisa, "customer", cu.ID))
	if p.Source.Brand != "visa" || p.Source.ID == cu.DefaultSource || p.Customer != cu.ID {
		t.Errorf("token charge for customer = %+v", p.Source)
	}
	// A stored declining card declines.
	var bad wire.Source
	e.post("/v1/customers/"+cu.ID+"/sources", vals("source", sandbox.TokenDeclined)).ok(&bad)
	e.post("/v1/payments", pay("100", "CAD", bad.ID, "customer", cu.ID)).fails(402, wire.ErrorTypeCard, wire.ErrorCodeCardDeclined, "")

	bare := e.customer(nil)
	other := e.customer(vals("source", sandbox.TokenVisa))
	for _, tc := range []struct {
		name        string
		body        string
		code, param string
	}{
		{"no source nor customer", "amount=100&currency=USD", wire.ErrorCodeParameterMissing, "source"},
		{"customer without default", "amount=100&currency=USD&customer=" + bare.ID, wire.ErrorCodeMissingSource, "source"},
		{"unknown customer", "amount=100&currency=USD&customer=cus_AAAAAAAAAAAAAAAAAAAAAAAA", wire.ErrorCodeResourceMissing, "customer"},
		{"malformed customer", "amount=100&currency=USD&customer=bob", wire.ErrorCodeResourceMissing, "customer"},
		{"src of another customer", "amount=100&currency=USD&customer=" + cu.ID + "&source=" + other.DefaultSource, wire.ErrorCodeResourceMissing, "source"},
		{"src without customer", "amount=100&currency=USD&source=" + amex.ID, wire.ErrorCodeParameterMissing, "customer"},
		{"unknown token", "amount=100&currency=USD&source=tok_unknown", wire.ErrorCodeTokenInvalid, "source"},
		{"amount missing", "currency=USD&source=tok_visa", wire.ErrorCodeParameterMissing, "amount"},
		{"amount zero", "amount=0&currency=USD&source=tok_visa", wire.ErrorCodeParameterInvalid, "amount"},
		{"amount negative", "amount=-5&currency=USD&source=tok_visa", wire.ErrorCodeParameterInvalid, "amount"},
		{"amount over max", "amount=100000000&currency=USD&source=tok_visa", wire.ErrorCodeParameterInvalid, "amount"},
		{"amount decimal", "amount=10.5&currency=USD&source=tok_visa", wire.ErrorCodeParameterInvalid, "amount"},
		{"amount text", "amount=ten&currency=USD&source=tok_visa", wire.ErrorCodeParameterInvalid, "amount"},
		{"currency missing", "amount=100&source=tok_visa", wire.ErrorCodeParameterMissing, "currency"},
		{"currency lower case", "amount=100&currency=usd&source=tok_visa", wire.ErrorCodeParameterInvalid, "currency"},
		{"currency unknown", "amount=100&currency=XXX&source=tok_visa", wire.ErrorCodeParameterInvalid, "currency"},
		{"capture not boolean", "amount=100&currency=USD&source=tok_visa&capture=yes", wire.ErrorCodeParameterInvalid, "capture"},
		{"unknown parameter", "amount=100&currency=USD&source=tok_visa&statement_descriptor=x", wire.ErrorCodeParameterUnknown, "statement_descriptor"},
		{"metadata value too long", "amount=100&currency=USD&source=tok_visa&metadata[foo]=" + strings.Repeat("x", 501), wire.ErrorCodeParameterInvalid, "metadata[foo]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := &env{t: t, url: e.url, key: e.key, hc: e.hc}
			e.doRaw(http.MethodPost, "/v1/payments", tc.body).fails(400, wire.ErrorTypeInvalidRequest, tc.code, tc.param)
		})
	}
	// The bounds themselves are accepted, and every listed currency.
	for _, amount := range []int64{wire.PaymentAmountMin, wire.PaymentAmountMax} {
		for _, cur := range wire.Currencies {
			if p := e.payment(pay(strconv.FormatInt(amount, 10), cur, sandbox.TokenVisa)); p.Amount != amount || p.Currency != cur {
				t.Errorf("payment of %d %s = %d %s", amount, cur, p.Amount, p.Currency)
			}
		}
	}
	// Rejected creates made nothing.
	if st := e.stats(); st.Payments != 4+2*int64(len(wire.Currencies)) {
		t.Errorf("payments = %d", st.Payments)
	}
}

// state makes a payment in the given status.
func (e *env) state(status string) *wire.Payment {
	e.t.Helper()
	switch status {
	case wire.PaymentStatusPending:
		return e.payment(pay("1000", "USD", sandbox.Token3DS))
	case wire.PaymentStatusAuthorized:
		return e.payment(pay("1000", "USD", sandbox.TokenVisa, "capture", "false"))
	case wire.PaymentStatusApproved:
		return e.payment(pay("1000", "USD", sandbox.TokenDispute))
	case wire.PaymentStatusDeclined:
		eb := e.post("/v1/payments", pay("1000", "USD", sandbox.TokenDeclined)).fails(402, wire.ErrorTypeCard, wire.ErrorCodeCardDeclined, "")
		var p wire.Payment
		e.get("/v1/payments/"+eb.Error.Payment, nil).ok(&p)
		return &p
	case wire.PaymentStatusPartiallyRefunded:
		p := e.state(wire.PaymentStatusApproved)
		e.post("/v1/payments/"+p.ID+"/refund", vals("amount", "100")).ok(p)
		return p
	case wire.PaymentStatusRefunded:
		p := e.state(wire.PaymentStatusApproved)
		e.post("/v1/payments/"+p.ID+"/refund", nil).ok(p)
		return p
	case wire.PaymentStatusDisputed:
		p := e.state(wire.PaymentStatusApproved)
		e.post("/_sandbox/payments/"+p.ID+"/dispute", nil).ok(p)
		return p
	}
	e.t.Fatalf("no way to make a %s payment", status)
	return nil
}

// TestPaymentTransitions_EveryAction tries every action from every status:
// it succeeds exactly when sandbox.PaymentTransitions allows the move, and
// is refused with payment_unexpected_state otherwise.
func TestPaymentTransitions_EveryAction(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	actions := []struct {
		name, path string
		form       []string
		to         string
		// only limits an action to the states it applies to, beyond the
		// transition table (a capture is not a way out of pending).
		only string
	}{
		{"capture", "/v1/payments/%s/capture", nil, wire.PaymentStatusApproved, wire.PaymentStatusAuthorized},
		{"partial refund", "/v1/payments/%s/refund", []string{"amount", "100"}, wire.PaymentStatusPartiallyRefunded, ""},
		{"full refund", "/v1/payments/%s/refund", nil, wire.PaymentStatusRefunded, ""},
		{"dispute", "/_sandbox/payments/%s/dispute", nil, wire.PaymentStatusDisputed, ""},
		{"complete approved", "/_sandbox/payments/%s/complete", []string{"outcome", "approved"}, wire.PaymentStatusApproved, wire.PaymentStatusPending},
		{"complete authorized", "/_sandbox/payments/%s/complete", []string{"outcome", "authorized"}, wire.PaymentStatusAuthorized, wire.PaymentStatusPending},
		{"complete declined", "/_sandbox/payments/%s/complete", []string{"outcome", "declined"}, wire.PaymentStatusDeclined, wire.PaymentStatusPending},
	}
	allowed := 0
	for _, from := range wire.PaymentStatuses {
		for _, a := range actions {
			t.Run(from+"/"+a.name, func(t *testing.T) {
				e := &env{t: t, url: e.url, key: e.key, hc: e.hc}
				p := e.state(from)
				res := e.post(fmt.Sprintf(a.path, p.ID), vals(a.form...))
				ok := slices.Contains(sandbox.PaymentTransitions[from], a.to) && (a.only == "" || a.only == from)
				if !ok {
					res.fails(400, wire.ErrorTypeInvalidRequest, wire.ErrorCodePaymentUnexpectedState, "")
					var after wire.Payment
					e.get("/v1/payments/"+p.ID, nil).ok(&after)
					if after.Status != from {
						t.Errorf("a refused %s moved the payment from %s to %s", a.name, from, after.Status)
					}
					return
				}
				allowed++
				var got wire.Payment
				res.ok(&got)
				if got.Status != a.to {
					t.Errorf("%s from %s: status %s, want %s", a.name, from, got.Status, a.to)
				}
				if (got.AuthorizationCode == "") != (got.Status == wire.PaymentStatusDeclined) {
					t.Errorf("%s: authorization_code %q with status %s", a.name, got.AuthorizationCode, got.Status)
				}
			})
		}
	}
	// pending->3, authorized->1, approved->3, partially_refunded->3.
	if allowed != 10 {
		t.Errorf("%d transitions allowed, want 10", allowed)
	}
}

func TestCaptureAndRefund_Amounts(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	p := e.payment(pay("1000", "EUR", sandbox.TokenVisa, "capture", "false"))
	if eb := e.post("/v1/payments/"+p.ID+"/capture", vals("amount", "1001")).fails(400, wire.ErrorTypeInvalidRequest, wire.ErrorCodeParameterInvalid, "amount"); !strings.Contains(eb.Error.Message, "from 1 to 1000 (0.01 EUR to 10.00 EUR)") {
		t.Errorf("capturing too much: %q, want the bounds in EUR too", eb.Error.Message)
	}
	e.post("/v1/payments/"+p.ID+"/capture", vals("amount", "0")).fails(400, wire.ErrorTypeInvalidRequest, wire.ErrorCodeParameterInvalid, "amount")
	e.post("/v1/payments/"+p.ID+"/capture", vals("amoutn", "1")).fails(400, wire.ErrorTypeInvalidRequest, wire.ErrorCodeParameterUnknown, "amoutn")
	var got wire.Payment
	e.post("/v1/payments/"+p.ID+"/capture", vals("amount", "600")).ok(&got)
	if got.Amount != 600 || got.Status != wire.PaymentStatusApproved || !*got.Captured || got.AuthorizationCode != p.AuthorizationCode {
		t.Errorf("captured 600 of 1000: %+v", got)
	}
	e.post("/v1/payments/"+p.ID+"/refund", vals("amount", "601")).fails(400, wire.ErrorTypeInvalidRequest, wire.ErrorCodeParameterInvalid, "amount")
	e.post("/v1/payments/"+p.ID+"/refund", vals("amount", "200")).ok(&got)
	if got.Status != wire.PaymentStatusPartiallyRefunded || *got.AmountRefunded != 200 || got.Amount != 600 {
		t.Errorf("refund 200: %+v", got)
	}
	e.post("/v1/payments/"+p.ID+"/refund", vals("amount", "100")).ok(&got)
	if got.Status != wire.PaymentStatusPartiallyRefunded || *got.AmountRefunded != 300 {
		t.Errorf("refund 100 more: %+v", got)
	}
	eb := e.post("/v1/payments/"+p.ID+"/refund", vals("amount", "301")).fails(400, wire.ErrorTypeInvalidRequest, wire.ErrorCodeParameterInvalid, "amount")
	// The most that may be refunded, in the units people read too.
	if want := "from 1 to 300 (0.01 EUR to 3.00 EUR)"; !strings.Contains(eb.Error.Message, want) {
		t.Errorf("refunding too much: %q, want it to say %q", eb.Error.Message, want)
	}
	// Without amount: what is left.
	e.post("/v1/payments/"+p.ID+"/refund", nil).ok(&got)
	if got.Status != wire.PaymentStatusRefunded || *got.AmountRefunded != 600 {
		t.Errorf("refund the rest: %+v", got)
	}
	// A full capture keeps the amount.
	p = e.payment(pay("1000", "EUR", sandbox.TokenVisa, "capture", "false"))
	e.post("/v1/payments/"+p.ID+"/capture", nil).ok(&got)
	if got.Amount != 1000 || got.Status != wire.PaymentStatusApproved {
		t.Errorf("full capture: %+v", got)
	}
	e.post("/v1/payments/pay_AAAAAAAAAAAAAAAAAAAAAAAA/capture", nil).fails(404, wire.ErrorTypeInvalidRequest, wire.ErrorCodeResourceMissing, "")
	e.post("/v1/payments/pay_AAAAAAAAAAAAAAAAAAAAAAAA/refund", nil).fails(404, wire.ErrorTypeInvalidRequest, wire.ErrorCodeResourceMissing, "")
}

func TestSandboxControls_CompleteAndDispute(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	var got wire.Payment
	// Without an outcome, complete finishes as the create asked.
	p := e.payment(pay("100", "USD", sandbox.Token3DS))
	e.post("/_sandbox/payments/"+p.ID+"/complete", nil).ok(&got)
	if got.Status != wire.PaymentStatusApproved || !*got.Captured || len(got.AuthorizationCode) != 6 {
		t.Errorf("complete: %+v", got)
	}
	p = e.payment(pay("100", "USD", sandbox.Token3DS, "capture", "false"))
	e.post("/_sandbox/payments/"+p.ID+"/complete", nil).ok(&got)
	if got.Status != wire.PaymentStatusAuthorized || *got.Captured {
		t.Errorf("complete of capture=false: %+v", got)
	}
	p = e.payment(pay("100", "USD", sandbox.Token3DS))
	var declined wire.Payment
	e.post("/_sandbox/payments/"+p.ID+"/complete", vals("outcome", "declined")).ok(&declined)
	if declined.Status != wire.PaymentStatusDeclined || declined.AuthorizationCode != "" || *declined.Captured {
		t.Errorf("complete declined (200 whatever the outcome): %+v", declined)
	}
	p = e.payment(pay("100", "USD", sandbox.Token3DS))
	e.post("/_sandbox/payments/"+p.ID+"/complete", vals("outcome", "refunded")).fails(400, wire.ErrorTypeInvalidRequest, wire.ErrorCodeParameterInvalid, "outcome")
	e.post("/_sandbox/payments/pay_AAAAAAAAAAAAAAAAAAAAAAAA/complete", nil).fails(404, wire.ErrorTypeInvalidRequest, wire.ErrorCodeResourceMissing, "")

	// Any approved or partially refunded payment can be disputed, not only tok_dispute's.
	p = e.payment(pay("100", "USD", sandbox.TokenAmex))
	e.post("/_sandbox/payments/"+p.ID+"/dispute", nil).ok(&got)
	if got.Status != wire.PaymentStatusDisputed {
		t.Errorf("dispute: %+v", got)
	}
}

// listEnv is a sandbox whose clock the test sets.
func listEnv(t *testing.T) (*env, *clock.Fake) {
	clk := clock.NewFake(time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC))
	return newEnv(t, sandboxtest.WithClock(clk)), clk
}

func TestListPayments_OrderAndFilters(t *testing.T) {
	t.Parallel()
	e, clk := listEnv(t)
	cu := e.customer(vals("source", sandbox.TokenAmex))
	// 25 payments: three per second, so that many share a timestamp and
	// only the creation order can sort them.
	var ids []string // oldest first
	for i := range 25 {
		f := pay(strconv.Itoa(100+i), "USD", sandbox.TokenVisa)
		if i%5 == 0 {
			f = pay(strconv.Itoa(100+i), "USD", "", "customer", cu.ID)
		}
		if i%4 == 0 {
			f.Set("capture", "false")
		}
		ids = append(ids, e.payment(f).ID)
		if i%3 == 2 {
			clk.Advance(time.Second)
		}
	}
	newest := slices.Clone(ids)
	slices.Reverse(newest)
	page := func(q ...string) ([]string, bool) {
		t.Helper()
		var l wire.PaymentList
		e.get("/v1/payments", vals(q...)).ok(&l)
		if l.Object != "list" || l.URL != "/v1/payments" {
			t.Errorf("list envelope = %q %q", l.Object, l.URL)
		}
		var out []string
		for _, p := range l.Data {
			out = append(out, p.ID)
		}
		return out, l.HasMore
	}
	check := func(name string, got []string, more bool, want []string, wantMore bool) {
		t.Helper()
		if !slices.Equal(got, want) || more != wantMore {
			t.Errorf("%s: got %d ids (has_more %v), want %d (has_more %v)\n got %v\nwant %v", name, len(got), more, len(want), wantMore, got, want)
		}
	}

	got, more := page()
	check("default limit", got, more, newest[:10], true)
	got, more = page("limit", "10", "starting_after", newest[9])
	check("second page", got, more, newest[10:20], true)
	got, more = page("limit", "10", "starting_after", newest[19])
	check("last page", got, more, newest[20:], false)
	got, more = page("limit", "100")
	check("limit 100", got, more, newest, false)
	got, more = page("limit", "1", "starting_after", newest[24])
	check("after the oldest", got, more, nil, false)
	// ending_before: the limit payments right before the cursor, newest first.
	got, more = page("limit", "10", "ending_before", newest[20])
	check("ending_before back one page", got, more, newest[10:20], true)
	got, more = page("limit", "5", "ending_before", newest[3])
	check("ending_before near the top", got, more, newest[:3], false)
	got, more = page("limit", "3", "ending_before", newest[0])
	check("ending_before the newest", got, more, nil, false)
	// Walking back with ending_before visits every page.
	var walked []string
	cursor := newest[24]
	for {
		got, more := page("limit", "7", "ending_before", cursor)
		walked = append(got, walked...)
		if !more {
			break
		}
		cursor = got[0]
	}
	check("walk back", walked, false, newest[:24], false)

	// Filters.
	var wantCustomer, wantAuthorized []string
	for i, id := range newest {
		orig := 24 - i
		if orig%5 == 0 {
			wantCustomer = append(wantCustomer, id)
		}
		if orig%4 == 0 {
			wantAuthorized = append(wantAuthorized, id)
		}
	}
	got, more = page("customer", cu.ID, "limit", "100")
	check("customer", got, more, wantCustomer, false)
	got, more = page("customer", cu.ID, "limit", "2", "starting_after", wantCustomer[1])
	check("customer page 2", got, more, wantCustomer[2:4], true)
	got, more = page("status", wire.PaymentStatusAuthorized, "limit", "100")
	check("status", got, more, wantAuthorized, false)
	got, more = page("status", wire.PaymentStatusAuthorized, "customer", cu.ID, "limit", "100")
	check("status and customer", got, more, []string{ids[20], ids[0]}, false)
	// Payments 3..5 were made in the second second; 6..8 in the third.
	got, more = page("created[gte]", "2030-01-01T00:00:01Z", "created[lte]", "2030-01-01T00:00:02Z")
	check("created range", got, more, []string{ids[8], ids[7], ids[6], ids[5], ids[4], ids[3]}, false)
	got, more = page("created[lte]", "2030-01-01T00:00:00.5Z")
	check("created lte fraction", got, more, []string{ids[2], ids[1], ids[0]}, false)
	got, more = page("created[gte]", "2030-01-01T09:00:07+09:00", "limit", "100")
	check("created gte with offset", got, more, newest[:4], false)
	// The same bounds in Unix seconds (2030-01-01T00:00:00Z is
	// 1893456000), and the exclusive ones.
	got, more = page("created[gte]", "1893456001", "created[lte]", "1893456002")
	check("created range in Unix seconds", got, more, []string{ids[8], ids[7], ids[6], ids[5], ids[4], ids[3]}, false)
	got, more = page("created[gt]", "1893456000", "created[lt]", "2030-01-01T00:00:03Z")
	check("created exclusive range", got, more, []string{ids[8], ids[7], ids[6], ids[5], ids[4], ids[3]}, false)
	got, more = page("created[gt]", "1893456001", "created[gte]", "1893456000", "created[lt]", "1893456003")
	check("created, the narrower bound", got, more, []string{ids[8], ids[7], ids[6]}, false)

	for _, tc := range []struct {
		q           []string
		code, param string
	}{
		{[]string{"status", "paid"}, wire.ErrorCodeParameterInvalid, "status"},
		{[]string{"created[gte]", "yesterday"}, wire.ErrorCodeParameterInvalid, "created[gte]"},
		{[]string{"created[lte]", "2030-01-01"}, wire.ErrorCodeParameterInvalid, "created[lte]"},
		{[]string{"created[gt]", "-1"}, wire.ErrorCodeParameterInvalid, "created[gt]"},
		{[]string{"created[lt]", "253402300800"}, wire.ErrorCodeParameterInvalid, "created[lt]"},
		{[]string{"created[gte]", "1893456000.5"}, wire.ErrorCodeParameterInvalid, "created[gte]"},
		{[]string{"created[ne]", "2030-01-01T00:00:00Z"}, wire.ErrorCodeParameterUnknown, "created[ne]"},
		{[]string{"created", "2030-01-01T00:00:00Z"}, wire.ErrorCodeParameterUnknown, "created"},
		{[]string{"customer", "cus_AAAAAAAAAAAAAAAAAAAAAAAA"}, wire.ErrorCodeResourceMissing, "customer"},
	} {
		e.get("/v1/payments", vals(tc.q...)).fails(400, wire.ErrorTypeInvalidRequest, tc.code, tc.param)
	}
}
