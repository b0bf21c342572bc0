package model

import (
	"testing"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/ids"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// TestCustomer_AttachDetach: the first source attached is the default;
// detaching the default makes the most recent of those left the default.
func TestCustomer_AttachDetach(t *testing.T) {
	t.Parallel()
	a, b, c := &Source{ID: ids.New()}, &Source{ID: ids.New()}, &Source{ID: ids.New()}
	cu := &Customer{}
	for i, src := range []*Source{a, b, c} {
		if got := cu.Attach(src); got != (i == 0) {
			t.Fatalf("attach %d: defaulted %v", i, got)
		}
	}
	if cu.DefaultSource != a || len(cu.Sources) != 3 {
		t.Fatalf("after attaching: default %v, %d sources", cu.DefaultSource, len(cu.Sources))
	}
	for _, tc := range []struct {
		name        string
		detach      *Source
		wantChanged bool
		wantDefault *Source
	}{
		{"not the default", b, false, a},
		{"the default: the latest left takes over", a, true, c},
		{"the last one", c, true, nil},
	} {
		i, _ := cu.Source(tc.detach.ID)
		src, changed := cu.Detach(i)
		if src != tc.detach || changed != tc.wantChanged || cu.DefaultSource != tc.wantDefault {
			t.Fatalf("%s: detached %v, changed %v, default %v", tc.name, src, changed, cu.DefaultSource)
		}
	}
	if len(cu.Sources) != 0 {
		t.Fatalf("%d sources left", len(cu.Sources))
	}
}

// TestCustomer_NamedSources: default_source names one of the customer's
// own sources; a subscription may leave it empty, a customer's update
// may not.
func TestCustomer_NamedSources(t *testing.T) {
	t.Parallel()
	a, b := &Source{ID: ids.New()}, &Source{ID: ids.New()}
	cu := &Customer{ID: ids.New(), Sources: []*Source{a, b}, DefaultSource: a}
	other := ids.New().Format(wire.SourceIDPrefix)
	for _, tc := range []struct {
		name, v   string
		want      *Source
		code, msg string
	}{
		{"its source", b.ID.Format(wire.SourceIDPrefix), b, "", ""},
		{"another's source", other, nil, wire.ErrorCodeResourceMissing, `default_source "` + other + `" is not a source`},
		{"not an id", "card_1", nil, wire.ErrorCodeResourceMissing, `default_source "card_1" is not a source`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			suffix := func(s string) string {
				if tc.msg == "" {
					return ""
				}
				return tc.msg + s
			}
			src, r := cu.SubscriptionSource(tc.v)
			wantRefusal(t, r, tc.code, suffix(" of customer"))
			if src != tc.want {
				t.Fatalf("source %v", src)
			}
			next := *cu
			r = next.SetDefaultSource(tc.v)
			wantRefusal(t, r, tc.code, suffix(" attached to customer"))
			if r == nil && next.DefaultSource != tc.want || r != nil && next.DefaultSource != a {
				t.Fatalf("default %v", next.DefaultSource)
			}
		})
	}
	if src, r := cu.SubscriptionSource(""); src != nil || r != nil {
		t.Fatalf("empty: %v, %v", src, r)
	}
	wantRefusal(t, cu.SetDefaultSource(""), wire.ErrorCodeParameterInvalid, "default_source cannot be empty")
}

// TestStoredSource_Customer: a stored source is charged with the
// customer it is attached to, and no other.
func TestStoredSource_Customer(t *testing.T) {
	t.Parallel()
	a := &Source{ID: ids.New()}
	cu := &Customer{ID: ids.New(), Sources: []*Source{a}}
	aID := a.ID.Format(wire.SourceIDPrefix)
	if src, r := StoredSource(cu, aID); src != a || r != nil {
		t.Fatalf("its own source: %v, %v", src, r)
	}
	_, r := StoredSource(nil, aID)
	wantRefusal(t, r, wire.ErrorCodeParameterMissing, "source "+aID+" is a stored source; send it together with customer")
	if r.Param != wire.ParamCustomer {
		t.Fatalf("param %q", r.Param)
	}
	_, r = StoredSource(&Customer{ID: ids.New()}, aID)
	wantRefusal(t, r, wire.ErrorCodeResourceMissing, `source "`+aID+`" is not attached to customer`)
	if r.Param != wire.ParamSource {
		t.Fatalf("param %q", r.Param)
	}
}
