package floor

import (
	"context"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/sandboxtest"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

func TestRandomPart_AfterPrefix(t *testing.T) {
	tests := []struct{ id, want string }{
		{"cus_1a2B", "1a2B"},
		{"price_1a2B", "1a2B"},
		{"prod_", ""},
		{"noprefix", ""},
		{"", ""},
	}
	for _, tt := range tests {
		if got := randomPart(tt.id); got != tt.want {
			t.Errorf("randomPart(%q) = %q, want %q", tt.id, got, tt.want)
		}
	}
}

func TestNewRequester_NeedsBoth(t *testing.T) {
	tests := []struct {
		name, base, key string
		want            bool
	}{
		{"both", "http://127.0.0.1:1", "sk_sandbox_x", true},
		{"no url", "", "sk_sandbox_x", false},
		{"no key", "http://127.0.0.1:1", "", false},
		{"neither", "", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := newRequester(tt.base, tt.key) != nil; got != tt.want {
				t.Errorf("newRequester(%q, key) != nil is %v, want %v", tt.base, got, tt.want)
			}
		})
	}
}

// TestRequester_Lifecycle makes, reads and deletes a customer at an
// in-process sandbox, and finds it gone after.
func TestRequester_Lifecycle(t *testing.T) {
	sb := sandboxtest.Start(t)
	key := wire.SecretKeySandboxPrefix + "floor_requester_test"
	r := newRequester(sb.URL+"/", key)
	ctx := context.Background()

	part, err := r.create(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(part) != 24 {
		t.Fatalf("create returned %q, want the 24 characters of a customer id", part)
	}
	// Any prefix carries the customer: a price's id, say.
	if err := r.read(ctx, "price_"+part); err != nil {
		t.Fatalf("read: %v", err)
	}
	if err := r.remove(ctx, "sub_"+part); err != nil {
		t.Fatalf("remove: %v", err)
	}
	err = r.read(ctx, "cus_"+part)
	if err == nil || !strings.Contains(err.Error(), "404") {
		t.Fatalf("read after remove: %v, want a 404", err)
	}
	if strings.Contains(err.Error(), key) {
		t.Fatalf("the error shows the key: %v", err)
	}
}

// TestStateOnly_RequestFloor runs a floor_price through Create, Read and
// Delete as the request floor: its id carries the customer made for it,
// and the customer is gone after the delete.
func TestStateOnly_RequestFloor(t *testing.T) {
	sb := sandboxtest.Start(t)
	api := newRequester(sb.URL, wire.SecretKeySandboxPrefix+"floor_state_test")
	r := newPriceResource(shared{api: api})
	ctx := context.Background()

	var sr resource.SchemaResponse
	r.Schema(ctx, resource.SchemaRequest{}, &sr)
	typ := sr.Schema.Type().TerraformType(ctx).(tftypes.Object)
	vals := map[string]tftypes.Value{}
	attrs := sr.Schema.GetAttributes()
	for name, at := range typ.AttributeTypes {
		a, isAttr := attrs[name]
		switch {
		case !isAttr: // a block: timeouts
			vals[name] = tftypes.NewValue(at, nil)
		case name == "product":
			vals[name] = tftypes.NewValue(at, "prod_"+strings.Repeat("a", 24))
		case name == "currency":
			vals[name] = tftypes.NewValue(at, "USD")
		case name == "unit_amount":
			vals[name] = tftypes.NewValue(at, 1000)
		case a.IsComputed():
			vals[name] = tftypes.NewValue(at, tftypes.UnknownValue)
		default:
			vals[name] = tftypes.NewValue(at, nil)
		}
	}
	plan := tftypes.NewValue(typ, vals)

	var cr resource.CreateResponse
	cr.State = tfsdk.State{Schema: sr.Schema, Raw: tftypes.NewValue(typ, nil)}
	r.Create(ctx, resource.CreateRequest{Plan: tfsdk.Plan{Schema: sr.Schema, Raw: plan}}, &cr)
	if cr.Diagnostics.HasError() {
		t.Fatalf("create: %v", cr.Diagnostics)
	}
	id := stateID(cr.State.Raw)
	if !strings.HasPrefix(id, "price_") || len(id) != len("price_")+24 {
		t.Fatalf("id %q, want price_ and a customer's 24 characters", id)
	}
	var typeAttr attr.Value
	cr.State.GetAttribute(ctx, path.Root("type"), &typeAttr)
	if typeAttr.String() != `"recurring"` {
		t.Errorf("type = %s, want the fill's \"recurring\"", typeAttr)
	}

	rr := resource.ReadResponse{State: cr.State}
	r.Read(ctx, resource.ReadRequest{State: cr.State}, &rr)
	if rr.Diagnostics.HasError() {
		t.Fatalf("read: %v", rr.Diagnostics)
	}
	var dr resource.DeleteResponse
	r.Delete(ctx, resource.DeleteRequest{State: cr.State}, &dr)
	if dr.Diagnostics.HasError() {
		t.Fatalf("delete: %v", dr.Diagnostics)
	}
	rr = resource.ReadResponse{State: cr.State}
	r.Read(ctx, resource.ReadRequest{State: cr.State}, &rr)
	if !rr.Diagnostics.HasError() {
		t.Fatal("read after delete found the customer")
	}
}
