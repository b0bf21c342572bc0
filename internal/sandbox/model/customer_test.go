package model

import (
	"testing"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/ids"
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
