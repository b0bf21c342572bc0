package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework-validators/mapvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// metadataValidators are the wire contract's metadata rules, checked at
// plan time; every resource with metadata applies the same.
func metadataValidators() []validator.Map {
	return []validator.Map{
		mapvalidator.SizeAtMost(wire.MetadataMaxKeys),
		mapvalidator.KeysAre(
			stringvalidator.UTF8LengthBetween(1, wire.MetadataKeyMaxLength),
			stringvalidator.RegexMatches(metadataKeyRegexp, "must not contain square brackets"),
			stringvalidator.RegexMatches(noControlRegexp, noControlMessage),
		),
		mapvalidator.ValueStringsAre(
			notEmptyMetadataValueValidator{},
			stringvalidator.UTF8LengthAtMost(wire.MetadataValueMaxLength),
			stringvalidator.RegexMatches(noBidiRegexp, noBidiMessage),
		),
	}
}

// metadataAttribute is the metadata argument of a resource whose object is
// a noun ("customer"), after description (what the metadata is): one
// wording of the rules metadataValidators checks, so that no page drifts
// from them.
func metadataAttribute(description, noun string) rschema.MapAttribute {
	return rschema.MapAttribute{
		MarkdownDescription: fmt.Sprintf("%s At most %d keys, each of 1 to %d characters without square brackets or control characters, "+
			"with a value of 1 to %d characters, and at most %d KiB for the whole %s once form-encoded "+
			"(the service's request limit), checked at plan time. "+
			"A value may not be empty, because the service deletes a key set to an empty string. "+
			"Keys removed from the configuration are deleted at the service; keys added outside of "+
			"Terraform are shown as a change and removed.",
			description, wire.MetadataMaxKeys, wire.MetadataKeyMaxLength, wire.MetadataValueMaxLength,
			wire.MaxRequestBodyBytes>>10, noun),
		ElementType: types.StringType,
		Optional:    true,
		Validators:  metadataValidators(),
	}
}

// metadataValue is the one mapping of an object's metadata from the API:
// its keys, or null when it has none, except that an empty map the model
// already holds (configured {}, where the service keeps no difference
// from none) stays {}, so that neither spelling shows a diff.
func metadataValue(api map[string]string, prior types.Map) (types.Map, diag.Diagnostics) {
	if len(api) == 0 && !prior.IsNull() && !prior.IsUnknown() && len(prior.Elements()) == 0 {
		return types.MapValueMust(types.StringType, map[string]attr.Value{}), nil
	}
	return stringMapValue(api)
}

// metadataChanges is the metadata an update sends to take an object's
// metadata from state to plan: keys added or changed with their new value,
// each key removed with an empty value (which deletes it at the service).
// It is nil when the two agree, so that nothing is sent; problems reading
// them go to diags.
func metadataChanges(ctx context.Context, plan, state types.Map, diags *diag.Diagnostics) map[string]string {
	var want, have map[string]string
	diags.Append(plan.ElementsAs(ctx, &want, false)...)
	diags.Append(state.ElementsAs(ctx, &have, false)...)
	if diags.HasError() {
		return nil
	}
	delta := map[string]string{}
	for k, v := range want {
		if old, ok := have[k]; !ok || old != v {
			delta[k] = v
		}
	}
	for k := range have {
		if _, ok := want[k]; !ok {
			delta[k] = ""
		}
	}
	if len(delta) == 0 {
		return nil
	}
	return delta
}
