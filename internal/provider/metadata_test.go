package provider

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
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
