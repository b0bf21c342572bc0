package provider

import (
	"context"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/paymentsdev/terraform-provider-payments/internal/client"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

var (
	_ validator.String = secretKeyValidator{}
	_ validator.String = baseURLValidator{}
	_ validator.String = notEmptyMetadataValueValidator{}
)

// secretKeyValidator rejects a public, malformed or (without
// allow_livemode) live key at validate time, when the key is known.
// Configure applies the same check to a key from the environment.
type secretKeyValidator struct{}

func (secretKeyValidator) Description(_ context.Context) string {
	return "value must be a payments secret key; a live key needs allow_livemode = true"
}

func (v secretKeyValidator) MarkdownDescription(ctx context.Context) string {
	return v.Description(ctx)
}

func (secretKeyValidator) ValidateString(ctx context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	// An empty key is reported by Configure as missing, naming the variable.
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() || req.ConfigValue.ValueString() == "" {
		return
	}
	var allow types.Bool
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root(attrAllowLivemode), &allow)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if allow.IsUnknown() {
		// Configure reports the unknown allow_livemode; judge only the key's shape here.
		allow = types.BoolValue(true)
	}
	if summary, detail := checkSecretKey(req.ConfigValue.ValueString(), allow.ValueBool()); summary != "" {
		resp.Diagnostics.AddAttributeError(req.Path, summary, detail)
	}
}

// baseURLValidator rejects a base URL the client could not use, at
// validate time, with the client's own check (client.ParseBaseURL).
type baseURLValidator struct{}

func (baseURLValidator) Description(_ context.Context) string {
	return "value must be an absolute http or https URL without credentials, query, fragment or a trailing " +
		wire.APIVersionPrefix + " path"
}

func (v baseURLValidator) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (baseURLValidator) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	// An empty URL is reported by Configure as missing, naming the variable.
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() || req.ConfigValue.ValueString() == "" {
		return
	}
	if _, err := client.ParseBaseURL(req.ConfigValue.ValueString()); err != nil {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid Payments Base URL", err.Error())
	}
}

// notEmptyMetadataValueValidator rejects "" as a metadata value: the
// service reads metadata[key]= as "delete key", so the value could never be
// stored and every plan would show it again.
type notEmptyMetadataValueValidator struct{}

func (notEmptyMetadataValueValidator) Description(_ context.Context) string {
	return "metadata values must not be empty"
}

func (v notEmptyMetadataValueValidator) MarkdownDescription(ctx context.Context) string {
	return v.Description(ctx)
}

func (notEmptyMetadataValueValidator) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() || req.ConfigValue.ValueString() != "" {
		return
	}
	resp.Diagnostics.AddAttributeError(req.Path, "Empty Metadata Value",
		"A metadata value must not be empty: the payments service deletes a key whose value is \"\", "+
			"so it could never be stored. Remove the key from metadata instead.")
}

// stringCheck is a validator.String made of a description, in Markdown
// (the plain one is the same without backquotes), and a check of a known
// configured value, which adds its diagnostics at the value's path p.
type stringCheck struct {
	markdown string
	check    func(p path.Path, value string, diags *diag.Diagnostics)
}

var _ validator.String = stringCheck{}

func (v stringCheck) Description(context.Context) string {
	return strings.ReplaceAll(v.markdown, "`", "")
}

func (v stringCheck) MarkdownDescription(context.Context) string { return v.markdown }

func (v stringCheck) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	v.check(req.Path, req.ConfigValue.ValueString(), &resp.Diagnostics)
}
