package sandbox

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/model"
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
		p := &model.Product{ID: newRID(), Created: cu.Created, Name: cu.Name, Description: cu.Email, Active: i%2 == 0, Meta: cu.Meta}
		want := marshalStd(productOut{ID: p.ID.Format(wire.ProductIDPrefix), Object: "product", Name: p.Name,
			Description: optStr(p.Description), Active: p.Active, Metadata: metaMap(p.Meta), CreatedAt: rfc3339(p.Created)})
		if got := model.ProductJSON(nil, p); !bytes.Equal(got, want) {
			t.Errorf("product %d:\n got %s\nwant %s", i, got, want)
		}
		pr := &model.Price{ID: newRID(), Created: cu.Created, Product: p.ID, Currency: wire.Currencies[i%len(wire.Currencies)],
			UnitAmount: int64(i) * 999, Nickname: cu.Name, LookupKey: cu.Phone, Active: i%3 != 0, Meta: cu.Meta}
		typ := wire.PriceTypeOneTime
		var rec *wire.Recurring
		if i%2 == 1 {
			pr.Recurring = wire.Recurring{Interval: wire.Intervals[i%len(wire.Intervals)], IntervalCount: int64(i)}
			typ, rec = wire.PriceTypeRecurring, &pr.Recurring
		}
		want = marshalStd(priceOut{ID: pr.ID.Format(wire.PriceIDPrefix), Object: "price", Product: p.ID.Format(wire.ProductIDPrefix),
			Type: typ, Currency: pr.Currency, UnitAmount: pr.UnitAmount, Recurring: rec, Nickname: optStr(pr.Nickname),
			LookupKey: optStr(pr.LookupKey), Active: pr.Active, Metadata: metaMap(pr.Meta), CreatedAt: rfc3339(pr.Created)})
		if got := model.PriceJSON(nil, pr); !bytes.Equal(got, want) {
			t.Errorf("price %d:\n got %s\nwant %s", i, got, want)
		}
	}
}
