package sandbox_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

var (
	reSubscriptionID = regexp.MustCompile(`^sub_[A-Za-z0-9]{24}$`)
	reInvoiceID      = regexp.MustCompile(`^in_[A-Za-z0-9]{24}$`)
	reInvoiceLineID  = regexp.MustCompile(`^il_[A-Za-z0-9]{24}$`)
)

// plan is a product with a monthly price of amount USD cents.
func (e *env) plan(amount string, f ...string) *wire.Price {
	e.t.Helper()
	p := e.product("name", "Plan")
	return e.price(p.ID, append([]string{"unit_amount", amount, "recurring[interval]", "month"}, f...)...)
}

func (e *env) subscribe(f ...string) *wire.Subscription {
	e.t.Helper()
	var s wire.Subscription
	e.post(wire.PathSubscriptions, vals(f...)).ok(&s)
	return &s
}

func (e *env) invoice(id string) *wire.Invoice {
	e.t.Helper()
	var inv wire.Invoice
	e.get(wire.PathInvoices+"/"+id, nil).ok(&inv)
	return &inv
}

// eventTypes are the types of the account's events, oldest first.
func (e *env) eventTypes() []string {
	e.t.Helper()
	var l wire.List[struct {
		Type string `json:"type"`
	}]
	if err := json.Unmarshal(e.get(wire.PathEvents, vals("limit", "100")).ok(nil).body, &l); err != nil {
		e.t.Fatal(err)
	}
	var out []string
	for _, ev := range slices.Backward(l.Data) {
		out = append(out, ev.Type)
	}
	return out
}

func TestSubscriptions_FirstCharge(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, token  string
		more         []string
		status       string
		invoice      string
		paymentState string // "" when nothing is charged
		events       []string
	}{
		{"approved", sandbox.TokenVisa, nil, wire.SubscriptionStatusActive, wire.InvoiceStatusPaid, wire.PaymentStatusApproved,
			[]string{"invoice.created", "invoice.finalized", "payment.approved", "invoice.paid", "customer.subscription.created"}},
		{"declined", sandbox.TokenDeclined, nil, wire.SubscriptionStatusIncomplete, wire.InvoiceStatusOpen, wire.PaymentStatusDeclined,
			[]string{"invoice.created", "invoice.finalized", "payment.declined", "invoice.payment_failed", "customer.subscription.created"}},
		{"3-D Secure", sandbox.Token3DS, nil, wire.SubscriptionStatusIncomplete, wire.InvoiceStatusOpen, wire.PaymentStatusPending,
			[]string{"invoice.created", "invoice.finalized", "payment.pending", "invoice.payment_action_required", "customer.subscription.created"}},
		{"trial", sandbox.TokenDeclined, []string{"trial_period_days", "14"}, wire.SubscriptionStatusTrialing, wire.InvoiceStatusPaid, "",
			[]string{"invoice.created", "invoice.finalized", "invoice.paid", "customer.subscription.created"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t)
			pr := e.plan("1500")
			cu := e.customer(vals("source", tc.token))
			skip := len(e.eventTypes())
			s := e.subscribe(append([]string{"customer", cu.ID, "items[0][price]", pr.ID, "items[0][quantity]", "2", "metadata[k]", "v"}, tc.more...)...)
			if !reSubscriptionID.MatchString(s.ID) || s.Status != tc.status || s.Customer != cu.ID || len(s.Items.Data) != 1 ||
				s.Items.Data[0].Price.ID != pr.ID || s.Items.Data[0].Quantity != 2 || s.Metadata["k"] != "v" || !reInvoiceID.MatchString(s.LatestInvoice) {
				t.Fatalf("subscription = %+v", s)
			}
			inv := e.invoice(s.LatestInvoice)
			wantDue := int64(3000)
			if tc.paymentState == "" {
				wantDue = 0
			}
			if inv.Status != tc.invoice || inv.Subscription != s.ID || inv.BillingReason != wire.BillingReasonSubscriptionCreate ||
				inv.AmountDue != wantDue || inv.Currency != "USD" || len(inv.Lines.Data) != 1 || inv.Lines.Data[0].Amount != wantDue ||
				inv.PeriodStart != s.CurrentPeriodStart || inv.PeriodEnd != s.CurrentPeriodEnd {
				t.Errorf("invoice = %+v", inv)
			}
			// Stripe's libraries read the nested lists as list objects.
			if it := s.Items; it.Object != "list" || it.HasMore || it.URL != "/v1/subscription_items?subscription="+s.ID {
				t.Errorf("items = %+v; want a list object of every item", it)
			}
			if l := inv.Lines; l.Object != "list" || l.HasMore || l.URL != "/v1/invoices/"+inv.ID+"/lines" ||
				!reInvoiceLineID.MatchString(l.Data[0].ID) || l.Data[0].Object != "line_item" ||
				l.Data[0].SubscriptionItem != s.Items.Data[0].ID || e.invoice(inv.ID).Lines.Data[0].ID != l.Data[0].ID {
				t.Errorf("lines = %+v; want a list object of every line, each with one stable il_ id", l)
			}
			if tc.paymentState == "" {
				if inv.Payment != "" || inv.AttemptCount != 0 || s.TrialEnd != s.CurrentPeriodEnd || s.TrialStart == "" {
					t.Errorf("a trial's invoice = %+v, subscription %+v", inv, s)
				}
			} else {
				var p wire.Payment
				e.get(wire.PathPayments+"/"+inv.Payment, nil).ok(&p)
				if p.Status != tc.paymentState || p.Amount != 3000 || p.Invoice != inv.ID || p.Customer != cu.ID || inv.AttemptCount != 1 {
					t.Errorf("payment = %+v, invoice %+v", p, inv)
				}
			}
			if got := e.eventTypes()[skip:]; !slices.Equal(got, tc.events) {
				t.Errorf("events = %v, want %v", got, tc.events)
			}
		})
	}
}

func TestSubscriptions_ThreeDSCompletes(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	pr := e.plan("1500")
	cu := e.customer(vals("source", sandbox.Token3DS))
	s := e.subscribe("customer", cu.ID, "items[0][price]", pr.ID)
	inv := e.invoice(s.LatestInvoice)
	// Neither another attempt nor a void while the bank waits.
	e.post(wire.PathInvoices+"/"+inv.ID+"/pay", nil).fails(400, wire.ErrorTypeInvalidRequest, wire.ErrorCodeInvoiceUnexpectedState, "")
	e.post(wire.PathInvoices+"/"+inv.ID+"/void", nil).fails(400, wire.ErrorTypeInvalidRequest, wire.ErrorCodeInvoiceUnexpectedState, "")
	skip := len(e.eventTypes())
	e.post("/_sandbox/payments/"+inv.Payment+"/complete", nil).ok(nil)
	if got := e.invoice(inv.ID); got.Status != wire.InvoiceStatusPaid || got.AmountPaid != 1500 {
		t.Errorf("invoice after 3-D Secure = %+v", got)
	}
	var after wire.Subscription
	e.get(wire.PathSubscriptions+"/"+s.ID, nil).ok(&after)
	if after.Status != wire.SubscriptionStatusActive {
		t.Errorf("subscription after 3-D Secure = %s, want active", after.Status)
	}
	want := []string{"payment.approved", "invoice.paid", "customer.subscription.updated"}
	if got := e.eventTypes()[skip:]; !slices.Equal(got, want) {
		t.Errorf("events = %v, want %v", got, want)
	}
	// Paid once: never again.
	e.post(wire.PathInvoices+"/"+inv.ID+"/pay", nil).fails(400, wire.ErrorTypeInvalidRequest, wire.ErrorCodeInvoiceUnexpectedState, "")
}

func TestSubscriptions_ErrorIfIncompleteCreatesNothing(t *testing.T) {
	t.Parallel()
	for _, tok := range []string{sandbox.TokenDeclined, sandbox.Token3DS} {
		e := newEnv(t)
		pr := e.plan("1500")
		cu := e.customer(vals("source", tok))
		body := e.post(wire.PathSubscriptions, vals("customer", cu.ID, "items[0][price]", pr.ID, "payment_behavior", "error_if_incomplete")).
			fails(402, wire.ErrorTypeCard, wire.ErrorCodeCardDeclined, "")
		if body.Error.Payment != "" {
			t.Errorf("%s: the refusal names payment %s; nothing should exist", tok, body.Error.Payment)
		}
		for _, l := range [][]string{{wire.PathSubscriptions, "status", "all"}, {wire.PathInvoices}, {wire.PathPayments}} {
			if got := e.ids(l[0], l[1:]...); len(got) != 0 {
				t.Errorf("%s: %s lists %v after the refusal", tok, l[0], got)
			}
		}
	}
}

func TestSubscriptions_Validation(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	pr := e.plan("1500")
	cu := e.customer(vals("source", sandbox.TokenVisa))
	bare := e.customer(nil)
	other := e.product("name", "Other")
	eur := e.price(other.ID, "currency", "EUR", "recurring[interval]", "month")
	yearly := e.price(other.ID, "recurring[interval]", "year")
	once := e.price(other.ID)
	archived := e.price(other.ID, "recurring[interval]", "month", "active", "false")
	var many []string
	for i := range 21 {
		many = append(many, wire.ItemParam(i, "price"), pr.ID)
	}
	for _, tc := range []struct {
		name  string
		f     []string
		code  string
		param string
	}{
		{"no customer", []string{"items[0][price]", pr.ID}, wire.ErrorCodeParameterMissing, "customer"},
		{"unknown customer", []string{"customer", "cus_nope", "items[0][price]", pr.ID}, wire.ErrorCodeResourceMissing, "customer"},
		{"no items", []string{"customer", cu.ID}, wire.ErrorCodeParameterMissing, "items[0][price]"},
		{"gap in items", []string{"customer", cu.ID, "items[1][price]", pr.ID}, wire.ErrorCodeParameterMissing, "items[0][price]"},
		{"two currencies", []string{"customer", cu.ID, "items[0][price]", pr.ID, "items[1][price]", eur.ID}, wire.ErrorCodeParameterInvalid, "items[1][price]"},
		{"two intervals", []string{"customer", cu.ID, "items[0][price]", pr.ID, "items[1][price]", yearly.ID}, wire.ErrorCodeParameterInvalid, "items[1][price]"},
		{"one-time price", []string{"customer", cu.ID, "items[0][price]", once.ID}, wire.ErrorCodeParameterInvalid, "items[0][price]"},
		{"archived price", []string{"customer", cu.ID, "items[0][price]", archived.ID}, wire.ErrorCodeParameterInvalid, "items[0][price]"},
		{"unknown price", []string{"customer", cu.ID, "items[0][price]", "price_nope"}, wire.ErrorCodeResourceMissing, "items[0][price]"},
		{"price twice", []string{"customer", cu.ID, "items[0][price]", pr.ID, "items[1][price]", pr.ID}, wire.ErrorCodeParameterInvalid, "items[1][price]"},
		{"21 items", append([]string{"customer", cu.ID}, many...), wire.ErrorCodeParameterInvalid, "items"},
		{"zero quantity", []string{"customer", cu.ID, "items[0][price]", pr.ID, "items[0][quantity]", "0"}, wire.ErrorCodeParameterInvalid, "items[0][quantity]"},
		{"unknown item field", []string{"customer", cu.ID, "items[0][price]", pr.ID, "items[0][color]", "red"}, wire.ErrorCodeParameterUnknown, "items[0][color]"},
		{"bad behavior", []string{"customer", cu.ID, "items[0][price]", pr.ID, "payment_behavior", "maybe"}, wire.ErrorCodeParameterInvalid, "payment_behavior"},
		{"trial too long", []string{"customer", cu.ID, "items[0][price]", pr.ID, "trial_period_days", "731"}, wire.ErrorCodeParameterInvalid, "trial_period_days"},
		{"foreign source", []string{"customer", cu.ID, "items[0][price]", pr.ID, "default_source", "src_nope"}, wire.ErrorCodeResourceMissing, "default_source"},
		{"no card", []string{"customer", bare.ID, "items[0][price]", pr.ID}, wire.ErrorCodeMissingSource, "default_source"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := &env{t: t, url: e.url, key: e.key, hc: e.hc, srv: e.srv}
			eb := e.post(wire.PathSubscriptions, vals(tc.f...)).fails(400, wire.ErrorTypeInvalidRequest, tc.code, tc.param)
			// A quantity or a number of days is no amount of money.
			if strings.Contains(eb.Error.Message, "minor units") {
				t.Errorf("%s: %q speaks of minor units", tc.param, eb.Error.Message)
			}
		})
	}
	if got := e.ids(wire.PathSubscriptions, "status", "all"); len(got) != 0 {
		t.Errorf("refused creates left subscriptions: %v", got)
	}
	// A customer without a card can still start a trial.
	if s := e.subscribe("customer", bare.ID, "items[0][price]", pr.ID, "trial_period_days", "7"); s.Status != wire.SubscriptionStatusTrialing {
		t.Errorf("trial without a card = %s", s.Status)
	}
}

func TestSubscriptions_UpdateCancelList(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	pr := e.plan("1500")
	extra := e.price(pr.Product, "unit_amount", "200", "recurring[interval]", "month")
	eur := e.price(pr.Product, "currency", "EUR", "recurring[interval]", "month")
	cu := e.customer(vals("source", sandbox.TokenVisa))
	s := e.subscribe("customer", cu.ID, "items[0][price]", pr.ID)
	var up wire.Subscription
	e.post(wire.PathSubscriptions+"/"+s.ID, vals("quantity", "3", "cancel_at_period_end", "true", "metadata[a]", "b")).ok(&up)
	if up.Items.Data[0].Quantity != 3 || up.Items.Data[0].ID != s.Items.Data[0].ID || !up.CancelAtPeriodEnd || up.Metadata["a"] != "b" {
		t.Errorf("after update = %+v", up)
	}
	// The current period's invoice stays as it was: no proration.
	if inv := e.invoice(s.LatestInvoice); inv.AmountDue != 1500 || up.LatestInvoice != s.LatestInvoice {
		t.Errorf("the update changed the invoiced period: %+v", inv)
	}
	e.post(wire.PathSubscriptions+"/"+s.ID, vals("items[0][price]", pr.ID, "items[1][price]", extra.ID, "items[1][quantity]", "5")).ok(&up)
	if len(up.Items.Data) != 2 || up.Items.Data[0].ID != s.Items.Data[0].ID || up.Items.Data[0].Quantity != 1 || up.Items.Data[1].Price.ID != extra.ID {
		t.Errorf("after items = %+v", up.Items.Data)
	}
	e.post(wire.PathSubscriptions+"/"+s.ID, vals("items[0][price]", eur.ID)).fails(400, wire.ErrorTypeInvalidRequest, wire.ErrorCodeParameterInvalid, "items[0][price]")
	e.post(wire.PathSubscriptions+"/"+s.ID, vals("quantity", "2")).fails(400, wire.ErrorTypeInvalidRequest, wire.ErrorCodeParameterInvalid, "quantity")

	other := e.subscribe("customer", cu.ID, "items[0][price]", extra.ID)
	for _, tc := range []struct {
		q    []string
		want []string
	}{
		{nil, []string{other.ID, s.ID}},
		{[]string{"price", extra.ID}, []string{other.ID, s.ID}},
		{[]string{"price", eur.ID}, nil},
		{[]string{"customer", cu.ID, "status", "active"}, []string{other.ID, s.ID}},
	} {
		if got := e.ids(wire.PathSubscriptions, tc.q...); !slices.Equal(got, tc.want) {
			t.Errorf("list %v = %v, want %v", tc.q, got, tc.want)
		}
	}
	var gone wire.Subscription
	e.del(wire.PathSubscriptions + "/" + s.ID).ok(&gone)
	if gone.Status != wire.SubscriptionStatusCanceled || gone.CanceledAt == "" {
		t.Errorf("after DELETE = %+v", gone)
	}
	e.del(wire.PathSubscriptions+"/"+s.ID).fails(400, wire.ErrorTypeInvalidRequest, wire.ErrorCodeSubscriptionUnexpectedState, "")
	e.post(wire.PathSubscriptions+"/"+s.ID, vals("metadata[a]", "c")).fails(400, wire.ErrorTypeInvalidRequest, wire.ErrorCodeSubscriptionUnexpectedState, "")
	if got := e.ids(wire.PathSubscriptions); !slices.Equal(got, []string{other.ID}) {
		t.Errorf("default list after a cancel = %v, want the live one only", got)
	}
	if got := e.ids(wire.PathSubscriptions, "status", "canceled"); !slices.Equal(got, []string{s.ID}) {
		t.Errorf("canceled list = %v", got)
	}
	// Deleting the customer ends the rest.
	e.del("/v1/customers/" + cu.ID).ok(nil)
	if got := e.ids(wire.PathSubscriptions, "status", "canceled"); !slices.Equal(got, []string{other.ID, s.ID}) {
		t.Errorf("after the customer's deletion, canceled = %v", got)
	}
	e.other().get(wire.PathSubscriptions+"/"+other.ID, nil).fails(404, wire.ErrorTypeInvalidRequest, wire.ErrorCodeResourceMissing, "")
	// What the account is charged for its subscriptions and invoices is
	// what they hold.
	if running, recounted := sandbox.AccountBytes(e.srv, e.key); running != recounted {
		t.Errorf("account bytes: running %d, recounted %d", running, recounted)
	}
}

func TestInvoices_PayVoidList(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	pr := e.plan("1500")
	cu := e.customer(vals("source", sandbox.TokenDeclined))
	s := e.subscribe("customer", cu.ID, "items[0][price]", pr.ID)
	first := e.invoice(s.LatestInvoice)
	// A declined retry is 402 card_error naming its payment, as a declined
	// charge is, and is kept: the invoice open, its attempt counted, the
	// declined payment its own, and their events sent; replayed under its
	// key, it is the same 402 and no other attempt.
	var inv wire.Invoice
	refusal := e.post(wire.PathInvoices+"/"+first.ID+"/pay", nil, idemKey("pay-declined")).
		fails(402, wire.ErrorTypeCard, wire.ErrorCodeCardDeclined, "")
	e.get(wire.PathInvoices+"/"+first.ID, nil).ok(&inv)
	if inv.Status != wire.InvoiceStatusOpen || inv.AttemptCount != 2 || inv.Payment == first.Payment || inv.Payment != refusal.Error.Payment {
		t.Errorf("after a declined retry = %+v, the 402 naming payment %q", inv, refusal.Error.Payment)
	}
	if !strings.Contains(refusal.Error.Message, first.ID) || !strings.Contains(refusal.Error.Message, refusal.Error.Payment) {
		t.Errorf("the 402 does not name the invoice and the payment: %q", refusal.Error.Message)
	}
	var p wire.Payment
	e.get(wire.PathPayments+"/"+refusal.Error.Payment, nil).ok(&p)
	if p.Status != wire.PaymentStatusDeclined || p.Invoice != first.ID {
		t.Errorf("the declined attempt's payment = %+v", p)
	}
	if n := len(e.events(vals("type", wire.EventInvoicePaymentFailed))); n != 2 {
		t.Errorf("%d invoice.payment_failed events, want 2 (the first charge and the retry)", n)
	}
	replay := e.post(wire.PathInvoices+"/"+first.ID+"/pay", nil, idemKey("pay-declined"))
	replay.fails(402, wire.ErrorTypeCard, wire.ErrorCodeCardDeclined, "")
	if replay.header.Get(wire.HeaderIdempotentReplayed) != "true" || e.invoice(first.ID).AttemptCount != 2 {
		t.Errorf("the repeated pay was not a replay: %s", replay.body)
	}
	// A new card, then the retry pays it and the subscription starts.
	var src wire.Source
	e.post("/v1/customers/"+cu.ID+"/sources", vals("source", sandbox.TokenVisa)).ok(&src)
	e.post(wire.PathSubscriptions+"/"+s.ID, vals("default_source", src.ID)).ok(nil)
	e.post(wire.PathInvoices+"/"+first.ID+"/pay", nil).ok(&inv)
	if inv.Status != wire.InvoiceStatusPaid || inv.AttemptCount != 3 || inv.AmountPaid != 1500 {
		t.Errorf("after a paid retry = %+v", inv)
	}
	var after wire.Subscription
	e.get(wire.PathSubscriptions+"/"+s.ID, nil).ok(&after)
	if after.Status != wire.SubscriptionStatusActive || after.DefaultSource != src.ID {
		t.Errorf("subscription after payment = %+v", after)
	}
	e.post(wire.PathInvoices+"/"+first.ID+"/void", nil).fails(400, wire.ErrorTypeInvalidRequest, wire.ErrorCodeInvoiceUnexpectedState, "")

	declined := e.customer(vals("source", sandbox.TokenDeclined))
	s2 := e.subscribe("customer", declined.ID, "items[0][price]", pr.ID)
	e.post(wire.PathInvoices+"/"+s2.LatestInvoice+"/void", nil).ok(&inv)
	if inv.Status != wire.InvoiceStatusVoid {
		t.Errorf("after void = %+v", inv)
	}
	e.post(wire.PathInvoices+"/"+s2.LatestInvoice+"/pay", nil).fails(400, wire.ErrorTypeInvalidRequest, wire.ErrorCodeInvoiceUnexpectedState, "")
	for _, tc := range []struct {
		q    []string
		want []string
	}{
		{nil, []string{s2.LatestInvoice, first.ID}},
		{[]string{"customer", cu.ID}, []string{first.ID}},
		{[]string{"subscription", s2.ID}, []string{s2.LatestInvoice}},
		{[]string{"status", "void"}, []string{s2.LatestInvoice}},
		{[]string{"status", "open"}, nil},
	} {
		if got := e.ids(wire.PathInvoices, tc.q...); !slices.Equal(got, tc.want) {
			t.Errorf("list %v = %v, want %v", tc.q, got, tc.want)
		}
	}
	e.get(wire.PathInvoices, vals("status", "late")).fails(400, wire.ErrorTypeInvalidRequest, wire.ErrorCodeParameterInvalid, "status")
	e.get(wire.PathInvoices, vals("subscription", "sub_nope")).fails(400, wire.ErrorTypeInvalidRequest, wire.ErrorCodeResourceMissing, "subscription")
	e.get(wire.PathInvoices+"/in_nope", nil).fails(404, wire.ErrorTypeInvalidRequest, wire.ErrorCodeResourceMissing, "")
}

func TestSubscriptions_SurviveRestart(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "data.db")
	key := newEnv(t).key
	e, stop := openEnv(t, path, key)
	pr := e.plan("1500")
	cu := e.customer(vals("source", sandbox.Token3DS))
	s := e.subscribe("customer", cu.ID, "items[0][price]", pr.ID, "metadata[k]", "v")
	wantSubs := e.get(wire.PathSubscriptions, vals("status", "all")).ok(nil).body
	wantInvoices := e.get(wire.PathInvoices, nil).ok(nil).body
	stop()
	e, stop = openEnv(t, path, key)
	if got := e.get(wire.PathSubscriptions, vals("status", "all")).ok(nil).body; !bytes.Equal(got, wantSubs) {
		t.Errorf("subscriptions after restart:\n%s\nwant\n%s", got, wantSubs)
	}
	if got := e.get(wire.PathInvoices, nil).ok(nil).body; !bytes.Equal(got, wantInvoices) {
		t.Errorf("invoices after restart:\n%s\nwant\n%s", got, wantInvoices)
	}
	// The waiting payment still leads to its invoice after the restart.
	inv := e.invoice(s.LatestInvoice)
	e.post("/_sandbox/payments/"+inv.Payment+"/complete", nil).ok(nil)
	if got := e.invoice(inv.ID); got.Status != wire.InvoiceStatusPaid {
		t.Errorf("invoice after 3-D Secure across a restart = %s", got.Status)
	}
	e.post(wire.PathSandboxReset, nil).ok(nil)
	stop()
	e, stop = openEnv(t, path, key)
	defer stop()
	if got := e.ids(wire.PathSubscriptions, "status", "all"); len(got) != 0 {
		t.Errorf("subscriptions after a reset and a restart: %v", got)
	}
	if got := e.ids(wire.PathInvoices); len(got) != 0 {
		t.Errorf("invoices after a reset and a restart: %v", got)
	}
	if strings.Contains(string(wantSubs), key) {
		t.Error("the key leaked into an answer")
	}
}

// TestSubscriptions_ExpandNotServed: Stripe's expand[] on the objects its
// docs expand most (a subscription's latest_invoice and customer, an
// invoice's subscription), in a create, a retrieve or a list, is 400
// parameter_unknown naming expand, and a refused create makes nothing.
func TestSubscriptions_ExpandNotServed(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	pr := e.plan("1500")
	cu := e.customer(vals("source", sandbox.TokenVisa))
	s := e.subscribe("customer", cu.ID, "items[0][price]", pr.ID)
	inv := e.invoices(s.ID)[0]
	for _, tc := range []struct {
		method, path string
		f            []string
	}{
		{http.MethodPost, wire.PathSubscriptions, []string{"customer", cu.ID, "items[0][price]", pr.ID, "expand[0]", "latest_invoice"}},
		{http.MethodGet, wire.PathSubscriptions + "/" + s.ID, []string{"expand[]", "latest_invoice", "expand[]", "customer"}},
		{http.MethodGet, wire.PathSubscriptions, []string{"expand[]", "data.latest_invoice"}},
		{http.MethodGet, wire.PathInvoices + "/" + inv.ID, []string{"expand[0]", "subscription"}},
		{http.MethodGet, wire.PathInvoices, []string{"subscription", s.ID, "expand[]", "data.payment"}},
	} {
		var r *result
		if tc.method == http.MethodPost {
			r = e.post(tc.path, vals(tc.f...))
		} else {
			r = e.get(tc.path, vals(tc.f...))
		}
		body := r.fails(400, wire.ErrorTypeInvalidRequest, wire.ErrorCodeParameterUnknown, wire.ParamExpand)
		if !strings.HasPrefix(body.Error.Message, "expand is not served: ") {
			t.Errorf("%s %s: %q", tc.method, tc.path, body.Error.Message)
		}
	}
	// The Stripe-Version header the libraries send is ignored.
	var l wire.List[wire.Subscription]
	if e.do(http.MethodGet, wire.PathSubscriptions, vals("customer", cu.ID), header("Stripe-Version", "2025-03-31.basil")).ok(&l); len(l.Data) != 1 {
		t.Errorf("a create refused for expand made a subscription: %d", len(l.Data))
	}
}

// TestSubscriptionItems_ListNeedsASubscription: the items' list takes
// its subscription, required and of the account; an invoice's lines
// list is 404 for an invoice the account does not have.
func TestSubscriptionItems_ListNeedsASubscription(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.get(wire.PathSubscriptionItems, nil).fails(400, wire.ErrorTypeInvalidRequest, wire.ErrorCodeParameterMissing, wire.ParamSubscription)
	e.get(wire.PathSubscriptionItems, vals(wire.ParamSubscription, "sub_"+strings.Repeat("A", wire.IDRandomLength))).
		fails(400, wire.ErrorTypeInvalidRequest, wire.ErrorCodeResourceMissing, wire.ParamSubscription)
	e.get(wire.PathInvoices+"/in_"+strings.Repeat("A", wire.IDRandomLength)+"/lines", nil).
		fails(404, wire.ErrorTypeInvalidRequest, wire.ErrorCodeResourceMissing, "")
}
