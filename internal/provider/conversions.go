package provider

import (
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework-timetypes/timetypes"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// Conversions between the client's Go values and the framework's. The
// client reads an absent or null optional field as its zero value; the
// provider shows it as null.

// stringPointer is the value of a known, non-null string, or nil.
func stringPointer(v types.String) *string {
	if v.IsNull() || v.IsUnknown() {
		return nil
	}
	s := v.ValueString()
	return &s
}

// boolPointer is the value of a known, non-null bool, or nil.
func boolPointer(v types.Bool) *bool {
	if v.IsNull() || v.IsUnknown() {
		return nil
	}
	b := v.ValueBool()
	return &b
}

// nullableString maps the client's "" (absent or null on the wire) to null.
func nullableString(s string) types.String {
	if s == "" {
		return types.StringNull()
	}
	return types.StringValue(s)
}

// nullableInt64 maps the client's 0 (absent on the wire) to null; no
// optional integer of the API has 0 as a meaningful value (expiry months and
// years start at 1).
func nullableInt64(n int64) types.Int64 {
	if n == 0 {
		return types.Int64Null()
	}
	return types.Int64Value(n)
}

// stringMapValue is a map of strings, null when empty.
func stringMapValue(m map[string]string) (types.Map, diag.Diagnostics) {
	if len(m) == 0 {
		return types.MapNull(types.StringType), nil
	}
	elems := make(map[string]attr.Value, len(m))
	for k, v := range m {
		elems[k] = types.StringValue(v)
	}
	return types.MapValue(types.StringType, elems)
}

// rfc3339Value is a timestamp of the service (RFC 3339 UTC, second
// precision), null when absent. One the service should never send is an
// error naming the field, rather than a value that would fail later.
func rfc3339Value(field, s string) (timetypes.RFC3339, diag.Diagnostics) {
	if s == "" {
		return timetypes.NewRFC3339Null(), nil
	}
	v, diags := timetypes.NewRFC3339Value(s)
	if diags.HasError() {
		var out diag.Diagnostics
		out.AddError("Unexpected Answer From the Payments Service",
			fmt.Sprintf("The service sent %s = %q, which is not an RFC 3339 timestamp. This is a bug in the service or "+
				"in the provider; please report it.", field, s))
		return timetypes.NewRFC3339Null(), out
	}
	return v, diags
}

// allKnown reports whether every value is known, the elements of a map
// included, so that the request built from them can be judged at plan time.
func allKnown(values ...attr.Value) bool {
	for _, v := range values {
		if v.IsUnknown() {
			return false
		}
		if m, ok := v.(types.Map); ok {
			for _, e := range m.Elements() {
				if e.IsUnknown() {
					return false
				}
			}
		}
	}
	return true
}
