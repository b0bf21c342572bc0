package model

import (
	"reflect"
	"strings"
	"testing"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/ids"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// record is what every object is to the store.
type record interface {
	RecordKey() string
	RecordValue() []byte
}

func uncounted[T any](v *T) *T {
	c := *v
	reflect.ValueOf(&c).Elem().FieldByName("Counted").SetInt(0)
	return &c
}

// TestRecords_RoundTrip: each kind of object decodes from its record to
// what it was, its key is its id, and what the account is charged for it
// is no part of the record.
func TestRecords_RoundTrip(t *testing.T) {
	t.Parallel()
	meta := Metadata{{K: "a", V: `"quoted" <b>`}, {K: "z", V: ""}}
	minted := &Card{Token: TokenVisa, Brand: "visa", Last4: "1881", Behaviour: Approves}
	src1 := &Source{ID: ids.New(), Card: CardByToken(TokenMastercard), ExpMonth: ExpMonth, ExpYear: 2029}
	src2 := &Source{ID: ids.New(), Card: minted, ExpMonth: 4, ExpYear: 2031}
	cu := &Customer{ID: ids.New(), Seq: 3, Created: 1_700_000_000, Email: "a@example.com", Name: "Ä name", Phone: "+1",
		Meta: meta, Sources: []*Source{src1, src2}, DefaultSource: src2, Clock: ids.New(), Counted: 999}
	p := &Payment{ID: ids.New(), Seq: 7, Created: 1_700_000_100, Amount: 1234, Refunded: 34, Currency: "EUR",
		Status: wire.PaymentStatusPartiallyRefunded, Captured: true, CaptureRequested: true, AuthCode: "123456",
		SourceID: src2.ID, Card: minted, ExpMonth: 4, ExpYear: 2031, Customer: cu.ID, Invoice: ids.New(),
		Description: "d", Meta: meta, Counted: 5}
	tok := &CardToken{ID: ids.New(), Card: minted, ExpMonth: 4, ExpYear: 2031, Fingerprint: "fp", Used: true, Created: 9, Counted: 1}
	ep := &WebhookEndpoint{ID: ids.New(), Seq: 2, Created: 11, URL: "https://example.com/h", Events: []string{wire.EventTypeAll},
		Description: "x", Disabled: true, APIVersion: "2025-03-31.basil", Meta: meta, Secret: "whsec_x", Counted: 3}

	for _, tc := range []struct {
		name   string
		obj    record
		prefix string
		id     ids.RID
		decode func([]byte) (any, error)
	}{
		{"customer", cu, wire.CustomerIDPrefix, cu.ID, func(b []byte) (any, error) { return CustomerFromRecord(b) }},
		{"payment", p, wire.PaymentIDPrefix, p.ID, func(b []byte) (any, error) { return PaymentFromRecord(b) }},
		{"card token", tok, wire.TokenIDPrefix, tok.ID, func(b []byte) (any, error) { return TokenFromRecord(b) }},
		{"webhook endpoint", ep, wire.WebhookEndpointIDPrefix, ep.ID, func(b []byte) (any, error) { return EndpointFromRecord(b) }},
	} {
		if got, want := tc.obj.RecordKey(), tc.id.Format(tc.prefix); got != want {
			t.Errorf("%s: key %q, want %q", tc.name, got, want)
		}
		got, err := tc.decode(tc.obj.RecordValue())
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		var want any
		switch o := tc.obj.(type) {
		case *Customer:
			want = uncounted(o)
		case *Payment:
			want = uncounted(o)
		case *CardToken:
			want = uncounted(o)
		case *WebhookEndpoint:
			want = uncounted(o)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: decoded\n%+v\nwant\n%+v", tc.name, got, want)
		}
	}
}

// TestRecords_EventKeepsItsBody: an event read back answers the body it
// was sent with, byte for byte, so that signatures still verify.
func TestRecords_EventKeepsItsBody(t *testing.T) {
	t.Parallel()
	ev := &Event{ID: ids.New(), Seq: 4, Type: "payment.approved", Created: 20, At: 19, Obj: []byte(`{"id":"pay_x"}`)}
	back, err := EventFromRecord(ev.RecordValue())
	if err != nil {
		t.Fatal(err)
	}
	if string(back.JSON()) != string(ev.JSON()) || back.ID != ev.ID || back.Seq != 4 || back.Type != ev.Type || back.Created != 20 {
		t.Errorf("read back %+v with body %s; want the body %s", back, back.JSON(), ev.JSON())
	}
	// Charged alike either way, so that a rollback to the file's state
	// leaves the account's count where it was.
	if back.MemBytes() != ev.MemBytes() || ev.bodyLen() != len(ev.JSON()) {
		t.Errorf("read back the event costs %d bytes, made %d (body %d, counted %d)", back.MemBytes(), ev.MemBytes(), len(ev.JSON()), ev.bodyLen())
	}
}

// TestLoad_CatalogBillingAndClocks: the catalog, the subscriptions with
// their invoices and the test clocks load from their records in creation
// order, whatever order the records come in, with their sequences.
func TestLoad_CatalogBillingAndClocks(t *testing.T) {
	t.Parallel()
	var cat Catalog
	prod := &Product{ID: ids.New(), Created: 1, Name: "Plan", Active: true, Meta: Metadata{{K: "k", V: "v"}}}
	cat.AddProduct(prod)
	monthly := &Price{ID: ids.New(), Created: 2, Product: prod.ID, Currency: "USD", UnitAmount: 900,
		Recurring: wire.Recurring{Interval: "month", IntervalCount: 1}, LookupKey: "std", Active: true}
	once := &Price{ID: ids.New(), Created: 3, Product: prod.ID, Currency: "USD", UnitAmount: 100, Nickname: "setup"}
	cat.AddPrice(monthly)
	cat.AddPrice(once)
	var book SubBook
	sub := &Subscription{ID: ids.New(), Created: 4, Customer: ids.New(), Status: wire.SubscriptionStatusActive,
		Items: []SubItem{{ID: ids.New(), Price: monthly, Quantity: 2}}, PeriodStart: 4, PeriodEnd: 100, Anchor: 4, Cycle: 1}
	book.AddSubscription(sub)
	inv := &Invoice{ID: ids.New(), Created: 4, Customer: sub.Customer, Subscription: sub.ID, Status: wire.InvoiceStatuses[0],
		BillingReason: wire.BillingReasonSubscriptionCreate, Currency: "USD", AmountDue: 1800,
		PeriodStart: 4, PeriodEnd: 100}
	inv.makeLines(1) // as NewInvoice does: the load keeps the line in line too
	inv.Lines[0] = InvoiceLine{Item: sub.Items[0].ID, Price: monthly.ID, Quantity: 2, Amount: 1800}
	book.AddInvoice(inv)
	var clocks Clocks
	k1, k2 := &TestClock{ID: ids.New(), Created: 5, Name: "a", Frozen: 50}, &TestClock{ID: ids.New(), Created: 6, Frozen: 60}
	clocks.Add(k1)
	clocks.Add(k2)

	buckets := map[string][][]byte{
		BucketProducts:      {prod.RecordValue()},
		BucketPrices:        {once.RecordValue(), monthly.RecordValue()}, // key order is not creation order
		BucketSubscriptions: {sub.RecordValue()},
		BucketInvoices:      {inv.RecordValue()},
		BucketTestClocks:    {k2.RecordValue(), k1.RecordValue()},
	}
	var gotCat Catalog
	if err := gotCat.Load(buckets); err != nil {
		t.Fatal(err)
	}
	var gotBook SubBook
	if err := gotBook.Load(buckets, &gotCat); err != nil {
		t.Fatal(err)
	}
	var gotClocks Clocks
	if err := gotClocks.Load(buckets); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(gotCat, cat) {
		t.Errorf("catalog\n%+v\nwant\n%+v", gotCat, cat)
	}
	if !reflect.DeepEqual(gotBook, book) {
		t.Errorf("subscriptions\n%+v\nwant\n%+v", gotBook, book)
	}
	if !reflect.DeepEqual(gotClocks, clocks) {
		t.Errorf("test clocks\n%+v\nwant\n%+v", gotClocks, clocks)
	}
	if gotBook.Subs[sub.ID].Items[0].Price != gotCat.Prices[monthly.ID] {
		t.Error("a loaded subscription's item does not point at the loaded catalog's price")
	}
}

// TestFromRecord_RefusesMalformed: a record that does not decode, or
// names what it cannot, fails with an error saying what is wrong; nothing
// half-read is returned.
func TestFromRecord_RefusesMalformed(t *testing.T) {
	t.Parallel()
	var cat Catalog
	for _, tc := range []struct {
		name string
		err  func() error
		want string
	}{
		{"customer not JSON", func() error { _, err := CustomerFromRecord([]byte("{")); return err }, "reading a customer record"},
		{"customer id", func() error { _, err := CustomerFromRecord([]byte(`{"id":"cus_x"}`)); return err }, `customer id "cus_x" is malformed`},
		{"payment unknown token", func() error {
			_, err := PaymentFromRecord([]byte(`{"id":"pay_` + strings.Repeat("a", wire.IDRandomLength) + `","source_id":"src_` +
				strings.Repeat("a", wire.IDRandomLength) + `","token":"tok_nope","currency":"USD","status":"approved"}`))
			return err
		}, "is malformed"},
		{"payment currency", func() error {
			_, err := PaymentFromRecord([]byte(`{"id":"pay_` + strings.Repeat("a", wire.IDRandomLength) + `","source_id":"src_` +
				strings.Repeat("a", wire.IDRandomLength) + `","token":"tok_visa","currency":"usd","status":"approved"}`))
			return err
		}, "is malformed"},
		{"token", func() error { _, err := TokenFromRecord([]byte(`{"id":"tok_1"}`)); return err }, `token "tok_1" is malformed`},
		{"event", func() error { _, err := EventFromRecord([]byte(`{"id":"evt_1"}`)); return err }, `event id "evt_1" is malformed`},
		{"product not JSON", func() error { return cat.Load(map[string][][]byte{BucketProducts: {[]byte("[")}}) }, "reading a product record"},
		{"product id", func() error {
			return cat.Load(map[string][][]byte{BucketProducts: {[]byte(`{"id":"prod_x","seq":1}`)}})
		}, `product "prod_x" is malformed`},
		{"invoice not JSON", func() error {
			var b SubBook
			return b.Load(map[string][][]byte{BucketInvoices: {[]byte("[")}}, &cat)
		}, "reading an invoice record"},
		{"test clock not JSON", func() error {
			var cl Clocks
			return cl.Load(map[string][][]byte{BucketTestClocks: {[]byte("[")}})
		}, "reading a test clock record"},
		{"test clock without seq", func() error {
			var cl Clocks
			return cl.Load(map[string][][]byte{BucketTestClocks: {(&TestClock{ID: ids.New()}).RecordValue()}})
		}, "is malformed"},
		{"price of a missing product", func() error {
			return cat.Load(map[string][][]byte{BucketPrices: {(&Price{ID: ids.New(), Seq: 1, Product: ids.New(), Currency: "USD"}).RecordValue()}})
		}, "which the file lacks"},
		{"subscription of a missing price", func() error {
			var b SubBook
			s := &Subscription{ID: ids.New(), Seq: 1, Customer: ids.New(), Status: wire.SubscriptionStatusActive,
				Items: []SubItem{{ID: ids.New(), Price: &Price{ID: ids.New()}}}}
			return b.Load(map[string][][]byte{BucketSubscriptions: {s.RecordValue()}}, &cat)
		}, "which the file lacks or does not recur"},
	} {
		err := tc.err()
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want an error containing %q", tc.name, err, tc.want)
		}
	}
}

// TestRestore_KeepsTheHigherSequences: a container restored from the
// store takes its objects and the higher of each sequence, whichever side
// holds it, so that a failed request's ids and cursors never come back.
func TestRestore_KeepsTheHigherSequences(t *testing.T) {
	t.Parallel()
	p := &Product{ID: ids.New(), Seq: 1}
	for _, tc := range []struct {
		name       string
		mine, file uint64
	}{
		{"memory ahead", 9, 4},
		{"file ahead", 4, 9},
		{"equal", 5, 5},
	} {
		want := max(tc.mine, tc.file)
		cat := Catalog{ProductSeq: tc.mine, PriceSeq: tc.mine}
		cat.Restore(Catalog{Products: map[ids.RID]*Product{p.ID: p}, ProductOrder: []*Product{p}, ProductSeq: tc.file, PriceSeq: tc.file})
		if cat.ProductSeq != want || cat.PriceSeq != want || cat.Products[p.ID] != p || len(cat.ProductOrder) != 1 {
			t.Errorf("%s: catalog %+v, want the file's product and sequences %d", tc.name, cat, want)
		}
		book := SubBook{SubSeq: tc.mine, InvoiceSeq: tc.mine}
		book.Restore(SubBook{SubSeq: tc.file, InvoiceSeq: tc.file})
		if book.SubSeq != want || book.InvoiceSeq != want {
			t.Errorf("%s: subscriptions' sequences %d and %d, want %d", tc.name, book.SubSeq, book.InvoiceSeq, want)
		}
		cl := Clocks{Seq: tc.mine}
		cl.Restore(Clocks{Seq: tc.file})
		if cl.Seq != want {
			t.Errorf("%s: test clocks' sequence %d, want %d", tc.name, cl.Seq, want)
		}
	}
}
