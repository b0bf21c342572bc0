package provider

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/paymentsdev/terraform-provider-payments/internal/client"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// apiErrorDiagnostic turns a failed API call into the one diagnostic every
// resource and data source uses: summary is short and title case ("Error
// Reading Customer"), object names what was acted on ("customer cus_…"),
// and the detail gives the cause and, where one is known, the fix.
func apiErrorDiagnostic(summary, object string, err error) diag.Diagnostic {
	return errorDiagnosticOf("resource", summary, object, err)
}

// dataSourceErrorDiagnostic is apiErrorDiagnostic for data sources, whose
// hints name the data source's own settings.
func dataSourceErrorDiagnostic(summary, object string, err error) diag.Diagnostic {
	return errorDiagnosticOf("data source", summary, object, err)
}

// errorDiagnosticOf builds the diagnostic; kind is "resource" or "data source".
func errorDiagnosticOf(kind, summary, object string, err error) diag.Diagnostic {
	detail := fmt.Sprintf("The payments API request for %s failed: %s", object, err)
	if hint := apiErrorHint(kind, err); hint != "" {
		detail += "\n\n" + hint
	}
	return diag.NewErrorDiagnostic(summary, detail)
}

// apiErrorHint says what to do about the errors a user can fix; kind names
// what failed, "resource" or "data source".
func apiErrorHint(kind string, err error) string {
	var lm *client.LivemodeMismatchError
	if errors.As(err, &lm) {
		return "The provider refused the answer because its livemode disagrees with the key: the base_url " +
			"points at another environment than the key belongs to (a sandbox key answered by the live service, " +
			"or the reverse). Check base_url and secret_key."
	}
	var ue *client.UnreachableError
	if errors.As(err, &ue) {
		return fmt.Sprintf("Nothing answered at %s. Check that the payments service is running there (for a local "+
			"sandbox: payments-sandbox -addr HOST:PORT) and that %s (or the %s environment variable) is right. "+
			"After %d connection failures in a row the provider stops trying for a while, so the other operations "+
			"of this run fail at once with this same error instead of each retrying.",
			ue.BaseURL, attrBaseURL, EnvBaseURL, client.BreakerThreshold)
	}
	var te *client.AttemptTimeoutError
	if errors.As(err, &te) {
		return fmt.Sprintf("The %s timed out: the service accepted the connection but sent no complete answer within "+
			"%s = %q, on the last of its attempts. Check that the service at %s is healthy, or raise %s in the "+
			"provider configuration; the %s's timeouts block bounds all the attempts together.",
			kind, attrRequestTimeout, client.FormatDuration(te.Timeout), attrBaseURL, attrRequestTimeout, kind)
	}
	var we *client.RateLimitWaitError
	if errors.As(err, &we) {
		return fmt.Sprintf("The request was not sent: under the service's rate limit its turn would come after the "+
			"%s's timeout. Raise the timeout in the %s's timeouts block, or lower Terraform's -parallelism.", kind, kind)
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return fmt.Sprintf("The %s timed out: the operation did not finish within its timeout. Raise it in the %s's "+
			"timeouts block, or check that the service at base_url is reachable.", kind, kind)
	}
	e, ok := client.AsError(err)
	if !ok {
		return ""
	}
	switch {
	case e.HTTPStatus == http.StatusNotFound && e.Code != wire.ErrorCodeResourceMissing:
		return "The address answered 404 without saying that an object does not exist (the payments service says so " +
			"with code " + wire.ErrorCodeResourceMissing + "), so it may not be the payments API, or not at this path. " +
			"Check " + attrBaseURL + " (or " + EnvBaseURL + "): the service's address without " + wire.APIVersionPrefix +
			", such as https://api.example.com."
	case e.Code == wire.ErrorCodeIdempotencyKeyReused:
		return "The service refused the request because its Idempotency-Key had already been used for another " +
			"request; this request changed nothing, and the provider did not retry it (a retry could only fail " +
			"again, or with a fresh key act twice). The provider sends a fresh key for every operation, so this is " +
			"a bug in it or in a proxy on the way: run the operation again, and report it if it persists."
	case e.Code == wire.ErrorCodeLiveKeyOnSandbox:
		return "The key and the service are of different modes: a live key was sent to a sandbox, or a sandbox " +
			"key to the live service. Point base_url at the environment the key belongs to."
	case e.Code == wire.ErrorCodeSecretKeyRequired:
		return "The service needs a secret key. Set secret_key (or " + EnvSecretKey + ") to the account's secret key."
	case e.HTTPStatus == http.StatusUnauthorized:
		return "The service did not accept the secret key. Check secret_key (or " + EnvSecretKey +
			") and that base_url points at the environment the key belongs to."
	case e.Code == wire.ErrorCodeAccountLimitExceeded || e.Code == wire.ErrorCodeSandboxLimitExceeded:
		return "The payments-sandbox keeps no more for this account, or for all its accounts: its operator bounds it " +
			"with the flag the message names. Delete objects this account no longer needs (or empty it with POST " +
			"/_sandbox/reset), or ask for a higher limit; retrying alone does not help."
	case e.HTTPStatus == http.StatusForbidden:
		return "The key is not allowed to do this. Check secret_key (or " + EnvSecretKey + ") and base_url."
	case e.HTTPStatus == http.StatusTooManyRequests:
		return "The service kept answering \"rate limited\" after every retry. Set " + attrMaxRequestsPerSecond +
			" in the provider configuration to the account's rate limit, raise max_retries, or lower Terraform's -parallelism."
	case e.HTTPStatus >= 500:
		return "The service failed after every retry. Try again later, or raise max_retries in the provider configuration."
	}
	return ""
}

// readFound is the answer to a resource's Read request: an object the
// service no longer has (404 resource_missing) is removed from state, so
// that the plan creates it again, and any other error becomes the
// diagnostic titled "Error Reading <kind>". It tells whether the object
// came back; object names it ("customer cus_…").
func readFound(ctx context.Context, resp *resource.ReadResponse, err error, kind, object string) bool {
	if client.IsNotFound(err) {
		tflog.Warn(ctx, kind+" not found; removing it from state so that it is planned for creation",
			map[string]any{"object": object})
		resp.State.RemoveResource(ctx)
		return false
	}
	if err != nil {
		resp.Diagnostics.Append(apiErrorDiagnostic("Error Reading "+kind, object, err))
		return false
	}
	return true
}

// dataSourceFound is the answer to a data source's read by id: a missing
// object is an error on the id attribute that says so, with what to check
// (check: "was not deleted and belongs to this account"), and any other
// error becomes the diagnostic titled "Error Reading <Kind>". It tells
// whether the object came back. kind is lower case ("customer").
func dataSourceFound(resp *datasource.ReadResponse, err error, kind, id, check string) bool {
	title := strings.ToUpper(kind[:1]) + kind[1:]
	if client.IsNotFound(err) {
		resp.Diagnostics.AddAttributeError(path.Root("id"), title+" Not Found",
			fmt.Sprintf("No %s with id %q exists for the account of the configured key. Check the id, and that the %s %s "+
				"(a sandbox key never sees live objects, nor one account another's).", kind, id, kind, check))
		return false
	}
	if err != nil {
		resp.Diagnostics.Append(dataSourceErrorDiagnostic("Error Reading "+title, kind+" "+id, err))
		return false
	}
	return true
}

// notConfiguredDiagnostic is returned by an operation that runs without a
// client, which Terraform should never allow.
func notConfiguredDiagnostic() diag.Diagnostic {
	return diag.NewErrorDiagnostic("Provider Not Configured",
		"The payments provider was not configured before this operation ran. This is a bug in the provider or "+
			"in Terraform; please report it.")
}

// goneDiagnostic is the error of an update on an object the state holds
// but the service no longer has: it was deleted outside of Terraform after
// the last refresh, which Terraform skipped (apply -refresh=false, or a
// saved plan made before the deletion). It says what happened, names the
// object, and says how to recover.
func goneDiagnostic(summary, object string, err error) diag.Diagnostic {
	return diag.NewErrorDiagnostic(summary, fmt.Sprintf("%s no longer exists at the service: it was deleted outside "+
		"of Terraform after Terraform last refreshed it (this run did not refresh: terraform apply -refresh=false, or a "+
		"saved plan made before the deletion). The payments API request failed: %s\n\n"+
		"Run terraform apply -refresh-only to have Terraform notice the deletion and forget the object, or run a plain "+
		"terraform plan or terraform apply, which refresh first and plan to create it again.", object, err))
}

// isGone reports whether err says that the object acted on, or the
// customer it belongs to, does not exist: 404 for the object in the path,
// or resource_missing for one named by a parameter.
func isGone(err error) bool {
	return client.IsNotFound(err) || client.HasCode(err, wire.ErrorCodeResourceMissing)
}

// paramErrorDiagnostics is apiErrorDiagnostic, attached to the attribute
// the service named when it refused a parameter: attrs maps a parameter
// (recurring[interval]), or the name before its brackets (metadata for
// metadata[plan]), to the attribute it comes from.
func paramErrorDiagnostics(summary, object string, err error, attrs map[string]string) diag.Diagnostics {
	d := apiErrorDiagnostic(summary, object, err)
	var diags diag.Diagnostics
	if e, ok := client.AsError(err); ok && e.HTTPStatus == http.StatusBadRequest && e.Param != "" {
		a, ok := attrs[e.Param]
		if !ok {
			name, _, _ := strings.Cut(e.Param, "[")
			a, ok = attrs[name]
		}
		if ok {
			diags.AddAttributeError(path.Root(a), d.Summary(), "The service refused "+a+".\n\n"+d.Detail())
			return diags
		}
	}
	diags.Append(d)
	return diags
}

// checkRequestSize refuses, at plan time, a create or update whose form
// body (size bytes, the client's own encoding of the very request) would
// exceed the service's limit, which the per-field limits alone do not
// prevent. title and noun name the object ("Customer", "customer");
// operation is "create" or "update"; hint says what takes the room.
func checkRequestSize(diags *diag.Diagnostics, title, noun, operation string, size int, hint string) {
	if size <= wire.MaxRequestBodyBytes {
		return
	}
	diags.AddAttributeError(path.Root("metadata"), title+" Request Too Large",
		fmt.Sprintf("The %s's %s request would be %d bytes (%.1f KiB) once form-encoded, over the service's "+
			"limit of %d bytes (%d KiB), and the service would refuse it. %s A character outside ASCII takes up "+
			"to 9 bytes once encoded (€ is %%E2%%82%%AC).",
			noun, operation, size, float64(size)/1024, wire.MaxRequestBodyBytes, wire.MaxRequestBodyBytes>>10, hint))
}
