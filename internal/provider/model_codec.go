package provider

import (
	"context"
	"fmt"
	"reflect"
	"sync"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// getModel and setModel read and write a model (a struct of attr.Value
// fields with tfsdk tags) as tfsdk's Get and Set do, from a field table
// built once per model type. The framework's reflection rebuilds that
// table on every call and compiles a regular expression for each field
// while at it: a third to a half of what the provider's CPU added to the
// do-nothing floor's on an apply and a refresh plan (tools/cmd/bench), and
// twelve times the codec's cost (BenchmarkModelCodec). A model the table
// cannot serve (a field that is not an attr.Value, or a value of another
// schema than the one it was built for) goes through the framework as
// before, with its errors.

// modelLayout is the field table of one model type for one object type;
// fields is nil when the model cannot be served for it.
type modelLayout struct {
	objType tftypes.Type
	fields  []modelField
}

// modelField is one attribute of a model: its name, where the field is
// (through embedded structs), and its type in the schema.
type modelField struct {
	name   string
	index  []int
	typ    attr.Type
	tfType tftypes.Type
}

// modelLayouts holds, for each model type, the []*modelLayout of the
// object types it has met (one, unless a model serves two schemas);
// modelLayoutsMu serializes their growth.
var (
	modelLayouts   sync.Map
	modelLayoutsMu sync.Mutex
)

// schemaTyper is the part of a schema the layout is built from.
type schemaTyper interface {
	Type() attr.Type
}

// layoutOf returns the field table of model type t for values of raw's
// type, building it from s the first time, or nil when the framework must
// do the work.
func layoutOf(ctx context.Context, t reflect.Type, raw tftypes.Value, s schemaTyper) *modelLayout {
	if l := findLayout(t, raw.Type()); l != nil {
		return l.served()
	}
	l := buildLayout(ctx, t, s)
	if l == nil || !l.objType.Equal(raw.Type()) {
		// Not the schema of this value: nothing to remember.
		return nil
	}
	modelLayoutsMu.Lock()
	defer modelLayoutsMu.Unlock()
	if known := findLayout(t, raw.Type()); known != nil {
		return known.served()
	}
	var all []*modelLayout
	if v, ok := modelLayouts.Load(t); ok {
		all, _ = v.([]*modelLayout)
	}
	modelLayouts.Store(t, append(append([]*modelLayout(nil), all...), l))
	return l.served()
}

// findLayout is the layout of t already built for objType, or nil.
func findLayout(t reflect.Type, objType tftypes.Type) *modelLayout {
	v, ok := modelLayouts.Load(t)
	if !ok {
		return nil
	}
	all, _ := v.([]*modelLayout)
	for _, l := range all {
		if l.objType.Equal(objType) {
			return l
		}
	}
	return nil
}

// served is l, or nil when its model cannot be served.
func (l *modelLayout) served() *modelLayout {
	if l.fields == nil {
		return nil
	}
	return l
}

var attrValueType = reflect.TypeFor[attr.Value]()

// buildLayout is the field table of struct type t against schema s: every
// tagged field an attr.Value, and the tags exactly the schema's attribute
// and block names; without fields when that is not so. It is nil when s
// has no object type.
func buildLayout(ctx context.Context, t reflect.Type, s schemaTyper) *modelLayout {
	if s == nil {
		return nil
	}
	withAttrs, ok := s.Type().(attr.TypeWithAttributeTypes)
	if !ok {
		return nil
	}
	l := &modelLayout{objType: s.Type().TerraformType(ctx)}
	types := withAttrs.AttributeTypes()
	var fields []modelField
	if t.Kind() != reflect.Struct || !collectFields(t, nil, types, &fields) || len(fields) != len(types) {
		return l
	}
	for i := range fields {
		fields[i].tfType = fields[i].typ.TerraformType(ctx)
	}
	l.fields = fields
	return l
}

// collectFields appends the tagged fields of struct t (at index prefix)
// to fields, descending into embedded structs; false when one cannot be
// served.
func collectFields(t reflect.Type, prefix []int, types map[string]attr.Type, fields *[]modelField) bool {
	for i := range t.NumField() {
		f := t.Field(i)
		index := append(append([]int(nil), prefix...), i)
		tag := f.Tag.Get("tfsdk")
		switch {
		case f.Anonymous && tag == "" && f.Type.Kind() == reflect.Struct:
			if !collectFields(f.Type, index, types, fields) {
				return false
			}
		case !f.IsExported() || tag == "-":
		case tag == "" || !f.Type.Implements(attrValueType):
			return false
		default:
			typ, ok := types[tag]
			if !ok {
				return false
			}
			*fields = append(*fields, modelField{name: tag, index: index, typ: typ})
		}
	}
	return true
}

// dataOf returns the value and schema of a plan, state, config or
// identity, or false for anything else.
func dataOf(from any) (raw *tftypes.Value, s schemaTyper, ok bool) {
	switch d := from.(type) {
	case tfsdk.Plan:
		return &d.Raw, d.Schema, true
	case tfsdk.State:
		return &d.Raw, d.Schema, true
	case tfsdk.Config:
		return &d.Raw, d.Schema, true
	case *tfsdk.Plan:
		return &d.Raw, d.Schema, true
	case *tfsdk.State:
		return &d.Raw, d.Schema, true
	case *tfsdk.ResourceIdentity:
		return &d.Raw, d.Schema, true
	}
	return nil, nil, false
}

// getModel reads from (a tfsdk.Plan, State or Config) into model, a
// pointer to a struct, as from.Get(ctx, model) does.
func getModel(ctx context.Context, from configGetter, model any) diag.Diagnostics {
	raw, s, ok := dataOf(from)
	target := reflect.ValueOf(model)
	if !ok || target.Kind() != reflect.Pointer || target.IsNil() || !raw.IsKnown() || raw.IsNull() {
		return from.Get(ctx, model)
	}
	l := layoutOf(ctx, target.Elem().Type(), *raw, s)
	var attrs map[string]tftypes.Value
	if l == nil || raw.As(&attrs) != nil {
		return from.Get(ctx, model)
	}
	out := target.Elem()
	for _, f := range l.fields {
		v, err := f.typ.ValueFromTerraform(ctx, attrs[f.name])
		if err != nil {
			return modelError("read", f.name, err)
		}
		field := out.FieldByIndex(f.index)
		rv := reflect.ValueOf(v)
		if !rv.Type().AssignableTo(field.Type()) {
			return modelError("read", f.name, fmt.Errorf("the schema gives a %T, the model holds a %s", v, field.Type()))
		}
		field.Set(rv)
	}
	return nil
}

// setModel writes model, a pointer to a struct, to dst (a *tfsdk.State,
// *tfsdk.Plan or *tfsdk.ResourceIdentity) as dst.Set(ctx, model) does.
func setModel(ctx context.Context, dst interface {
	Set(context.Context, any) diag.Diagnostics
}, model any) diag.Diagnostics {
	raw, s, ok := dataOf(dst)
	source := reflect.ValueOf(model)
	if !ok || source.Kind() != reflect.Pointer || source.IsNil() {
		return dst.Set(ctx, model)
	}
	l := layoutOf(ctx, source.Elem().Type(), *raw, s)
	if l == nil {
		return dst.Set(ctx, model)
	}
	in := source.Elem()
	vals := make(map[string]tftypes.Value, len(l.fields))
	for _, f := range l.fields {
		v, _ := in.FieldByIndex(f.index).Interface().(attr.Value)
		switch {
		case v == nil || v.IsNull():
			vals[f.name] = tftypes.NewValue(f.tfType, nil)
		case v.IsUnknown():
			vals[f.name] = tftypes.NewValue(f.tfType, tftypes.UnknownValue)
		default:
			tv, err := v.ToTerraformValue(ctx)
			if err != nil {
				return modelError("write", f.name, err)
			}
			if !tv.Type().Equal(f.tfType) {
				return modelError("write", f.name, fmt.Errorf("the schema expects %s, the model holds %s", f.tfType, tv.Type()))
			}
			vals[f.name] = tv
		}
	}
	*raw = tftypes.NewValue(l.objType, vals)
	return nil
}

// modelError is the diagnostic of a model that does not fit its schema,
// which is a bug in the provider.
func modelError(op, name string, err error) diag.Diagnostics {
	return diag.Diagnostics{diag.NewErrorDiagnostic("Value Conversion Error",
		fmt.Sprintf("The provider could not %s the attribute %s: %s. This is a bug in the provider; please report it.", op, name, err))}
}
