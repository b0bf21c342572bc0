package provider

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/datasource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"

	"github.com/paymentsdev/terraform-provider-payments/internal/client"
)

// dataSourceReadTimeoutDefault bounds a data source's read when
// timeouts.read is unset. It leaves room for the client's retries with
// backoff and, for payments_payments, for many pages.
const dataSourceReadTimeoutDefault = 5 * time.Minute

// dataSourceTimeoutsAttribute is the `timeouts` attribute of every data source.
func dataSourceTimeoutsAttribute(ctx context.Context) schema.Attribute {
	a, _ := timeouts.AttributesWithOpts(ctx, timeouts.Opts{
		ReadDescription: fmt.Sprintf("How long the read may take, retries included, as a Go duration such as `30s` or `2m`. Defaults to `%s`.",
			durationString(dataSourceReadTimeoutDefault)),
	}).(schema.SingleNestedAttribute)
	a.MarkdownDescription = "Time limits for this data source's operations."
	return a
}

// durationString formats d without zero units: 5m, not 5m0s.
func durationString(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}

// withReadTimeout derives the context a Read runs in from timeouts.read.
func withReadTimeout(ctx context.Context, t timeouts.Value) (context.Context, context.CancelFunc, diag.Diagnostics) {
	d, diags := t.Read(ctx, dataSourceReadTimeoutDefault)
	if diags.HasError() {
		return ctx, func() {}, diags
	}
	ctx, cancel := context.WithTimeout(ctx, d)
	return ctx, cancel, diags
}

// dataSourceClient returns the client the provider configured, or nil
// (with no error) before the provider is configured, as during validation.
func dataSourceClient(req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) *client.Client {
	if req.ProviderData == nil {
		return nil
	}
	c, ok := req.ProviderData.(*client.Client)
	if !ok {
		resp.Diagnostics.AddError("Unexpected Data Source Configure Type",
			fmt.Sprintf("Expected *client.Client, got %T. This is a bug in the provider; please report it.", req.ProviderData))
		return nil
	}
	return c
}

// clientConfigured reports whether c is set, adding an error when it is
// not: a Read before the provider was configured is a bug, not a panic.
func clientConfigured(c *client.Client, diags *diag.Diagnostics) bool {
	if c == nil {
		diags.AddError("Unconfigured Provider",
			"The data source was read before the provider was configured. This is a bug in the provider; please report it.")
		return false
	}
	return true
}

// dataSourceAPIError turns a failed API call about what (for example
// "customer cus_…") into an error diagnostic that names the cause.
func dataSourceAPIError(diags *diag.Diagnostics, summary, what string, err error) {
	detail := fmt.Sprintf("Could not read %s: %s", what, err)
	if errors.Is(err, context.DeadlineExceeded) {
		detail += "\n\nThe read ran out of time; raise timeouts.read if the service is slow."
	}
	diags.AddError(summary, detail)
}

// objectIDValidator checks that a string is an id of the given prefix, as
// the API shapes them, so that a typo fails at plan time.
func objectIDValidator(prefix, kind string) validator.String {
	return stringvalidator.RegexMatches(
		regexp.MustCompile(fmt.Sprintf("^%s[A-Za-z0-9]{%d}$", regexp.QuoteMeta(prefix), client.IDRandomLength)),
		fmt.Sprintf("must be a %s id: %q followed by %d letters or digits", kind, prefix, client.IDRandomLength),
	)
}

// quotedList formats values as Markdown code spans: `a`, `b` or `c`.
func quotedList(values []string) string {
	q := make([]string, len(values))
	for i, v := range values {
		q[i] = "`" + v + "`"
	}
	if len(q) < 2 {
		return strings.Join(q, "")
	}
	return strings.Join(q[:len(q)-1], ", ") + " or " + q[len(q)-1]
}

// rfc3339Validator checks that a string is an RFC 3339 timestamp.
type rfc3339Validator struct{}

var _ validator.String = rfc3339Validator{}

func (rfc3339Validator) Description(context.Context) string {
	return "value must be an RFC 3339 timestamp, such as 2025-01-31T00:00:00Z"
}

func (rfc3339Validator) MarkdownDescription(context.Context) string {
	return "value must be an RFC 3339 timestamp, such as `2025-01-31T00:00:00Z`"
}

func (rfc3339Validator) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	s := req.ConfigValue.ValueString()
	if _, err := time.Parse(time.RFC3339, s); err != nil {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid RFC 3339 Timestamp",
			fmt.Sprintf("%s: %q is not an RFC 3339 timestamp. Use a date, time and offset such as 2025-01-31T00:00:00Z or 2025-01-31T09:30:00+02:00.", req.Path, s))
	}
}
