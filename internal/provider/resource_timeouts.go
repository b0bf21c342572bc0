package provider

import (
	"context"
	"fmt"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"

	"github.com/paymentsdev/terraform-provider-payments/internal/client"
)

// resourceTimeouts are the default time limits of a resource's operations,
// retries included.
type resourceTimeouts struct {
	Create, Read, Update, Delete time.Duration
}

// sameTimeouts is d for every operation.
func sameTimeouts(d time.Duration) resourceTimeouts {
	return resourceTimeouts{Create: d, Read: d, Update: d, Delete: d}
}

// block is the resource's `timeouts` block, with descriptions that name
// each default, so that the docs cannot drift from the code.
func (d resourceTimeouts) block(ctx context.Context, resourceName string) schema.Block {
	desc := func(op string, def time.Duration) string {
		return fmt.Sprintf("How long %s may take, retries included, as a Go duration such as `30s` or `2m`. Defaults to `%s`.",
			op, client.FormatDuration(def))
	}
	block := timeouts.Block(ctx, timeouts.Opts{
		Create: true, Read: true, Update: true, Delete: true,
		CreateDescription: desc("creating the "+resourceName, d.Create),
		ReadDescription:   desc("reading the "+resourceName+" (on every refresh and plan)", d.Read),
		UpdateDescription: desc("updating the "+resourceName, d.Update),
		DeleteDescription: desc("deleting the "+resourceName, d.Delete),
	})
	// The library sets no description on the block itself.
	if b, ok := block.(schema.SingleNestedBlock); ok {
		b.MarkdownDescription = fmt.Sprintf("Time limits for the operations on this %s.", resourceName)
		return b
	}
	return block
}

// operation names a resource operation, to pick its timeout.
type operation int

// The operations of a resource.
const (
	opCreate operation = iota
	opRead
	opUpdate
	opDelete
)

// timeoutsModel is a resource model with a timeouts block.
type timeoutsModel interface {
	timeoutsValue() timeouts.Value
}

// configGetter is a plan or a state: what an operation reads its model from.
type configGetter interface {
	Get(ctx context.Context, target any) diag.Diagnostics
}

// begin is the opening of every resource operation: it reads the model m
// from the plan or state, checks that the provider configured a client, and
// returns ctx bounded by the operation's timeout (from the model's timeouts
// block, or d's default). ok is false when diags hold an error; cancel must
// be called otherwise.
func (d resourceTimeouts) begin(ctx context.Context, op operation, c *client.Client, from configGetter, m timeoutsModel,
	diags *diag.Diagnostics) (_ context.Context, cancel context.CancelFunc, ok bool) {
	diags.Append(getModel(ctx, from, m)...)
	if diags.HasError() {
		return ctx, func() {}, false
	}
	if c == nil {
		diags.Append(notConfiguredDiagnostic())
		return ctx, func() {}, false
	}
	var timeout time.Duration
	var td diag.Diagnostics
	t := m.timeoutsValue()
	switch op {
	case opCreate:
		timeout, td = t.Create(ctx, d.Create)
	case opRead:
		timeout, td = t.Read(ctx, d.Read)
	case opUpdate:
		timeout, td = t.Update(ctx, d.Update)
	default:
		timeout, td = t.Delete(ctx, d.Delete)
	}
	diags.Append(td...)
	if diags.HasError() {
		return ctx, func() {}, false
	}
	ctx, cancel = context.WithTimeout(ctx, timeout)
	return ctx, cancel, true
}

// beginUpdate is begin for Update, which reads the plan into plan and the
// prior state into state.
func (d resourceTimeouts) beginUpdate(ctx context.Context, c *client.Client, req resource.UpdateRequest, plan timeoutsModel,
	state any, diags *diag.Diagnostics) (_ context.Context, cancel context.CancelFunc, ok bool) {
	ctx, cancel, ok = d.begin(ctx, opUpdate, c, req.Plan, plan, diags)
	if !ok {
		return ctx, cancel, false
	}
	diags.Append(getModel(ctx, req.State, state)...)
	if diags.HasError() {
		cancel()
		return ctx, func() {}, false
	}
	return ctx, cancel, true
}
