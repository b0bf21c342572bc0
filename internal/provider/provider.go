// Package provider implements the payments Terraform provider.
package provider

import (
	"context"
	"fmt"
	"os"

	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/ephemeral"
	"github.com/hashicorp/terraform-plugin-framework/function"
	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/paymentsdev/terraform-provider-payments/internal/client"
	"github.com/paymentsdev/terraform-provider-payments/internal/pluginlog"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// Environment variables the provider falls back to when an attribute is not
// set in the configuration.
const (
	EnvSecretKey = "PAYMENTS_SECRET_KEY"
	EnvBaseURL   = "PAYMENTS_BASE_URL"
)

// Provider attribute names, used in schema paths and in error messages.
const (
	attrSecretKey     = "secret_key"
	attrBaseURL       = "base_url"
	attrMaxRetries    = "max_retries"
	attrAllowLivemode = "allow_livemode"
)

// registryURL is the provider's page, named in the User-Agent so that the
// service's operators can tell where requests come from.
const registryURL = "https://registry.terraform.io/providers/paymentsdev/payments"

// logSubsystem names the tflog subsystem of the API client's entries, so
// that TF_LOG_PROVIDER_PAYMENTS_API can tune them apart from the provider's.
const logSubsystem = "payments_api"

// anyKeyPattern matches anything shaped like a payments key. Every log entry
// is masked with it as well as with the configured key itself, as a second
// line of defence should some other key reach a message. It is the
// sandbox's masking pattern too, so both mask the same strings.
var anyKeyPattern = wire.KeyPattern

// paymentsProvider is the payments provider.
type paymentsProvider struct {
	version string
	// journal is the create journal of the plugin process (NewServer);
	// nil when the provider is served in-process by tests.
	journal *createJournal
}

// paymentsProviderModel is the provider block.
type paymentsProviderModel struct {
	SecretKey     types.String `tfsdk:"secret_key"`
	BaseURL       types.String `tfsdk:"base_url"`
	MaxRetries    types.Int64  `tfsdk:"max_retries"`
	AllowLivemode types.Bool   `tfsdk:"allow_livemode"`
	// AllowLivePayments is allow_live_payments (payment_guard.go).
	AllowLivePayments types.Bool `tfsdk:"allow_live_payments"`

	MaxRequestsPerSecond types.Float64 `tfsdk:"max_requests_per_second"`
	RequestTimeout       types.String  `tfsdk:"request_timeout"`
}

// New returns a function that builds the provider for the given version.
func New(version string) func() provider.Provider {
	return func() provider.Provider {
		return &paymentsProvider{version: version}
	}
}

func (p *paymentsProvider) Metadata(_ context.Context, _ provider.MetadataRequest, resp *provider.MetadataResponse) {
	resp.TypeName = "payments"
	resp.Version = p.version
}

func (p *paymentsProvider) Schema(_ context.Context, _ provider.SchemaRequest, resp *provider.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "The payments provider manages customers, their payment sources and payments, a catalog of products and prices, and captures and refunds payments with actions, " +
			"through the payments service's REST API. It needs a secret key and the service's base URL, " +
			"from the configuration or from the environment.",
		Attributes: map[string]schema.Attribute{
			attrSecretKey: schema.StringAttribute{
				MarkdownDescription: fmt.Sprintf("The secret key that authenticates every request: `%s…` for the sandbox, "+
					"or `%s…` for the live service (which also needs `%s = true`). Public keys (`%s…`, `%s…`) are refused, "+
					"because no endpoint the provider uses accepts them. Falls back to the `%s` environment variable; "+
					"one of the two must be set.",
					wire.SecretKeySandboxPrefix, wire.SecretKeyLivePrefix, attrAllowLivemode,
					wire.PublicKeySandboxPrefix, wire.PublicKeyLivePrefix, EnvSecretKey),
				Optional:   true,
				Sensitive:  true,
				Validators: []validator.String{secretKeyValidator{}},
			},
			attrBaseURL: schema.StringAttribute{
				MarkdownDescription: fmt.Sprintf("The service's base URL, without the `%s` path prefix, for example "+
					"`http://127.0.0.1:12111` for a local sandbox. Falls back to the `%s` environment variable; "+
					"one of the two must be set. A live key needs `https://` unless the host is loopback, and the "+
					"provider follows no redirect: the key is sent only here.", wire.APIVersionPrefix, EnvBaseURL),
				Optional:   true,
				Validators: []validator.String{baseURLValidator{}},
			},
			attrMaxRetries: schema.Int64Attribute{
				MarkdownDescription: fmt.Sprintf("How many times a request is retried after a network error, a rate limit "+
					"or a server error, with exponential backoff. Retried writes reuse their idempotency key, so a retry "+
					"never makes a second object. `0` disables retries. Defaults to `%d`.", client.DefaultMaxRetries),
				Optional:   true,
				Validators: []validator.Int64{int64validator.AtLeast(0)},
			},
			attrAllowLivemode: schema.BoolAttribute{
				MarkdownDescription: fmt.Sprintf("Whether a live secret key (`%s…`) may be used. Defaults to `false`, "+
					"so that a configuration meant for the sandbox can never act on real money by mistake.",
					wire.SecretKeyLivePrefix),
				Optional: true,
			},
			attrAllowLivePayments: schema.BoolAttribute{
				MarkdownDescription: fmt.Sprintf("Whether payments may be created, captured or refunded with a live key "+
					"(`payments_payment` and the capture and refund actions). Defaults to `false`: a live key needs "+
					"`%s = true` to be used at all, and this as well to move money, so that a configuration that seeds a "+
					"sandbox can never charge real cards. Without it, such plans fail before anything is sent.", attrAllowLivemode),
				Optional: true,
			},
			attrMaxRequestsPerSecond: maxRequestsPerSecondAttribute(),
			attrRequestTimeout:       requestTimeoutAttribute(),
		},
	}
}

func (p *paymentsProvider) Configure(ctx context.Context, req provider.ConfigureRequest, resp *provider.ConfigureResponse) {
	var config paymentsProviderModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &config)...)
	if resp.Diagnostics.HasError() {
		return
	}

	// An unknown value (from a resource not yet created) cannot configure a
	// client; say which variable would do instead.
	if config.SecretKey.IsUnknown() {
		resp.Diagnostics.AddAttributeError(path.Root(attrSecretKey), "Unknown Payments Secret Key",
			unknownDetail(attrSecretKey, EnvSecretKey))
	}
	if config.BaseURL.IsUnknown() {
		resp.Diagnostics.AddAttributeError(path.Root(attrBaseURL), "Unknown Payments Base URL",
			unknownDetail(attrBaseURL, EnvBaseURL))
	}
	if config.MaxRetries.IsUnknown() {
		resp.Diagnostics.AddAttributeError(path.Root(attrMaxRetries), "Unknown Payments Max Retries",
			"The provider cannot create the payments API client because max_retries is unknown until apply. "+
				"Set it to a static value, or remove it to use the default.")
	}
	if config.AllowLivemode.IsUnknown() {
		resp.Diagnostics.AddAttributeError(path.Root(attrAllowLivemode), "Unknown Payments Allow Livemode",
			"The provider cannot decide whether a live key is allowed because allow_livemode is unknown until apply. "+
				"Set it to a static value.")
	}
	if config.AllowLivePayments.IsUnknown() {
		resp.Diagnostics.AddAttributeError(path.Root(attrAllowLivePayments), "Unknown Payments Allow Live Payments",
			"The provider cannot decide whether live payments are allowed because allow_live_payments is unknown until apply. "+
				"Set it to a static value.")
	}
	maxRPS, requestTimeout := requestLimits(config.MaxRequestsPerSecond, config.RequestTimeout, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}

	secretKey, keyFromEnv := config.SecretKey.ValueString(), false
	if config.SecretKey.IsNull() {
		secretKey, keyFromEnv = os.Getenv(EnvSecretKey), true
	}
	baseURL := config.BaseURL.ValueString()
	if config.BaseURL.IsNull() {
		baseURL = os.Getenv(EnvBaseURL)
	}
	allowLive := config.AllowLivemode.ValueBool()

	if secretKey == "" {
		resp.Diagnostics.AddAttributeError(path.Root(attrSecretKey), "Missing Payments Secret Key",
			missingDetail(attrSecretKey, EnvSecretKey, fmt.Sprintf("a secret key (%s… or %s…)",
				wire.SecretKeySandboxPrefix, wire.SecretKeyLivePrefix)))
	} else if summary, detail := checkSecretKey(secretKey, allowLive); summary != "" {
		if keyFromEnv {
			detail = fmt.Sprintf("The key in the %s environment variable is not usable. %s", EnvSecretKey, detail)
		}
		resp.Diagnostics.AddAttributeError(path.Root(attrSecretKey), summary, detail)
	}
	if baseURL == "" {
		resp.Diagnostics.AddAttributeError(path.Root(attrBaseURL), "Missing Payments Base URL",
			missingDetail(attrBaseURL, EnvBaseURL, "the service's base URL"))
	}
	if resp.Diagnostics.HasError() {
		return
	}

	maxRetries := client.DefaultMaxRetries
	if !config.MaxRetries.IsNull() {
		maxRetries = int(config.MaxRetries.ValueInt64())
	}
	if maxRetries == 0 {
		// The client reads 0 as "default"; a negative value turns retries off.
		maxRetries = -1
	}

	// The client's entries, two for each attempt, are built only when some
	// TF_LOG* variable may show them: with none they cost a refresh plan
	// several per cent of the provider's CPU for lines nobody sees.
	var apiLog func(context.Context, string, map[string]any)
	if pluginlog.Wanted() {
		apiLog = apiLogger(secretKey)
	}
	c, err := client.New(client.Config{
		BaseURL:    baseURL,
		SecretKey:  secretKey,
		UserAgent:  p.userAgent(req.TerraformVersion),
		MaxRetries: maxRetries,
		Log:        apiLog,

		MaxRequestsPerSecond: maxRPS,
		RequestTimeout:       requestTimeout,
	})
	if err != nil {
		// The key was checked above, so what is left is the URL, checked by
		// client.ParseBaseURL as the validator does for the configuration
		// (here it may come from the environment), and refused for a live
		// key over plain http. The error never holds the key nor the URL's
		// credentials.
		from := "base_url in the provider configuration"
		if config.BaseURL.IsNull() {
			from = "the " + EnvBaseURL + " environment variable"
		}
		resp.Diagnostics.AddAttributeError(path.Root(attrBaseURL), "Invalid Payments Base URL",
			fmt.Sprintf("The provider cannot create the payments API client from %s: %s", from, err))
		return
	}

	ctx = maskKey(ctx, secretKey)
	tflog.Debug(ctx, "Configured the payments API client", map[string]any{
		"base_url": baseURL, "max_retries": maxRetries, "livemode": c.Livemode(),
		"max_requests_per_second": maxRPS, "request_timeout": requestTimeout.String(),
	})

	// One value for every kind of type, received by the bases in base.go.
	p.journal.setKey(secretKey)

	data := &providerData{client: c, allowLivePayments: config.AllowLivePayments.ValueBool()}
	resp.ResourceData = data
	resp.ListResourceData = data
	resp.DataSourceData = data
	resp.ActionData = data
	resp.EphemeralResourceData = data
}

// userAgent is sent on every request, naming the provider, its version and
// Terraform's.
func (p *paymentsProvider) userAgent(terraformVersion string) string {
	if terraformVersion == "" {
		terraformVersion = "unknown"
	}
	return fmt.Sprintf("terraform-provider-payments/%s (+%s) Terraform/%s", p.version, registryURL, terraformVersion)
}

// What each type implements beyond its basic interface, checked at compile
// time beside the lists that register them: Terraform calls an optional
// method (Configure, ImportState, ModifyPlan, …) only when the type has it,
// so a misspelt one would otherwise never run, silently.
var (
	_ provider.ProviderWithActions            = (*paymentsProvider)(nil)
	_ provider.ProviderWithListResources      = (*paymentsProvider)(nil)
	_ provider.ProviderWithFunctions          = (*paymentsProvider)(nil)
	_ provider.ProviderWithEphemeralResources = (*paymentsProvider)(nil)

	_ ephemeral.EphemeralResourceWithConfigure      = (*cardTokenEphemeralResource)(nil)
	_ ephemeral.EphemeralResourceWithValidateConfig = (*cardTokenEphemeralResource)(nil)

	_ resource.ResourceWithConfigure   = (*customerResource)(nil)
	_ resource.ResourceWithIdentity    = (*customerResource)(nil)
	_ resource.ResourceWithImportState = (*customerResource)(nil)
	_ resource.ResourceWithModifyPlan  = (*customerResource)(nil)

	_ resource.ResourceWithConfigure      = (*customerSourceResource)(nil)
	_ resource.ResourceWithIdentity       = (*customerSourceResource)(nil)
	_ resource.ResourceWithImportState    = (*customerSourceResource)(nil)
	_ resource.ResourceWithValidateConfig = (*customerSourceResource)(nil)
	_ resource.ResourceWithModifyPlan     = (*customerSourceResource)(nil)

	_ resource.ResourceWithConfigure      = (*paymentResource)(nil)
	_ resource.ResourceWithImportState    = (*paymentResource)(nil)
	_ resource.ResourceWithModifyPlan     = (*paymentResource)(nil)
	_ resource.ResourceWithValidateConfig = (*paymentResource)(nil)

	_ resource.ResourceWithConfigure   = (*webhookEndpointResource)(nil)
	_ resource.ResourceWithImportState = (*webhookEndpointResource)(nil)

	_ resource.ResourceWithConfigure   = (*productResource)(nil)
	_ resource.ResourceWithIdentity    = (*productResource)(nil)
	_ resource.ResourceWithImportState = (*productResource)(nil)
	_ resource.ResourceWithModifyPlan  = (*productResource)(nil)

	_ resource.ResourceWithConfigure      = (*priceResource)(nil)
	_ resource.ResourceWithIdentity       = (*priceResource)(nil)
	_ resource.ResourceWithImportState    = (*priceResource)(nil)
	_ resource.ResourceWithValidateConfig = (*priceResource)(nil)
	_ resource.ResourceWithModifyPlan     = (*priceResource)(nil)

	_ list.ListResourceWithConfigure = (*customerListResource)(nil)

	_ list.ListResourceWithConfigure = (*customerSourceListResource)(nil)

	_ list.ListResourceWithConfigure = (*productListResource)(nil)

	_ list.ListResourceWithConfigure = (*priceListResource)(nil)

	_ datasource.DataSourceWithConfigure = (*customerDataSource)(nil)

	_ datasource.DataSourceWithConfigure = (*paymentDataSource)(nil)

	_ datasource.DataSourceWithConfigure = (*productDataSource)(nil)

	_ datasource.DataSourceWithConfigure = (*priceDataSource)(nil)

	_ datasource.DataSourceWithConfigure        = (*paymentsDataSource)(nil)
	_ datasource.DataSourceWithConfigValidators = (*paymentsDataSource)(nil)

	_ action.ActionWithConfigure  = (*paymentAction)(nil)
	_ action.ActionWithModifyPlan = (*paymentAction)(nil)
)

func (p *paymentsProvider) Resources(_ context.Context) []func() resource.Resource {
	return []func() resource.Resource{
		NewCustomerResource,
		NewCustomerSourceResource,
		NewWebhookEndpointResource,
		NewPaymentResource,
		NewProductResource,
		NewPriceResource,
		NewTestClockResource,
		NewSubscriptionResource,
	}
}

func (p *paymentsProvider) Actions(_ context.Context) []func() action.Action {
	return []func() action.Action{
		NewPaymentCaptureAction,
		NewPaymentRefundAction,
		NewSubscriptionCancelAction,
		NewInvoicePayAction,
	}
}

func (p *paymentsProvider) ListResources(_ context.Context) []func() list.ListResource {
	return []func() list.ListResource{
		NewCustomerListResource,
		NewCustomerSourceListResource,
		NewProductListResource,
		NewPriceListResource,
		NewSubscriptionListResource,
	}
}

func (p *paymentsProvider) EphemeralResources(_ context.Context) []func() ephemeral.EphemeralResource {
	return []func() ephemeral.EphemeralResource{
		NewCardTokenEphemeralResource,
	}
}

func (p *paymentsProvider) Functions(_ context.Context) []func() function.Function {
	return []func() function.Function{
		NewMinorUnitsFunction,
		NewFormatAmountFunction,
	}
}

func (p *paymentsProvider) DataSources(_ context.Context) []func() datasource.DataSource {
	return []func() datasource.DataSource{
		NewCustomerDataSource,
		NewPaymentDataSource,
		NewPaymentsDataSource,
		NewProductDataSource,
		NewPriceDataSource,
		NewSubscriptionDataSource,
		NewInvoicesDataSource,
	}
}

// maskKey returns ctx with key, and anything else shaped like a key, masked
// in every tflog entry made with it, messages and fields alike.
func maskKey(ctx context.Context, key string) context.Context {
	if key != "" {
		ctx = tflog.MaskLogStrings(ctx, key)
	}
	ctx = tflog.MaskLogRegexes(ctx, anyKeyPattern)
	ctx = tflog.MaskFieldValuesWithFieldKeys(ctx, attrSecretKey, "authorization", "Authorization")
	return ctx
}

// apiLogger is the client's Log hook: debug entries in the payments_api
// subsystem, masked with the key on the context of each request (the
// context of Configure does not reach resource operations, so the masking
// is set on each entry's own context).
func apiLogger(key string) func(ctx context.Context, msg string, fields map[string]any) {
	return func(ctx context.Context, msg string, fields map[string]any) {
		ctx = tflog.NewSubsystem(ctx, logSubsystem)
		if key != "" {
			ctx = tflog.SubsystemMaskLogStrings(ctx, logSubsystem, key)
		}
		ctx = tflog.SubsystemMaskLogRegexes(ctx, logSubsystem, anyKeyPattern)
		tflog.SubsystemDebug(ctx, logSubsystem, msg, fields)
	}
}

// unknownDetail explains an attribute whose value is unknown at configure time.
func unknownDetail(attr, env string) string {
	return fmt.Sprintf("The provider cannot create the payments API client because %s is unknown until apply. "+
		"Set it to a value known at plan time, apply the resource it comes from first (-target), "+
		"or remove it and use the %s environment variable.", attr, env)
}

// missingDetail explains an attribute set neither in configuration nor in the environment.
func missingDetail(attr, env, what string) string {
	return fmt.Sprintf("The provider needs %s. Set %s in the provider configuration or the %s environment variable. "+
		"If either is already set, check that it is not empty.", what, attr, env)
}

// checkSecretKey tells whether key can be used, and when not returns an
// error summary and detail that never contain the key.
func checkSecretKey(key string, allowLivemode bool) (summary, detail string) {
	switch wire.ClassifyKey(key) {
	case wire.KeySecretSandbox:
		return "", ""
	case wire.KeySecretLive:
		if allowLivemode {
			return "", ""
		}
		return "Live Key Not Allowed", fmt.Sprintf("The secret key is a live key (%s…), which acts on real money. "+
			"Set %s = true in the provider configuration to use it, or use a sandbox key (%s…).",
			wire.SecretKeyLivePrefix, attrAllowLivemode, wire.SecretKeySandboxPrefix)
	case wire.KeyPublicSandbox, wire.KeyPublicLive:
		return "Secret Key Required", fmt.Sprintf("The key is a public key (%s… or %s…), but the payments API "+
			"needs a secret key (%s… or %s…) for every operation the provider performs. Use the account's secret key.",
			wire.PublicKeySandboxPrefix, wire.PublicKeyLivePrefix, wire.SecretKeySandboxPrefix, wire.SecretKeyLivePrefix)
	default:
		return "Malformed Payments Secret Key", fmt.Sprintf("The key is not a payments secret key. Expected %s… "+
			"(sandbox) or %s… (live), followed by at least %d letters, digits or underscores.",
			wire.SecretKeySandboxPrefix, wire.SecretKeyLivePrefix, wire.MinKeySecretLength)
	}
}
