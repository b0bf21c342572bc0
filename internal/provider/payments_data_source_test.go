package provider

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/paymentsdev/terraform-provider-payments/internal/client"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandboxclient"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// The fixtures below are made with the account's client before the test
// case starts: the data sources only read, so their fixtures cannot come
// from Terraform.

// testAccCreatePayment creates a payment and returns it; a declined charge
// (an error that names the stored payment) returns the declined payment.
func testAccCreatePayment(t *testing.T, c *client.Client, p client.PaymentParams) *client.Payment {
	t.Helper()
	pay, err := c.CreatePayment(t.Context(), &p)
	if e, ok := client.AsError(err); ok && client.IsCardError(err) && e.Payment != "" {
		pay, err = c.GetPayment(t.Context(), e.Payment)
	}
	if err != nil {
		t.Fatalf("creating a payment with source %q: %v", p.Source, err)
	}
	return pay
}

// testAccPaymentsOfEveryStatus creates one payment in each status, in the
// order of wire.PaymentStatuses, from base (amount, currency, customer,
// description, metadata). It returns them as the API now shows them, in
// creation order.
func testAccPaymentsOfEveryStatus(t *testing.T, c *client.Client, base client.PaymentParams) []*client.Payment {
	t.Helper()
	ctx := t.Context()
	with := func(source string, capture *bool) client.PaymentParams {
		p := base
		p.Source, p.Capture = source, capture
		return p
	}
	var out []*client.Payment
	for _, status := range wire.PaymentStatuses {
		var (
			pay *client.Payment
			err error
		)
		switch status {
		case wire.PaymentStatusPending:
			pay = testAccCreatePayment(t, c, with(sandbox.Token3DS, nil))
		case wire.PaymentStatusApproved:
			pay = testAccCreatePayment(t, c, with(sandbox.TokenVisa, nil))
		case wire.PaymentStatusAuthorized:
			pay = testAccCreatePayment(t, c, with(sandbox.TokenVisa, new(false)))
		case wire.PaymentStatusDeclined:
			pay = testAccCreatePayment(t, c, with(sandbox.TokenDeclined, nil))
		case wire.PaymentStatusRefunded:
			pay = testAccCreatePayment(t, c, with(sandbox.TokenMastercard, nil))
			pay, err = c.RefundPayment(ctx, pay.ID, nil)
		case wire.PaymentStatusPartiallyRefunded:
			pay = testAccCreatePayment(t, c, with(sandbox.TokenAmex, nil))
			pay, err = c.RefundPayment(ctx, pay.ID, new(base.Amount/4))
		case wire.PaymentStatusDisputed:
			pay = testAccCreatePayment(t, c, with(sandbox.TokenDispute, nil))
			pay, err = sandboxclient.New(c).DisputePayment(ctx, pay.ID)
		}
		if err != nil {
			t.Fatalf("making a %s payment: %v", status, err)
		}
		if pay.Status != status {
			t.Fatalf("fixture: wanted a %s payment, got %s (%s)", status, pay.Status, pay.ID)
		}
		out = append(out, pay)
	}
	return testAccRefetchPayments(t, c, out)
}

// testAccRefetchPayments returns the payments as GET now shows them, which
// is what the data sources read.
func testAccRefetchPayments(t *testing.T, c *client.Client, pays []*client.Payment) []*client.Payment {
	t.Helper()
	out := make([]*client.Payment, len(pays))
	for i, p := range pays {
		got, err := c.GetPayment(t.Context(), p.ID)
		if err != nil {
			t.Fatalf("reading payment %s: %v", p.ID, err)
		}
		out[i] = got
	}
	return out
}

// testAccCreateCustomer creates a customer with a visa card as its default
// payment method.
func testAccCreateCustomer(t *testing.T, c *client.Client, p client.CustomerParams) *client.Customer {
	t.Helper()
	cus, err := c.CreateCustomer(t.Context(), &p)
	if err != nil {
		t.Fatalf("creating a customer: %v", err)
	}
	return cus
}

// testAccPaymentValues is what a payment's attributes must hold, derived
// from the API object on its own terms: an absent field ("" or nil) is null.
func testAccPaymentValues(p *client.Payment) map[string]knownvalue.Check {
	str := func(s string) knownvalue.Check {
		if s == "" {
			return knownvalue.Null()
		}
		return knownvalue.StringExact(s)
	}
	num := func(n int64) knownvalue.Check {
		if n == 0 {
			return knownvalue.Null()
		}
		return knownvalue.Int64Exact(n)
	}
	v := map[string]knownvalue.Check{
		"id":                 knownvalue.StringExact(p.ID),
		"amount":             knownvalue.Int64Exact(p.Amount),
		"amount_refunded":    knownvalue.Null(),
		"currency":           knownvalue.StringExact(p.Currency),
		"status":             knownvalue.StringExact(p.Status),
		"captured":           knownvalue.Null(),
		"authorization_code": str(p.AuthorizationCode),
		"customer":           str(p.Customer),
		"description":        str(p.Description),
		"metadata":           knownvalue.Null(),
		"source":             knownvalue.Null(),
		"created_at":         knownvalue.StringExact(p.CreatedAt),
		"livemode":           knownvalue.Bool(p.Livemode),
	}
	if p.AmountRefunded != nil {
		v["amount_refunded"] = knownvalue.Int64Exact(*p.AmountRefunded)
	}
	if p.Captured != nil {
		v["captured"] = knownvalue.Bool(*p.Captured)
	}
	if len(p.Metadata) > 0 {
		md := map[string]knownvalue.Check{}
		for k, val := range p.Metadata {
			md[k] = knownvalue.StringExact(val)
		}
		v["metadata"] = knownvalue.MapExact(md)
	}
	if s := p.Source; s != nil {
		v["source"] = knownvalue.ObjectExact(map[string]knownvalue.Check{
			"id": str(s.ID), "brand": str(s.Brand), "last4": str(s.Last4),
			"exp_month": num(s.ExpMonth), "exp_year": num(s.ExpYear),
		})
	}
	return v
}

// testAccPaymentList checks a payments list element by element, in order,
// every attribute of each.
func testAccPaymentList(pays []*client.Payment) knownvalue.Check {
	checks := make([]knownvalue.Check, len(pays))
	for i, p := range pays {
		checks[i] = knownvalue.ObjectExact(testAccPaymentValues(p))
	}
	return knownvalue.ListExact(checks)
}

// testAccPaymentIDs checks a payments list's ids, in order.
func testAccPaymentIDs(pays []*client.Payment) knownvalue.Check {
	checks := make([]knownvalue.Check, len(pays))
	for i, p := range pays {
		checks[i] = knownvalue.ObjectPartial(map[string]knownvalue.Check{"id": knownvalue.StringExact(p.ID)})
	}
	return knownvalue.ListExact(checks)
}

// newestFirst returns pays in the API's list order (the reverse of creation).
func newestFirst(pays []*client.Payment) []*client.Payment {
	out := slices.Clone(pays)
	slices.Reverse(out)
	return out
}

// testAccErrorRegexp matches words in order, whatever the Terraform CLI
// puts between them when it wraps a diagnostic (spaces, new lines, the │
// of its box).
func testAccErrorRegexp(words string) *regexp.Regexp {
	parts := strings.Fields(words)
	for i, p := range parts {
		parts[i] = regexp.QuoteMeta(p)
	}
	return regexp.MustCompile(strings.Join(parts, `[\s│]+`))
}

// testAccPaymentsConfig is a provider block and one payments_payments
// data source per entry of blocks (name → body).
func testAccPaymentsConfig(a *testAccAccount, blocks map[string]string) string {
	var b strings.Builder
	b.WriteString(a.ProviderConfig())
	for _, n := range slices.Sorted(maps.Keys(blocks)) {
		fmt.Fprintf(&b, "\ndata \"payments_payments\" %q {\n%s\n}\n", n, blocks[n])
	}
	return b.String()
}

// testAccExpectPayments checks data.payments_payments.<name>.payments.
func testAccExpectPayments(name string, check knownvalue.Check) statecheck.StateCheck {
	return statecheck.ExpectKnownValue("data.payments_payments."+name, tfjsonpath.New("payments"), check)
}

// emptyPlanStep plans config again after a step that read it, and expects
// nothing to do: reading is all a data source does.
func emptyPlanStep(config string) resource.TestStep {
	return resource.TestStep{
		Config: config,
		ConfigPlanChecks: resource.ConfigPlanChecks{
			PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
		},
	}
}

func TestAccPaymentsDataSource_NoFilters(t *testing.T) {
	testAccPreCheck(t)
	a := newTestAccAccount(t)
	cus := testAccCreateCustomer(t, a.Client, client.CustomerParams{Source: new(sandbox.TokenVisa)})
	pays := testAccPaymentsOfEveryStatus(t, a.Client, client.PaymentParams{
		Amount: 4000, Currency: "EUR", Customer: cus.ID, Description: "order 7", Metadata: map[string]string{"order": "7"},
	})
	pays = append(pays, testAccCreatePayment(t, a.Client, client.PaymentParams{Amount: 100, Currency: "USD", Source: sandbox.TokenVisa}))
	pays = testAccRefetchPayments(t, a.Client, pays)
	config := testAccPaymentsConfig(a, map[string]string{"all": ""})

	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: config,
				ConfigStateChecks: []statecheck.StateCheck{
					testAccExpectPayments("all", testAccPaymentList(newestFirst(pays))),
					statecheck.ExpectKnownValue("data.payments_payments.all", tfjsonpath.New("limit"), knownvalue.Null()),
				},
			},
			emptyPlanStep(config),
		},
	})
}

func TestAccPaymentsDataSource_FilterCustomer(t *testing.T) {
	testAccPreCheck(t)
	a := newTestAccAccount(t)
	c := a.Client
	alice := testAccCreateCustomer(t, c, client.CustomerParams{Source: new(sandbox.TokenVisa)})
	bob := testAccCreateCustomer(t, c, client.CustomerParams{Source: new(sandbox.TokenMastercard)})
	carol := testAccCreateCustomer(t, c, client.CustomerParams{})
	var alices, bobs []*client.Payment
	for i := range 3 {
		alices = append(alices, testAccCreatePayment(t, c, client.PaymentParams{Amount: int64(100 + i), Currency: "USD", Customer: alice.ID}))
		bobs = append(bobs, testAccCreatePayment(t, c, client.PaymentParams{Amount: int64(200 + i), Currency: "GBP", Customer: bob.ID}))
		testAccCreatePayment(t, c, client.PaymentParams{Amount: int64(300 + i), Currency: "USD", Source: sandbox.TokenVisa})
	}
	config := testAccPaymentsConfig(a, map[string]string{
		"alice": fmt.Sprintf("customer = %q", alice.ID),
		"bob":   fmt.Sprintf("customer = %q", bob.ID),
		"carol": fmt.Sprintf("customer = %q", carol.ID),
	})

	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: config,
				ConfigStateChecks: []statecheck.StateCheck{
					testAccExpectPayments("alice", testAccPaymentList(newestFirst(alices))),
					testAccExpectPayments("bob", testAccPaymentList(newestFirst(bobs))),
					testAccExpectPayments("carol", knownvalue.ListExact([]knownvalue.Check{})),
				},
			},
			emptyPlanStep(config),
		},
	})
}

func TestAccPaymentsDataSource_FilterStatus(t *testing.T) {
	testAccPreCheck(t)
	a := newTestAccAccount(t)
	cus := testAccCreateCustomer(t, a.Client, client.CustomerParams{Source: new(sandbox.TokenVisa)})
	pays := testAccPaymentsOfEveryStatus(t, a.Client, client.PaymentParams{Amount: 1000, Currency: "USD", Customer: cus.ID})
	// A second approved payment, so that one filter matches more than one.
	extra := testAccCreatePayment(t, a.Client, client.PaymentParams{Amount: 1200, Currency: "USD", Source: sandbox.TokenVisa})

	blocks := map[string]string{}
	var checks []statecheck.StateCheck
	for i, status := range wire.PaymentStatuses {
		blocks[status] = fmt.Sprintf("status = %q", status)
		want := []*client.Payment{pays[i]}
		if status == wire.PaymentStatusApproved {
			want = []*client.Payment{extra, pays[i]}
		}
		checks = append(checks, testAccExpectPayments(status, testAccPaymentList(want)))
	}
	config := testAccPaymentsConfig(a, blocks)

	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: config, ConfigStateChecks: checks},
			emptyPlanStep(config),
		},
	})
}

// testAccPaymentsAcrossSeconds creates payments in at least two distinct
// seconds of created_at, so that the created filters have bounds to cut
// between. It returns them in creation order, as the API shows them.
func testAccPaymentsAcrossSeconds(t *testing.T, c *client.Client, base client.PaymentParams) []*client.Payment {
	t.Helper()
	var pays []*client.Payment
	for batch := range 2 {
		if batch > 0 {
			// created_at has second precision: wait into the next second.
			now := time.Now()
			time.Sleep(now.Truncate(time.Second).Add(time.Second + 20*time.Millisecond).Sub(now))
		}
		for range 2 {
			pays = append(pays, testAccCreatePayment(t, c, base))
		}
	}
	pays = testAccRefetchPayments(t, c, pays)
	if pays[0].CreatedAt == pays[len(pays)-1].CreatedAt {
		t.Fatalf("fixture: every payment has created_at %s; wanted at least two distinct seconds", pays[0].CreatedAt)
	}
	return pays
}

// testAccFilterCreated returns, newest first, the payments created within
// [after, before]; a zero time is unbounded.
func testAccFilterCreated(t *testing.T, pays []*client.Payment, after, before time.Time) []*client.Payment {
	t.Helper()
	var out []*client.Payment
	for _, p := range newestFirst(pays) {
		ts := testAccParseTime(t, p.CreatedAt)
		if (after.IsZero() || !ts.Before(after)) && (before.IsZero() || !ts.After(before)) {
			out = append(out, p)
		}
	}
	return out
}

func testAccParseTime(t *testing.T, s string) time.Time {
	t.Helper()
	ts, err := time.Parse(time.RFC3339, s)
	if err != nil {
		t.Fatalf("parsing %q: %v", s, err)
	}
	return ts
}

func TestAccPaymentsDataSource_FilterCreated(t *testing.T) {
	testAccPreCheck(t)
	a := newTestAccAccount(t)
	pays := testAccPaymentsAcrossSeconds(t, a.Client, client.PaymentParams{Amount: 700, Currency: "CAD", Source: sandbox.TokenVisa})
	first := testAccParseTime(t, pays[0].CreatedAt)
	last := testAccParseTime(t, pays[len(pays)-1].CreatedAt)
	half := 500 * time.Millisecond
	cet := time.FixedZone("CET", 3600)
	rfc := func(ts time.Time) string { return ts.Format(time.RFC3339Nano) }

	cases := []struct {
		name          string
		after, before time.Time
		// Written as given, in another zone, or with fractions of a second.
		afterStr, beforeStr string
	}{
		{name: "after_last", after: last},
		{name: "before_first", before: first},
		{name: "first_second_only", after: first, before: first},
		{name: "whole_range", after: first, before: last},
		// A fraction of a second after the first second excludes it: the
		// service's created_at has whole seconds.
		{name: "after_fraction", after: first.Add(half), afterStr: rfc(first.Add(half))},
		{name: "before_fraction", before: last.Add(-half), beforeStr: rfc(last.Add(-half))},
		{name: "after_other_zone", after: last, afterStr: last.In(cet).Format(time.RFC3339)},
		{name: "future", after: last.Add(time.Hour)},
		{name: "past", before: first.Add(-time.Hour)},
	}
	blocks := map[string]string{}
	var checks []statecheck.StateCheck
	for _, tc := range cases {
		var body []string
		if !tc.after.IsZero() {
			s := tc.afterStr
			if s == "" {
				s = tc.after.UTC().Format(time.RFC3339)
			}
			body = append(body, fmt.Sprintf("created_after = %q", s))
		}
		if !tc.before.IsZero() {
			s := tc.beforeStr
			if s == "" {
				s = tc.before.UTC().Format(time.RFC3339)
			}
			body = append(body, fmt.Sprintf("created_before = %q", s))
		}
		blocks[tc.name] = strings.Join(body, "\n")
		want := testAccFilterCreated(t, pays, tc.after, tc.before)
		checks = append(checks, testAccExpectPayments(tc.name, testAccPaymentIDs(want)))
	}
	// The cases above must tell the filters apart, or they prove nothing.
	if n := len(testAccFilterCreated(t, pays, first.Add(half), time.Time{})); n == 0 || n == len(pays) {
		t.Fatalf("fixture: created_after between the seconds matches %d of %d payments", n, len(pays))
	}
	config := testAccPaymentsConfig(a, blocks)

	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: config, ConfigStateChecks: checks},
			emptyPlanStep(config),
		},
	})
}

func TestAccPaymentsDataSource_Limit(t *testing.T) {
	testAccPreCheck(t)
	a := newTestAccAccount(t)
	var pays []*client.Payment
	for i := range 7 {
		pays = append(pays, testAccCreatePayment(t, a.Client, client.PaymentParams{Amount: int64(10 + i), Currency: "JPY", Source: sandbox.TokenVisa}))
	}
	pays = newestFirst(pays)
	config := testAccPaymentsConfig(a, map[string]string{
		"one":   "limit = 1",
		"three": "limit = 3",
		"exact": "limit = 7",
		"more":  fmt.Sprintf("limit = %d", paymentsLimitMax),
	})

	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: config,
				ConfigStateChecks: []statecheck.StateCheck{
					testAccExpectPayments("one", testAccPaymentIDs(pays[:1])),
					testAccExpectPayments("three", testAccPaymentIDs(pays[:3])),
					testAccExpectPayments("exact", testAccPaymentIDs(pays)),
					testAccExpectPayments("more", testAccPaymentIDs(pays)),
				},
			},
			emptyPlanStep(config),
		},
	})
}

func TestAccPaymentsDataSource_Pagination(t *testing.T) {
	testAccPreCheck(t)
	a := newTestAccAccount(t)
	const n = wire.ListLimitMax + 20
	pays := make([]*client.Payment, 0, n)
	for i := range n {
		pays = append(pays, testAccCreatePayment(t, a.Client, client.PaymentParams{Amount: int64(1 + i), Currency: "USD", Source: sandbox.TokenVisa}))
	}
	pays = newestFirst(pays)
	config := testAccPaymentsConfig(a, map[string]string{
		"all":        "",
		"five":       "limit = 5",
		"page_and_1": fmt.Sprintf("limit = %d", wire.ListLimitMax+1),
	})

	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: config,
				ConfigStateChecks: []statecheck.StateCheck{
					testAccExpectPayments("all", testAccPaymentIDs(pays)),
					testAccExpectPayments("five", testAccPaymentIDs(pays[:5])),
					testAccExpectPayments("page_and_1", testAccPaymentIDs(pays[:wire.ListLimitMax+1])),
				},
			},
			emptyPlanStep(config),
		},
	})
}

func TestAccPaymentsDataSource_Combined(t *testing.T) {
	testAccPreCheck(t)
	a := newTestAccAccount(t)
	c := a.Client
	alice := testAccCreateCustomer(t, c, client.CustomerParams{Source: new(sandbox.TokenVisa)})
	bob := testAccCreateCustomer(t, c, client.CustomerParams{Source: new(sandbox.TokenVisa)})
	// Approved payments of alice, spread over two seconds, between others'.
	base := client.PaymentParams{Amount: 900, Currency: "USD", Customer: alice.ID}
	pays := testAccPaymentsAcrossSeconds(t, c, base)
	testAccCreatePayment(t, c, client.PaymentParams{Amount: 900, Currency: "USD", Customer: bob.ID})
	testAccCreatePayment(t, c, client.PaymentParams{Amount: 900, Currency: "USD", Customer: alice.ID, Source: sandbox.TokenDeclined})
	first := testAccParseTime(t, pays[0].CreatedAt)
	last := testAccParseTime(t, pays[len(pays)-1].CreatedAt)
	inLast := testAccFilterCreated(t, pays, last, last)

	config := testAccPaymentsConfig(a, map[string]string{
		"alice_approved_range": fmt.Sprintf(`
customer       = %q
status         = %q
created_after  = %q
created_before = %q
`, alice.ID, wire.PaymentStatusApproved, first.Format(time.RFC3339), last.Format(time.RFC3339)),
		"alice_approved_last_second_limited": fmt.Sprintf(`
customer       = %q
status         = %q
created_after  = %q
limit          = 1
`, alice.ID, wire.PaymentStatusApproved, last.Format(time.RFC3339)),
		"bob_declined": fmt.Sprintf(`
customer = %q
status   = %q
`, bob.ID, wire.PaymentStatusDeclined),
	})

	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: config,
				ConfigStateChecks: []statecheck.StateCheck{
					testAccExpectPayments("alice_approved_range", testAccPaymentList(newestFirst(pays))),
					testAccExpectPayments("alice_approved_last_second_limited", testAccPaymentIDs(inLast[:1])),
					testAccExpectPayments("bob_declined", knownvalue.ListExact([]knownvalue.Check{})),
				},
			},
			emptyPlanStep(config),
		},
	})
}

func TestAccPaymentsDataSource_InvalidInputs(t *testing.T) {
	testAccPreCheck(t)
	a := newTestAccAccount(t)
	step := func(body, errWords string) resource.TestStep {
		return resource.TestStep{
			Config:      testAccPaymentsConfig(a, map[string]string{"test": body}),
			ExpectError: testAccErrorRegexp(errWords),
		}
	}
	valid := "cus_" + strings.Repeat("A", wire.IDRandomLength)

	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			step(`status = "settled"`, `value must be one of`),
			step(`status = "Approved"`, `value must be one of`),
			step(`customer = "cus_123"`, `must be a customer id`),
			step(`customer = "pay_`+valid[4:]+`"`, `must be a customer id`),
			step(`customer = "`+valid+`x"`, `must be a customer id`),
			step(`created_after = "2025-01-31"`, `is not an RFC 3339 timestamp`),
			step(`created_before = "yesterday"`, `is not an RFC 3339 timestamp`),
			step(`created_after = "2025-01-31 10:00:00Z"`, `is not an RFC 3339 timestamp`),
			step(`
created_after  = "2025-02-01T00:00:00Z"
created_before = "2025-01-31T23:59:59Z"
`, `Invalid Created Range`),
			step(`
created_after  = "2025-02-01T00:30:00+01:00"
created_before = "2025-01-31T23:00:00Z"
`, `created_after (2025-02-01T00:30:00+01:00) is later than created_before`),
			step(`limit = 0`, `limit value must be between 1 and `+strconv.Itoa(paymentsLimitMax)),
			step(`limit = -3`, `limit value must be between 1 and `+strconv.Itoa(paymentsLimitMax)),
			step(`limit = `+strconv.Itoa(paymentsLimitMax+1), `limit value must be between 1 and `+strconv.Itoa(paymentsLimitMax)),
			step(`timeouts {
  read = "soon"
}`, `Invalid Attribute Value Time Duration`),
		},
	})
}

func TestAccPaymentsDataSource_CustomerNotFound(t *testing.T) {
	testAccPreCheck(t)
	a := newTestAccAccount(t)
	other := newTestAccAccount(t)
	theirs := testAccCreateCustomer(t, other.Client, client.CustomerParams{})
	gone := testAccCreateCustomer(t, a.Client, client.CustomerParams{})
	if _, err := a.Client.DeleteCustomer(t.Context(), gone.ID); err != nil {
		t.Fatalf("deleting customer %s: %v", gone.ID, err)
	}
	step := func(id string) resource.TestStep {
		return resource.TestStep{
			Config:      testAccPaymentsConfig(a, map[string]string{"test": fmt.Sprintf("customer = %q", id)}),
			ExpectError: regexp.MustCompile(`(?s)Customer Not Found.*` + regexp.QuoteMeta(id)),
		}
	}

	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			step("cus_" + strings.Repeat("Z", wire.IDRandomLength)),
			step(gone.ID),
			step(theirs.ID),
		},
	})
}

// TestPaymentsDataSource_Read_Pages drives Read against a fake list
// endpoint: it follows pages of wire.ListLimitMax, asks no more than a
// limit needs, and sends the filters in the API's form.
func TestPaymentsDataSource_Read_Pages(t *testing.T) {
	const total = 2*wire.ListLimitMax + 50
	ids := make([]string, total) // newest first
	for i := range ids {
		ids[i] = fmt.Sprintf("pay_%024d", total-i)
	}
	list := startFakeList(t, "/v1/payments", ids, func(i int) string {
		return fmt.Sprintf(`{"id":%q,"object":"payment","amount":1,"currency":"USD","status":"approved","authorization_code":"1","created_at":"2025-01-01T00:00:00Z","livemode":false}`, ids[i])
	})
	c := testUnitClient(t, list.URL)

	for _, tc := range []struct {
		name    string
		config  map[string]tftypes.Value
		want    int
		queries []string
	}{
		{
			name: "all", want: total,
			queries: []string{"limit=100", "limit=100&starting_after=" + ids[99], "limit=100&starting_after=" + ids[199]},
		},
		{
			name: "limit_below_a_page", want: 5,
			config:  map[string]tftypes.Value{"limit": tftypes.NewValue(tftypes.Number, 5)},
			queries: []string{"limit=5"},
		},
		{
			name: "limit_over_a_page", want: 150,
			config:  map[string]tftypes.Value{"limit": tftypes.NewValue(tftypes.Number, 150)},
			queries: []string{"limit=100", "limit=100&starting_after=" + ids[99]},
		},
		{
			name: "filters", want: total,
			config: map[string]tftypes.Value{
				"customer":       tftypes.NewValue(tftypes.String, "cus_"+strings.Repeat("a", wire.IDRandomLength)),
				"status":         tftypes.NewValue(tftypes.String, "refunded"),
				"created_after":  tftypes.NewValue(tftypes.String, "2025-01-31T10:00:00.25+01:00"),
				"created_before": tftypes.NewValue(tftypes.String, "2025-02-01T00:00:00.75Z"),
			},
			// In UTC with whole seconds: the lower bound rounded up, the upper down.
			queries: []string{
				"created%5Bgte%5D=2025-01-31T09%3A00%3A01Z&created%5Blte%5D=2025-02-01T00%3A00%3A00Z&customer=cus_" +
					strings.Repeat("a", wire.IDRandomLength) + "&limit=100&status=refunded",
			},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			list.take()
			state, diags := testUnitReadDataSource(t, NewPaymentsDataSource(), c, tc.config)
			if diags.HasError() {
				t.Fatalf("Read: %v", diags)
			}
			var got paymentsDataSourceModel
			if diags := state.Get(t.Context(), &got); diags.HasError() {
				t.Fatalf("state: %v", diags)
			}
			if len(got.Payments) != tc.want {
				t.Errorf("got %d payments, want %d", len(got.Payments), tc.want)
			}
			for i, p := range got.Payments {
				if p.ID.ValueString() != ids[i] {
					t.Fatalf("payments[%d] = %s, want %s (newest first)", i, p.ID.ValueString(), ids[i])
				}
			}
			queries := list.take()
			gotQueries := queries
			if tc.name == "filters" {
				// The fake ignores filters; the first query is what matters.
				gotQueries = queries[:min(1, len(queries))]
			}
			if !slices.Equal(gotQueries, tc.queries) {
				t.Errorf("queries:\n got %q\nwant %q", gotQueries, tc.queries)
			}
		})
	}
}

func TestCreatedBound_RoundsToSeconds(t *testing.T) {
	for _, tc := range []struct {
		in    string
		lower bool
		want  string
	}{
		{"2025-01-31T10:00:00Z", true, "2025-01-31T10:00:00Z"},
		{"2025-01-31T10:00:00Z", false, "2025-01-31T10:00:00Z"},
		{"2025-01-31T10:00:00.001Z", true, "2025-01-31T10:00:01Z"},
		{"2025-01-31T10:00:00.999Z", false, "2025-01-31T10:00:00Z"},
		{"2025-01-31T23:59:59.5-02:00", true, "2025-02-01T02:00:00Z"},
		{"2025-01-31T10:00:00+05:30", false, "2025-01-31T04:30:00Z"},
		{"9999-12-31T23:59:59Z", true, "9999-12-31T23:59:59Z"},
		{"9999-12-31T23:59:59.5Z", false, "9999-12-31T23:59:59Z"},
		{"9999-12-31T23:59:59-05:00", false, "9999-12-31T23:59:59Z"}, // past the bound in UTC: the bound
		{"0001-01-01T00:00:00Z", true, "1970-01-01T00:00:00Z"},       // before the service's times: its start
		{"1970-01-01T00:00:00Z", false, "1970-01-01T00:00:00Z"},
	} {
		got, err := createdBound(types.StringValue(tc.in), tc.lower)
		if err != nil || got != tc.want {
			t.Errorf("createdBound(%q, lower=%t) = %q, %v; want %q", tc.in, tc.lower, got, err, tc.want)
		}
	}
	// A lower bound past the last time the service writes matches nothing,
	// and the API could not spell it.
	for _, in := range []string{"9999-12-31T23:59:59.5Z", "9999-12-31T23:59:59-05:00"} {
		if got, err := createdBound(types.StringValue(in), true); err == nil || !strings.Contains(err.Error(), "no payment can match") {
			t.Errorf("createdBound(%q, lower) = %q, %v; want an error", in, got, err)
		}
	}
	// So does an upper bound before the first.
	for _, in := range []string{"1969-12-31T23:59:59Z", "1970-01-01T00:00:00+01:00"} {
		if got, err := createdBound(types.StringValue(in), false); err == nil || !strings.Contains(err.Error(), "no payment can match") {
			t.Errorf("createdBound(%q, upper) = %q, %v; want an error", in, got, err)
		}
	}
	if got, err := createdBound(types.StringNull(), true); got != "" || err != nil {
		t.Errorf("createdBound(null) = %q, %v; want \"\"", got, err)
	}
}

func checkSentence(t *testing.T, what, s string) {
	t.Helper()
	if s == "" || !unicode.IsUpper([]rune(s)[0]) || !strings.HasSuffix(s, ".") {
		t.Errorf("%s: description %q is not a full sentence", what, s)
	}
}
