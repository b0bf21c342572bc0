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

// Identity and import of the catalog's objects, which are each named by
// their id alone, as a customer is (identity.go): set on create, read,
// update and import from the id the state holds; imported by the string id
// or by an import block's identity, each checked before anything is read.

var (
	_ resource.ResourceWithIdentity = (*productResource)(nil)
	_ resource.ResourceWithIdentity = (*priceResource)(nil)
)

// idKind is one kind of object named by its id alone.
type idKind struct {
	// title and noun name the kind in summaries and details: "Product",
	// "product".
	title, noun string
	prefix      string
	re          *regexp.Regexp
	shape       string
}

// The catalog's kinds.
var (
	productKind = idKind{title: "Product", noun: "product", prefix: wire.ProductIDPrefix, re: productIDRegexp, shape: productIDShape}
	priceKind   = idKind{title: "Price", noun: "price", prefix: wire.PriceIDPrefix, re: priceIDRegexp, shape: priceIDShape}
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
	return identity.Set(ctx, idIdentityModel{ID: types.StringValue(id)})
}

// importState is ImportState for k: by the string id or by identity.
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
	if !k.re.MatchString(id) {
		resp.Diagnostics.AddError(summary, fmt.Sprintf("The %s %s is not a %s id: expected %s, for example %s.",
			what, quoteForError(id), k.noun, k.shape, k.example()))
		return
	}
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), id)...)
	resp.Diagnostics.Append(k.setIdentity(ctx, resp.Identity, id)...)
}

func (r *productResource) IdentitySchema(_ context.Context, _ resource.IdentitySchemaRequest, resp *resource.IdentitySchemaResponse) {
	resp.IdentitySchema = productKind.identitySchema()
}

func (r *productResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	productKind.importState(ctx, req, resp)
}

func (r *priceResource) IdentitySchema(_ context.Context, _ resource.IdentitySchemaRequest, resp *resource.IdentitySchemaResponse) {
	resp.IdentitySchema = priceKind.identitySchema()
}

func (r *priceResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	priceKind.importState(ctx, req, resp)
}
