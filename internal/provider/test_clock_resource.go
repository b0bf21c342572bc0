package provider

import (
	"context"
	"fmt"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework-timetypes/timetypes"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/paymentsdev/terraform-provider-payments/internal/client"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

var (
	_ resource.ResourceWithConfigure   = (*testClockResource)(nil)
	_ resource.ResourceWithModifyPlan  = (*testClockResource)(nil)
	_ resource.ResourceWithImportState = (*testClockResource)(nil)
)

// Default timeouts of payments_test_clock operations. An advance runs
// every renewal due on the clock before the clock is ready, so update
// leaves room for a large clock.
var testClockTimeouts = resourceTimeouts{Create: 5 * time.Minute, Read: 5 * time.Minute, Update: 20 * time.Minute, Delete: 5 * time.Minute}

// NewTestClockResource returns the payments_test_clock resource.
func NewTestClockResource() resource.Resource {
	return &testClockResource{resourceBase{name: "test_clock"}}
}

// testClockResource is the payments_test_clock resource.
type testClockResource struct {
	resourceBase
}

// testClockResourceModel is payments_test_clock's state.
type testClockResourceModel struct {
	testClockModel
	Timeouts timeouts.Value `tfsdk:"timeouts"`
}

func (m *testClockResourceModel) timeoutsValue() timeouts.Value { return m.Timeouts }

func (r *testClockResource) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "A test clock of the sandbox: a time of its own for the customers put on it " +
			"(`payments_customer.test_clock`), so that a test can run their subscriptions through renewals, " +
			"failed payments and trial ends in seconds. Moving `frozen_time` forward advances the clock in place; " +
			"changing `name` replaces it. Destroying the clock deletes it and, with it, every customer on it; their " +
			"subscriptions end, canceled, and their invoices stay. Test clocks exist only for sandbox keys.",
		Attributes: testClockResourceAttributes(),
		Blocks: map[string]schema.Block{
			"timeouts": testClockTimeouts.block(ctx, "test clock"),
		},
	}
}

// ModifyPlan refuses at plan time a frozen_time before the clock's: a
// test clock only moves forward. A clock replaced (a new name) starts
// wherever the configuration says.
func (r *testClockResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() || req.State.Raw.IsNull() || req.Plan.Raw.Equal(req.State.Raw) {
		return
	}
	var planned, prior timetypes.RFC3339
	var planName, priorName types.String
	resp.Diagnostics.Append(req.Plan.GetAttribute(ctx, path.Root("frozen_time"), &planned)...)
	resp.Diagnostics.Append(req.State.GetAttribute(ctx, path.Root("frozen_time"), &prior)...)
	resp.Diagnostics.Append(req.Plan.GetAttribute(ctx, path.Root("name"), &planName)...)
	resp.Diagnostics.Append(req.State.GetAttribute(ctx, path.Root("name"), &priorName)...)
	if resp.Diagnostics.HasError() || planned.IsUnknown() || planned.IsNull() || prior.IsNull() || prior.IsUnknown() ||
		!planName.Equal(priorName) {
		return
	}
	to, d1 := planned.ValueRFC3339Time()
	from, d2 := prior.ValueRFC3339Time()
	if d1.HasError() || d2.HasError() || !to.Before(from) {
		return
	}
	resp.Diagnostics.AddAttributeError(path.Root("frozen_time"), "Test Clock Cannot Move Backwards",
		fmt.Sprintf("frozen_time %s is before the clock's time, %s: a test clock only moves forward. Set frozen_time "+
			"to %s or later. To start again earlier, replace the clock by changing its name in the same apply "+
			"(the customers on it are replaced too), or destroy it first (terraform destroy -target=<address>).", to.UTC().Format(time.RFC3339), from.UTC().Format(time.RFC3339),
			from.UTC().Format(time.RFC3339)))
}

func (r *testClockResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var plan testClockResourceModel
	ctx, cancel, ok := testClockTimeouts.begin(ctx, opCreate, r.client, req.Plan, &plan, &resp.Diagnostics)
	if !ok {
		return
	}
	defer cancel()

	frozen, d := plan.FrozenTime.ValueRFC3339Time()
	resp.Diagnostics.Append(d...)
	if resp.Diagnostics.HasError() {
		return
	}
	k, err := r.client.CreateTestClock(ctx, &client.TestClockParams{FrozenTime: frozen, Name: plan.Name.ValueString()})
	if err != nil {
		resp.Diagnostics.Append(paramErrorDiagnostics("Error Creating Test Clock", "a new test clock", err, testClockParamAttributes)...)
		return
	}
	tflog.Debug(ctx, "Created test clock", map[string]any{"id": k.ID})
	resp.Diagnostics.Append(testClockKind.setIdentity(ctx, resp.Identity, k.ID)...)
	resp.Diagnostics.Append(plan.fromAPI(k)...)
	resp.Diagnostics.Append(setModel(ctx, &resp.State, &plan)...)
}

func (r *testClockResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var state testClockResourceModel
	ctx, cancel, ok := testClockTimeouts.begin(ctx, opRead, r.client, req.State, &state, &resp.Diagnostics)
	if !ok {
		return
	}
	defer cancel()

	id := state.ID.ValueString()
	resp.Diagnostics.Append(testClockKind.setIdentity(ctx, resp.Identity, id)...)
	k, err := r.client.GetTestClock(ctx, id)
	if !readFound(ctx, resp, err, "Test Clock", "test clock "+id) {
		return
	}
	resp.Diagnostics.Append(state.fromAPI(k)...)
	resp.Diagnostics.Append(setModel(ctx, &resp.State, &state)...)
}

// Update advances the clock to the planned frozen_time and waits until it
// is ready: only frozen_time changes in place.
func (r *testClockResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan, state testClockResourceModel
	ctx, cancel, ok := testClockTimeouts.beginUpdate(ctx, r.client, req, &plan, &state, &resp.Diagnostics)
	if !ok {
		return
	}
	defer cancel()

	id := state.ID.ValueString()
	var k *client.TestClock
	var err error
	if sameInstant(plan.FrozenTime, state.FrozenTime) {
		// Only the timeouts changed: read, so that every attribute is
		// still refreshed.
		k, err = r.client.GetTestClock(ctx, id)
	} else {
		to, d := plan.FrozenTime.ValueRFC3339Time()
		resp.Diagnostics.Append(d...)
		if resp.Diagnostics.HasError() {
			return
		}
		k, err = r.client.AdvanceTestClock(ctx, id, to)
	}
	if err == nil && k.Status != wire.TestClockStatusReady {
		k, err = waitTestClockReady(ctx, realTicker{}, func(ctx context.Context) (*client.TestClock, error) {
			return r.client.GetTestClock(ctx, id)
		})
	}
	if client.IsNotFound(err) {
		resp.Diagnostics.Append(goneDiagnostic("Error Advancing Test Clock", "Test clock "+id, err))
		return
	}
	if err != nil {
		resp.Diagnostics.Append(paramErrorDiagnostics("Error Advancing Test Clock", "test clock "+id, err, testClockParamAttributes)...)
		return
	}
	resp.Diagnostics.Append(plan.fromAPI(k)...)
	resp.Diagnostics.Append(setModel(ctx, &resp.State, &plan)...)
	resp.Diagnostics.Append(testClockKind.setIdentity(ctx, resp.Identity, id)...)
	if d := stoppedShortDiagnostic(id, k); d != nil {
		resp.Diagnostics.Append(d)
	}
}

// stoppedShortDiagnostic is the error of an advance that stopped short
// of its target (status_details.stopped), nil for one that got there.
// The state keeps the time the clock reached, so that the next apply
// advances it again from there.
func stoppedShortDiagnostic(id string, k *client.TestClock) diag.Diagnostic {
	st := k.StatusDetails.Stopped
	if st == nil {
		return nil
	}
	return diag.NewAttributeErrorDiagnostic(path.Root("frozen_time"), "Test Clock Advance Stopped Short",
		fmt.Sprintf("Test clock %s stopped at %s, short of %s (%s): %s\n\nThe state records the time the clock reached; "+
			"once the cause is dealt with, apply again to advance it the rest of the way.", id, k.FrozenTime, st.TargetFrozenTime, st.Code, st.Message))
}

// Delete deletes the clock, and the service deletes the customers on it.
func (r *testClockResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state testClockResourceModel
	ctx, cancel, ok := testClockTimeouts.begin(ctx, opDelete, r.client, req.State, &state, &resp.Diagnostics)
	if !ok {
		return
	}
	defer cancel()

	id := state.ID.ValueString()
	if _, err := r.client.DeleteTestClock(ctx, id); err != nil && !client.IsNotFound(err) {
		resp.Diagnostics.Append(apiErrorDiagnostic("Error Deleting Test Clock", "test clock "+id, err))
		return
	}
	tflog.Debug(ctx, "Deleted test clock", map[string]any{"id": id})
}

func (r *testClockResource) IdentitySchema(_ context.Context, _ resource.IdentitySchemaRequest, resp *resource.IdentitySchemaResponse) {
	resp.IdentitySchema = testClockKind.identitySchema()
}

func (r *testClockResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	testClockKind.importState(ctx, req, resp)
}

// testClockParamAttributes maps the service's parameters to attributes.
var testClockParamAttributes = map[string]string{
	wire.ParamFrozenTime: "frozen_time",
	wire.ParamName:       "name",
}

// ticker is the time a wait reads: After as time.After does.
type ticker interface {
	After(d time.Duration) <-chan time.Time
}

// realTicker is the wall clock.
type realTicker struct{}

func (realTicker) After(d time.Duration) <-chan time.Time { return time.After(d) }

// Polling of a clock that is still advancing: the first look after
// testClockPollMin, doubling up to testClockPollMax.
const (
	testClockPollMin = 250 * time.Millisecond
	testClockPollMax = 5 * time.Second
)

// waitTestClockReady reads the clock with get until it is ready, or ctx
// (bounded by the update timeout) ends, which is an error saying so.
func waitTestClockReady(ctx context.Context, t ticker, get func(context.Context) (*client.TestClock, error)) (*client.TestClock, error) {
	wait := testClockPollMin
	for {
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("the test clock was still %s when the update timeout ran out; raise timeouts.update "+
				"or advance it in smaller steps: %w", wire.TestClockStatusAdvancing, ctx.Err())
		case <-t.After(wait):
		}
		k, err := get(ctx)
		if err != nil || k.Status == wire.TestClockStatusReady {
			return k, err
		}
		wait = min(2*wait, testClockPollMax)
	}
}
