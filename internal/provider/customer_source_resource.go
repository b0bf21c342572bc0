package provider

import (
	"context"
	"fmt"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/int64planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/paymentsdev/terraform-provider-payments/internal/client"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// Default timeouts of payments_customer_source operations.
var customerSourceTimeouts = sameTimeouts(5 * time.Minute)

// NewCustomerSourceResource returns the payments_customer_source resource.
func NewCustomerSourceResource() resource.Resource {
	return &customerSourceResource{resourceBase{name: "customer_source"}}
}

// customerSourceResource is the payments_customer_source resource.
type customerSourceResource struct {
	resourceBase
}

func (r *customerSourceResource) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "A payment method (card) stored on a customer, made from a token. " +
			"The first method stored on a customer becomes its default. " +
			"Changing the customer or the token replaces the method; destroying it detaches it from the customer.",
		Attributes: map[string]schema.Attribute{
			"customer": schema.StringAttribute{
				MarkdownDescription: fmt.Sprintf("The identifier of the customer to store the method on (%s). "+
					"Changing it replaces the method.", customerIDShape),
				Required:      true,
				PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()},
				Validators: []validator.String{
					stringvalidator.RegexMatches(customerIDRegexp, "must be a customer id: "+customerIDShape),
				},
			},
			"token": schema.StringAttribute{
				MarkdownDescription: fmt.Sprintf("The payment-method token to store, for example `%s` in the sandbox. "+
					"The service never returns it, so the state keeps the configured value; after an import it is "+
					"null until the next apply stores the configured value, in place. Changing it otherwise replaces "+
					"the method.", "tok_visa"),
				Optional: true,
				PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplaceIf(
					tokenRequiresReplace,
					"Changing the token replaces the method, except right after an import, when the token is not known.",
					"Changing the token replaces the method, except right after an import, when the token is not known.",
				)},
				Validators: []validator.String{stringvalidator.LengthAtLeast(1)},
			},
			"token_wo": schema.StringAttribute{
				MarkdownDescription: "Write-only: the token to store, as `token`, but never kept in the state or the plan; for a " +
					"single-use token such as the `id` of an ephemeral `payments_card_token`. Set exactly one of `token` and " +
					"`token_wo`, and `token_wo_version` with `token_wo`. " + writeOnlyVersions,
				Optional:   true,
				WriteOnly:  true,
				Sensitive:  true,
				Validators: []validator.String{stringvalidator.LengthAtLeast(1)},
			},
			"token_wo_version": schema.Int64Attribute{
				MarkdownDescription: "The version of `token_wo`, required with it. Terraform cannot see a write-only value " +
					"change, so changing the version is how to store a new card: it replaces the method (right after an " +
					"import, when no version is known, it is stored in place).",
				Optional: true,
				PlanModifiers: []planmodifier.Int64{int64planmodifier.RequiresReplaceIf(
					func(_ context.Context, req planmodifier.Int64Request, resp *int64planmodifier.RequiresReplaceIfFuncResponse) {
						resp.RequiresReplace = !req.StateValue.IsNull()
					},
					"Changing the version replaces the method, except right after an import.",
					"Changing the version replaces the method, except right after an import.",
				)},
			},
			"default": schema.BoolAttribute{
				MarkdownDescription: "Whether the provider makes this method the customer's default and keeps it so. " +
					"When `true`, creating the method makes it the default, and if the default later moves elsewhere " +
					"the next plan shows `default` changing from `false` to `true`, and applying makes it the default again. " +
					"When `false` (the default) the provider neither sets nor reports the customer's default, so the " +
					"value stays `false` even when the method is the default (the first method stored on a customer " +
					"becomes its default by itself); read `default_source` of `payments_customer` to see which it is. " +
					"Set it to `true` on at most one method per customer: two would take the default from each other on every apply, " +
					"which the provider reports with a warning naming both methods and the customer.",
				Optional: true,
				Computed: true,
				Default:  booldefault.StaticBool(false),
			},
			"id":        keptString(fmt.Sprintf("The method's identifier: %s.", sourceIDShape)),
			"brand":     keptString("The card brand, for example `visa`."),
			"last4":     keptString("The last four digits of the card number."),
			"exp_month": keptInt64("The card's expiry month, from 1 to 12."),
			"exp_year":  keptInt64("The card's expiry year, with four digits."),
		},
		Blocks: map[string]schema.Block{
			"timeouts": customerSourceTimeouts.block(ctx, "payment method"),
		},
	}
}

// ValidateConfig refuses, at plan time, a card given twice or not at all,
// and a write-only token without its version.
func (r *customerSourceResource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	// The three attributes alone: reading the whole model reflects over
	// every field, on every plan of every card.
	var cfg customerSourceResourceModel
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("token"), &cfg.Token)...)
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("token_wo"), &cfg.TokenWO)...)
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("token_wo_version"), &cfg.TokenWOVersion)...)
	if resp.Diagnostics.HasError() {
		return
	}
	switch {
	case cfg.Token.IsNull() && cfg.TokenWO.IsNull():
		resp.Diagnostics.AddAttributeError(path.Root("token"), "Missing Token",
			"Set token (a payment-method token such as tok_visa, kept in the state) or token_wo with token_wo_version "+
				"(write-only, kept nowhere: for a single-use token such as the id of an ephemeral payments_card_token).")
	case !cfg.Token.IsNull() && !cfg.TokenWO.IsNull():
		resp.Diagnostics.AddAttributeError(path.Root("token_wo"), "Conflicting Tokens",
			"Set token or token_wo, not both. token_wo (with token_wo_version) keeps a single-use token out of the "+
				"state and plan; token is kept in the state.")
	case !cfg.TokenWO.IsNull() && cfg.TokenWOVersion.IsNull():
		resp.Diagnostics.AddAttributeError(path.Root("token_wo_version"), "Missing Write-Only Version",
			"token_wo is write-only, so Terraform cannot see it change: set token_wo_version (for example 1) beside it, "+
				"and change the version to store a new card.")
	case cfg.TokenWO.IsNull() && !cfg.TokenWOVersion.IsNull():
		resp.Diagnostics.AddAttributeError(path.Root("token_wo_version"), "Version Without Write-Only Token",
			"token_wo_version versions token_wo; set token_wo too, or remove token_wo_version.")
	}
}

// tokenRequiresReplace replaces the method when its token changes, except
// when the prior token is null: the resource was imported, the service
// never tells the token, and applying the configuration must store it in
// place rather than detach the method and store a new one.
func tokenRequiresReplace(_ context.Context, req planmodifier.StringRequest, resp *stringplanmodifier.RequiresReplaceIfFuncResponse) {
	resp.RequiresReplace = !req.StateValue.IsNull()
}

// ModifyPlan warns when the plan takes the customer's default back to a
// card configured with default = true from the card the refresh found to
// be the default: the sign of two cards with default = true, which would
// otherwise flip the default on every apply without a word.
func (r *customerSourceResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() || req.State.Raw.IsNull() || req.Plan.Raw.Equal(req.State.Raw) {
		return // destroy, create, or no change (default stays as it is)
	}
	var plan, state customerSourceResourceModel
	resp.Diagnostics.Append(getModel(ctx, req.Plan, &plan)...)
	resp.Diagnostics.Append(getModel(ctx, req.State, &state)...)
	if resp.Diagnostics.HasError() || !plan.Default.ValueBool() || state.Default.ValueBool() {
		return
	}
	movedTo, diags := defaultMovedTo(ctx, req.Private)
	resp.Diagnostics.Append(diags...)
	if movedTo != "" {
		resp.Diagnostics.Append(takeBackDiagnostic(state.Customer.ValueString(), state.ID.ValueString(), movedTo))
	}
}

func (r *customerSourceResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var plan customerSourceResourceModel
	ctx, cancel, ok := customerSourceTimeouts.begin(ctx, opCreate, r.client, req.Plan, &plan, &resp.Diagnostics)
	if !ok {
		return
	}
	defer cancel()

	customerID := plan.Customer.ValueString()
	token := plan.Token
	if token.IsNull() {
		// A write-only value is in the configuration only, never the plan.
		resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("token_wo"), &token)...)
	}
	src, err := r.client.AddSource(ctx, customerID, token.ValueString())
	if err != nil {
		d := apiErrorDiagnostic("Error Creating Customer Source", "a new source on customer "+customerID, err)
		// Point at the attribute at fault: the service names its form
		// parameter (source), not the attribute (token).
		switch e, _ := client.AsError(err); {
		case e != nil && e.Code == wire.ErrorCodeTokenInvalid:
			attr := "token"
			if plan.Token.IsNull() {
				attr = "token_wo"
			}
			resp.Diagnostics.AddAttributeError(path.Root(attr), d.Summary(),
				"The service refused the token. Set "+attr+" to a payment-method token it accepts (a minted token is "+
					"single-use: a new one needs a new token_wo_version).\n\n"+d.Detail())
		case client.IsNotFound(err):
			resp.Diagnostics.AddAttributeError(path.Root("customer"), d.Summary(),
				fmt.Sprintf("No customer with id %q exists for the account of the configured key. Set customer to the id "+
					"of an existing customer of this account, such as payments_customer.<name>.id.\n\n%s", customerID, d.Detail()))
		default:
			resp.Diagnostics.Append(d)
		}
		return
	}
	tflog.Debug(ctx, "Stored source", map[string]any{"id": src.ID, "customer": customerID})
	resp.Diagnostics.Append(setCustomerSourceIdentity(ctx, resp.Identity, customerID, src.ID)...)

	wantDefault := plan.Default.ValueBool()
	plan.fromAPI(src)
	if !wantDefault {
		resp.Diagnostics.Append(setModel(ctx, &resp.State, &plan)...)
		return
	}

	// Save the method before the second call, so that a failure there
	// leaves it in state (tainted) instead of lost at the service.
	plan.Default = types.BoolValue(false)
	resp.Diagnostics.Append(setModel(ctx, &resp.State, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if _, err := r.client.SetDefaultSource(ctx, customerID, src.ID); err != nil {
		resp.Diagnostics.Append(apiErrorDiagnostic("Error Making Customer Source the Default",
			fmt.Sprintf("source %s of customer %s", src.ID, customerID), err))
		return
	}
	if other := claimDefault(r.client, customerID, src.ID); other != "" {
		resp.Diagnostics.Append(twoDefaultsDiagnostic(customerID, other, src.ID))
	}
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("default"), true)...)
}

func (r *customerSourceResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var state customerSourceResourceModel
	ctx, cancel, ok := customerSourceTimeouts.begin(ctx, opRead, r.client, req.State, &state, &resp.Diagnostics)
	if !ok {
		return
	}
	defer cancel()

	customerID, sourceID := state.Customer.ValueString(), state.ID.ValueString()
	// The identity comes from state, so that every answer has one (a CLI
	// before 1.12 keeps none between operations), removal included.
	resp.Diagnostics.Append(setCustomerSourceIdentity(ctx, resp.Identity, customerID, sourceID)...)
	what := fmt.Sprintf("source %s of customer %s", sourceID, customerID)
	src, err := r.client.GetSource(ctx, customerID, sourceID)
	if !readFound(ctx, resp, err, "Customer Source", what) {
		return
	}
	state.fromAPI(src)

	// Only a method that should be the default (true), or one just
	// imported (null), costs the customer's read; false is a setting the
	// provider does not refresh (see the attribute's description).
	if state.Default.IsNull() || state.Default.ValueBool() {
		cus, err := r.client.GetCustomer(ctx, customerID)
		if client.IsNotFound(err) {
			resp.State.RemoveResource(ctx)
			return
		}
		if err != nil {
			resp.Diagnostics.Append(apiErrorDiagnostic("Error Reading Customer Source", what, err))
			return
		}
		// A card configured as the default that is not any more: note
		// which card is, for the plan that takes it back to name it.
		movedTo := ""
		if state.Default.ValueBool() && cus.DefaultSource != sourceID {
			movedTo = cus.DefaultSource
		}
		resp.Diagnostics.Append(setDefaultMovedTo(ctx, resp.Private, movedTo)...)
		state.Default = types.BoolValue(cus.DefaultSource == sourceID)
	}
	resp.Diagnostics.Append(setModel(ctx, &resp.State, &state)...)
}

func (r *customerSourceResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan, state customerSourceResourceModel
	ctx, cancel, ok := customerSourceTimeouts.beginUpdate(ctx, r.client, req, &plan, &state, &resp.Diagnostics)
	if !ok {
		return
	}
	defer cancel()

	// Everything else in place is Terraform-side: the token stored after an
	// import, timeouts, or default turned off (which leaves the service alone).
	if plan.Default.ValueBool() && !state.Default.ValueBool() {
		customerID, sourceID := state.Customer.ValueString(), state.ID.ValueString()
		if _, err := r.client.SetDefaultSource(ctx, customerID, sourceID); isGone(err) {
			resp.Diagnostics.Append(goneDiagnostic("Error Making Customer Source the Default",
				fmt.Sprintf("Source %s of customer %s (or the customer itself)", sourceID, customerID), err))
			return
		} else if err != nil {
			resp.Diagnostics.Append(apiErrorDiagnostic("Error Making Customer Source the Default",
				fmt.Sprintf("source %s of customer %s", sourceID, customerID), err))
			return
		}
		if other := claimDefault(r.client, customerID, sourceID); other != "" {
			resp.Diagnostics.Append(twoDefaultsDiagnostic(customerID, other, sourceID))
		}
		resp.Diagnostics.Append(setDefaultMovedTo(ctx, resp.Private, "")...)
	}
	resp.Diagnostics.Append(setModel(ctx, &resp.State, &plan)...)
	resp.Diagnostics.Append(setCustomerSourceIdentity(ctx, resp.Identity, state.Customer.ValueString(), state.ID.ValueString())...)
}

func (r *customerSourceResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state customerSourceResourceModel
	ctx, cancel, ok := customerSourceTimeouts.begin(ctx, opDelete, r.client, req.State, &state, &resp.Diagnostics)
	if !ok {
		return
	}
	defer cancel()

	customerID, sourceID := state.Customer.ValueString(), state.ID.ValueString()
	if _, err := r.client.DeleteSource(ctx, customerID, sourceID); err != nil && !client.IsNotFound(err) {
		resp.Diagnostics.Append(apiErrorDiagnostic("Error Deleting Customer Source",
			fmt.Sprintf("source %s of customer %s", sourceID, customerID), err))
	}
}

func (r *customerSourceResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	importCustomerSourceState(ctx, req, resp)
}
