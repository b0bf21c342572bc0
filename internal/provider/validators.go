package provider

import (
	"context"
	"fmt"
	"net/url"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
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
// validate time, with the same rules as client.New.
type baseURLValidator struct{}

func (baseURLValidator) Description(_ context.Context) string {
	return "value must be an absolute http or https URL without credentials, query or fragment"
}

func (v baseURLValidator) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (baseURLValidator) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	// An empty URL is reported by Configure as missing, naming the variable.
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() || req.ConfigValue.ValueString() == "" {
		return
	}
	if problem := baseURLProblem(req.ConfigValue.ValueString()); problem != "" {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid Payments Base URL",
			fmt.Sprintf("%s Use an absolute http or https URL such as https://api.example.com or http://127.0.0.1:12111.", problem))
	}
}

// baseURLProblem describes what is wrong with a base URL, or returns "".
// It never echoes user information, which could hold a key.
func baseURLProblem(raw string) string {
	if raw == "" {
		return "The base URL is empty."
	}
	u, err := url.Parse(raw)
	switch {
	case err != nil:
		return "The base URL cannot be parsed."
	case u.User != nil:
		return "The base URL must not contain credentials; set secret_key instead."
	case u.Scheme != "http" && u.Scheme != "https":
		return fmt.Sprintf("The base URL's scheme is %q, not http or https.", u.Scheme)
	case u.Host == "":
		return "The base URL has no host."
	case u.RawQuery != "" || u.Fragment != "":
		return "The base URL must not have a query or fragment."
	}
	return ""
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
