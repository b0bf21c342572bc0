package form

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/apierr"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/model"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// ApplyMetadata returns cur changed by the metadata fields of f, without
// touching cur: `metadata=` removes every key, then `metadata[k]=` removes
// k and `metadata[k]=v` sets it. The limits apply to the result.
func ApplyMetadata(cur model.Metadata, f Form) (model.Metadata, *apierr.Error) {
	next := cur
	copied := false
	if v, ok := f.Get(wire.ParamMetadata); ok {
		if v != "" {
			return nil, apierr.Invalid(wire.ParamMetadata, "metadata takes its keys in brackets, as in metadata[plan]=gold; send metadata= (empty) only to remove every key.")
		}
		next, copied = nil, true
	}
	for i := range f {
		p := &f[i]
		if !p.Bracketed || p.Base != wire.ParamMetadata {
			continue
		}
		if n := utf8.RuneCountInString(p.Sub); n > wire.MetadataKeyMaxLength {
			return nil, apierr.Invalid(p.Name, "The metadata key %q is %d characters long; use at most %d.", apierr.Clip(p.Sub), n, wire.MetadataKeyMaxLength)
		}
		// The param spells the key's control characters as escapes, so
		// that it can be printed; the message quotes it the same way.
		if e := RefuseControl(wire.ParamMetadata+"["+Escaped(p.Sub)+"]", fmt.Sprintf("The metadata key %q", p.Sub), p.Sub); e != nil {
			return nil, e
		}
		if n := utf8.RuneCountInString(p.Value); n > wire.MetadataValueMaxLength {
			return nil, apierr.Invalid(p.Name, "The value of %s is %d characters long; use at most %d.", p.Name, n, wire.MetadataValueMaxLength)
		}
		if e := RefuseBidi(wire.ParamMetadata+"["+Escaped(p.Sub)+"]", fmt.Sprintf("The value of metadata key %q", p.Sub), p.Value); e != nil {
			return nil, e
		}
		if !copied {
			next, copied = slices.Clone(cur), true
		}
		i, found := next.Index(p.Sub)
		switch {
		case p.Value == "" && found:
			next = slices.Delete(next, i, i+1)
		case p.Value == "":
		case found:
			next[i].V = strings.Clone(p.Value)
		default:
			// Clones: the form's strings are views into the request body.
			next = slices.Insert(next, i, model.KV{K: strings.Clone(p.Sub), V: strings.Clone(p.Value)})
		}
	}
	if len(next) > wire.MetadataMaxKeys {
		return nil, apierr.Invalid(wire.ParamMetadata, "metadata would have %d keys; use at most %d.", len(next), wire.MetadataMaxKeys)
	}
	if len(next) == 0 {
		next = nil
	}
	return next, nil
}
