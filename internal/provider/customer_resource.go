package provider

import (
	"context"
	"fmt"
	"regexp"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework-validators/mapvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/boolplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/paymentsdev/terraform-provider-payments/internal/client"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

var (
	_ resource.Resource                = (*customerResource)(nil)
	_ resource.ResourceWithConfigure   = (*customerResource)(nil)
	_ resource.ResourceWithImportState = (*customerResource)(nil)
)

// Default timeouts of payments_customer operations. Each is one request,
// retried with backoff; the defaults leave room for every retry.
var customerTimeouts = resourceTimeouts{
	Create: 5 * time.Minute,
	Read:   5 * time.Minute,
	Update: 5 * time.Minute,
	Delete: 5 * time.Minute,
}

// Plan-time rules for customer fields, from the wire contract.
var (
	// emailRegexp is the contract's "local@domain": one @, neither side
	// empty, no white space or control characters.
	emailRegexp = regexp.MustCompile(`^[^@\s\p{Z}\p{Cc}]+@[^@\s\p{Z}\p{Cc}]+$`)
	phoneRegexp = regexp.MustCompile(wire.PhonePattern)
	// metadataKeyRegexp keeps square brackets out of keys, because the
	// form encoding metadata[key]=value could not carry them unambiguously.
	metadataKeyRegexp = regexp.MustCompile(`^[^\[\]]+$`)
)

// NewCustomerResource returns the payments_customer resource.
func NewCustomerResource() resource.Resource {
	return &customerResource{}
}

// customerResource is the payments_customer resource.
type customerResource struct {
	client *client.Client
}

// customerResourceModel is payments_customer's state. Email, name and
// phone are null when the customer has none; metadata is null or {} as the
// configuration wrote it when the customer has no keys.
type customerResourceModel struct {
	ID            types.String   `tfsdk:"id"`
	Email         types.String   `tfsdk:"email"`
	Name          types.String   `tfsdk:"name"`
	Phone         types.String   `tfsdk:"phone"`
	Metadata      types.Map      `tfsdk:"metadata"`
	DefaultSource types.String   `tfsdk:"default_source"`
	Sources       types.List     `tfsdk:"sources"` // of sourceSummaryModel
	CreatedAt     types.String   `tfsdk:"created_at"`
	Livemode      types.Bool     `tfsdk:"livemode"`
	Timeouts      timeouts.Value `tfsdk:"timeouts"`
}

// sourceSummaryModel is one element of customerResourceModel.Sources.
type sourceSummaryModel struct {
	ID    types.String `tfsdk:"id"`
	Brand types.String `tfsdk:"brand"`
	Last4 types.String `tfsdk:"last4"`
}

// sourceSummaryAttrTypes are the attribute types of sourceSummaryModel.
var sourceSummaryAttrTypes = map[string]attr.Type{
	"id":    types.StringType,
	"brand": types.StringType,
	"last4": types.StringType,
}

func (r *customerResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_customer"
}

func (r *customerResource) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "A customer of the payments service: contact details and metadata. " +
			"Every argument is optional and changes in place; removing one from the configuration clears it " +
			"at the service. Payment methods are attached with `payments_customer_source`.",
		Attributes: map[string]schema.Attribute{
			"email": schema.StringAttribute{
				MarkdownDescription: fmt.Sprintf("The customer's e-mail address, of the form `local@domain`, "+
					"at most %d characters.", wire.EmailMaxLength),
				Optional: true,
				Validators: []validator.String{
					stringvalidator.UTF8LengthAtMost(wire.EmailMaxLength),
					stringvalidator.RegexMatches(emailRegexp, "must be an e-mail address of the form local@domain"),
				},
			},
			"name": schema.StringAttribute{
				MarkdownDescription: fmt.Sprintf("The customer's name, from 1 to %d characters. "+
					"Omit it rather than set it to an empty string.", wire.NameMaxLength),
				Optional:   true,
				Validators: []validator.String{stringvalidator.UTF8LengthBetween(1, wire.NameMaxLength)},
			},
			"phone": schema.StringAttribute{
				MarkdownDescription: fmt.Sprintf("The customer's telephone number in E.164 format: a plus sign "+
					"and %d to %d digits, for example `+14155550123`.", wire.PhoneMinDigits, wire.PhoneMaxDigits),
				Optional: true,
				Validators: []validator.String{
					stringvalidator.RegexMatches(phoneRegexp, fmt.Sprintf(
						"must be in E.164 format: a plus sign followed by %d to %d digits, with no spaces or dashes, "+
							"for example +14155550123", wire.PhoneMinDigits, wire.PhoneMaxDigits)),
				},
			},
			"metadata": schema.MapAttribute{
				MarkdownDescription: fmt.Sprintf("Your own key-value pairs about the customer: at most %d keys, "+
					"each of 1 to %d characters without square brackets, with a value of 1 to %d characters. "+
					"A value may not be empty, because the service deletes a key set to an empty string. "+
					"Keys removed from the configuration are deleted at the service; keys added outside of "+
					"Terraform are shown as a change and removed.",
					wire.MetadataMaxKeys, wire.MetadataKeyMaxLength, wire.MetadataValueMaxLength),
				ElementType: types.StringType,
				Optional:    true,
				Validators: []validator.Map{
					mapvalidator.SizeAtMost(wire.MetadataMaxKeys),
					mapvalidator.KeysAre(
						stringvalidator.UTF8LengthBetween(1, wire.MetadataKeyMaxLength),
						stringvalidator.RegexMatches(metadataKeyRegexp, "must not contain square brackets"),
					),
					mapvalidator.ValueStringsAre(
						notEmptyMetadataValueValidator{},
						stringvalidator.UTF8LengthAtMost(wire.MetadataValueMaxLength),
					),
				},
			},
			"id": schema.StringAttribute{
				MarkdownDescription: fmt.Sprintf("The customer's identifier: %s.", customerIDShape),
				Computed:            true,
				PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"default_source": schema.StringAttribute{
				MarkdownDescription: "The identifier of the customer's default payment method, or null when it has none. " +
					"The first method attached becomes the default; `payments_customer_source` with `default = true` changes it.",
				Computed: true,
			},
			"sources": schema.ListNestedAttribute{
				MarkdownDescription: "The payment methods attached to the customer, however they were attached.",
				Computed:            true,
				NestedObject: schema.NestedAttributeObject{
					Attributes: map[string]schema.Attribute{
						"id": schema.StringAttribute{
							MarkdownDescription: fmt.Sprintf("The payment method's identifier: %s.", sourceIDShape),
							Computed:            true,
						},
						"brand": schema.StringAttribute{
							MarkdownDescription: "The card brand, for example `visa`.",
							Computed:            true,
						},
						"last4": schema.StringAttribute{
							MarkdownDescription: "The last four digits of the card number.",
							Computed:            true,
						},
					},
				},
			},
			"created_at": schema.StringAttribute{
				MarkdownDescription: "When the customer was created, as an RFC 3339 UTC timestamp.",
				Computed:            true,
				PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"livemode": schema.BoolAttribute{
				MarkdownDescription: "Whether the customer lives in the live service (`true`) or the sandbox (`false`).",
				Computed:            true,
				PlanModifiers:       []planmodifier.Bool{boolplanmodifier.UseStateForUnknown()},
			},
		},
		Blocks: map[string]schema.Block{
			"timeouts": customerTimeouts.block(ctx, "customer"),
		},
	}
}

func (r *customerResource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	r.client = clientFromProviderData(req.ProviderData, &resp.Diagnostics)
}

func (r *customerResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var plan customerResourceModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if r.client == nil {
		resp.Diagnostics.Append(notConfiguredDiagnostic())
		return
	}
	timeout, diags := plan.Timeouts.Create(ctx, customerTimeouts.Create)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()

	params := &client.CustomerParams{
		Email: stringPointer(plan.Email),
		Name:  stringPointer(plan.Name),
		Phone: stringPointer(plan.Phone),
	}
	resp.Diagnostics.Append(plan.Metadata.ElementsAs(ctx, &params.Metadata, false)...)
	if resp.Diagnostics.HasError() {
		return
	}

	cus, err := r.client.CreateCustomer(ctx, params)
	if err != nil {
		resp.Diagnostics.Append(apiErrorDiagnostic("Error Creating Customer", "a new customer", err))
		return
	}
	tflog.Debug(ctx, "Created customer", map[string]any{"id": cus.ID})

	resp.Diagnostics.Append(plan.fromAPI(ctx, cus)...)
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

func (r *customerResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var state customerResourceModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if r.client == nil {
		resp.Diagnostics.Append(notConfiguredDiagnostic())
		return
	}
	timeout, diags := state.Timeouts.Read(ctx, customerTimeouts.Read)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()

	id := state.ID.ValueString()
	cus, err := r.client.GetCustomer(ctx, id)
	if client.IsNotFound(err) {
		tflog.Warn(ctx, "Customer not found; removing it from state so that it is planned for creation", map[string]any{"id": id})
		resp.State.RemoveResource(ctx)
		return
	}
	if err != nil {
		resp.Diagnostics.Append(apiErrorDiagnostic("Error Reading Customer", "customer "+id, err))
		return
	}

	resp.Diagnostics.Append(state.fromAPI(ctx, cus)...)
	resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
}

func (r *customerResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan, state customerResourceModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if r.client == nil {
		resp.Diagnostics.Append(notConfiguredDiagnostic())
		return
	}
	timeout, diags := plan.Timeouts.Update(ctx, customerTimeouts.Update)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()

	params, changed, diags := customerUpdateParams(ctx, &plan, &state)
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
		// Only Terraform-side settings changed (timeouts, or metadata null
		// versus {}); the answer still refreshes every attribute.
		cus, err = r.client.GetCustomer(ctx, id)
	}
	if err != nil {
		resp.Diagnostics.Append(apiErrorDiagnostic("Error Updating Customer", "customer "+id, err))
		return
	}

	resp.Diagnostics.Append(plan.fromAPI(ctx, cus)...)
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

func (r *customerResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state customerResourceModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if r.client == nil {
		resp.Diagnostics.Append(notConfiguredDiagnostic())
		return
	}
	timeout, diags := state.Timeouts.Delete(ctx, customerTimeouts.Delete)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()

	id := state.ID.ValueString()
	if _, err := r.client.DeleteCustomer(ctx, id); err != nil && !client.IsNotFound(err) {
		resp.Diagnostics.Append(apiErrorDiagnostic("Error Deleting Customer", "customer "+id, err))
	}
}

func (r *customerResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	id, err := parseCustomerImportID(req.ID)
	if err != nil {
		resp.Diagnostics.AddError("Invalid Customer Import ID", err.Error()+".")
		return
	}
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), id)...)
}

// fromAPI sets every attribute of m from the service's customer. Empty
// strings become null, and empty metadata keeps the configuration's
// spelling ({} or null), so that no representation shows a diff.
func (m *customerResourceModel) fromAPI(ctx context.Context, c *client.Customer) diag.Diagnostics {
	var diags diag.Diagnostics
	m.ID = types.StringValue(c.ID)
	m.Email = nullableString(c.Email)
	m.Name = nullableString(c.Name)
	m.Phone = nullableString(c.Phone)
	m.DefaultSource = nullableString(c.DefaultSource)
	m.CreatedAt = types.StringValue(c.CreatedAt)
	m.Livemode = types.BoolValue(c.Livemode)

	if len(c.Metadata) == 0 && !(m.Metadata.IsNull() || m.Metadata.IsUnknown()) && len(m.Metadata.Elements()) == 0 {
		m.Metadata = types.MapValueMust(types.StringType, map[string]attr.Value{})
	} else {
		m.Metadata, diags = stringMapValue(c.Metadata)
	}

	sources := make([]sourceSummaryModel, 0, len(c.Sources.Data))
	for _, s := range c.Sources.Data {
		sources = append(sources, sourceSummaryModel{
			ID:    types.StringValue(s.ID),
			Brand: types.StringValue(s.Brand),
			Last4: types.StringValue(s.Last4),
		})
	}
	var d diag.Diagnostics
	m.Sources, d = types.ListValueFrom(ctx, types.ObjectType{AttrTypes: sourceSummaryAttrTypes}, sources)
	diags.Append(d...)
	return diags
}

// customerUpdateParams is the update that takes the customer from state
// to plan: changed scalars are sent, removed ones are sent as "" (which
// clears them), and each metadata key removed is sent empty (which deletes
// it). changed is false when nothing needs sending.
func customerUpdateParams(ctx context.Context, plan, state *customerResourceModel) (params *client.CustomerParams, changed bool, diags diag.Diagnostics) {
	params = &client.CustomerParams{}
	for _, f := range []struct {
		plan, state types.String
		dst         **string
	}{
		{plan.Email, state.Email, &params.Email},
		{plan.Name, state.Name, &params.Name},
		{plan.Phone, state.Phone, &params.Phone},
	} {
		if f.plan.Equal(f.state) {
			continue
		}
		v := f.plan.ValueString() // "" when null: clears the field
		*f.dst = &v
		changed = true
	}

	var want, have map[string]string
	diags.Append(plan.Metadata.ElementsAs(ctx, &want, false)...)
	diags.Append(state.Metadata.ElementsAs(ctx, &have, false)...)
	if diags.HasError() {
		return nil, false, diags
	}
	delta := map[string]string{}
	for k, v := range want {
		if old, ok := have[k]; !ok || old != v {
			delta[k] = v
		}
	}
	for k := range have {
		if _, ok := want[k]; !ok {
			delta[k] = "" // deletes the key at the service
		}
	}
	if len(delta) > 0 {
		params.Metadata = delta
		changed = true
	}
	return params, changed, diags
}

// stringPointer is the value of a known, non-null string, or nil.
func stringPointer(v types.String) *string {
	if v.IsNull() || v.IsUnknown() {
		return nil
	}
	s := v.ValueString()
	return &s
}

// nullableString maps the client's "" (absent or null on the wire) to null.
func nullableString(s string) types.String {
	if s == "" {
		return types.StringNull()
	}
	return types.StringValue(s)
}

// stringMapValue is a map of strings, null when empty.
func stringMapValue(m map[string]string) (types.Map, diag.Diagnostics) {
	if len(m) == 0 {
		return types.MapNull(types.StringType), nil
	}
	elems := make(map[string]attr.Value, len(m))
	for k, v := range m {
		elems[k] = types.StringValue(v)
	}
	return types.MapValue(types.StringType, elems)
}
