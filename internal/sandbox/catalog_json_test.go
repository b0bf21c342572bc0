package sandbox

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

type productOut struct {
	ID          string            `json:"id"`
	Object      string            `json:"object"`
	Name        string            `json:"name"`
	Description *string           `json:"description"`
	Active      bool              `json:"active"`
	Metadata    map[string]string `json:"metadata"`
	CreatedAt   string            `json:"created_at"`
	Livemode    bool              `json:"livemode"`
}

type priceOut struct {
	ID         string            `json:"id"`
	Object     string            `json:"object"`
	Product    string            `json:"product"`
	Type       string            `json:"type"`
	Currency   string            `json:"currency"`
	UnitAmount int64             `json:"unit_amount"`
	Recurring  *wire.Recurring   `json:"recurring"`
	Nickname   *string           `json:"nickname"`
	LookupKey  *string           `json:"lookup_key"`
	Active     bool              `json:"active"`
	Metadata   map[string]string `json:"metadata"`
	CreatedAt  string            `json:"created_at"`
	Livemode   bool              `json:"livemode"`
}

func marshalStd(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

// TestCatalogJSON_MatchesEncodingJSON: products and prices are written as
// encoding/json would write them, escapes and nulls included.
func TestCatalogJSON_MatchesEncodingJSON(t *testing.T) {
	cus, _ := jsonwFixtures() // their strings and metadata are the tricky ones
	for i, cu := range cus {
		p := &product{id: newRID(), created: cu.created, name: cu.name, description: cu.email, active: i%2 == 0, meta: cu.meta}
		want := marshalStd(productOut{ID: p.id.format(wire.ProductIDPrefix), Object: "product", Name: p.name,
			Description: optStr(p.description), Active: p.active, Metadata: metaMap(p.meta), CreatedAt: rfc3339(p.created)})
		if got := productJSON(nil, p); !bytes.Equal(got, want) {
			t.Errorf("product %d:\n got %s\nwant %s", i, got, want)
		}
		pr := &price{id: newRID(), created: cu.created, product: p.id, currency: wire.Currencies[i%len(wire.Currencies)],
			unitAmount: int64(i) * 999, nickname: cu.name, lookupKey: cu.phone, active: i%3 != 0, meta: cu.meta}
		typ := wire.PriceTypeOneTime
		var rec *wire.Recurring
		if i%2 == 1 {
			pr.recurring = wire.Recurring{Interval: wire.Intervals[i%len(wire.Intervals)], IntervalCount: int64(i)}
			typ, rec = wire.PriceTypeRecurring, &pr.recurring
		}
		want = marshalStd(priceOut{ID: pr.id.format(wire.PriceIDPrefix), Object: "price", Product: p.id.format(wire.ProductIDPrefix),
			Type: typ, Currency: pr.currency, UnitAmount: pr.unitAmount, Recurring: rec, Nickname: optStr(pr.nickname),
			LookupKey: optStr(pr.lookupKey), Active: pr.active, Metadata: metaMap(pr.meta), CreatedAt: rfc3339(pr.created)})
		if got := priceJSON(nil, pr); !bytes.Equal(got, want) {
			t.Errorf("price %d:\n got %s\nwant %s", i, got, want)
		}
	}
}
