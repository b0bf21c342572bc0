package provider

import (
	"context"
	"fmt"
	"reflect"
	"sort"

	"github.com/hashicorp/terraform-plugin-testing/plancheck"
)

// Plan checks the plancheck package lacks, shared by the tests.

// expectOnlyChanged checks that the resource at addr is updated in place
// with exactly the named top-level attributes differing between before and
// after, and that nothing of it is unknown after the plan: a reviewer sees
// exactly the change they made.
func expectOnlyChanged(addr string, attrs ...string) plancheck.PlanCheck {
	return planCheckFunc(func(_ context.Context, req plancheck.CheckPlanRequest, resp *plancheck.CheckPlanResponse) {
		for _, rc := range req.Plan.ResourceChanges {
			if rc.Address != addr {
				continue
			}
			if !rc.Change.Actions.Update() {
				resp.Error = fmt.Errorf("%s: planned actions %v, want an in-place update", addr, rc.Change.Actions)
				return
			}
			before, _ := rc.Change.Before.(map[string]any)
			after, _ := rc.Change.After.(map[string]any)
			var changed []string
			for k := range mergeKeys(before, after) {
				if !reflect.DeepEqual(before[k], after[k]) {
					changed = append(changed, k)
				}
			}
			sort.Strings(changed)
			want := append([]string(nil), attrs...)
			sort.Strings(want)
			if !reflect.DeepEqual(changed, want) && !(len(changed) == 0 && len(want) == 0) {
				resp.Error = fmt.Errorf("%s: attributes %v change, want exactly %v", addr, changed, want)
				return
			}
			if unknown, _ := rc.Change.AfterUnknown.(map[string]any); len(unknown) > 0 {
				resp.Error = fmt.Errorf("%s: attributes unknown after the plan: %v, want none", addr, unknown)
			}
			return
		}
		resp.Error = fmt.Errorf("%s is not in the plan", addr)
	})
}

// expectOutputUnchanged checks that the named outputs have no planned change.
func expectOutputUnchanged(names ...string) plancheck.PlanCheck {
	return planCheckFunc(func(_ context.Context, req plancheck.CheckPlanRequest, resp *plancheck.CheckPlanResponse) {
		for _, n := range names {
			c, ok := req.Plan.OutputChanges[n]
			if !ok {
				resp.Error = fmt.Errorf("output %q is not in the plan", n)
				return
			}
			if !c.Actions.NoOp() {
				resp.Error = fmt.Errorf("output %q has planned actions %v, want none", n, c.Actions)
				return
			}
		}
	})
}

// expectNoDrift checks that the refresh found nothing changed outside of
// Terraform: the plan's resource_drift, which Terraform shows as "Objects
// have changed outside of Terraform", is empty.
func expectNoDrift() plancheck.PlanCheck {
	return planCheckFunc(func(_ context.Context, req plancheck.CheckPlanRequest, resp *plancheck.CheckPlanResponse) {
		if n := len(req.Plan.ResourceDrift); n > 0 {
			var addrs []string
			for _, rc := range req.Plan.ResourceDrift {
				addrs = append(addrs, fmt.Sprintf("%s %v", rc.Address, rc.Change.Actions))
			}
			resp.Error = fmt.Errorf("the refresh found %d objects changed outside of Terraform: %v", n, addrs)
		}
	})
}

// planCheckFunc adapts a function to plancheck.PlanCheck.
type planCheckFunc func(context.Context, plancheck.CheckPlanRequest, *plancheck.CheckPlanResponse)

func (f planCheckFunc) CheckPlan(ctx context.Context, req plancheck.CheckPlanRequest, resp *plancheck.CheckPlanResponse) {
	f(ctx, req, resp)
}

func mergeKeys(a, b map[string]any) map[string]struct{} {
	out := make(map[string]struct{}, len(a)+len(b))
	for k := range a {
		out[k] = struct{}{}
	}
	for k := range b {
		out[k] = struct{}{}
	}
	return out
}
