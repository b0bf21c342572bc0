package sandbox

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/model"
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

func metaMap(m model.Metadata) map[string]string {
	out := make(map[string]string, len(m))
	for _, e := range m {
		out[e.K] = e.V
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
	Object  string               `json:"object"`
	Data    []wire.SourceSummary `json:"data"`
	HasMore bool                 `json:"has_more"`
	URL     string               `json:"url"`
}

func customerJSONStd(cu *model.Customer) []byte {
	o := customerOut{
		ID: cu.ID.Format(wire.CustomerIDPrefix), Object: "customer",
		Email: optStr(cu.Email), Name: optStr(cu.Name), Phone: optStr(cu.Phone),
		Sources: sourceSummaryList{Object: "list", Data: make([]wire.SourceSummary, 0, len(cu.Sources)),
			URL: wire.PathCustomers + "/" + cu.ID.Format(wire.CustomerIDPrefix) + "/sources"},
		Metadata: metaMap(cu.Meta), CreatedAt: rfc3339(cu.Created),
	}
	if cu.DefaultSource != nil {
		o.DefaultSource = optStr(cu.DefaultSource.ID.Format(wire.SourceIDPrefix))
	}
	if !cu.Clock.IsZero() {
		o.TestClock = cu.Clock.Format(wire.TestClockIDPrefix)
	}
	for _, s := range cu.Sources {
		o.Sources.Data = append(o.Sources.Data, wire.SourceSummary{ID: s.ID.Format(wire.SourceIDPrefix), Brand: s.Card.Brand, Last4: s.Card.Last4})
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

func paymentJSONStd(p *model.Payment) []byte {
	o := paymentOut{
		ID: p.ID.Format(wire.PaymentIDPrefix), Object: "payment", Amount: p.Amount, AmountRefunded: p.Refunded,
		Currency: p.Currency, Status: p.Status, Captured: p.Captured, AuthorizationCode: optStr(p.AuthCode),
		Source:      wire.PaymentSource{ID: p.SourceID.Format(wire.SourceIDPrefix), Brand: p.Card.Brand, Last4: p.Card.Last4, ExpMonth: int64(p.ExpMonth), ExpYear: int64(p.ExpYear)},
		Description: optStr(p.Description), Metadata: metaMap(p.Meta), CreatedAt: rfc3339(p.Created),
	}
	if !p.Customer.IsZero() {
		o.Customer = optStr(p.Customer.Format(wire.CustomerIDPrefix))
	}
	if !p.Invoice.IsZero() {
		o.Invoice = optStr(p.Invoice.Format(wire.InvoiceIDPrefix))
	}
	out, err := json.Marshal(o)
	if err != nil {
		panic(err)
	}
	return out
}

func jsonwFixtures() ([]*model.Customer, []*model.Payment) {
	tricky := []string{"", "plain", `quote " backslash \\ slash /`, "<script>&amp;</script>", "tab\t nl\n cr\r ctl\x01\x1f",
		"line\u2028sep\u2029", "bad utf8 \xff\xfe end", "é ü 漢字 🎉"}
	var cus []*model.Customer
	var pays []*model.Payment
	for i, s := range tricky {
		cu := &model.Customer{ID: newRID(), Created: 1_700_000_000 + int64(i), Email: s, Name: s, Phone: s, Meta: model.Metadata{{K: "k", V: s}}}
		if s != "" {
			cu.Meta = append(cu.Meta, model.KV{K: s, V: "v"})
			slices.SortFunc(cu.Meta, func(a, b model.KV) int { return strings.Compare(a.K, b.K) })
		}
		for j := range i % 3 {
			cu.Sources = append(cu.Sources, &model.Source{ID: newRID(), Card: model.Cards[j], ExpMonth: model.ExpMonth, ExpYear: 2030})
		}
		if len(cu.Sources) > 0 {
			cu.DefaultSource = cu.Sources[len(cu.Sources)-1]
		}
		cus = append(cus, cu)
		p := &model.Payment{ID: newRID(), Created: cu.Created, Amount: int64(i) * 1000, Refunded: int64(i), Currency: "USD",
			Status: wire.PaymentStatuses[i%len(wire.PaymentStatuses)], Captured: i%2 == 0, AuthCode: s,
			SourceID: newRID(), Card: model.Cards[i%len(model.Cards)], ExpMonth: 7, ExpYear: 2029, Description: s, Meta: cu.Meta}
		if i%2 == 1 {
			p.Customer = cu.ID
		}
		pays = append(pays, p)
	}
	return cus, pays
}

// TestJSONW_MatchesEncodingJSON: every answer jsonw writes is the one
// encoding/json would, escapes and nulls included.
func TestJSONW_MatchesEncodingJSON(t *testing.T) {
	cus, pays := jsonwFixtures()
	for i, cu := range cus {
		if got, want := model.CustomerJSON(nil, cu), customerJSONStd(cu); !bytes.Equal(got, want) {
			t.Errorf("customer %d:\n got %s\nwant %s", i, got, want)
		}
	}
	for i, p := range pays {
		if got, want := model.PaymentJSON(nil, p), paymentJSONStd(p); !bytes.Equal(got, want) {
			t.Errorf("payment %d:\n got %s\nwant %s", i, got, want)
		}
	}
}

// BenchmarkEncode compares jsonw with encoding/json on the objects a
// create answers with; jsonw.go records the measurement.
func BenchmarkEncode(b *testing.B) {
	cus, pays := jsonwFixtures()
	cu, p := cus[2], pays[3]
	for _, bc := range []struct {
		name string
		fn   func() []byte
	}{
		{"customer/jsonw", func() []byte { return model.CustomerJSON(nil, cu) }},
		{"customer/encoding_json", func() []byte { return customerJSONStd(cu) }},
		{"payment/jsonw", func() []byte { return model.PaymentJSON(nil, p) }},
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
