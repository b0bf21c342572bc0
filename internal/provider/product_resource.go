package provider

import (
	"context"
	"fmt"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/paymentsdev/terraform-provider-payments/internal/client"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// Default timeouts of payments_product operations. A destroy that must
// archive instead makes two requests.
var productTimeouts = sameTimeouts(5 * time.Minute)

// NewProductResource returns the payments_product resource.
func NewProductResource() resource.Resource {
	return &productResource{resourceBase{name: "product"}}
}

// productResource is the payments_product resource.
type productResource struct {
	resourceBase
}

// productResourceModel is payments_product's state: the product
// (productModel) and the timeouts block.
type productResourceModel struct {
	productModel
	Timeouts timeouts.Value `tfsdk:"timeouts"`
}

func (m *productResourceModel) timeoutsValue() timeouts.Value { return m.Timeouts }

func (r *productResource) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "A product of the catalog: what `payments_price` resources put a price on. " +
			"Every argument changes in place. Destroying it deletes it when it has no prices; the service refuses " +
			"to delete a product that has any (prices cannot be deleted, only archived), so such a product is " +
			"archived instead (`active = false`), with a warning that says so, and stays at the service.",
		Attributes: productResourceAttributes(),
		Blocks: map[string]schema.Block{
			"timeouts": productTimeouts.block(ctx, "product"),
		},
	}
}

// ModifyPlan refuses, at plan time, a create or update whose request body
// would exceed the service's limit (checkRequestSize).
func (r *productResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() || req.Plan.Raw.Equal(req.State.Raw) {
		return // destroy, or nothing to send
	}
	var plan productResourceModel
	resp.Diagnostics.Append(getModel(ctx, req.Plan, &plan)...)
	if resp.Diagnostics.HasError() || !allKnown(plan.Name, plan.Description, plan.Active, plan.Metadata) {
		return // judged again when Terraform plans with the values known, at apply
	}
	var params *client.ProductParams
	var diags diag.Diagnostics
	operation := "create"
	if req.State.Raw.IsNull() {
		params, diags = plan.createParams(ctx)
	} else {
		var state productResourceModel
		resp.Diagnostics.Append(getModel(ctx, req.State, &state)...)
		if resp.Diagnostics.HasError() {
			return
		}
		operation = "update"
		params, _, diags = productUpdateParams(ctx, &plan.productModel, &state.productModel)
	}
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	checkRequestSize(&resp.Diagnostics, "Product", "product", operation, params.EncodedSize(),
		"Nearly all of it is metadata and the description: use fewer keys or shorter values.")
}

func (r *productResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var plan productResourceModel
	ctx, cancel, ok := productTimeouts.begin(ctx, opCreate, r.client, req.Plan, &plan, &resp.Diagnostics)
	if !ok {
		return
	}
	defer cancel()

	params, diags := plan.createParams(ctx)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	p, err := r.client.CreateProduct(ctx, params)
	if err != nil {
		resp.Diagnostics.Append(paramErrorDiagnostics("Error Creating Product", "a new product", err, productParamAttributes)...)
		return
	}
	tflog.Debug(ctx, "Created product", map[string]any{"id": p.ID})
	resp.Diagnostics.Append(productKind.setIdentity(ctx, resp.Identity, p.ID)...)

	resp.Diagnostics.Append(plan.fromAPI(p)...)
	resp.Diagnostics.Append(setModel(ctx, &resp.State, &plan)...)
}

func (r *productResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var state productResourceModel
	ctx, cancel, ok := productTimeouts.begin(ctx, opRead, r.client, req.State, &state, &resp.Diagnostics)
	if !ok {
		return
	}
	defer cancel()

	id := state.ID.ValueString()
	resp.Diagnostics.Append(productKind.setIdentity(ctx, resp.Identity, id)...)
	p, err := r.client.GetProduct(ctx, id)
	if !readFound(ctx, resp, err, "Product", "product "+id) {
		return
	}

	resp.Diagnostics.Append(state.fromAPI(p)...)
	resp.Diagnostics.Append(setModel(ctx, &resp.State, &state)...)
}

func (r *productResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan, state productResourceModel
	ctx, cancel, ok := productTimeouts.beginUpdate(ctx, r.client, req, &plan, &state, &resp.Diagnostics)
	if !ok {
		return
	}
	defer cancel()

	params, changed, diags := productUpdateParams(ctx, &plan.productModel, &state.productModel)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}

	id := state.ID.ValueString()
	var p *client.Product
	var err error
	if changed {
		p, err = r.client.UpdateProduct(ctx, id, params)
	} else {
		// Only Terraform-side settings changed: read, so that every
		// attribute is still refreshed.
		p, err = r.client.GetProduct(ctx, id)
	}
	if isGone(err) {
		resp.Diagnostics.Append(goneDiagnostic("Error Updating Product", "Product "+id, err))
		return
	}
	if err != nil {
		resp.Diagnostics.Append(paramErrorDiagnostics("Error Updating Product", "product "+id, err, productParamAttributes)...)
		return
	}

	resp.Diagnostics.Append(plan.fromAPI(p)...)
	resp.Diagnostics.Append(setModel(ctx, &resp.State, &plan)...)
	resp.Diagnostics.Append(productKind.setIdentity(ctx, resp.Identity, id)...)
}

// Delete deletes the product, or archives it when the service refuses
// because it has prices: prices cannot be deleted, so neither can it.
func (r *productResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state productResourceModel
	ctx, cancel, ok := productTimeouts.begin(ctx, opDelete, r.client, req.State, &state, &resp.Diagnostics)
	if !ok {
		return
	}
	defer cancel()

	id := state.ID.ValueString()
	_, err := r.client.DeleteProduct(ctx, id)
	switch {
	case err == nil || client.IsNotFound(err):
		return
	case !client.HasCode(err, wire.ErrorCodeProductHasPrices):
		resp.Diagnostics.Append(apiErrorDiagnostic("Error Deleting Product", "product "+id, err))
		return
	}
	inactive := false
	if _, err := r.client.UpdateProduct(ctx, id, &client.ProductParams{Active: &inactive}); err != nil && !client.IsNotFound(err) {
		resp.Diagnostics.Append(apiErrorDiagnostic("Error Archiving Product", "product "+id, err))
		return
	}
	tflog.Debug(ctx, "Archived product that has prices", map[string]any{"id": id})
	resp.Diagnostics.AddWarning("Product Archived, Not Deleted",
		fmt.Sprintf("Product %s has prices, and the payments service deletes only a product without any: prices "+
			"cannot be deleted, only archived. Terraform archived the product instead (active = false) and forgot it; "+
			"it stays at the service, archived, with its prices.", id))
}

// productParamAttributes maps the service's form parameters to the
// attributes they come from, so that a refusal points at the attribute.
var productParamAttributes = map[string]string{
	wire.ParamName:        "name",
	wire.ParamDescription: "description",
	wire.ParamActive:      "active",
	wire.ParamMetadata:    "metadata",
}

func (r *productResource) IdentitySchema(_ context.Context, _ resource.IdentitySchemaRequest, resp *resource.IdentitySchemaResponse) {
	resp.IdentitySchema = productKind.identitySchema()
}

func (r *productResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	productKind.importState(ctx, req, resp)
}
