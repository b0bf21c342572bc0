package provider

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/identityschema"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// Resource identity (Terraform 1.12 and later): what names one customer or
// one stored payment method at the service, in the `identity` of an import
// block, in state beside the attributes, and in the results of the list
// resources (`terraform query`). Both are set on create, read, update and
// import, from the ids the state holds: state written before identity
// existed gains one, and a CLI before 1.12, which keeps no identity between
// operations, gets one back each time. Import by string id keeps working
// on every CLI.

var (
	_ resource.ResourceWithIdentity = (*customerResource)(nil)
	_ resource.ResourceWithIdentity = (*customerSourceResource)(nil)
)

// customerIdentityModel is payments_customer's identity.
type customerIdentityModel struct {
	ID types.String `tfsdk:"id"`
}

// customerSourceIdentityModel is payments_customer_source's identity: a
// method's id is only reachable through its customer's path.
type customerSourceIdentityModel struct {
	Customer types.String `tfsdk:"customer"`
	ID       types.String `tfsdk:"id"`
}

func (r *customerResource) IdentitySchema(_ context.Context, _ resource.IdentitySchemaRequest, resp *resource.IdentitySchemaResponse) {
	resp.IdentitySchema = identityschema.Schema{
		Attributes: map[string]identityschema.Attribute{
			"id": identityschema.StringAttribute{
				Description:       fmt.Sprintf("The customer's identifier: %s.", customerIDShape),
				RequiredForImport: true,
			},
		},
	}
}

func (r *customerSourceResource) IdentitySchema(_ context.Context, _ resource.IdentitySchemaRequest, resp *resource.IdentitySchemaResponse) {
	resp.IdentitySchema = identityschema.Schema{
		Attributes: map[string]identityschema.Attribute{
			"customer": identityschema.StringAttribute{
				Description:       fmt.Sprintf("The identifier of the customer the method is stored on: %s.", customerIDShape),
				RequiredForImport: true,
			},
			"id": identityschema.StringAttribute{
				Description:       fmt.Sprintf("The method's identifier: %s.", sourceIDShape),
				RequiredForImport: true,
			},
		},
	}
}

// setCustomerIdentity records the identity of customer id. A nil identity
// (a resource without an identity schema) is left alone.
func setCustomerIdentity(ctx context.Context, identity *tfsdk.ResourceIdentity, id string) diag.Diagnostics {
	if identity == nil {
		return nil
	}
	return identity.Set(ctx, customerIdentityModel{ID: types.StringValue(id)})
}

// setCustomerSourceIdentity records the identity of method id of customer.
func setCustomerSourceIdentity(ctx context.Context, identity *tfsdk.ResourceIdentity, customer, id string) diag.Diagnostics {
	if identity == nil {
		return nil
	}
	return identity.Set(ctx, customerSourceIdentityModel{Customer: types.StringValue(customer), ID: types.StringValue(id)})
}

// importCustomerState is payments_customer's ImportState: by the string id
// (terraform import, or an import block's id) or by identity (an import
// block's identity, Terraform 1.12 and later). Either is checked before
// anything is read, and both end with the id and the identity set.
func importCustomerState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	id := req.ID
	if id == "" && req.Identity != nil {
		var ident customerIdentityModel
		resp.Diagnostics.Append(req.Identity.Get(ctx, &ident)...)
		if resp.Diagnostics.HasError() {
			return
		}
		id = ident.ID.ValueString()
		if !isCustomerID(id) {
			resp.Diagnostics.AddError("Invalid Customer Import Identity",
				fmt.Sprintf("The import block's identity.id %s is not a customer id: expected %s, for example %s%s.",
					quoteForError(id), customerIDShape, wire.CustomerIDPrefix, strings.Repeat("0", wire.IDRandomLength)))
			return
		}
	} else {
		var err error
		if id, err = parseCustomerImportID(id); err != nil {
			resp.Diagnostics.AddError("Invalid Customer Import ID", err.Error()+".")
			return
		}
	}
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), id)...)
	resp.Diagnostics.Append(setCustomerIdentity(ctx, resp.Identity, id)...)
}

// importCustomerSourceState is payments_customer_source's ImportState: by
// the string id "<customer id>/<source id>" or by identity.
func importCustomerSourceState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	var customerID, sourceID string
	if req.ID == "" && req.Identity != nil {
		var ident customerSourceIdentityModel
		resp.Diagnostics.Append(req.Identity.Get(ctx, &ident)...)
		if resp.Diagnostics.HasError() {
			return
		}
		customerID, sourceID = ident.Customer.ValueString(), ident.ID.ValueString()
		if !isCustomerID(customerID) {
			resp.Diagnostics.AddError("Invalid Customer Source Import Identity",
				fmt.Sprintf("The import block's identity.customer %s is not a customer id: expected %s, for example %s%s.",
					quoteForError(customerID), customerIDShape, wire.CustomerIDPrefix, strings.Repeat("0", wire.IDRandomLength)))
		}
		if !isSourceID(sourceID) {
			resp.Diagnostics.AddError("Invalid Customer Source Import Identity",
				fmt.Sprintf("The import block's identity.id %s is not a payment method id: expected %s, for example %s%s.",
					quoteForError(sourceID), sourceIDShape, wire.SourceIDPrefix, strings.Repeat("0", wire.IDRandomLength)))
		}
		if resp.Diagnostics.HasError() {
			return
		}
	} else {
		var err error
		if customerID, sourceID, err = parseSourceImportID(req.ID); err != nil {
			resp.Diagnostics.AddError("Invalid Customer Source Import ID", err.Error()+".")
			return
		}
	}
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("customer"), customerID)...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), sourceID)...)
	resp.Diagnostics.Append(setCustomerSourceIdentity(ctx, resp.Identity, customerID, sourceID)...)
}
