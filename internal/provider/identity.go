package provider

import (
	"context"
	"fmt"
	"regexp"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/identityschema"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// Resource identity (Terraform 1.12 and later): what names one object at
// the service (a customer, a stored payment method, a product, a price, a test
// clock, a subscription), in the `identity` of an import
// block, in state beside the attributes, and in the results of the list
// resources (`terraform query`). Both are set on create, read, update and
// import, from the ids the state holds: state written before identity
// existed gains one, and a CLI before 1.12, which keeps no identity between
// operations, gets one back each time. Import by string id keeps working
// on every CLI.

var (
	_ resource.ResourceWithIdentity = (*customerResource)(nil)
	_ resource.ResourceWithIdentity = (*customerSourceResource)(nil)
	_ resource.ResourceWithIdentity = (*productResource)(nil)
	_ resource.ResourceWithIdentity = (*priceResource)(nil)
	_ resource.ResourceWithIdentity = (*testClockResource)(nil)
	_ resource.ResourceWithIdentity = (*subscriptionResource)(nil)
)

// customerSourceIdentityModel is payments_customer_source's identity: a
// method's id is only reachable through its customer's path.
type customerSourceIdentityModel struct {
	Customer types.String `tfsdk:"customer"`
	ID       types.String `tfsdk:"id"`
}

func (r *customerResource) IdentitySchema(_ context.Context, _ resource.IdentitySchemaRequest, resp *resource.IdentitySchemaResponse) {
	resp.IdentitySchema = customerKind.identitySchema()
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

// setCustomerSourceIdentity records the identity of method id of customer.
func setCustomerSourceIdentity(ctx context.Context, identity *tfsdk.ResourceIdentity, customer, id string) diag.Diagnostics {
	if identity == nil {
		return nil
	}
	return setModel(ctx, identity, &customerSourceIdentityModel{Customer: types.StringValue(customer), ID: types.StringValue(id)})
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

// idKind is one kind of object named by its id alone.
type idKind struct {
	// title and noun name the kind in summaries and details: "Product",
	// "product".
	title, noun string
	prefix      string
	re          *regexp.Regexp
	shape       string
}

// The kinds named by their id alone.
var (
	customerKind     = idKind{title: "Customer", noun: "customer", prefix: wire.CustomerIDPrefix, re: customerIDRegexp, shape: customerIDShape}
	productKind      = idKind{title: "Product", noun: "product", prefix: wire.ProductIDPrefix, re: productIDRegexp, shape: productIDShape}
	priceKind        = idKind{title: "Price", noun: "price", prefix: wire.PriceIDPrefix, re: priceIDRegexp, shape: priceIDShape}
	subscriptionKind = idKind{title: "Subscription", noun: "subscription", prefix: wire.SubscriptionIDPrefix,
		re: subscriptionIDRegexp, shape: subscriptionIDShape}
	testClockKind = idKind{title: "Test Clock", noun: "test clock", prefix: wire.TestClockIDPrefix, re: testClockIDRegexp,
		shape: testClockIDShape}
)

// idIdentityModel is the identity of an object named by its id alone.
type idIdentityModel struct {
	ID types.String `tfsdk:"id"`
}

// example is a well-formed id of k, for messages.
func (k idKind) example() string {
	return k.prefix + strings.Repeat("0", wire.IDRandomLength)
}

// identitySchema is k's identity schema: its id.
func (k idKind) identitySchema() identityschema.Schema {
	return identityschema.Schema{
		Attributes: map[string]identityschema.Attribute{
			"id": identityschema.StringAttribute{
				Description:       fmt.Sprintf("The %s's identifier: %s.", k.noun, k.shape),
				RequiredForImport: true,
			},
		},
	}
}

// setIdentity records the identity of the object id. A nil identity (a
// resource without an identity schema) is left alone.
func (k idKind) setIdentity(ctx context.Context, identity *tfsdk.ResourceIdentity, id string) diag.Diagnostics {
	if identity == nil {
		return nil
	}
	return setModel(ctx, identity, &idIdentityModel{ID: types.StringValue(id)})
}

// parseImportID checks an import id of k, or the id of an import
// block's identity (what names it in the error).
func (k idKind) parseImportID(id, what string) (string, error) {
	if !k.re.MatchString(id) {
		return "", fmt.Errorf("the %s %s is not a %s id: expected %s, for example %s",
			what, quoteForError(id), k.noun, k.shape, k.example())
	}
	return id, nil
}

// importState is ImportState for k: by the string id (terraform import, or
// an import block's id) or by identity (an import block's identity,
// Terraform 1.12 and later). Either is checked before anything is read,
// and both end with the id and the identity set.
func (k idKind) importState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	id, what, summary := req.ID, "import ID", "Invalid "+k.title+" Import ID"
	if id == "" && req.Identity != nil {
		var ident idIdentityModel
		resp.Diagnostics.Append(req.Identity.Get(ctx, &ident)...)
		if resp.Diagnostics.HasError() {
			return
		}
		id, what, summary = ident.ID.ValueString(), "import block's identity.id", "Invalid "+k.title+" Import Identity"
	}
	if _, err := k.parseImportID(id, what); err != nil {
		msg := err.Error()
		resp.Diagnostics.AddError(summary, strings.ToUpper(msg[:1])+msg[1:]+".")
		return
	}
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), id)...)
	resp.Diagnostics.Append(k.setIdentity(ctx, resp.Identity, id)...)
}
