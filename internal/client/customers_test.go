package client_test

import (
	"context"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/paymentsdev/terraform-provider-payments/internal/client"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// TestClient_CustomerLifecycle: create, read, update, delete, and the shapes of
// the objects on the way.
func TestClient_CustomerLifecycle(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := newEnv(t)
	created, err := e.c.CreateCustomer(ctx, &client.CustomerParams{
		Email: new("ada@example.com"), Name: new("Ada Lovelace"), Phone: new("+442071234567"),
		Metadata: map[string]string{"plan": "gold", "region": "eu"},
	})
	if err != nil {
		t.Fatal(err)
	}
	checkID(t, created.ID, wire.CustomerIDPrefix)
	checkTimestamp(t, created.CreatedAt)
	if created.Object != "customer" || created.Livemode || created.Email != "ada@example.com" || created.Name != "Ada Lovelace" ||
		created.Phone != "+442071234567" || !maps.Equal(created.Metadata, map[string]string{"plan": "gold", "region": "eu"}) ||
		created.DefaultSource != "" || created.Sources.Object != "list" || len(created.Sources.Data) != 0 {
		t.Errorf("created customer: %+v", created)
	}
	got, err := e.c.GetCustomer(ctx, created.ID)
	if err != nil || fmt.Sprint(got) != fmt.Sprint(created) {
		t.Errorf("GetCustomer = %+v, %v; want %+v", got, err, created)
	}
	upd, err := e.c.UpdateCustomer(ctx, created.ID, &client.CustomerParams{Name: new("Ada King")})
	if err != nil || upd.Name != "Ada King" || upd.Email != created.Email || upd.Phone != created.Phone || !maps.Equal(upd.Metadata, created.Metadata) || upd.CreatedAt != created.CreatedAt {
		t.Errorf("update of name only: %+v, %v", upd, err)
	}
	// An empty update changes nothing.
	same, err := e.c.UpdateCustomer(ctx, created.ID, nil)
	if err != nil || fmt.Sprint(same) != fmt.Sprint(upd) {
		t.Errorf("empty update: %+v, %v; want %+v", same, err, upd)
	}
	del, err := e.c.DeleteCustomer(ctx, created.ID)
	if err != nil || *del != (client.Deleted{ID: created.ID, Object: "customer", Deleted: true}) {
		t.Errorf("DeleteCustomer = %+v, %v", del, err)
	}
	for _, call := range []func() error{
		func() error { _, err := e.c.GetCustomer(ctx, created.ID); return err },
		func() error { _, err := e.c.DeleteCustomer(ctx, created.ID); return err },
		func() error {
			_, err := e.c.UpdateCustomer(ctx, created.ID, &client.CustomerParams{Name: new("x")})
			return err
		},
	} {
		checkAPIError(t, call(), e.key, wantErr{status: 404, typ: wire.ErrorTypeInvalidRequest, code: wire.ErrorCodeResourceMissing})
	}
}

// TestUpdateCustomer_Clearing: "" clears a scalar; metadata[k]= deletes a key;
// metadata= deletes them all.
func TestUpdateCustomer_Clearing(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := newEnv(t)
	cus := mustCustomer(t, e.c, &client.CustomerParams{
		Email: new("a@example.com"), Name: new("A"), Phone: new("+15551234567"),
		Metadata: map[string]string{"a": "1", "b": "2", "c": "3"},
	})
	steps := []struct {
		name string
		p    client.CustomerParams
		want func(c *client.Customer) bool
	}{
		{"clear name", client.CustomerParams{Name: new("")}, func(c *client.Customer) bool { return c.Name == "" && c.Email != "" && c.Phone != "" }},
		{"clear email", client.CustomerParams{Email: new("")}, func(c *client.Customer) bool { return c.Email == "" && c.Phone != "" }},
		{"clear phone", client.CustomerParams{Phone: new("")}, func(c *client.Customer) bool { return c.Phone == "" }},
		{"delete one key, set another", client.CustomerParams{Metadata: map[string]string{"a": "", "d": "4"}}, func(c *client.Customer) bool {
			return maps.Equal(c.Metadata, map[string]string{"b": "2", "c": "3", "d": "4"})
		}},
		{"delete a key that is not there", client.CustomerParams{Metadata: map[string]string{"zz": ""}}, func(c *client.Customer) bool {
			return maps.Equal(c.Metadata, map[string]string{"b": "2", "c": "3", "d": "4"})
		}},
		{"clear all, then set one", client.CustomerParams{ClearMetadata: true, Metadata: map[string]string{"e": "5"}}, func(c *client.Customer) bool {
			return maps.Equal(c.Metadata, map[string]string{"e": "5"})
		}},
		{"clear all", client.CustomerParams{ClearMetadata: true}, func(c *client.Customer) bool { return len(c.Metadata) == 0 }},
	}
	for _, s := range steps {
		got, err := e.c.UpdateCustomer(ctx, cus.ID, &s.p)
		if err != nil || !s.want(got) {
			t.Errorf("%s: %+v, %v", s.name, got, err)
			continue
		}
		if again, err := e.c.GetCustomer(ctx, cus.ID); err != nil || fmt.Sprint(again) != fmt.Sprint(got) {
			t.Errorf("%s: read back %+v, %v; want %+v", s.name, again, err, got)
		}
	}
}

// TestClient_DefaultSource: the first attached becomes default, removing the
// default picks the most recently added remaining one, null when none;
// default_source= is rejected; an unattached src_ is resource_missing.
func TestClient_DefaultSource(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := newEnv(t)
	cus := mustCustomer(t, e.c, nil)
	defaultOf := func() string {
		t.Helper()
		c, err := e.c.GetCustomer(ctx, cus.ID)
		if err != nil {
			t.Fatal(err)
		}
		return c.DefaultSource
	}
	visa := mustSource(t, e.c, cus.ID, sandbox.TokenVisa)
	if d := defaultOf(); d != visa.ID {
		t.Fatalf("first source: default %q, want %q", d, visa.ID)
	}
	mc := mustSource(t, e.c, cus.ID, sandbox.TokenMastercard)
	amex := mustSource(t, e.c, cus.ID, sandbox.TokenAmex)
	dispute := mustSource(t, e.c, cus.ID, sandbox.TokenDispute)
	if d := defaultOf(); d != visa.ID {
		t.Errorf("after more sources: default %q, want the first %q", d, visa.ID)
	}
	c, err := e.c.GetCustomer(ctx, cus.ID)
	if err != nil {
		t.Fatal(err)
	}
	var listed []string
	for _, s := range c.Sources.Data {
		listed = append(listed, s.ID)
	}
	if want := []string{visa.ID, mc.ID, amex.ID, dispute.ID}; !sameSet(listed, want) {
		t.Errorf("sources list %v, want %v", listed, want)
	}

	// Replace the default, then remove it: the most recently added remaining
	// source (dispute) becomes the default, not the previous default.
	if c, err := e.c.SetDefaultSource(ctx, cus.ID, mc.ID); err != nil || c.DefaultSource != mc.ID {
		t.Fatalf("SetDefaultSource: %+v, %v", c, err)
	}
	steps := []struct {
		remove      *client.Source
		wantDefault string
	}{
		{mc, dispute.ID},
		{amex, dispute.ID}, // not the default: unchanged
		{dispute, visa.ID},
		{visa, ""},
	}
	for _, s := range steps {
		del, err := e.c.DeleteSource(ctx, cus.ID, s.remove.ID)
		if err != nil || *del != (client.Deleted{ID: s.remove.ID, Object: "source", Deleted: true}) {
			t.Fatalf("DeleteSource(%s) = %+v, %v", s.remove.Brand, del, err)
		}
		if d := defaultOf(); d != s.wantDefault {
			t.Errorf("after removing %s: default %q, want %q", s.remove.Brand, d, s.wantDefault)
		}
		checkAPIError(t, func() error { _, err := e.c.GetSource(ctx, cus.ID, s.remove.ID); return err }(),
			e.key, wantErr{status: 404, typ: wire.ErrorTypeInvalidRequest, code: wire.ErrorCodeResourceMissing})
	}

	// default_source= is rejected, and a src_ of another customer is not attached.
	a := mustSource(t, e.c, cus.ID, sandbox.TokenVisa)
	other := mustCustomer(t, e.c, &client.CustomerParams{Source: new(sandbox.TokenAmex)})
	checkAPIError(t, func() error { _, err := e.c.SetDefaultSource(ctx, cus.ID, ""); return err }(),
		e.key, wantErr{status: 400, typ: wire.ErrorTypeInvalidRequest, param: "default_source"})
	checkAPIError(t, func() error { _, err := e.c.SetDefaultSource(ctx, cus.ID, other.DefaultSource); return err }(),
		e.key, wantErr{status: 400, typ: wire.ErrorTypeInvalidRequest, code: wire.ErrorCodeResourceMissing, param: "default_source"})
	checkAPIError(t, func() error { _, err := e.c.GetSource(ctx, cus.ID, other.DefaultSource); return err }(),
		e.key, wantErr{status: 404, typ: wire.ErrorTypeInvalidRequest, code: wire.ErrorCodeResourceMissing})
	checkAPIError(t, func() error { _, err := e.c.DeleteSource(ctx, cus.ID, other.DefaultSource); return err }(),
		e.key, wantErr{status: 404, typ: wire.ErrorTypeInvalidRequest, code: wire.ErrorCodeResourceMissing})
	if d := defaultOf(); d != a.ID {
		t.Errorf("after rejected updates: default %q, want %q", d, a.ID)
	}
	// A source token on create is stored and made default.
	if other.DefaultSource == "" || len(other.Sources.Data) != 1 || other.Sources.Data[0].ID != other.DefaultSource || other.Sources.Data[0].Brand != "amex" {
		t.Errorf("customer created with a source: %+v", other)
	}
}

func sameSet(a, b []string) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(a, b)
}

// TestAddSource_TestTokens: every test token's brand, last4 and expiry.
func TestAddSource_TestTokens(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := newEnv(t)
	cus := mustCustomer(t, e.c, nil)
	expYear := int64(time.Now().UTC().Year() + 3)
	for _, tc := range []struct{ token, brand, last4 string }{
		{sandbox.TokenVisa, "visa", "4242"},
		{sandbox.TokenMastercard, "mastercard", "4444"},
		{sandbox.TokenAmex, "amex", "8431"},
		{sandbox.TokenDeclined, "visa", "0002"},
		{sandbox.Token3DS, "visa", "3184"},
		{sandbox.TokenDispute, "visa", "0259"},
	} {
		src, err := e.c.AddSource(ctx, cus.ID, tc.token)
		if err != nil {
			t.Errorf("%s: %v", tc.token, err)
			continue
		}
		checkID(t, src.ID, wire.SourceIDPrefix)
		want := client.Source{ID: src.ID, Object: "source", Customer: cus.ID, Brand: tc.brand, Last4: tc.last4, ExpMonth: 12, ExpYear: expYear}
		if *src != want {
			t.Errorf("%s: %+v, want %+v", tc.token, *src, want)
		}
		if got, err := e.c.GetSource(ctx, cus.ID, src.ID); err != nil || *got != want {
			t.Errorf("GetSource(%s) = %+v, %v", tc.token, got, err)
		}
	}
	if n := stats(t, e.c).Sources; n != 6 {
		t.Errorf("stats.sources = %d, want 6", n)
	}
}

// TestDeleteCustomer_Cascade: deleting a customer deletes its sources;
// payments that name it keep its id.
func TestDeleteCustomer_Cascade(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := newEnv(t)
	cus := mustCustomer(t, e.c, &client.CustomerParams{Source: new(sandbox.TokenVisa)})
	src := mustSource(t, e.c, cus.ID, sandbox.TokenMastercard)
	pay := mustPayment(t, e.c, &client.PaymentParams{Amount: mediumAmount, Currency: "USD", Customer: cus.ID, Source: src.ID})
	keep := mustCustomer(t, e.c, &client.CustomerParams{Source: new(sandbox.TokenAmex)})
	if s := stats(t, e.c); s.Customers != 2 || s.Sources != 3 || s.Payments != 1 {
		t.Fatalf("stats before: %+v", s)
	}
	if _, err := e.c.DeleteCustomer(ctx, cus.ID); err != nil {
		t.Fatal(err)
	}
	notFound := wantErr{status: 404, typ: wire.ErrorTypeInvalidRequest, code: wire.ErrorCodeResourceMissing}
	for _, id := range []string{cus.DefaultSource, src.ID} {
		checkAPIError(t, func() error { _, err := e.c.GetSource(ctx, cus.ID, id); return err }(), e.key, notFound)
	}
	checkAPIError(t, func() error { _, err := e.c.AddSource(ctx, cus.ID, sandbox.TokenVisa); return err }(), e.key, notFound)
	got, err := e.c.GetPayment(ctx, pay.ID)
	if err != nil || got.Customer != cus.ID || got.Source == nil || got.Source.ID != src.ID || got.Status != wire.PaymentStatusApproved {
		t.Errorf("payment after its customer's deletion: %+v, %v; want customer %s and source %s kept", got, err, cus.ID, src.ID)
	}
	if list, err := e.c.ListPayments(ctx, nil); err != nil || len(list.Data) != 1 || list.Data[0].Customer != cus.ID {
		t.Errorf("list after deletion: %+v, %v", list, err)
	}
	// The deleted customer can no longer be named in parameters.
	checkAPIError(t, func() error {
		_, err := e.c.CreatePayment(ctx, &client.PaymentParams{Amount: 1, Currency: "USD", Customer: cus.ID})
		return err
	}(), e.key, wantErr{status: 400, typ: wire.ErrorTypeInvalidRequest, code: wire.ErrorCodeResourceMissing, param: "customer"})
	if s := stats(t, e.c); s.Customers != 1 || s.Sources != 1 || s.Payments != 1 {
		t.Errorf("stats after: %+v, want 1 customer, 1 source, 1 payment", s)
	}
	if k, err := e.c.GetCustomer(ctx, keep.ID); err != nil || len(k.Sources.Data) != 1 {
		t.Errorf("the other customer: %+v, %v", k, err)
	}
}

// TestClient_CustomerLimits: metadata, email, phone and name bounds.
func TestClient_CustomerLimits(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	nKeys := func(n int) map[string]string {
		md := map[string]string{}
		for i := range n {
			md[fmt.Sprintf("key%d", i)] = "v"
		}
		return md
	}
	email := func(n int) string { // exactly n characters
		const domain = "@example.com"
		return strings.Repeat("a", n-len(domain)) + domain
	}
	phone := func(digits int) string { return "+" + strings.Repeat("4", digits) }
	tests := []struct {
		name      string
		p         client.CustomerParams
		wantParam string // "" = accepted; "metadata" is a prefix match
	}{
		{"50 metadata keys", client.CustomerParams{Metadata: nKeys(wire.MetadataMaxKeys)}, ""},
		{"51 metadata keys", client.CustomerParams{Metadata: nKeys(wire.MetadataMaxKeys + 1)}, "metadata"},
		{"40-char key", client.CustomerParams{Metadata: map[string]string{strings.Repeat("k", wire.MetadataKeyMaxLength): "v"}}, ""},
		{"41-char key", client.CustomerParams{Metadata: map[string]string{strings.Repeat("k", wire.MetadataKeyMaxLength+1): "v"}}, "metadata"},
		{"500-char value", client.CustomerParams{Metadata: map[string]string{"k": strings.Repeat("v", wire.MetadataValueMaxLength)}}, ""},
		{"501-char value", client.CustomerParams{Metadata: map[string]string{"k": strings.Repeat("v", wire.MetadataValueMaxLength+1)}}, "metadata"},
		{"email", client.CustomerParams{Email: new("x.y+tag@sub.example.org")}, ""},
		{"512-char email", client.CustomerParams{Email: new(email(wire.EmailMaxLength))}, ""},
		{"513-char email", client.CustomerParams{Email: new(email(wire.EmailMaxLength + 1))}, "email"},
		{"email without @", client.CustomerParams{Email: new("example.com")}, "email"},
		{"email without local part", client.CustomerParams{Email: new("@example.com")}, "email"},
		{"email without domain", client.CustomerParams{Email: new("a@")}, "email"},
		{"phone 8 digits", client.CustomerParams{Phone: new(phone(wire.PhoneMinDigits))}, ""},
		{"phone 15 digits", client.CustomerParams{Phone: new(phone(wire.PhoneMaxDigits))}, ""},
		{"phone 7 digits", client.CustomerParams{Phone: new(phone(wire.PhoneMinDigits - 1))}, "phone"},
		{"phone 16 digits", client.CustomerParams{Phone: new(phone(wire.PhoneMaxDigits + 1))}, "phone"},
		{"phone without +", client.CustomerParams{Phone: new("4155552671")}, "phone"},
		{"phone with spaces", client.CustomerParams{Phone: new("+1 415 555 2671")}, "phone"},
		{"phone with letters", client.CustomerParams{Phone: new("+1415555ABCD")}, "phone"},
		{"256-char name", client.CustomerParams{Name: new(strings.Repeat("n", wire.NameMaxLength))}, ""},
		{"257-char name", client.CustomerParams{Name: new(strings.Repeat("n", wire.NameMaxLength+1))}, "name"},
		{"256-char multibyte name", client.CustomerParams{Name: new(strings.Repeat("é", wire.NameMaxLength))}, ""},
		{"unknown token", client.CustomerParams{Source: new("tok_nope")}, "source"},
	}
	var accepted int64
	for _, tc := range tests {
		t.Run(strings.ReplaceAll(tc.name, " ", "_"), func(t *testing.T) {
			got, err := e.c.CreateCustomer(context.Background(), &tc.p)
			if tc.wantParam == "" {
				if err != nil {
					t.Fatalf("want accepted: %v", err)
				}
				accepted++
				if tc.p.Email != nil && got.Email != *tc.p.Email || tc.p.Phone != nil && got.Phone != *tc.p.Phone ||
					tc.p.Name != nil && got.Name != *tc.p.Name || tc.p.Metadata != nil && !maps.Equal(got.Metadata, tc.p.Metadata) {
					t.Errorf("stored %+v, sent %+v", got, tc.p)
				}
				return
			}
			w := wantErr{status: 400, typ: wire.ErrorTypeInvalidRequest, param: tc.wantParam}
			if tc.wantParam == "metadata" {
				w = wantErr{status: 400, typ: wire.ErrorTypeInvalidRequest, paramPrefix: "metadata"}
			}
			checkAPIError(t, err, e.key, w)
		})
	}
	// Limits hold on update too, counting the keys already stored.
	cus := mustCustomer(t, e.c, &client.CustomerParams{Metadata: nKeys(wire.MetadataMaxKeys)})
	_, err := e.c.UpdateCustomer(context.Background(), cus.ID, &client.CustomerParams{Metadata: map[string]string{"one-more": "v"}})
	checkAPIError(t, err, e.key, wantErr{status: 400, typ: wire.ErrorTypeInvalidRequest, paramPrefix: "metadata"})
	// ...and replacing one while deleting another stays within them.
	upd, err := e.c.UpdateCustomer(context.Background(), cus.ID, &client.CustomerParams{Metadata: map[string]string{"key0": "", "one-more": "v"}})
	if err != nil || len(upd.Metadata) != wire.MetadataMaxKeys {
		t.Errorf("delete one, add one at the limit: %d keys, %v", len(upd.Metadata), err)
	}
	if n := stats(t, e.c).Customers; n != accepted+1 {
		t.Errorf("stats.customers = %d, want %d", n, accepted+1)
	}
}

// TestListParams_Limit: limit is 1 to 100.
func TestListParams_Limit(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := newEnv(t)
	for _, n := range []int{wire.ListLimitMin, wire.ListLimitMax} {
		if _, err := e.c.ListPayments(ctx, &client.ListPaymentsParams{ListParams: client.ListParams{Limit: n}}); err != nil {
			t.Errorf("limit %d: %v", n, err)
		}
	}
	for _, q := range []string{"limit=0", "limit=101", "limit=-1", "limit=ten"} {
		rec := newRecorder()
		rec.rewrite = func(r *http.Request) { r.URL.RawQuery = q }
		_, err := e.client(t, withTransport(rec)).ListPayments(ctx, nil)
		checkAPIError(t, err, e.key, wantErr{status: 400, typ: wire.ErrorTypeInvalidRequest, param: "limit"})
	}
}

// TestClient_MetadataKeys: a metadata key the bracket syntax can carry
// round-trips exactly; one it cannot (brackets, empty) is refused with a
// 400 naming metadata, never stored under another key.
func TestClient_MetadataKeys(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	for _, tc := range []struct {
		key string
		ok  bool
	}{
		{"plan.tier", true}, {"a b", true}, {"ключ", true}, {"x-y_z", true}, {"=&%", true}, {"metadata", true},
		{"", false}, {"a[b", false}, {"a]b", false}, {"a][b", false}, {"[x]", false},
	} {
		got, err := e.c.CreateCustomer(context.Background(), &client.CustomerParams{Metadata: map[string]string{tc.key: "v"}})
		if tc.ok {
			if err != nil || !maps.Equal(got.Metadata, map[string]string{tc.key: "v"}) {
				t.Errorf("key %q: %v, %v; want it stored as is", tc.key, got.Metadata, err)
			}
			continue
		}
		checkAPIError(t, err, e.key, wantErr{status: 400, typ: wire.ErrorTypeInvalidRequest, paramPrefix: "metadata"})
	}
}
