package provider

import (
	"context"
	"fmt"
	"math"
	"os"
	"strconv"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/paymentsdev/terraform-provider-payments/internal/client"
)

// The provider arguments that pace and bound the client's requests, and
// their environment variables.
const (
	attrMaxRequestsPerSecond = "max_requests_per_second"
	attrRequestTimeout       = "request_timeout"

	EnvMaxRequestsPerSecond = "PAYMENTS_MAX_REQUESTS_PER_SECOND"
	EnvRequestTimeout       = "PAYMENTS_REQUEST_TIMEOUT"
)

// maxRequestsPerSecondAttribute is the schema of max_requests_per_second.
func maxRequestsPerSecondAttribute() schema.Attribute {
	return schema.Float64Attribute{
		MarkdownDescription: fmt.Sprintf("The most requests per second the provider sends, across all the operations "+
			"of one run, retries included. Set it to the account's rate limit and the service never has to refuse a "+
			"request of this run: at most that many are sent in any one second, each counted from when it leaves "+
			"until a second after its answer comes back, so that no delay on the way can put one request too many "+
			"into one of the service's seconds. Without it the provider sends as fast as Terraform's parallelism "+
			"allows until the service answers `429`, then pauses every request for the `Retry-After` and resumes at "+
			"a rate learned from what the service accepted. A positive number; fractions such as `0.5` are allowed. "+
			"Falls back to the `%s` environment variable; unset by default.",
			EnvMaxRequestsPerSecond),
		Optional:   true,
		Validators: []validator.Float64{positiveFloat64Validator{}},
	}
}

// requestTimeoutAttribute is the schema of request_timeout.
func requestTimeoutAttribute() schema.Attribute {
	return schema.StringAttribute{
		MarkdownDescription: fmt.Sprintf("How long one attempt of a request may take, the whole answer included, as a "+
			"Go duration such as `30s` or `2m`. An attempt that runs out of time is retried like a network error (a "+
			"create keeps its idempotency key, so a retry never makes a second object), within `max_retries` and "+
			"the operation's own `timeouts`. Falls back to the `%s` environment variable; defaults to `%s`.",
			EnvRequestTimeout, client.FormatDuration(client.DefaultRequestTimeout)),
		Optional:   true,
		Validators: []validator.String{positiveDurationValidator},
	}
}

// requestLimits reads max_requests_per_second and request_timeout, or
// their environment variables, into the client's configuration. An unknown
// or unusable value is an attribute error naming the fix.
func requestLimits(maxRPS types.Float64, timeout types.String, diags *diag.Diagnostics) (float64, time.Duration) {
	var rps float64
	switch {
	case maxRPS.IsUnknown():
		diags.AddAttributeError(path.Root(attrMaxRequestsPerSecond), "Unknown Payments Max Requests Per Second",
			unknownDetail(attrMaxRequestsPerSecond, EnvMaxRequestsPerSecond))
	case !maxRPS.IsNull():
		rps = maxRPS.ValueFloat64()
	default:
		if s := os.Getenv(EnvMaxRequestsPerSecond); s != "" {
			v, err := strconv.ParseFloat(s, 64)
			if err != nil || !(v > 0) || math.IsInf(v, 0) {
				diags.AddAttributeError(path.Root(attrMaxRequestsPerSecond), "Invalid Payments Max Requests Per Second",
					fmt.Sprintf("The %s environment variable is %q, which is not a positive number. Set it to the "+
						"account's rate limit in requests per second, such as 25, or unset it.", EnvMaxRequestsPerSecond, s))
			}
			rps = v
		}
	}

	d := client.DefaultRequestTimeout
	switch {
	case timeout.IsUnknown():
		diags.AddAttributeError(path.Root(attrRequestTimeout), "Unknown Payments Request Timeout",
			unknownDetail(attrRequestTimeout, EnvRequestTimeout))
	case !timeout.IsNull():
		// The validator has checked it at plan time.
		d, _ = time.ParseDuration(timeout.ValueString())
	default:
		if s := os.Getenv(EnvRequestTimeout); s != "" {
			v, err := time.ParseDuration(s)
			if err != nil || v <= 0 {
				diags.AddAttributeError(path.Root(attrRequestTimeout), "Invalid Payments Request Timeout",
					fmt.Sprintf("The %s environment variable is %q, which is not a positive Go duration. Set it to "+
						"one such as 30s or 2m, or unset it to use the default of %s.",
						EnvRequestTimeout, s, client.FormatDuration(client.DefaultRequestTimeout)))
			}
			d = v
		}
	}
	return rps, d
}

// positiveFloat64Validator checks that a number is above zero.
type positiveFloat64Validator struct{}

var _ validator.Float64 = positiveFloat64Validator{}

func (positiveFloat64Validator) Description(context.Context) string {
	return "value must be a positive number"
}

func (v positiveFloat64Validator) MarkdownDescription(ctx context.Context) string {
	return v.Description(ctx)
}

func (positiveFloat64Validator) ValidateFloat64(_ context.Context, req validator.Float64Request, resp *validator.Float64Response) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	if v := req.ConfigValue.ValueFloat64(); !(v > 0) || math.IsInf(v, 0) {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid Number",
			fmt.Sprintf("%s must be a positive number of requests per second, such as 25 or 0.5; got %v. "+
				"Remove it to let the provider learn the service's limit from its answers.", req.Path, v))
	}
}

// positiveDurationValidator checks that a string is a positive Go duration.
var positiveDurationValidator = stringCheck{
	markdown: "value must be a positive Go duration, such as `30s` or `2m`",
	check: func(p path.Path, s string, diags *diag.Diagnostics) {
		d, err := time.ParseDuration(s)
		switch {
		case err != nil:
			diags.AddAttributeError(p, "Invalid Duration",
				fmt.Sprintf("%s: %q is not a Go duration. Use a number and a unit, such as 30s, 90s or 2m.", p, s))
		case d <= 0:
			diags.AddAttributeError(p, "Invalid Duration",
				fmt.Sprintf("%s must be positive; got %q. Use a duration such as 30s or 2m.", p, s))
		}
	},
}
