package sandbox_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/sandboxtest"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

var (
	reProductID = regexp.MustCompile(`^prod_[A-Za-z0-9]{24}$`)
	rePriceID   = regexp.MustCompile(`^price_[A-Za-z0-9]{24}$`)
)

func (e *env) product(f ...string) *wire.Product {
	e.t.Helper()
	var p wire.Product
	e.post(wire.PathProducts, vals(f...)).ok(&p)
	return &p
}

func (e *env) price(product string, f ...string) *wire.Price {
	e.t.Helper()
	v := vals(f...)
	v.Set(wire.ParamProduct, product)
	if !v.Has(wire.ParamCurrency) {
		v.Set(wire.ParamCurrency, "USD")
	}
	if !v.Has(wire.ParamUnitAmount) {
		v.Set(wire.ParamUnitAmount, "1500")
	}
	var pr wire.Price
	e.post(wire.PathPrices, v).ok(&pr)
	return &pr
}

// ids are the ids of a page of a list at path.
func (e *env) ids(path string, q ...string) []string {
	e.t.Helper()
	var l wire.List[struct {
		ID string `json:"id"`
	}]
	if err := json.Unmarshal(e.get(path, vals(q...)).ok(nil).body, &l); err != nil {
		e.t.Fatal(err)
	}
	var out []string
	for _, x := range l.Data {
		out = append(out, x.ID)
	}
	return out
}

func TestProducts_Lifecycle(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	p := e.product("name", "Gold plan", "description", "The best", "metadata[tier]", "1")
	if !reProductID.MatchString(p.ID) || p.Object != "product" || !p.Active || p.Name != "Gold plan" ||
		p.Description != "The best" || p.Metadata["tier"] != "1" || !reTimestamp.MatchString(p.CreatedAt) || p.Livemode {
		t.Fatalf("product = %+v", p)
	}
	var got wire.Product
	e.get(wire.PathProducts+"/"+p.ID, nil).ok(&got)
	if fmt.Sprint(got) != fmt.Sprint(*p) {
		t.Errorf("retrieve = %+v, want %+v", got, *p)
	}
	var up wire.Product
	raw := e.post(wire.PathProducts+"/"+p.ID, vals("description", "", "active", "false", "name", "Gold")).ok(&up).body
	if up.Active || up.Name != "Gold" || up.Description != "" || up.Metadata["tier"] != "1" || up.CreatedAt != p.CreatedAt {
		t.Errorf("after update = %+v", up)
	}
	if !bytes.Contains(raw, []byte(`"description":null`)) {
		t.Errorf("a cleared description is not null: %s", raw)
	}
	silver := e.product("name", "Silver")
	for _, tc := range []struct {
		q    []string
		want []string
	}{
		{nil, []string{silver.ID, p.ID}},
		{[]string{"active", "true"}, []string{silver.ID}},
		{[]string{"active", "false"}, []string{p.ID}},
	} {
		if got := e.ids(wire.PathProducts, tc.q...); !slices.Equal(got, tc.want) {
			t.Errorf("list %v = %v, want %v", tc.q, got, tc.want)
		}
	}

	// A product with a price, even an archived one, cannot be deleted.
	pr := e.price(silver.ID)
	e.post(wire.PathPrices+"/"+pr.ID, vals("active", "false")).ok(nil)
	e.del(wire.PathProducts+"/"+silver.ID).fails(400, wire.ErrorTypeInvalidRequest, wire.ErrorCodeProductHasPrices, "")
	e.get(wire.PathProducts+"/"+silver.ID, nil).ok(nil)

	var d wire.Deleted
	e.del(wire.PathProducts + "/" + p.ID).ok(&d)
	if d != (wire.Deleted{ID: p.ID, Object: "product", Deleted: true}) {
		t.Errorf("delete = %+v", d)
	}
	e.get(wire.PathProducts+"/"+p.ID, nil).fails(404, wire.ErrorTypeInvalidRequest, wire.ErrorCodeResourceMissing, "")
	e.del(wire.PathProducts+"/"+p.ID).fails(404, wire.ErrorTypeInvalidRequest, wire.ErrorCodeResourceMissing, "")
	// Another account sees none of it.
	e.other().get(wire.PathProducts+"/"+silver.ID, nil).fails(404, wire.ErrorTypeInvalidRequest, wire.ErrorCodeResourceMissing, "")
}

func TestProducts_Validation(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	p := e.product("name", "Gold")
	for _, tc := range []struct {
		name, path, body string
		code, param      string
	}{
		{"no name", "", "description=x", wire.ErrorCodeParameterMissing, "name"},
		{"empty name", "", "name=", wire.ErrorCodeParameterMissing, "name"},
		{"name too long", "", "name=" + strings.Repeat("n", wire.NameMaxLength+1), wire.ErrorCodeParameterInvalid, "name"},
		{"name with a control character", "", "name=a%01b", wire.ErrorCodeParameterInvalid, "name"},
		{"name with a right-to-left override", "", "name=a%E2%80%AEb", wire.ErrorCodeParameterInvalid, "name"},
		{"description with a right-to-left override", "", "name=n&description=a%E2%80%AEb", wire.ErrorCodeParameterInvalid, "description"},
		{"description too long", "", "name=a&description=" + strings.Repeat("d", wire.ProductDescriptionMaxLength+1), wire.ErrorCodeParameterInvalid, "description"},
		{"active not a boolean", "", "name=a&active=yes", wire.ErrorCodeParameterInvalid, "active"},
		{"unknown parameter", "", "name=a&price=5", wire.ErrorCodeParameterUnknown, "price"},
		{"update clears the name", "/" + p.ID, "name=", wire.ErrorCodeParameterMissing, "name"},
		{"update with an unknown parameter", "/" + p.ID, "type=service", wire.ErrorCodeParameterUnknown, "type"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e.doRaw("POST", wire.PathProducts+tc.path, tc.body).fails(400, wire.ErrorTypeInvalidRequest, tc.code, tc.param)
		})
	}
	if got := e.ids(wire.PathProducts); !slices.Equal(got, []string{p.ID}) {
		t.Errorf("refused creates made products: %v", got)
	}
	var same wire.Product
	e.get(wire.PathProducts+"/"+p.ID, nil).ok(&same)
	if same.Name != "Gold" {
		t.Errorf("a refused update changed the product: %+v", same)
	}
	e.get(wire.PathProducts, vals("active", "maybe")).fails(400, wire.ErrorTypeInvalidRequest, wire.ErrorCodeParameterInvalid, "active")
}

func TestPrices_Lifecycle(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	gold := e.product("name", "Gold")
	once := e.price(gold.ID, "unit_amount", "0", "currency", "JPY")
	if !rePriceID.MatchString(once.ID) || once.Object != "price" || once.Product != gold.ID || once.Type != wire.PriceTypeOneTime ||
		once.Recurring != nil || once.UnitAmount != 0 || once.Currency != "JPY" || !once.Active || once.Nickname != "" || once.LookupKey != "" {
		t.Fatalf("one-time price = %+v", once)
	}
	monthly := e.price(gold.ID, "recurring[interval]", "month", "nickname", "Monthly", "lookup_key", "gold_monthly", "metadata[a]", "1")
	if monthly.Type != wire.PriceTypeRecurring || monthly.Recurring == nil || *monthly.Recurring != (wire.Recurring{Interval: "month", IntervalCount: 1}) ||
		monthly.Nickname != "Monthly" || monthly.LookupKey != "gold_monthly" || monthly.UnitAmount != 1500 {
		t.Fatalf("monthly price = %+v", monthly)
	}
	longest := e.price(gold.ID, "recurring[interval]", "week", "recurring[interval_count]", "156")
	if *longest.Recurring != (wire.Recurring{Interval: "week", IntervalCount: 156}) {
		t.Errorf("156 weeks = %+v", longest.Recurring)
	}
	var got wire.Price
	e.get(wire.PathPrices+"/"+monthly.ID, nil).ok(&got)
	if !reflect.DeepEqual(got, *monthly) {
		t.Errorf("retrieve = %+v, want %+v", got, *monthly)
	}

	// What may change: active, nickname, lookup_key, metadata.
	var up wire.Price
	e.post(wire.PathPrices+"/"+monthly.ID, vals("nickname", "", "metadata[b]", "2", "active", "false")).ok(&up)
	if up.Nickname != "" || up.Active || up.Metadata["a"] != "1" || up.Metadata["b"] != "2" || up.UnitAmount != 1500 || *up.Recurring != *monthly.Recurring {
		t.Errorf("after update = %+v", up)
	}
	// What may not: each is refused by name, and nothing changes.
	for _, name := range []string{"product", "currency", "unit_amount", "recurring[interval]", "recurring[interval_count]"} {
		e.post(wire.PathPrices+"/"+monthly.ID, vals(name, "1", "nickname", "x")).fails(400, wire.ErrorTypeInvalidRequest, wire.ErrorCodeParameterUnknown, name)
	}
	var after wire.Price
	e.get(wire.PathPrices+"/"+monthly.ID, nil).ok(&after)
	if !reflect.DeepEqual(after, up) {
		t.Errorf("a refused update changed the price: %+v", after)
	}
	// No delete.
	e.del(wire.PathPrices+"/"+monthly.ID).fails(404, wire.ErrorTypeInvalidRequest, wire.ErrorCodeUnrecognizedURL, "")

	silver := e.product("name", "Silver")
	yearly := e.price(silver.ID, "recurring[interval]", "year", "lookup_key", "yearly")
	for _, tc := range []struct {
		q    []string
		want []string
	}{
		{nil, []string{yearly.ID, longest.ID, monthly.ID, once.ID}},
		{[]string{"product", gold.ID}, []string{longest.ID, monthly.ID, once.ID}},
		{[]string{"product", silver.ID, "active", "true"}, []string{yearly.ID}},
		{[]string{"active", "false"}, []string{monthly.ID}},
		{[]string{"lookup_keys[]", "yearly", "lookup_keys[]", "gold_monthly"}, []string{yearly.ID, monthly.ID}},
		{[]string{"lookup_keys[]", "gold_monthly", "active", "true"}, nil},
		{[]string{"lookup_keys[]", "nothing"}, nil},
		// By index, as Stripe's libraries send lists.
		{[]string{"lookup_keys[0]", "yearly", "lookup_keys[1]", "gold_monthly"}, []string{yearly.ID, monthly.ID}},
		{[]string{"lookup_keys[0]", "yearly"}, []string{yearly.ID}},
	} {
		if got := e.ids(wire.PathPrices, tc.q...); !slices.Equal(got, tc.want) {
			t.Errorf("list %v = %v, want %v", tc.q, got, tc.want)
		}
	}
}

func TestPrices_LookupKey(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	p := e.product("name", "Gold").ID
	first := e.price(p, "lookup_key", "standard")
	// Taken by an active price: refused, unless transferred.
	e.post(wire.PathPrices, vals("product", p, "currency", "USD", "unit_amount", "1", "lookup_key", "standard")).
		fails(400, wire.ErrorTypeInvalidRequest, wire.ErrorCodeParameterInvalid, "lookup_key")
	second := e.price(p, "lookup_key", "standard", "transfer_lookup_key", "true")
	var got wire.Price
	e.get(wire.PathPrices+"/"+first.ID, nil).ok(&got)
	if second.LookupKey != "standard" || got.LookupKey != "" {
		t.Fatalf("after the transfer: new %q, old %q", second.LookupKey, got.LookupKey)
	}
	var moved wire.EventList
	e.get(wire.PathEvents, vals("type", wire.EventPriceUpdated)).ok(&moved)
	if len(moved.Data) != 1 || !bytes.Contains(moved.Data[0].Data.Object, []byte(first.ID)) {
		t.Errorf("price.updated events after the transfer: %+v", moved.Data)
	}
	// An inactive price may keep a key an active one holds; it cannot be
	// made active while the other holds it.
	e.post(wire.PathPrices+"/"+second.ID, vals("active", "false")).ok(nil)
	third := e.price(p, "lookup_key", "standard")
	e.post(wire.PathPrices+"/"+second.ID, vals("active", "true")).fails(400, wire.ErrorTypeInvalidRequest, wire.ErrorCodeParameterInvalid, "lookup_key")
	e.post(wire.PathPrices+"/"+first.ID, vals("lookup_key", "standard")).fails(400, wire.ErrorTypeInvalidRequest, wire.ErrorCodeParameterInvalid, "lookup_key")
	e.get(wire.PathPrices+"/"+third.ID, nil).ok(&got)
	if got.LookupKey != "standard" {
		t.Errorf("third lost its key to a refused update: %+v", got)
	}
	// An update transfers it too; the key then finds the one price.
	e.post(wire.PathPrices+"/"+first.ID, vals("lookup_key", "standard", "transfer_lookup_key", "true")).ok(nil)
	if got := e.ids(wire.PathPrices, "lookup_keys[]", "standard", "active", "true"); !slices.Equal(got, []string{first.ID}) {
		t.Errorf("active prices of lookup key standard = %v, want %v", got, []string{first.ID})
	}
	// Clearing a key frees it.
	e.post(wire.PathPrices+"/"+first.ID, vals("lookup_key", "")).ok(nil)
	e.post(wire.PathPrices+"/"+second.ID, vals("active", "true")).ok(nil)
}

func TestPrices_Validation(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	p := e.product("name", "Gold").ID
	pr := e.price(p, "lookup_key", "taken")
	base := "product=" + p + "&currency=USD&unit_amount=100"
	for _, tc := range []struct {
		name, path, body string
		code, param      string
	}{
		{"no product", "", "currency=USD&unit_amount=1", wire.ErrorCodeParameterMissing, "product"},
		{"unknown product", "", "product=prod_" + strings.Repeat("x", 24) + "&currency=USD&unit_amount=1", wire.ErrorCodeResourceMissing, "product"},
		{"a customer as product", "", "product=cus_" + strings.Repeat("x", 24) + "&currency=USD&unit_amount=1", wire.ErrorCodeResourceMissing, "product"},
		{"no currency", "", "product=" + p + "&unit_amount=1", wire.ErrorCodeParameterMissing, "currency"},
		{"unknown currency", "", "product=" + p + "&currency=XYZ&unit_amount=1", wire.ErrorCodeParameterInvalid, "currency"},
		{"lower-case currency", "", "product=" + p + "&currency=usd&unit_amount=1", wire.ErrorCodeParameterInvalid, "currency"},
		{"no unit_amount", "", "product=" + p + "&currency=USD", wire.ErrorCodeParameterMissing, "unit_amount"},
		{"negative unit_amount", "", "product=" + p + "&currency=USD&unit_amount=-1", wire.ErrorCodeParameterInvalid, "unit_amount"},
		{"unit_amount too large", "", "product=" + p + "&currency=USD&unit_amount=100000000", wire.ErrorCodeParameterInvalid, "unit_amount"},
		{"unit_amount a fraction", "", "product=" + p + "&currency=USD&unit_amount=1.5", wire.ErrorCodeParameterInvalid, "unit_amount"},
		{"unknown interval", "", base + "&recurring[interval]=fortnight", wire.ErrorCodeParameterInvalid, "recurring[interval]"},
		{"interval_count without interval", "", base + "&recurring[interval_count]=2", wire.ErrorCodeParameterMissing, "recurring[interval]"},
		{"interval_count 0", "", base + "&recurring[interval]=month&recurring[interval_count]=0", wire.ErrorCodeParameterInvalid, "recurring[interval_count]"},
		{"37 months", "", base + "&recurring[interval]=month&recurring[interval_count]=37", wire.ErrorCodeParameterInvalid, "recurring[interval_count]"},
		{"4 years", "", base + "&recurring[interval]=year&recurring[interval_count]=4", wire.ErrorCodeParameterInvalid, "recurring[interval_count]"},
		{"157 weeks", "", base + "&recurring[interval]=week&recurring[interval_count]=157", wire.ErrorCodeParameterInvalid, "recurring[interval_count]"},
		{"1096 days", "", base + "&recurring[interval]=day&recurring[interval_count]=1096", wire.ErrorCodeParameterInvalid, "recurring[interval_count]"},
		{"interval_count not a number", "", base + "&recurring[interval]=day&recurring[interval_count]=two", wire.ErrorCodeParameterInvalid, "recurring[interval_count]"},
		{"unknown recurring key", "", base + "&recurring[usage_type]=licensed", wire.ErrorCodeParameterUnknown, "recurring[usage_type]"},
		{"lookup_key taken", "", base + "&lookup_key=taken", wire.ErrorCodeParameterInvalid, "lookup_key"},
		{"lookup_key too long", "", base + "&lookup_key=" + strings.Repeat("k", wire.LookupKeyMaxLength+1), wire.ErrorCodeParameterInvalid, "lookup_key"},
		{"nickname too long", "", base + "&nickname=" + strings.Repeat("n", wire.NameMaxLength+1), wire.ErrorCodeParameterInvalid, "nickname"},
		{"transfer_lookup_key not a boolean", "", base + "&lookup_key=taken&transfer_lookup_key=1", wire.ErrorCodeParameterInvalid, "transfer_lookup_key"},
		{"update: unknown parameter", "/" + pr.ID, "tax_behavior=inclusive", wire.ErrorCodeParameterUnknown, "tax_behavior"},
		{"update: active not a boolean", "/" + pr.ID, "active=no", wire.ErrorCodeParameterInvalid, "active"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e.doRaw("POST", wire.PathPrices+tc.path, tc.body).fails(400, wire.ErrorTypeInvalidRequest, tc.code, tc.param)
		})
	}
	if got := e.ids(wire.PathPrices); !slices.Equal(got, []string{pr.ID}) {
		t.Errorf("refused creates made prices: %v", got)
	}
	for _, tc := range []struct {
		q           []string
		code, param string
	}{
		{[]string{"product", "prod_" + strings.Repeat("x", 24)}, wire.ErrorCodeResourceMissing, "product"},
		{[]string{"active", "1"}, wire.ErrorCodeParameterInvalid, "active"},
		{[]string{"currency", "USD"}, wire.ErrorCodeParameterUnknown, "currency"},
	} {
		e.get(wire.PathPrices, vals(tc.q...)).fails(400, wire.ErrorTypeInvalidRequest, tc.code, tc.param)
	}
	many := []string{}
	for i := range wire.LookupKeysMax + 1 {
		many = append(many, "lookup_keys[]", fmt.Sprint("k", i))
	}
	e.get(wire.PathPrices, vals(many...)).fails(400, wire.ErrorTypeInvalidRequest, wire.ErrorCodeParameterInvalid, "lookup_keys")
	many = many[:0]
	for i := range wire.LookupKeysMax + 1 {
		many = append(many, fmt.Sprintf("lookup_keys[%d]", i), fmt.Sprint("k", i))
	}
	e.get(wire.PathPrices, vals(many...)).fails(400, wire.ErrorTypeInvalidRequest, wire.ErrorCodeParameterInvalid, "lookup_keys")
	for name, q := range map[string][]string{
		"gap":        {"lookup_keys[0]", "a", "lookup_keys[2]", "b"},
		"not from 0": {"lookup_keys[1]", "a"},
		"both forms": {"lookup_keys[]", "a", "lookup_keys[1]", "b"},
		"bad index":  {"lookup_keys[01]", "a"},
	} {
		body := e.get(wire.PathPrices, vals(q...)).fails(400, wire.ErrorTypeInvalidRequest, wire.ErrorCodeParameterInvalid, "lookup_keys")
		if !strings.Contains(body.Error.Message, "lookup_keys[") {
			t.Errorf("%s: the message does not say how to number the list: %q", name, body.Error.Message)
		}
	}
	e.doRaw(http.MethodGet, wire.PathPrices+"?lookup_keys%5B0%5D=a&lookup_keys%5B0%5D=b", "").
		fails(400, wire.ErrorTypeInvalidRequest, wire.ErrorCodeParameterInvalid, "lookup_keys[0]")
}

// TestCatalog_Events holds the events of products and prices: one per
// create, update and delete, carrying the object as answered.
func TestCatalog_Events(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	p := e.product("name", "Gold")
	pr := e.price(p.ID)
	up := e.post(wire.PathPrices+"/"+pr.ID, vals("nickname", "n")).ok(nil).body
	other := e.product("name", "Other")
	pu := e.post(wire.PathProducts+"/"+other.ID, vals("active", "false")).ok(nil).body
	del := e.del(wire.PathProducts + "/" + other.ID).ok(nil).body
	var l wire.EventList
	e.get(wire.PathEvents, vals("limit", "100")).ok(&l)
	var types []string
	for _, ev := range slices.Backward(l.Data) {
		types = append(types, ev.Type)
	}
	want := []string{wire.EventProductCreated, wire.EventPriceCreated, wire.EventPriceUpdated, wire.EventProductCreated, wire.EventProductUpdated, wire.EventProductDeleted}
	if !slices.Equal(types, want) {
		t.Fatalf("event types = %v, want %v", types, want)
	}
	for i, body := range [][]byte{del, pu, nil, up} {
		if body != nil && !bytes.Equal(l.Data[i].Data.Object, body) {
			t.Errorf("event %s carries %s, want %s", l.Data[i].Type, l.Data[i].Data.Object, body)
		}
	}
}

// TestCatalog_KeptAcrossRestarts holds that a data file keeps products and
// prices, their order, the lookup keys' uniqueness and the sequences.
func TestCatalog_KeptAcrossRestarts(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "sandbox.db")
	key := sandboxtest.NewKey(t)
	e, stop := openEnv(t, path, key)
	p := e.product("name", "Gold", "description", "d", "metadata[a]", "1")
	gone := e.product("name", "Gone")
	e.del(wire.PathProducts + "/" + gone.ID).ok(nil)
	e.price(p.ID, "recurring[interval]", "week", "recurring[interval_count]", "2", "lookup_key", "k", "nickname", "Fortnightly")
	archived := e.price(p.ID, "currency", "JPY", "unit_amount", "900")
	e.post(wire.PathPrices+"/"+archived.ID, vals("active", "false", "metadata[m]", "x")).ok(nil)
	wantProducts := e.get(wire.PathProducts, nil).ok(nil).body
	wantPrices := e.get(wire.PathPrices, nil).ok(nil).body
	stop()

	e, stop = openEnv(t, path, key)
	defer stop()
	if got := e.get(wire.PathProducts, nil).ok(nil).body; !bytes.Equal(got, wantProducts) {
		t.Errorf("products after restart:\n%s\nwant\n%s", got, wantProducts)
	}
	if got := e.get(wire.PathPrices, nil).ok(nil).body; !bytes.Equal(got, wantPrices) {
		t.Errorf("prices after restart:\n%s\nwant\n%s", got, wantPrices)
	}
	e.get(wire.PathProducts+"/"+gone.ID, nil).fails(404, wire.ErrorTypeInvalidRequest, wire.ErrorCodeResourceMissing, "")
	e.post(wire.PathPrices, vals("product", p.ID, "currency", "USD", "unit_amount", "1", "lookup_key", "k")).
		fails(400, wire.ErrorTypeInvalidRequest, wire.ErrorCodeParameterInvalid, "lookup_key")
	e.del(wire.PathProducts+"/"+p.ID).fails(400, wire.ErrorTypeInvalidRequest, wire.ErrorCodeProductHasPrices, "")
	newest := e.price(p.ID)
	if got := e.ids(wire.PathPrices, "limit", "1"); !slices.Equal(got, []string{newest.ID}) {
		t.Errorf("a price made after the restart lists %v, want it first", got)
	}
	// A reset empties the catalog, and stays done after a restart.
	e.post(wire.PathSandboxReset, nil).ok(nil)
	stop()
	e, stop = openEnv(t, path, key)
	defer stop()
	if got := e.ids(wire.PathProducts); len(got) != 0 {
		t.Errorf("products after a reset and a restart: %v", got)
	}
	if got := e.ids(wire.PathPrices); len(got) != 0 {
		t.Errorf("prices after a reset and a restart: %v", got)
	}
}
