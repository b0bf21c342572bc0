package provider

import (
	"context"
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/paymentsdev/terraform-provider-payments/internal/client"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// webhookEndpointResourceModel is payments_webhook_endpoint's state.
// Secret comes only from the answers of create and roll secret, so it is
// kept from state by every other operation, and null after an import.
type webhookEndpointResourceModel struct {
	ID            types.String   `tfsdk:"id"`
	URL           types.String   `tfsdk:"url"`
	EnabledEvents types.Set      `tfsdk:"enabled_events"` // of strings
	Description   types.String   `tfsdk:"description"`
	Disabled      types.Bool     `tfsdk:"disabled"`
	APIVersion    types.String   `tfsdk:"api_version"`
	Metadata      types.Map      `tfsdk:"metadata"`
	SecretVersion types.Int64    `tfsdk:"secret_version"`
	Secret        types.String   `tfsdk:"secret"`
	CreatedAt     types.String   `tfsdk:"created_at"`
	Livemode      types.Bool     `tfsdk:"livemode"`
	Timeouts      timeouts.Value `tfsdk:"timeouts"`
}

// apiVersionRegexp is the form of an endpoint's api_version, from the wire.
var apiVersionRegexp = regexp.MustCompile(wire.APIVersionPattern)

// webhookEndpointIDRegexp is the shape of an endpoint id, from the wire.
var webhookEndpointIDRegexp = idRegexp(wire.WebhookEndpointIDPrefix)

var webhookEndpointIDShape = idShape(wire.WebhookEndpointIDPrefix)

// webhookEventChoices are the values enabled_events takes: every event
// type, and * for all of them.
var webhookEventChoices = append(slices.Clone(wire.EventTypes), wire.EventTypeAll)

// parseWebhookEndpointImportID checks a payments_webhook_endpoint import id.
func parseWebhookEndpointImportID(id string) (string, error) {
	if !webhookEndpointIDRegexp.MatchString(id) {
		return "", fmt.Errorf("the import ID %s is not a webhook endpoint id: expected %s, for example %s%s",
			quoteForError(id), webhookEndpointIDShape, wire.WebhookEndpointIDPrefix, strings.Repeat("0", wire.IDRandomLength))
	}
	return id, nil
}

// fromAPI sets every attribute the service returns. Secret is set only
// when the answer carries one (create, roll); otherwise it is left as is.
func (m *webhookEndpointResourceModel) fromAPI(ep *client.WebhookEndpoint) diag.Diagnostics {
	var diags diag.Diagnostics
	m.ID = types.StringValue(ep.ID)
	m.URL = types.StringValue(ep.URL)
	events := make([]attr.Value, 0, len(ep.EnabledEvents))
	for _, e := range ep.EnabledEvents {
		events = append(events, types.StringValue(e))
	}
	var d diag.Diagnostics
	m.EnabledEvents, d = types.SetValue(types.StringType, events)
	diags.Append(d...)
	m.Description = nullableString(ep.Description)
	m.Disabled = types.BoolValue(ep.Disabled)
	m.APIVersion = nullableString(ep.APIVersion)
	m.Metadata, d = metadataValue(ep.Metadata, m.Metadata)
	diags.Append(d...)
	if ep.Secret != "" {
		m.Secret = types.StringValue(ep.Secret)
	}
	m.CreatedAt = types.StringValue(ep.CreatedAt)
	m.Livemode = types.BoolValue(ep.Livemode)
	return diags
}

// webhookEndpointUpdateParams is the update that takes the endpoint from
// state to plan; changed is false when nothing needs sending.
func webhookEndpointUpdateParams(ctx context.Context, plan, state *webhookEndpointResourceModel) (params *client.WebhookEndpointParams, changed bool, diags diag.Diagnostics) {
	params = &client.WebhookEndpointParams{}
	if !plan.URL.Equal(state.URL) {
		params.URL = stringPointer(plan.URL)
		changed = true
	}
	if !plan.EnabledEvents.Equal(state.EnabledEvents) {
		diags.Append(plan.EnabledEvents.ElementsAs(ctx, &params.EnabledEvents, false)...)
		slices.Sort(params.EnabledEvents)
		changed = true
	}
	if !plan.Description.Equal(state.Description) {
		v := plan.Description.ValueString() // "" when null: clears it
		params.Description = &v
		changed = true
	}
	if !plan.Disabled.Equal(state.Disabled) {
		v := plan.Disabled.ValueBool()
		params.Disabled = &v
		changed = true
	}
	params.Metadata = metadataChanges(ctx, plan.Metadata, state.Metadata, &diags)
	if diags.HasError() {
		return nil, false, diags
	}
	return params, changed || params.Metadata != nil, diags
}

// secretRollWanted reports whether going from state to plan rolls the
// secret: secret_version set to a new value. After an import (no secret,
// no secret_version in state) the configured value is only recorded, so
// that importing never rotates the secret an application already uses.
func secretRollWanted(planVersion, stateVersion types.Int64, stateSecret types.String) bool {
	if planVersion.IsNull() || planVersion.Equal(stateVersion) {
		return false
	}
	if stateVersion.IsNull() && stateSecret.IsNull() {
		return false
	}
	return true
}

// secretPlanModifier plans secret: unknown on create and when
// secret_version rolls it (or might, when unknown), else the state's value,
// null included (an imported endpoint's secret stays null, without a diff).
type secretPlanModifier struct{}

var _ planmodifier.String = secretPlanModifier{}

func (secretPlanModifier) Description(context.Context) string {
	return "the secret changes only when secret_version changes"
}

func (m secretPlanModifier) MarkdownDescription(ctx context.Context) string {
	return m.Description(ctx)
}

func (secretPlanModifier) PlanModifyString(ctx context.Context, req planmodifier.StringRequest, resp *planmodifier.StringResponse) {
	if req.State.Raw.IsNull() || req.Plan.Raw.IsNull() {
		return // create (unknown until the answer) or destroy
	}
	var planVersion, stateVersion types.Int64
	resp.Diagnostics.Append(req.Plan.GetAttribute(ctx, path.Root("secret_version"), &planVersion)...)
	resp.Diagnostics.Append(req.State.GetAttribute(ctx, path.Root("secret_version"), &stateVersion)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if planVersion.IsUnknown() || secretRollWanted(planVersion, stateVersion, req.StateValue) {
		resp.PlanValue = types.StringUnknown()
		return
	}
	resp.PlanValue = req.StateValue
}

// webhookURLValidator applies the contract's url rules at plan time:
// absolute https or http, a host, no fragment, at most the length limit.
// Which hosts a service calls is its own decision, reported at apply.
var webhookURLValidator = stringCheck{
	markdown: fmt.Sprintf("value must be an absolute https or http URL without a fragment, at most %d bytes", wire.WebhookURLMaxLength),
	check: func(p path.Path, v string, diags *diag.Diagnostics) {
		if problem := webhookURLProblem(v); problem != "" {
			diags.AddAttributeError(p, "Invalid Webhook URL",
				problem+" Use an absolute https or http URL such as https://example.com/webhooks or http://127.0.0.1:4242/webhooks.")
		}
	},
}

func webhookURLProblem(raw string) string {
	if len(raw) > wire.WebhookURLMaxLength {
		return fmt.Sprintf("The URL is %d bytes long; the service takes at most %d.", len(raw), wire.WebhookURLMaxLength)
	}
	u, err := url.Parse(raw)
	switch {
	case err != nil || raw == "":
		return fmt.Sprintf("The URL %s cannot be parsed.", quoteForError(raw))
	case u.Scheme != "https" && u.Scheme != "http":
		return fmt.Sprintf("The URL %s is not an https or http URL.", quoteForError(raw))
	case u.Hostname() == "" || u.Opaque != "":
		return fmt.Sprintf("The URL %s has no host.", quoteForError(raw))
	case strings.Contains(raw, "#"):
		return fmt.Sprintf("The URL %s has a fragment (#...), which is never sent to a server.", quoteForError(raw))
	}
	return ""
}

// webhookEndpointParamAttributes maps the service's form parameters to
// the attributes they come from, so that a refusal points at the attribute.
var webhookEndpointParamAttributes = map[string]string{
	wire.ParamURL:           "url",
	wire.ParamEnabledEvents: "enabled_events",
	wire.ParamDescription:   "description",
	wire.ParamDisabled:      "disabled",
	wire.ParamAPIVersion:    "api_version",
	"metadata":              "metadata",
}

// webhookEndpointErrorDiagnostics is apiErrorDiagnostic, attached to the
// attribute the service named when it refused a parameter.
func webhookEndpointErrorDiagnostics(summary, object string, err error) diag.Diagnostics {
	return paramErrorDiagnostics(summary, object, err, webhookEndpointParamAttributes)
}

func (m *webhookEndpointResourceModel) timeoutsValue() timeouts.Value { return m.Timeouts }
