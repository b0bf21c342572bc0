package model

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/ids"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

func monthly(currency string, amount int64) *Price {
	return &Price{ID: ids.New(), Currency: currency, UnitAmount: amount, Active: true,
		Recurring: wire.Recurring{Interval: wire.IntervalMonth, IntervalCount: 1}}
}

// wantRefusal fails unless r is nil when want is "", or else a refusal
// under code whose message holds want.
func wantRefusal(t *testing.T, r *Refusal, code, want string) {
	t.Helper()
	switch {
	case want == "" && r != nil:
		t.Fatalf("refused: %s", r.Message)
	case want != "" && r == nil:
		t.Fatalf("allowed, want a refusal containing %q", want)
	case want != "" && (r.Code != code || !strings.Contains(r.Message, want)):
		t.Fatalf("refusal %s %q, want %s containing %q", r.Code, r.Message, code, want)
	}
}

// TestCheckItem_Refusals: a subscription's items are recurring, active, distinct
// prices of one currency and one period.
func TestCheckItem_Refusals(t *testing.T) {
	t.Parallel()
	like := monthly("USD", 500)
	oneTime := &Price{ID: ids.New(), Currency: "USD", UnitAmount: 1, Active: true}
	archived := monthly("USD", 1)
	archived.Active = false
	euro := monthly("EUR", 1)
	yearly := monthly("USD", 1)
	yearly.Recurring.Interval = wire.IntervalYear
	for _, tc := range []struct {
		name   string
		pr     *Price
		before []SubItem
		want   string
	}{
		{"same currency and period", monthly("USD", 900), nil, ""},
		{"the first price", like, nil, ""},
		{"one-time", oneTime, nil, "is a one-time price"},
		{"archived", archived, nil, "is archived (active=false)"},
		{"another currency", euro, nil, "bills EUR every 1 month, but the subscription bills USD every 1 month"},
		{"another period", yearly, nil, "bills USD every 1 year"},
		{"twice", like, []SubItem{{Price: like, Quantity: 1}}, "is already an item"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := CheckItem("items[1][price]", tc.pr, like, tc.before)
			wantRefusal(t, r, wire.ErrorCodeParameterInvalid, tc.want)
			if r != nil && r.Param != "items[1][price]" {
				t.Fatalf("param %q", r.Param)
			}
		})
	}
}

// TestSubscription_Quantity: quantity sets an only item's quantity, and
// no period costs more than the largest payment.
func TestSubscription_Quantity(t *testing.T) {
	t.Parallel()
	pr := monthly("USD", 1000)
	for _, tc := range []struct {
		name       string
		items      int
		itemsGiven bool
		q          int64
		want       string
	}{
		{"one item", 1, false, 3, ""},
		{"with items", 1, true, 3, "with several items, or with items"},
		{"several items", 2, false, 3, "with several items, or with items"},
		{"over the largest payment", 1, false, wire.PaymentAmountMax/1000 + 1, "over the largest payment"},
		{"at the largest payment", 1, false, wire.PaymentAmountMax / 1000, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := &Subscription{}
			for range tc.items {
				s.Items = append(s.Items, SubItem{ID: ids.New(), Price: pr, Quantity: 1})
			}
			r := s.CheckQuantity(tc.itemsGiven)
			if r == nil {
				r = s.SetQuantity(tc.q)
			}
			wantRefusal(t, r, wire.ErrorCodeParameterInvalid, tc.want)
			if r == nil && (s.Items[0].Quantity != tc.q || Amount(s.Items) != tc.q*1000) {
				t.Fatalf("items %+v after quantity %d", s.Items, tc.q)
			}
			if r != nil && s.Items[0].Quantity != 1 {
				t.Fatal("a refused quantity changed the item")
			}
		})
	}
	if r := CheckItemsCost([]SubItem{{Price: pr, Quantity: wire.PaymentAmountMax/1000 + 1}}); r == nil || r.Param != wire.ParamItems {
		t.Fatalf("items over the largest payment: %v", r)
	}
}

// TestSubscription_StartAndStatus: a start with or without a trial, and
// the status an invoice's outcome moves a subscription to.
func TestSubscription_StartAndStatus(t *testing.T) {
	t.Parallel()
	const jan31 = 1_769_860_800 // 2026-01-31T12:00:00Z
	s := &Subscription{Items: []SubItem{{Price: monthly("USD", 1), Quantity: 1}}, Status: wire.SubscriptionStatusIncomplete}
	s.Start(jan31, 0)
	if s.Status != wire.SubscriptionStatusIncomplete || s.Cycle != 1 || s.Anchor != jan31 || s.PeriodStart != jan31 || s.PeriodEnd <= jan31 || s.TrialEnd != 0 {
		t.Fatalf("paid start: %+v", s)
	}
	s.Start(jan31, 7)
	if s.Status != wire.SubscriptionStatusTrialing || s.TrialEnd != jan31+7*86400 || s.Anchor != s.TrialEnd || s.PeriodEnd != s.TrialEnd {
		t.Fatalf("trial start: %+v", s)
	}

	latest := ids.New()
	create := &Invoice{ID: latest, BillingReason: wire.BillingReasonSubscriptionCreate, Status: wire.InvoiceStatusOpen}
	cycle := &Invoice{ID: latest, BillingReason: wire.BillingReasonSubscriptionCycle, Status: wire.InvoiceStatusOpen}
	older := &Invoice{ID: ids.New(), BillingReason: wire.BillingReasonSubscriptionCycle, Status: wire.InvoiceStatusOpen}
	uncollectible := &Invoice{ID: latest, BillingReason: wire.BillingReasonSubscriptionCycle, Status: wire.InvoiceStatusUncollectible}
	for _, tc := range []struct {
		name, status string
		inv          *Invoice
		paid, unpaid string
	}{
		{"first invoice", wire.SubscriptionStatusIncomplete, create, wire.SubscriptionStatusActive, wire.SubscriptionStatusIncomplete},
		{"renewal of an active one", wire.SubscriptionStatusActive, cycle, wire.SubscriptionStatusActive, wire.SubscriptionStatusPastDue},
		{"past due", wire.SubscriptionStatusPastDue, cycle, wire.SubscriptionStatusActive, wire.SubscriptionStatusPastDue},
		{"unpaid", wire.SubscriptionStatusUnpaid, cycle, wire.SubscriptionStatusActive, wire.SubscriptionStatusPastDue},
		{"trial's free invoice", wire.SubscriptionStatusTrialing, create, wire.SubscriptionStatusTrialing, wire.SubscriptionStatusIncomplete},
		{"trial's end", wire.SubscriptionStatusTrialing, cycle, wire.SubscriptionStatusActive, wire.SubscriptionStatusPastDue},
		{"an older invoice", wire.SubscriptionStatusPastDue, older, wire.SubscriptionStatusPastDue, wire.SubscriptionStatusPastDue},
		{"uncollectible", wire.SubscriptionStatusUnpaid, uncollectible, wire.SubscriptionStatusActive, wire.SubscriptionStatusUnpaid},
		{"canceled", wire.SubscriptionStatusCanceled, cycle, wire.SubscriptionStatusCanceled, wire.SubscriptionStatusCanceled},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := &Subscription{Status: tc.status, LatestInvoice: latest}
			if got := s.StatusAfterPaid(tc.inv); got != tc.paid {
				t.Errorf("after paid: %s, want %s", got, tc.paid)
			}
			if got := s.StatusAfterUnpaid(tc.inv); got != tc.unpaid {
				t.Errorf("after unpaid: %s, want %s", got, tc.unpaid)
			}
		})
	}
	s.Cancel(jan31 + 1)
	if r := s.CheckChange(); r == nil || r.Code != wire.ErrorCodeSubscriptionUnexpectedState || s.CanceledAt != jan31+1 {
		t.Fatalf("a canceled subscription may change: %v", r)
	}
}

// TestSubscription_CheckStart: a first period, a trial's or one of the
// prices', never ends after wire.MaxTime; the refusal names the
// parameter that set it.
func TestSubscription_CheckStart(t *testing.T) {
	t.Parallel()
	at := func(y, m, d int) int64 { return time.Date(y, time.Month(m), d, 0, 0, 0, 0, time.UTC).Unix() }
	for _, tc := range []struct {
		name          string
		interval      string
		count         int64
		now           int64
		trial         int64
		param, reason string
	}{
		{"3 years from 9996-12-31", wire.IntervalYear, 3, at(9996, 12, 31), 0, "", ""},
		{"3 years from 9997-01-01", wire.IntervalYear, 3, at(9997, 1, 1), 0, "items[0][price]",
			"bills every 3 years: a period starting at 9997-01-01T00:00:00Z would end after 9999-12-31T23:59:59Z, the latest time the API writes"},
		{"3 years from 9999-12-30", wire.IntervalYear, 3, at(9999, 12, 30), 0, "items[0][price]", "a period starting at 9999-12-30T00:00:00Z"},
		{"a day at the last second", wire.IntervalDay, 1, wire.MaxTimeUnix, 0, "items[0][price]", "bills every 1 day"},
		{"a day from the last day", wire.IntervalDay, 1, at(9999, 12, 31) - 1, 0, "", ""},
		{"a month that fits", wire.IntervalMonth, 1, at(9999, 11, 30), 0, "", ""},
		{"a trial that fits", wire.IntervalYear, 3, at(9999, 12, 1), 30, "", ""},
		{"a trial past the bound", wire.IntervalYear, 3, at(9999, 12, 1), 31, wire.ParamTrialPeriodDays,
			"trial_period_days 31 would end the trial after 9999-12-31T23:59:59Z, the latest time the API writes; from 9999-12-01T00:00:00Z, use 30 at most."},
		{"no day left for a trial", wire.IntervalMonth, 1, at(9999, 12, 31), 1, wire.ParamTrialPeriodDays, "at 9999-12-31T00:00:00Z not even a day's trial fits."},
		{"a trial on real time", wire.IntervalMonth, 1, 1_767_225_600, wire.TrialPeriodDaysMax, "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pr := &Price{ID: ids.New(), Recurring: wire.Recurring{Interval: tc.interval, IntervalCount: tc.count}}
			s := &Subscription{Items: []SubItem{{Price: pr, Quantity: 1}}}
			r := s.CheckStart(tc.now, tc.trial)
			wantRefusal(t, r, wire.ErrorCodeParameterInvalid, tc.reason)
			if r != nil {
				if r.Param != tc.param {
					t.Fatalf("refusal names %q, want %q", r.Param, tc.param)
				}
				return
			}
			s.Start(tc.now, tc.trial)
			if s.PeriodEnd > wire.MaxTimeUnix || s.TrialEnd > wire.MaxTimeUnix {
				t.Fatalf("started past the bound: %+v", s)
			}
		})
	}
}

// TestInvoice_CheckRetry: a 3-D Secure end other than approved is
// refused, naming outcome, only when it would leave an open renewal's
// invoice to be retried after wire.MaxTime.
func TestInvoice_CheckRetry(t *testing.T) {
	t.Parallel()
	cycle := &Invoice{ID: ids.New(), Status: wire.InvoiceStatusOpen, BillingReason: wire.BillingReasonSubscriptionCycle}
	first := &Invoice{ID: ids.New(), Status: wire.InvoiceStatusOpen, BillingReason: wire.BillingReasonSubscriptionCreate}
	for _, tc := range []struct {
		name    string
		inv     *Invoice
		outcome string
		at      int64
		want    string
	}{
		{"declined, retried at the bound", cycle, wire.OutcomeDeclined, wire.MaxTimeUnix, ""},
		{"declined, retried past it", cycle, wire.OutcomeDeclined, wire.MaxTimeUnix + 1,
			"outcome declined would leave invoice in_"},
		{"authorized, retried past it", cycle, wire.OutcomeAuthorized, wire.MaxTimeUnix + 1, "to be charged again after 9999-12-31T23:59:59Z"},
		{"approved", cycle, wire.OutcomeApproved, wire.MaxTimeUnix + 1, ""},
		{"a first invoice is never retried", first, wire.OutcomeDeclined, wire.MaxTimeUnix + 1, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := tc.inv.CheckRetry(tc.outcome, tc.at)
			wantRefusal(t, r, wire.ErrorCodeParameterInvalid, tc.want)
			if r != nil && r.Param != wire.ParamOutcome {
				t.Fatalf("refusal names %q", r.Param)
			}
		})
	}
}

// TestNewInvoice_Lines: an invoice bills each item for the period, or nothing in a trial.
func TestNewInvoice_Lines(t *testing.T) {
	t.Parallel()
	a, b := monthly("USD", 300), monthly("USD", 50)
	s := &Subscription{ID: ids.New(), Customer: ids.New(), PeriodStart: 10, PeriodEnd: 20,
		Items: []SubItem{{ID: ids.New(), Price: a, Quantity: 2}, {ID: ids.New(), Price: b, Quantity: 3}}}
	for _, free := range []bool{false, true} {
		inv := NewInvoice(s, 10, wire.BillingReasonSubscriptionCycle, free)
		want := int64(750)
		if free {
			want = 0
		}
		if inv.AmountDue != want || inv.Status != wire.InvoiceStatusOpen || inv.Currency != "USD" || len(inv.Lines) != 2 ||
			inv.Lines[1].Quantity != 3 || inv.Lines[1].Price != b.ID || inv.PeriodEnd != 20 || inv.Subscription != s.ID {
			t.Fatalf("free=%v: %+v", free, inv)
		}
	}
}

// TestInvoice_PayAndVoid: which invoices may be paid or voided, and
// never while their payment waits for 3-D Secure.
func TestInvoice_PayAndVoid(t *testing.T) {
	t.Parallel()
	pending := &Payment{ID: ids.New(), Status: wire.PaymentStatusPending}
	declined := &Payment{ID: ids.New(), Status: wire.PaymentStatusDeclined}
	for _, tc := range []struct {
		status          string
		last            *Payment
		wantPay, wantVo string
	}{
		{wire.InvoiceStatusOpen, nil, "", ""},
		{wire.InvoiceStatusOpen, declined, "", ""},
		{wire.InvoiceStatusOpen, pending, "is waiting for 3-D Secure; complete it (POST /_sandbox/payments/{id}/complete) before another attempt.",
			"is waiting for 3-D Secure; complete it (POST /_sandbox/payments/{id}/complete) first."},
		{wire.InvoiceStatusUncollectible, nil, "", "is uncollectible; only an open invoice can be voided."},
		{wire.InvoiceStatusPaid, nil, "is paid; only an open or uncollectible invoice can be paid.", "is paid; only an open invoice can be voided."},
		{wire.InvoiceStatusVoid, nil, "is void; only an open or uncollectible invoice can be paid.", "is void; only an open invoice can be voided."},
	} {
		t.Run(tc.status, func(t *testing.T) {
			inv := &Invoice{ID: ids.New(), Status: tc.status, NextAttempt: 99}
			wantRefusal(t, inv.CheckPay(tc.last), wire.ErrorCodeInvoiceUnexpectedState, tc.wantPay)
			r := inv.Void(tc.last)
			wantRefusal(t, r, wire.ErrorCodeInvoiceUnexpectedState, tc.wantVo)
			if r == nil && (inv.Status != wire.InvoiceStatusVoid || inv.NextAttempt != 0) {
				t.Fatalf("voided: %+v", inv)
			}
			if r != nil && inv.Status != tc.status {
				t.Fatal("a refused void changed the invoice")
			}
		})
	}
	inv := &Invoice{AmountDue: 5, NextAttempt: 9, Status: wire.InvoiceStatusOpen}
	inv.MarkPaid()
	if inv.Status != wire.InvoiceStatusPaid || inv.AmountPaid != 5 || inv.NextAttempt != 0 || inv.Payable() {
		t.Fatalf("paid: %+v", inv)
	}
}

// TestCustomer_ChargeSource: a subscription's own source, else the
// customer's default.
func TestCustomer_ChargeSource(t *testing.T) {
	t.Parallel()
	a, b := &Source{ID: ids.New()}, &Source{ID: ids.New()}
	cu := &Customer{Sources: []*Source{a, b}, DefaultSource: b}
	for _, tc := range []struct {
		name string
		pref ids.RID
		want *Source
	}{
		{"none preferred", ids.RID{}, b},
		{"its own", a.ID, a},
		{"detached since", ids.New(), b},
	} {
		if got := cu.ChargeSource(tc.pref); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestSubscription_CheckFirstCharge: a create that bills now needs a
// card, and under error_if_incomplete one whose first charge succeeds.
func TestSubscription_CheckFirstCharge(t *testing.T) {
	t.Parallel()
	src := func(tok string) *Source { return &Source{ID: ids.New(), Card: CardByToken(tok)} }
	allow, strict := wire.PaymentBehaviorAllowIncomplete, wire.PaymentBehaviorErrorIfIncomplete
	for _, tc := range []struct {
		name          string
		amount, trial int64
		src           *Source
		behavior      string
		chargedBefore bool
		code, want    string
	}{
		{"approves", 100, 0, src(TokenVisa), strict, false, "", ""},
		{"a trial first", 100, 7, nil, strict, false, "", ""},
		{"free", 0, 0, nil, strict, false, "", ""},
		{"no card", 100, 0, nil, allow, false, wire.ErrorCodeMissingSource, "has no default source to charge; attach one with POST /v1/customers/"},
		{"declines, allowed incomplete", 100, 0, src(TokenDeclined), allow, false, "", ""},
		{"declines", 100, 0, src(TokenDeclined), strict, false, wire.ErrorCodeCardDeclined, "(sandbox token tok_declined)"},
		{"needs 3-D Secure", 100, 0, src(Token3DS), strict, false, wire.ErrorCodeCardDeclined, "would not succeed at once"},
		{"declines later, first charge", 100, 0, src(TokenDeclinedLater), strict, false, "", ""},
		{"declines later, charged before", 100, 0, src(TokenDeclinedLater), strict, true, wire.ErrorCodeCardDeclined, "nothing was created"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := &Subscription{Customer: ids.New(), Items: []SubItem{{Price: monthly("USD", tc.amount), Quantity: 1}}}
			r := s.CheckFirstCharge(tc.src, tc.trial, tc.behavior, func() bool { return tc.chargedBefore })
			wantRefusal(t, r, tc.code, tc.want)
			if r != nil && r.Card != (tc.code == wire.ErrorCodeCardDeclined) {
				t.Fatalf("card refusal %v for %s", r.Card, tc.code)
			}
		})
	}
}

// TestNoSourceToCharge_Params: the refusal names the parameter that
// could have named a card, or none.
func TestNoSourceToCharge_Params(t *testing.T) {
	t.Parallel()
	cu := ids.New()
	id := cu.Format(wire.CustomerIDPrefix)
	for param, want := range map[string]string{
		wire.ParamSource:        "customer " + id + " has no default source to charge; attach one with POST /v1/customers/" + id + "/sources, or send source.",
		wire.ParamDefaultSource: "customer " + id + " has no default source to charge; attach one with POST /v1/customers/" + id + "/sources, or send default_source.",
		"":                      "Customer " + id + " has no default source to charge; attach one with POST /v1/customers/" + id + "/sources.",
	} {
		if r := NoSourceToCharge(cu, param); r.Message != want || r.Param != param || r.Code != wire.ErrorCodeMissingSource {
			t.Errorf("param %q: %+v", param, r)
		}
	}
}

// TestPaymentBehavior_Values: allow_incomplete unless error_if_incomplete.
func TestPaymentBehavior_Values(t *testing.T) {
	t.Parallel()
	for v, want := range map[string]string{"": wire.PaymentBehaviorAllowIncomplete, wire.PaymentBehaviorAllowIncomplete: wire.PaymentBehaviorAllowIncomplete,
		wire.PaymentBehaviorErrorIfIncomplete: wire.PaymentBehaviorErrorIfIncomplete, "default_incomplete": ""} {
		got, r := PaymentBehavior(v)
		if got != want || (r != nil) != (want == "") {
			t.Errorf("%q: %q, %v", v, got, r)
		}
	}
}

// TestInvoice_NewPayment: an invoice's charge is a captured payment of
// its amount due, naming the invoice.
func TestInvoice_NewPayment(t *testing.T) {
	t.Parallel()
	src := &Source{ID: ids.New(), Card: CardByToken(TokenVisa), ExpMonth: ExpMonth, ExpYear: 2030}
	inv := &Invoice{ID: ids.New(), Customer: ids.New(), AmountDue: 1234, Currency: "EUR"}
	p := inv.NewPayment(77, src)
	if p.Amount != 1234 || p.Currency != "EUR" || !p.CaptureRequested || p.Customer != inv.Customer || p.Invoice != inv.ID ||
		p.Created != 77 || p.SourceID != src.ID || p.Card != src.Card || p.Description != "Invoice "+inv.ID.Format(wire.InvoiceIDPrefix) {
		t.Fatalf("%+v", p)
	}
}

// TestNewSubItem_KeepsID: an update keeps the id of the item of the same
// price; a new price is a new item.
func TestNewSubItem_KeepsID(t *testing.T) {
	t.Parallel()
	a, b := monthly("USD", 1), monthly("USD", 2)
	prev := []SubItem{{ID: ids.New(), Price: a, Quantity: 1}}
	if it := NewSubItem(prev, a, 5); it.ID != prev[0].ID || it.Quantity != 5 || it.Price != a {
		t.Fatalf("same price: %+v", it)
	}
	if it := NewSubItem(prev, b, 1); it.ID == prev[0].ID || it.ID.IsZero() {
		t.Fatalf("another price kept id %v", it.ID)
	}
	if CheckItemCount(wire.SubscriptionItemsMax) != nil || CheckItemCount(wire.SubscriptionItemsMax+1) == nil {
		t.Fatal("the item count's bound is not wire.SubscriptionItemsMax")
	}
}

// An invoice of one line keeps it in its own allocation, and is charged
// no allocation for it; more lines are charged their own.
func TestInvoice_LinesInLine(t *testing.T) {
	t.Parallel()
	price := &Price{ID: ids.New(), Currency: "USD", UnitAmount: 900, Recurring: wire.Recurring{Interval: "month", IntervalCount: 1}}
	base := InvoiceBytes + RidMapEntry + OrderSlot
	for _, tc := range []struct {
		items  int
		inline bool
		bytes  int64
	}{
		{1, true, base},
		{2, false, base + 2*InvoiceLineBytes + AllocOverhead},
		{20, false, base + 20*InvoiceLineBytes + AllocOverhead},
	} {
		s := &Subscription{ID: ids.New(), Customer: ids.New()}
		for range tc.items {
			s.Items = append(s.Items, SubItem{ID: ids.New(), Price: price, Quantity: 1})
		}
		inv := NewInvoice(s, 1, wire.BillingReasonSubscriptionCycle, false)
		inv.ID, inv.Seq = ids.New(), 1
		if len(inv.Lines) != tc.items || inv.AmountDue != int64(900*tc.items) {
			t.Fatalf("%d items: %d lines, amount due %d", tc.items, len(inv.Lines), inv.AmountDue)
		}
		if got := inv.linesInline(); got != tc.inline {
			t.Errorf("%d items: lines in line %v, want %v", tc.items, got, tc.inline)
		}
		if got := inv.MemBytes(); got != tc.bytes {
			t.Errorf("%d items: MemBytes %d, want %d", tc.items, got, tc.bytes)
		}
		// Read back from its record, it is laid out and charged alike.
		var rec InvoiceRecord
		if err := json.Unmarshal(inv.RecordValue(), &rec); err != nil {
			t.Fatal(err)
		}
		back, err := InvoiceFromRecord(rec)
		if err != nil {
			t.Fatal(err)
		}
		if back.linesInline() != tc.inline || back.MemBytes() != tc.bytes || !reflect.DeepEqual(back.Lines, inv.Lines) {
			t.Errorf("%d items: read back in line %v, %d bytes, lines %v; want %v, %d, %v",
				tc.items, back.linesInline(), back.MemBytes(), back.Lines, tc.inline, tc.bytes, inv.Lines)
		}
	}
}
