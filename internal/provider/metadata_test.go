package provider

import (
	"maps"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

func TestMetadataValue_Spellings(t *testing.T) {
	t.Parallel()
	empty := types.MapValueMust(types.StringType, map[string]attr.Value{})
	tier := types.MapValueMust(types.StringType, map[string]attr.Value{"tier": types.StringValue("gold")})
	null := types.MapNull(types.StringType)
	for _, tc := range []struct {
		name  string
		api   map[string]string
		prior types.Map
		want  types.Map
	}{
		{"none, prior null", nil, null, null},
		{"none, prior unknown", nil, types.MapUnknown(types.StringType), null},
		{"none, prior {} keeps {}", map[string]string{}, empty, empty},
		{"none, prior had keys", nil, tier, null},
		{"keys, prior {}", map[string]string{"tier": "gold"}, empty, tier},
		{"keys, prior null", map[string]string{"tier": "gold"}, null, tier},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, diags := metadataValue(tc.api, tc.prior)
			if diags.HasError() {
				t.Fatalf("diagnostics: %v", diags)
			}
			if !got.Equal(tc.want) {
				t.Errorf("metadataValue(%v, %v) = %v, want %v", tc.api, tc.prior, got, tc.want)
			}
		})
	}
}

func TestMetadataChanges_Delta(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	m := func(kv ...string) types.Map {
		elems := map[string]attr.Value{}
		for i := 0; i < len(kv); i += 2 {
			elems[kv[i]] = types.StringValue(kv[i+1])
		}
		return types.MapValueMust(types.StringType, elems)
	}
	null := types.MapNull(types.StringType)
	for _, tc := range []struct {
		name        string
		plan, state types.Map
		want        map[string]string
	}{
		{"equal", m("a", "1"), m("a", "1"), nil},
		{"both empty", null, m(), nil},
		{"added and changed", m("a", "2", "b", "1"), m("a", "1"), map[string]string{"a": "2", "b": "1"}},
		{"removed", m("a", "1"), m("a", "1", "b", "2"), map[string]string{"b": ""}},
		{"all removed", null, m("a", "1"), map[string]string{"a": ""}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var diags diag.Diagnostics
			got := metadataChanges(ctx, tc.plan, tc.state, &diags)
			if diags.HasError() {
				t.Fatalf("diagnostics: %v", diags)
			}
			if (got == nil) != (tc.want == nil) || !maps.Equal(got, tc.want) {
				t.Errorf("metadataChanges = %#v, want %#v", got, tc.want)
			}
		})
	}
}
