package provider

import (
	"context"
	"math/big"
	"math/rand/v2"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// codecCase is a resource and a pointer to a zero value of its model.
type codecCase struct {
	name  string
	res   func() resource.Resource
	model func() any
}

var codecCases = []codecCase{
	{"customer", NewCustomerResource, func() any { return &customerResourceModel{} }},
	{"customer_source", NewCustomerSourceResource, func() any { return &customerSourceResourceModel{} }},
	{"product", NewProductResource, func() any { return &productResourceModel{} }},
	{"price", NewPriceResource, func() any { return &priceResourceModel{} }},
	{"subscription", NewSubscriptionResource, func() any { return &subscriptionResourceModel{} }},
	{"test_clock", NewTestClockResource, func() any { return &testClockResourceModel{} }},
	{"payment", NewPaymentResource, func() any { return &paymentResourceModel{} }},
	{"webhook_endpoint", NewWebhookEndpointResource, func() any { return &webhookEndpointResourceModel{} }},
}

// testResourceSchema is r's schema, as the framework serves it.
func testResourceSchema(t testing.TB, r resource.Resource) tfsdk.State {
	t.Helper()
	var resp resource.SchemaResponse
	r.Schema(context.Background(), resource.SchemaRequest{}, &resp)
	if resp.Diagnostics.HasError() {
		t.Fatalf("schema: %v", resp.Diagnostics)
	}
	return tfsdk.State{Schema: resp.Schema}
}

// randomValue is a value of typ: null one time in four, unknown one in ten
// when unknown is true, else known with random contents. Strings are RFC
// 3339 times, which every string attribute (time-typed or not) accepts.
func randomValue(rng *rand.Rand, typ tftypes.Type, unknown bool) tftypes.Value {
	switch n := rng.IntN(20); {
	case n < 5:
		return tftypes.NewValue(typ, nil)
	case n < 7 && unknown:
		return tftypes.NewValue(typ, tftypes.UnknownValue)
	}
	switch {
	case typ.Is(tftypes.String):
		return tftypes.NewValue(typ, "2026-0"+strconv.Itoa(1+rng.IntN(9))+"-01T00:00:00Z")
	case typ.Is(tftypes.Number):
		return tftypes.NewValue(typ, big.NewFloat(float64(rng.IntN(1000))))
	case typ.Is(tftypes.Bool):
		return tftypes.NewValue(typ, rng.IntN(2) == 0)
	case typ.Is(tftypes.List{}), typ.Is(tftypes.Set{}):
		var elem tftypes.Type
		if l, ok := typ.(tftypes.List); ok {
			elem = l.ElementType
		} else {
			elem = typ.(tftypes.Set).ElementType
		}
		var vals []tftypes.Value
	elems:
		for range rng.IntN(3) {
			v := randomValue(rng, elem, unknown)
			for _, have := range vals {
				if typ.Is(tftypes.Set{}) && have.Equal(v) {
					continue elems // Terraform never sends a set with duplicates
				}
			}
			vals = append(vals, v)
		}
		return tftypes.NewValue(typ, vals)
	case typ.Is(tftypes.Map{}):
		vals := map[string]tftypes.Value{}
		for i := range rng.IntN(3) {
			vals["k"+strconv.Itoa(i)] = randomValue(rng, typ.(tftypes.Map).ElementType, unknown)
		}
		return tftypes.NewValue(typ, vals)
	case typ.Is(tftypes.Object{}):
		vals := map[string]tftypes.Value{}
		for name, at := range typ.(tftypes.Object).AttributeTypes {
			vals[name] = randomValue(rng, at, unknown)
		}
		return tftypes.NewValue(typ, vals)
	}
	panic("randomValue: unhandled type " + typ.String())
}

// TestModelCodec_MatchesFramework reads random values of every resource's
// schema into its model with getModel and with the framework's Get, and
// writes the model back with setModel and the framework's Set: both must
// agree, and the codec must serve the model, not fall back.
func TestModelCodec_MatchesFramework(t *testing.T) {
	seed := testSeed(t)
	rng := rand.New(rand.NewPCG(uint64(seed), 0))
	ctx := context.Background()
	for _, tc := range codecCases {
		t.Run(tc.name, func(t *testing.T) {
			base := testResourceSchema(t, tc.res())
			objType := base.Schema.Type().TerraformType(ctx)
			if l := layoutOf(ctx, reflect.TypeOf(tc.model()).Elem(), tftypes.NewValue(objType, nil), base.Schema); l == nil {
				t.Fatalf("no field table for %T: every field must be an attr.Value tagged with an attribute of the schema", tc.model())
			}
			for i := range 50 {
				raw := randomValue(rng, objType, i%2 == 1)
				for raw.IsNull() || !raw.IsKnown() {
					raw = randomValue(rng, objType, false)
				}
				plan := tfsdk.Plan{Schema: base.Schema, Raw: raw}

				want, got := tc.model(), tc.model()
				wantDiags := plan.Get(ctx, want)
				gotDiags := getModel(ctx, plan, got)
				if wantDiags.HasError() != gotDiags.HasError() {
					t.Fatalf("value %d: framework Get: %v; getModel: %v", i, wantDiags, gotDiags)
				}
				if wantDiags.HasError() {
					continue
				}
				if !reflect.DeepEqual(got, want) {
					t.Fatalf("value %d: getModel read\n%+v\nthe framework's Get\n%+v", i, got, want)
				}

				wantState := tfsdk.State{Schema: base.Schema, Raw: tftypes.NewValue(objType, nil)}
				gotState := wantState
				if d := wantState.Set(ctx, want); d.HasError() {
					t.Fatalf("value %d: framework Set: %v", i, d)
				}
				if d := setModel(ctx, &gotState, got); d.HasError() {
					t.Fatalf("value %d: setModel: %v", i, d)
				}
				if !gotState.Raw.Equal(wantState.Raw) {
					t.Fatalf("value %d: setModel wrote\n%s\nthe framework's Set\n%s", i, gotState.Raw, wantState.Raw)
				}
			}
		})
	}
}

// codecOddModel has a field that is not an attr.Value, which the
// framework reads and the codec leaves to it.
type codecOddModel struct {
	ID   types.String `tfsdk:"id"`
	Tags []string     `tfsdk:"tags"`
}

// codecIDModel fits a schema of an id only.
type codecIDModel struct {
	ID types.String `tfsdk:"id"`
}

func TestModelCodec_FallsBackToFramework(t *testing.T) {
	ctx := context.Background()
	oddState := func() tfsdk.State {
		var resp resource.SchemaResponse
		(&codecTestSchema{tags: true}).Schema(ctx, resource.SchemaRequest{}, &resp)
		objType := resp.Schema.Type().TerraformType(ctx).(tftypes.Object)
		return tfsdk.State{Schema: resp.Schema, Raw: tftypes.NewValue(objType, map[string]tftypes.Value{
			"id":   tftypes.NewValue(tftypes.String, "x"),
			"tags": tftypes.NewValue(tftypes.List{ElementType: tftypes.String}, []tftypes.Value{tftypes.NewValue(tftypes.String, "a")}),
		})}
	}

	t.Run("field not an attr.Value", func(t *testing.T) {
		st := oddState()
		var m codecOddModel
		if d := getModel(ctx, st, &m); d.HasError() || m.ID.ValueString() != "x" || !reflect.DeepEqual(m.Tags, []string{"a"}) {
			t.Fatalf("getModel = %+v, %v; want the framework's reading", m, d)
		}
		m.Tags = append(m.Tags, "b")
		if d := setModel(ctx, &st, &m); d.HasError() {
			t.Fatal(d)
		}
		var back codecOddModel
		if d := st.Get(ctx, &back); d.HasError() || len(back.Tags) != 2 {
			t.Fatalf("after setModel the state reads %+v, %v", back, d)
		}
	})

	t.Run("a model the schema does not fit", func(t *testing.T) {
		st := oddState()
		var m codecIDModel
		got := getModel(ctx, st, &m)
		want := st.Get(ctx, &m)
		if !got.HasError() || !got.Equal(want) {
			t.Fatalf("getModel = %v; want the framework's error %v", got, want)
		}
	})

	t.Run("one model type, two schemas", func(t *testing.T) {
		// codecIDModel's table is built for the id-only schema; the value
		// of another schema goes to the framework, which says why.
		var resp resource.SchemaResponse
		(&codecTestSchema{}).Schema(ctx, resource.SchemaRequest{}, &resp)
		objType := resp.Schema.Type().TerraformType(ctx)
		idOnly := tfsdk.State{Schema: resp.Schema, Raw: tftypes.NewValue(objType, map[string]tftypes.Value{
			"id": tftypes.NewValue(tftypes.String, "y"),
		})}
		var m codecIDModel
		if d := getModel(ctx, idOnly, &m); d.HasError() || m.ID.ValueString() != "y" {
			t.Fatalf("getModel = %+v, %v", m, d)
		}
		if l := layoutOf(ctx, reflect.TypeFor[codecIDModel](), idOnly.Raw, idOnly.Schema); l == nil {
			t.Fatal("no field table for the id-only schema")
		}
		if d := getModel(ctx, oddState(), &m); !d.HasError() {
			t.Fatal("getModel of the other schema's value: no error, want the framework's")
		}
	})

	t.Run("null state", func(t *testing.T) {
		st := oddState()
		st.Raw = tftypes.NewValue(st.Raw.Type(), nil)
		var m codecIDModel
		if got, want := getModel(ctx, st, &m), st.Get(ctx, &m); !got.Equal(want) {
			t.Fatalf("getModel of a null state = %v, want the framework's %v", got, want)
		}
	})

	t.Run("another model of the same schema", func(t *testing.T) {
		var resp resource.SchemaResponse
		(&codecTestSchema{}).Schema(ctx, resource.SchemaRequest{}, &resp)
		st := tfsdk.State{Schema: resp.Schema, Raw: tftypes.NewValue(resp.Schema.Type().TerraformType(ctx), nil)}
		type listModel struct {
			ID types.String `tfsdk:"id"`
		}
		m := listModel{ID: types.StringValue("z")}
		if d := setModel(ctx, &st, &m); d.HasError() {
			t.Fatal(d)
		}
		var back listModel
		if d := st.Get(ctx, &back); d.HasError() || back.ID.ValueString() != "z" {
			t.Fatalf("read back %+v, %v", back, d)
		}
	})
}

// codecTestSchema is a resource schema of an id, and a list of strings
// when tags is set.
type codecTestSchema struct {
	tags bool
}

func (s *codecTestSchema) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{Attributes: map[string]schema.Attribute{"id": schema.StringAttribute{Optional: true}}}
	if s.tags {
		resp.Schema.Attributes["tags"] = schema.ListAttribute{ElementType: types.StringType, Optional: true}
	}
}

// TestModelCodec_WrongTypeIsAnError writes a model whose list holds
// another element type than the schema's: an error naming the attribute,
// as the framework's Set gives one.
func TestModelCodec_WrongTypeIsAnError(t *testing.T) {
	ctx := context.Background()
	st := testResourceSchema(t, NewSubscriptionResource())
	st.Raw = tftypes.NewValue(st.Schema.Type().TerraformType(ctx), nil)
	var m subscriptionResourceModel
	m.Items = types.ListValueMust(types.StringType, []attr.Value{types.StringValue("price_x")})
	d := setModel(ctx, &st, &m)
	if !d.HasError() || !strings.Contains(d[0].Detail(), "items") {
		t.Fatalf("setModel with a list of strings for items = %v; want an error naming items", d)
	}
}

// BenchmarkModelCodec reads and writes a subscription's state as a Read
// does, through the framework's reflection and through the codec.
func BenchmarkModelCodec(b *testing.B) {
	ctx := context.Background()
	base := testResourceSchema(b, NewSubscriptionResource())
	rng := rand.New(rand.NewPCG(1, 0))
	objType := base.Schema.Type().TerraformType(ctx)
	raw := randomValue(rng, objType, false)
	for raw.IsNull() {
		raw = randomValue(rng, objType, false)
	}
	st := tfsdk.State{Schema: base.Schema, Raw: raw}
	b.Run("framework", func(b *testing.B) {
		for b.Loop() {
			var m subscriptionResourceModel
			if d := st.Get(ctx, &m); d.HasError() {
				b.Fatal(d)
			}
			out := st
			if d := out.Set(ctx, &m); d.HasError() {
				b.Fatal(d)
			}
		}
	})
	b.Run("codec", func(b *testing.B) {
		for b.Loop() {
			var m subscriptionResourceModel
			if d := getModel(ctx, st, &m); d.HasError() {
				b.Fatal(d)
			}
			out := st
			if d := setModel(ctx, &out, &m); d.HasError() {
				b.Fatal(d)
			}
		}
	})
}

// TestModelCodec_Identity writes the identities the resources set on every
// operation, through setModel, and reads them back with the framework.
func TestModelCodec_Identity(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name  string
		res   resource.ResourceWithIdentity
		model any
		set   func(*tfsdk.ResourceIdentity) diag.Diagnostics
	}{
		{"id", NewPriceResource().(resource.ResourceWithIdentity), &idIdentityModel{},
			func(id *tfsdk.ResourceIdentity) diag.Diagnostics { return priceKind.setIdentity(ctx, id, "price_1") }},
		{"customer source", NewCustomerSourceResource().(resource.ResourceWithIdentity), &customerSourceIdentityModel{},
			func(id *tfsdk.ResourceIdentity) diag.Diagnostics {
				return setCustomerSourceIdentity(ctx, id, "cus_1", "src_1")
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var resp resource.IdentitySchemaResponse
			tc.res.IdentitySchema(ctx, resource.IdentitySchemaRequest{}, &resp)
			id := &tfsdk.ResourceIdentity{Schema: resp.IdentitySchema,
				Raw: tftypes.NewValue(resp.IdentitySchema.Type().TerraformType(ctx), nil)}
			if d := tc.set(id); d.HasError() {
				t.Fatal(d)
			}
			if l := layoutOf(ctx, reflect.TypeOf(tc.model).Elem(), id.Raw, id.Schema); l == nil {
				t.Fatalf("no field table for %T", tc.model)
			}
			if d := id.Get(ctx, tc.model); d.HasError() {
				t.Fatalf("reading the identity back: %v", d)
			}
			want := map[string]string{"id": "price_1"}
			if tc.name != "id" {
				want = map[string]string{"customer": "cus_1", "id": "src_1"}
			}
			var got map[string]tftypes.Value
			if err := id.Raw.As(&got); err != nil {
				t.Fatal(err)
			}
			for k, v := range want {
				var s string
				if err := got[k].As(&s); err != nil || s != v {
					t.Errorf("identity %s = %q, %v; want %q", k, s, err, v)
				}
			}
		})
	}
}
