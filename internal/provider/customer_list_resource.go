package provider

import (
	"context"
	"errors"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-framework/list/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/paymentsdev/terraform-provider-payments/internal/client"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// NewCustomerListResource returns the payments_customer list resource, which
// `terraform query` (Terraform 1.14 and later) uses to find customers to
// import.
func NewCustomerListResource() list.ListResource {
	return &customerListResource{resourceBase{name: "customer"}}
}

// customerListResource is the payments_customer list resource.
type customerListResource struct {
	resourceBase
}

// customerListConfigModel is the `config` block of a payments_customer list.
type customerListConfigModel struct {
	Email types.String `tfsdk:"email"`
}

func (r *customerListResource) ListResourceConfigSchema(_ context.Context, _ list.ListResourceSchemaRequest, resp *list.ListResourceSchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Lists the customers of the configured key's account, newest first, for `terraform query` " +
			"(Terraform 1.14 and later): each result carries the customer's identity, for an `import` block, and a " +
			"display name made of its name and e-mail address. `terraform query -generate-config-out=FILE` writes " +
			"`payments_customer` resources and `import` blocks that plan with nothing to change. " +
			"The list needs the service's customer list (`GET /v1/customers`), which the payments API's published " +
			"interface does not show; a service without it makes the query fail with an error saying so.",
		Attributes: map[string]schema.Attribute{
			"email": schema.StringAttribute{
				MarkdownDescription: "Only customers with this e-mail address, compared ignoring case. " +
					"Omit it to list every customer.",
				Optional: true,
				Validators: []validator.String{
					stringvalidator.UTF8LengthAtMost(wire.EmailMaxLength),
					stringvalidator.RegexMatches(emailRegexp, "must be an e-mail address of the form local@domain"),
				},
			},
		},
	}
}

func (r *customerListResource) List(ctx context.Context, req list.ListRequest, stream *list.ListResultsStream) {
	var config customerListConfigModel
	if diags := req.Config.Get(ctx, &config); diags.HasError() {
		stream.Results = list.ListResultsStreamDiagnostics(diags)
		return
	}
	if r.client == nil {
		stream.Results = list.ListResultsStreamDiagnostics(diag.Diagnostics{notConfiguredDiagnostic()})
		return
	}
	params := &client.ListCustomersParams{Email: config.Email.ValueString()}
	params.Limit = listPageSize(req.Limit)

	stream.Results = func(push func(list.ListResult) bool) {
		var n int64
		for cus, err := range r.client.AllCustomers(ctx, params) {
			if err != nil {
				push(list.ListResult{Diagnostics: diag.Diagnostics{customerListErrorDiagnostic(err)}})
				return
			}
			result := req.NewListResult(ctx)
			result.DisplayName = customerDisplayName(cus)
			result.Diagnostics.Append(customerKind.setIdentity(ctx, result.Identity, cus.ID)...)
			if req.IncludeResource && !result.Diagnostics.HasError() {
				m, diags := listedCustomerModel(cus)
				result.Diagnostics.Append(diags...)
				if !result.Diagnostics.HasError() {
					result.Diagnostics.Append(result.Resource.Set(ctx, m)...)
				}
			}
			if !push(result) {
				return
			}
			if n++; req.Limit > 0 && n >= req.Limit {
				return
			}
		}
	}
}

// listPageSize is the page size that fetches at most what a query asks for
// (limit, 0 for no limit) in as few requests as the service allows.
func listPageSize(limit int64) int {
	if limit > 0 && limit < wire.ListLimitMax {
		return int(limit)
	}
	return wire.ListLimitMax
}

// customerListErrorDiagnostic is the diagnostic of a failed customer list,
// saying plainly when the service has no customer list at all.
func customerListErrorDiagnostic(err error) diag.Diagnostic {
	if errors.Is(err, client.ErrCustomerListUnsupported) {
		return diag.NewErrorDiagnostic("Customer List Not Supported",
			fmt.Sprintf("The payments service at base_url cannot list customers: it answered that GET /v1/customers is "+
				"not one of its endpoints. The published interface of the payments API does not show a customer list; "+
				"this provider's sandbox has one, and so do services modelled on it. Import customers one by one with "+
				"their ids instead (an import block with id or identity).\n\nThe service answered: %s", answer(err)))
	}
	return apiErrorDiagnostic("Error Listing Customers", "the customer list", err)
}

// answer is the service's own error inside err, or err.
func answer(err error) error {
	if e, ok := client.AsError(err); ok {
		return e
	}
	return err
}

// customerDisplayName is how a person recognises a customer in a list:
// "Ada Lovelace <ada@example.com>", either part alone, or the id.
func customerDisplayName(c *client.Customer) string {
	switch {
	case c.Name != "" && c.Email != "":
		return fmt.Sprintf("%s <%s>", c.Name, c.Email)
	case c.Name != "":
		return c.Name
	case c.Email != "":
		return c.Email
	}
	return c.ID
}

// listedCustomerModel is a listed customer as payments_customer's state,
// through the resource's own mapping, as an import would read it: no
// metadata is null, and the timeouts block is absent.
func listedCustomerModel(c *client.Customer) (*customerResourceModel, diag.Diagnostics) {
	m := &customerResourceModel{
		customerModel: customerModel{Metadata: types.MapNull(types.StringType)},
		Timeouts:      nullTimeouts(),
	}
	diags := m.fromAPI(c)
	return m, diags
}

// nullTimeouts is an absent timeouts block of a resource's state.
func nullTimeouts() timeouts.Value {
	return timeouts.Value{Object: types.ObjectNull(map[string]attr.Type{
		"create": types.StringType, "read": types.StringType, "update": types.StringType, "delete": types.StringType,
	})}
}
