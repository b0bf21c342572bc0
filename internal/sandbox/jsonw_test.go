package sandbox

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// The hand-written encoder (jsonw.go) is kept because it measurably pays:
// these encoding/json builds of the same objects are the yardstick it is
// measured against, and the oracle its output must equal byte for byte.

func optStr(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func metaMap(m metadata) map[string]string {
	out := make(map[string]string, len(m))
	for _, e := range m {
		out[e.k] = e.v
	}
	return out
}

func rfc3339(unix int64) string { return time.Unix(unix, 0).UTC().Format(time.RFC3339) }

type customerOut struct {
	ID            string            `json:"id"`
	Object        string            `json:"object"`
	Email         *string           `json:"email"`
	Name          *string           `json:"name"`
	Phone         *string           `json:"phone"`
	DefaultSource *string           `json:"default_source"`
	Sources       sourceSummaryList `json:"sources"`
	TestClock     string            `json:"test_clock,omitempty"`
	Metadata      map[string]string `json:"metadata"`
	CreatedAt     string            `json:"created_at"`
	Livemode      bool              `json:"livemode"`
}
type sourceSummaryList struct {
	Object string               `json:"object"`
	Data   []wire.SourceSummary `json:"data"`
}

func customerJSONStd(cu *customer) []byte {
	o := customerOut{
		ID: cu.id.format(wire.CustomerIDPrefix), Object: "customer",
		Email: optStr(cu.email), Name: optStr(cu.name), Phone: optStr(cu.phone),
		Sources:  sourceSummaryList{Object: "list", Data: make([]wire.SourceSummary, 0, len(cu.sources))},
		Metadata: metaMap(cu.meta), CreatedAt: rfc3339(cu.created),
	}
	if cu.defaultSource != nil {
		o.DefaultSource = optStr(cu.defaultSource.id.format(wire.SourceIDPrefix))
	}
	if !cu.clock.isZero() {
		o.TestClock = cu.clock.format(wire.TestClockIDPrefix)
	}
	for _, s := range cu.sources {
		o.Sources.Data = append(o.Sources.Data, wire.SourceSummary{ID: s.id.format(wire.SourceIDPrefix), Brand: s.card.brand, Last4: s.card.last4})
	}
	b, err := json.Marshal(o)
	if err != nil {
		panic(err)
	}
	return b
}

type paymentOut struct {
	ID                string             `json:"id"`
	Object            string             `json:"object"`
	Amount            int64              `json:"amount"`
	AmountRefunded    int64              `json:"amount_refunded"`
	Currency          string             `json:"currency"`
	Status            string             `json:"status"`
	Captured          bool               `json:"captured"`
	AuthorizationCode *string            `json:"authorization_code"`
	Source            wire.PaymentSource `json:"source"`
	Customer          *string            `json:"customer"`
	Description       *string            `json:"description"`
	Invoice           *string            `json:"invoice"`
	Metadata          map[string]string  `json:"metadata"`
	CreatedAt         string             `json:"created_at"`
	Livemode          bool               `json:"livemode"`
}

func paymentJSONStd(p *payment) []byte {
	o := paymentOut{
		ID: p.id.format(wire.PaymentIDPrefix), Object: "payment", Amount: p.amount, AmountRefunded: p.refunded,
		Currency: p.currency, Status: p.status, Captured: p.captured, AuthorizationCode: optStr(p.authCode),
		Source:      wire.PaymentSource{ID: p.sourceID.format(wire.SourceIDPrefix), Brand: p.card.brand, Last4: p.card.last4, ExpMonth: int64(p.expMonth), ExpYear: int64(p.expYear)},
		Description: optStr(p.description), Metadata: metaMap(p.meta), CreatedAt: rfc3339(p.created),
	}
	if !p.customer.isZero() {
		o.Customer = optStr(p.customer.format(wire.CustomerIDPrefix))
	}
	if !p.invoice.isZero() {
		o.Invoice = optStr(p.invoice.format(wire.InvoiceIDPrefix))
	}
	out, err := json.Marshal(o)
	if err != nil {
		panic(err)
	}
	return out
}

func jsonwFixtures() ([]*customer, []*payment) {
	tricky := []string{"", "plain", `quote " backslash \\ slash /`, "<script>&amp;</script>", "tab\t nl\n cr\r ctl\x01\x1f",
		"line\u2028sep\u2029", "bad utf8 \xff\xfe end", "é ü 漢字 🎉"}
	var cus []*customer
	var pays []*payment
	for i, s := range tricky {
		cu := &customer{id: newRID(), created: 1_700_000_000 + int64(i), email: s, name: s, phone: s, meta: metadata{{"k", s}}}
		if s != "" {
			cu.meta = append(cu.meta, kv{s, "v"})
			slices.SortFunc(cu.meta, func(a, b kv) int { return strings.Compare(a.k, b.k) })
		}
		for j := range i % 3 {
			cu.sources = append(cu.sources, &source{id: newRID(), card: cards[j], expMonth: expMonth, expYear: 2030})
		}
		if len(cu.sources) > 0 {
			cu.defaultSource = cu.sources[len(cu.sources)-1]
		}
		cus = append(cus, cu)
		p := &payment{id: newRID(), created: cu.created, amount: int64(i) * 1000, refunded: int64(i), currency: "USD",
			status: wire.PaymentStatuses[i%len(wire.PaymentStatuses)], captured: i%2 == 0, authCode: s,
			sourceID: newRID(), card: cards[i%len(cards)], expMonth: 7, expYear: 2029, description: s, meta: cu.meta}
		if i%2 == 1 {
			p.customer = cu.id
		}
		pays = append(pays, p)
	}
	return cus, pays
}

// TestJSONW_MatchesEncodingJSON: every answer jsonw writes is the one
// encoding/json would, escapes and nulls included.
func TestJSONW_MatchesEncodingJSON(t *testing.T) {
	c := &call{}
	cus, pays := jsonwFixtures()
	for i, cu := range cus {
		if got, want := c.customerJSON(cu), customerJSONStd(cu); !bytes.Equal(got, want) {
			t.Errorf("customer %d:\n got %s\nwant %s", i, got, want)
		}
	}
	for i, p := range pays {
		if got, want := paymentJSON(nil, p), paymentJSONStd(p); !bytes.Equal(got, want) {
			t.Errorf("payment %d:\n got %s\nwant %s", i, got, want)
		}
	}
}

// BenchmarkEncode compares jsonw with encoding/json on the objects a
// create answers with; jsonw.go records the measurement.
func BenchmarkEncode(b *testing.B) {
	c := &call{}
	cus, pays := jsonwFixtures()
	cu, p := cus[2], pays[3]
	for _, bc := range []struct {
		name string
		fn   func() []byte
	}{
		{"customer/jsonw", func() []byte { return c.customerJSON(cu) }},
		{"customer/encoding_json", func() []byte { return customerJSONStd(cu) }},
		{"payment/jsonw", func() []byte { return paymentJSON(nil, p) }},
		{"payment/encoding_json", func() []byte { return paymentJSONStd(p) }},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			defer ReportCPU(b)()
			for b.Loop() {
				bc.fn()
			}
		})
	}
}
