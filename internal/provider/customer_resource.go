package provider

import (
	"context"
	"regexp"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/paymentsdev/terraform-provider-payments/internal/client"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// Default timeouts of payments_customer operations. Each is one request,
// retried with backoff; the defaults leave room for every retry.
var customerTimeouts = sameTimeouts(5 * time.Minute)

// Plan-time rules for customer fields, from the wire contract.
var (
	// emailRegexp is the contract's "local@domain": one @, neither side
	// empty, no white space or control characters.
	emailRegexp = regexp.MustCompile(`^[^@\s\p{Z}\p{Cc}]+@[^@\s\p{Z}\p{Cc}]+$`)
	phoneRegexp = regexp.MustCompile(wire.PhonePattern)
	// metadataKeyRegexp keeps square brackets out of keys, because the
	// form encoding metadata[key]=value could not carry them unambiguously.
	metadataKeyRegexp = regexp.MustCompile(`^[^\[\]]+$`)
	// noControlRegexp refuses the control characters the service refuses
	// in names and metadata keys: all but tab and newline, and the
	// bidirectional controls.
	noControlRegexp = regexp.MustCompile(wire.NoRefusedControlPattern)
	// noBidiRegexp refuses the bidirectional controls the service refuses
	// in descriptions and metadata values.
	noBidiRegexp = regexp.MustCompile(wire.NoBidiControlPattern)
)

// bidiControls names the bidirectional controls in messages.
const bidiControls = "bidirectional controls (U+202A to U+202E, U+2066 to U+2069, U+200E, U+200F, U+061C)"

// noBidiMessage is what a value with a bidirectional control is told.
const noBidiMessage = "must not contain " + bidiControls

// noControlMessage is what a value with a refused control character is told.
const noControlMessage = "must not contain control characters other than tab and newline, nor " + bidiControls

// NewCustomerResource returns the payments_customer resource.
func NewCustomerResource() resource.Resource {
	return &customerResource{resourceBase{name: "customer"}}
}

// customerResource is the payments_customer resource.
type customerResource struct {
	resourceBase
}

// customerResourceModel is payments_customer's state: the customer
// (customerModel) and the timeouts block.
type customerResourceModel struct {
	customerModel
	Timeouts timeouts.Value `tfsdk:"timeouts"`
}

func (m *customerResourceModel) timeoutsValue() timeouts.Value { return m.Timeouts }

func (r *customerResource) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "A customer of the payments service: contact details and metadata. " +
			"Every argument is optional and changes in place; removing one from the configuration clears it " +
			"at the service. Payment methods are stored with `payments_customer_source`; the customer's " +
			"methods and its default are told by the `payments_customer` data source.",
		Attributes: customerResourceAttributes(),
		Blocks: map[string]schema.Block{
			"timeouts": customerTimeouts.block(ctx, "customer"),
		},
	}
}

// ModifyPlan refuses, at plan time, a create or update whose request body
// would exceed the service's limit, which the per-key metadata limits alone
// do not prevent (50 values of 500 characters outside ASCII are far over
// it). The size is the client's own encoding of the very request Create
// or Update would send, so no request is sent that the service would refuse.
func (r *customerResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() || req.Plan.Raw.Equal(req.State.Raw) {
		// Destroy, or nothing to send: a refresh plan of an unchanged
		// customer stops here, before reading plan and state into models,
		// the dearest part of planning it.
		return
	}
	var plan customerResourceModel
	resp.Diagnostics.Append(getModel(ctx, req.Plan, &plan)...)
	if resp.Diagnostics.HasError() || !plan.argumentsKnown() {
		return // judged again when Terraform plans with the values known, at apply
	}
	var params *client.CustomerParams
	var diags diag.Diagnostics
	operation := "create"
	if req.State.Raw.IsNull() {
		params, diags = plan.createParams(ctx)
	} else {
		var state customerResourceModel
		resp.Diagnostics.Append(getModel(ctx, req.State, &state)...)
		if resp.Diagnostics.HasError() {
			return
		}
		operation = "update"
		params, _, diags = customerUpdateParams(ctx, &plan.customerModel, &state.customerModel)
	}
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	checkRequestSize(&resp.Diagnostics, "Customer", "customer", operation, params.EncodedSize(),
		"Nearly all of it is metadata: use fewer keys or shorter values.")
}

func (r *customerResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var plan customerResourceModel
	ctx, cancel, ok := customerTimeouts.begin(ctx, opCreate, r.client, req.Plan, &plan, &resp.Diagnostics)
	if !ok {
		return
	}
	defer cancel()

	params, diags := plan.createParams(ctx)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	cus, err := r.client.CreateCustomer(ctx, params)
	if err != nil {
		resp.Diagnostics.Append(apiErrorDiagnostic("Error Creating Customer", "a new customer", err))
		return
	}
	tflog.Debug(ctx, "Created customer", map[string]any{"id": cus.ID})
	resp.Diagnostics.Append(customerKind.setIdentity(ctx, resp.Identity, cus.ID)...)

	resp.Diagnostics.Append(plan.fromAPI(cus)...)
	resp.Diagnostics.Append(setModel(ctx, &resp.State, &plan)...)
}

func (r *customerResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var state customerResourceModel
	ctx, cancel, ok := customerTimeouts.begin(ctx, opRead, r.client, req.State, &state, &resp.Diagnostics)
	if !ok {
		return
	}
	defer cancel()

	id := state.ID.ValueString()
	// The identity comes from state, so that every answer has one (a CLI
	// before 1.12 keeps none between operations), removal included.
	resp.Diagnostics.Append(customerKind.setIdentity(ctx, resp.Identity, id)...)
	cus, err := r.client.GetCustomer(ctx, id)
	if !readFound(ctx, resp, err, "Customer", "customer "+id) {
		return
	}

	resp.Diagnostics.Append(state.fromAPI(cus)...)
	resp.Diagnostics.Append(setModel(ctx, &resp.State, &state)...)
}

func (r *customerResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan, state customerResourceModel
	ctx, cancel, ok := customerTimeouts.beginUpdate(ctx, r.client, req, &plan, &state, &resp.Diagnostics)
	if !ok {
		return
	}
	defer cancel()

	params, changed, diags := customerUpdateParams(ctx, &plan.customerModel, &state.customerModel)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}

	id := state.ID.ValueString()
	var cus *client.Customer
	var err error
	if changed {
		cus, err = r.client.UpdateCustomer(ctx, id, params)
	} else {
		// Only Terraform-side settings changed (timeouts, metadata null
		// versus {}): read, so that every attribute is still refreshed.
		cus, err = r.client.GetCustomer(ctx, id)
	}
	if isGone(err) {
		resp.Diagnostics.Append(goneDiagnostic("Error Updating Customer", "Customer "+id, err))
		return
	}
	if err != nil {
		resp.Diagnostics.Append(apiErrorDiagnostic("Error Updating Customer", "customer "+id, err))
		return
	}

	resp.Diagnostics.Append(plan.fromAPI(cus)...)
	resp.Diagnostics.Append(setModel(ctx, &resp.State, &plan)...)
	resp.Diagnostics.Append(customerKind.setIdentity(ctx, resp.Identity, id)...)
}

func (r *customerResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state customerResourceModel
	ctx, cancel, ok := customerTimeouts.begin(ctx, opDelete, r.client, req.State, &state, &resp.Diagnostics)
	if !ok {
		return
	}
	defer cancel()

	id := state.ID.ValueString()
	if _, err := r.client.DeleteCustomer(ctx, id); err != nil && !client.IsNotFound(err) {
		resp.Diagnostics.Append(apiErrorDiagnostic("Error Deleting Customer", "customer "+id, err))
	}
}

func (r *customerResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	customerKind.importState(ctx, req, resp)
}
