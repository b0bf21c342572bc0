package provider

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-validators/setvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/paymentsdev/terraform-provider-payments/internal/client"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// Default timeouts of payments_webhook_endpoint operations. An update that
// rolls the secret makes two requests.
var webhookEndpointTimeouts = resourceTimeouts{
	Create: 5 * time.Minute,
	Read:   5 * time.Minute,
	Update: 10 * time.Minute,
	Delete: 5 * time.Minute,
}

// NewWebhookEndpointResource returns the payments_webhook_endpoint resource.
func NewWebhookEndpointResource() resource.Resource {
	return &webhookEndpointResource{resourceBase{name: "webhook_endpoint"}}
}

// webhookEndpointResource is the payments_webhook_endpoint resource.
type webhookEndpointResource struct {
	resourceBase
}

func (r *webhookEndpointResource) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	events := make([]string, len(webhookEventChoices))
	for i, e := range webhookEventChoices {
		events[i] = "`" + e + "`"
	}
	resp.Schema = schema.Schema{
		MarkdownDescription: "A webhook endpoint: a URL of yours that the payments service posts events to, signed with " +
			"the endpoint's secret in the `" + wire.HeaderSignature + "` header. Every argument but `api_version` changes in place. " +
			"The secret is known only from the answer that creates the endpoint or rolls its secret: it is kept in " +
			"state (marked sensitive), it is `null` after an import, and changing `secret_version` rolls it. " +
			"A secret rolled outside of Terraform cannot be detected: change `secret_version` to learn a current one.",
		Attributes: map[string]schema.Attribute{
			"url": schema.StringAttribute{
				MarkdownDescription: fmt.Sprintf("The URL events are posted to: an absolute `https` URL (the sandbox "+
					"also takes `http`) of at most %d bytes, without a fragment. The sandbox calls only loopback "+
					"addresses unless it was started with `-webhook-allow`; it refuses any other URL when the endpoint "+
					"is created or updated.", wire.WebhookURLMaxLength),
				Required:   true,
				Validators: []validator.String{webhookURLValidator},
			},
			"enabled_events": schema.SetAttribute{
				MarkdownDescription: "The event types sent to this endpoint, at least one: any of " +
					strings.Join(events, ", ") + " (`*` for every type, present and future).",
				ElementType: types.StringType,
				Required:    true,
				Validators: []validator.Set{
					setvalidator.SizeAtLeast(1),
					setvalidator.ValueStringsAre(stringvalidator.OneOf(webhookEventChoices...)),
				},
			},
			"description": schema.StringAttribute{
				MarkdownDescription: fmt.Sprintf("What the endpoint is for, from 1 to %d characters.", wire.WebhookDescriptionMaxLength),
				Optional:            true,
				Validators: []validator.String{
					stringvalidator.UTF8LengthBetween(1, wire.WebhookDescriptionMaxLength),
					stringvalidator.RegexMatches(noBidiRegexp, noBidiMessage),
				},
			},
			"disabled": schema.BoolAttribute{
				MarkdownDescription: "Whether event delivery to the endpoint is paused. Events that happen meanwhile are " +
					"not sent later. Defaults to `false`.",
				Optional: true,
				Computed: true,
				Default:  booldefault.StaticBool(false),
			},
			"api_version": schema.StringAttribute{
				MarkdownDescription: fmt.Sprintf("The API version the events sent to this endpoint carry in "+
					"their `api_version`: a date, optionally followed by a dot and a release name in lower-case "+
					"letters, such as `2025-03-31.basil`. Set it to the version your receiver's library expects "+
					"(stripe-go's `webhook.ConstructEvent` refuses events of another version than `stripe.APIVersion`). "+
					"Defaults to the API's own version, `%s`. Changing it replaces the endpoint, with a new secret, "+
					"since the service takes it at creation only.", wire.APIVersion),
				Optional: true,
				Computed: true,
				Validators: []validator.String{
					stringvalidator.RegexMatches(apiVersionRegexp, "must be a date, optionally followed by a dot and a release name in lower-case letters, such as 2025-03-31.basil"),
				},
				PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace(), stringplanmodifier.UseStateForUnknown()},
			},
			"metadata": schema.MapAttribute{
				MarkdownDescription: fmt.Sprintf("Your own key-value pairs about the endpoint: at most %d keys, "+
					"each of 1 to %d characters without square brackets or control characters, with a value of 1 to %d characters. "+
					"Keys added outside of Terraform are shown as a change and removed.",
					wire.MetadataMaxKeys, wire.MetadataKeyMaxLength, wire.MetadataValueMaxLength),
				ElementType: types.StringType,
				Optional:    true,
				Validators:  metadataValidators(),
			},
			"secret_version": schema.Int64Attribute{
				MarkdownDescription: "Any number you choose; changing it to another number rolls the secret in place: " +
					"the service issues a new one, which alone signs from then on, and `secret` shows it after the " +
					"apply. Removing it changes nothing. After an import, the value configured is only recorded " +
					"(the secret stays `null` and unchanged); change it once more to roll and learn a secret.",
				Optional: true,
			},
			"id": keptString(fmt.Sprintf("The endpoint's identifier: %s.", webhookEndpointIDShape)),
			"secret": schema.StringAttribute{
				MarkdownDescription: fmt.Sprintf("The signing secret (`%s` and %d letters or digits) that the "+
					"receiver verifies `%s` with. Set when Terraform creates the endpoint or rolls its secret, and "+
					"kept in state; `null` after an import until the next roll, because the service never shows a "+
					"secret again.", wire.WebhookSecretPrefix, wire.WebhookSecretRandomLength, wire.HeaderSignature),
				Computed:      true,
				Sensitive:     true,
				PlanModifiers: []planmodifier.String{secretPlanModifier{}},
			},
			"created_at": keptString("When the endpoint was created, as an RFC 3339 UTC timestamp."),
			"livemode":   keptBool("Whether the endpoint lives in the live service (`true`) or the sandbox (`false`)."),
		},
		Blocks: map[string]schema.Block{
			"timeouts": webhookEndpointTimeouts.block(ctx, "webhook endpoint"),
		},
	}
}

func (r *webhookEndpointResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var plan webhookEndpointResourceModel
	ctx, cancel, ok := webhookEndpointTimeouts.begin(ctx, opCreate, r.client, req.Plan, &plan, &resp.Diagnostics)
	if !ok {
		return
	}
	defer cancel()

	disabled := plan.Disabled.ValueBool()
	params := &client.WebhookEndpointParams{
		URL:         stringPointer(plan.URL),
		Description: stringPointer(plan.Description),
		Disabled:    &disabled,
		APIVersion:  stringPointer(plan.APIVersion),
	}
	resp.Diagnostics.Append(plan.EnabledEvents.ElementsAs(ctx, &params.EnabledEvents, false)...)
	resp.Diagnostics.Append(plan.Metadata.ElementsAs(ctx, &params.Metadata, false)...)
	if resp.Diagnostics.HasError() {
		return
	}

	ep, err := r.client.CreateWebhookEndpoint(ctx, params)
	if err != nil {
		resp.Diagnostics.Append(webhookEndpointErrorDiagnostics("Error Creating Webhook Endpoint", "a new webhook endpoint", err)...)
		return
	}
	tflog.Debug(ctx, "Created webhook endpoint", map[string]any{"id": ep.ID})

	resp.Diagnostics.Append(plan.fromAPI(ep)...)
	resp.Diagnostics.Append(setModel(ctx, &resp.State, &plan)...)
}

func (r *webhookEndpointResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var state webhookEndpointResourceModel
	ctx, cancel, ok := webhookEndpointTimeouts.begin(ctx, opRead, r.client, req.State, &state, &resp.Diagnostics)
	if !ok {
		return
	}
	defer cancel()

	id := state.ID.ValueString()
	ep, err := r.client.GetWebhookEndpoint(ctx, id)
	if !readFound(ctx, resp, err, "Webhook Endpoint", "webhook endpoint "+id) {
		return
	}

	resp.Diagnostics.Append(state.fromAPI(ep)...)
	resp.Diagnostics.Append(setModel(ctx, &resp.State, &state)...)
}

func (r *webhookEndpointResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan, state webhookEndpointResourceModel
	ctx, cancel, ok := webhookEndpointTimeouts.beginUpdate(ctx, r.client, req, &plan, &state, &resp.Diagnostics)
	if !ok {
		return
	}
	defer cancel()

	params, changed, diags := webhookEndpointUpdateParams(ctx, &plan, &state)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}

	id := state.ID.ValueString()
	var ep *client.WebhookEndpoint
	var err error
	if changed {
		ep, err = r.client.UpdateWebhookEndpoint(ctx, id, params)
	} else {
		// Only secret_version (rolled below) or Terraform-side settings
		// changed: read, so that every attribute is still refreshed.
		ep, err = r.client.GetWebhookEndpoint(ctx, id)
	}
	if err != nil {
		resp.Diagnostics.Append(webhookEndpointErrorDiagnostics("Error Updating Webhook Endpoint", "webhook endpoint "+id, err)...)
		return
	}
	roll := secretRollWanted(plan.SecretVersion, state.SecretVersion, state.Secret)
	plan.Secret = state.Secret
	resp.Diagnostics.Append(plan.fromAPI(ep)...)
	if !roll {
		resp.Diagnostics.Append(setModel(ctx, &resp.State, &plan)...)
		return
	}

	rolled, err := r.client.RollWebhookEndpointSecret(ctx, id)
	if err != nil {
		// Record the update that was made, with the old secret and
		// secret_version, so that the next apply tries the roll again.
		plan.SecretVersion = state.SecretVersion
		resp.Diagnostics.Append(setModel(ctx, &resp.State, &plan)...)
		resp.Diagnostics.Append(apiErrorDiagnostic("Error Rolling Webhook Endpoint Secret", "webhook endpoint "+id, err))
		return
	}
	tflog.Debug(ctx, "Rolled webhook endpoint secret", map[string]any{"id": id})
	resp.Diagnostics.Append(plan.fromAPI(rolled)...)
	resp.Diagnostics.Append(setModel(ctx, &resp.State, &plan)...)
}

func (r *webhookEndpointResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state webhookEndpointResourceModel
	ctx, cancel, ok := webhookEndpointTimeouts.begin(ctx, opDelete, r.client, req.State, &state, &resp.Diagnostics)
	if !ok {
		return
	}
	defer cancel()

	id := state.ID.ValueString()
	if _, err := r.client.DeleteWebhookEndpoint(ctx, id); err != nil && !client.IsNotFound(err) {
		resp.Diagnostics.Append(apiErrorDiagnostic("Error Deleting Webhook Endpoint", "webhook endpoint "+id, err))
	}
}

func (r *webhookEndpointResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	id, err := parseWebhookEndpointImportID(req.ID)
	if err != nil {
		resp.Diagnostics.AddError("Invalid Webhook Endpoint Import ID", err.Error()+".")
		return
	}
	// Read fills in the rest; the secret stays null: the service never
	// shows it again.
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), id)...)
}
