package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-framework/list/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/paymentsdev/terraform-provider-payments/internal/client"
)

// NewCustomerSourceListResource returns the payments_customer_source list
// resource: one customer's stored payment methods, for `terraform query`.
func NewCustomerSourceListResource() list.ListResource {
	return &customerSourceListResource{resourceBase{name: "customer_source"}}
}

// customerSourceListResource is the payments_customer_source list resource.
type customerSourceListResource struct {
	resourceBase
}

// customerSourceListConfigModel is the `config` block of a
// payments_customer_source list.
type customerSourceListConfigModel struct {
	Customer types.String `tfsdk:"customer"`
}

func (r *customerSourceListResource) ListResourceConfigSchema(_ context.Context, _ list.ListResourceSchemaRequest, resp *list.ListResourceSchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Lists the payment methods (cards) stored on one customer, in the order they were stored, " +
			"for `terraform query` (Terraform 1.14 and later): each result carries the method's identity " +
			"(`customer` and `id`), for an `import` block, and a display name such as `visa •••• 4242`. " +
			"The service never tells a method's token, so configuration written by " +
			"`terraform query -generate-config-out=FILE` has `token = null`: set it to the token the method was " +
			"made from (for example `tok_visa`) before planning; the first apply then stores it in place, " +
			"without replacing the method.",
		Attributes: map[string]schema.Attribute{
			"customer": schema.StringAttribute{
				MarkdownDescription: fmt.Sprintf("The identifier of the customer whose methods to list (%s).", customerIDShape),
				Required:            true,
				Validators: []validator.String{
					stringvalidator.RegexMatches(customerIDRegexp, "must be a customer id: "+customerIDShape),
				},
			},
		},
	}
}

func (r *customerSourceListResource) List(ctx context.Context, req list.ListRequest, stream *list.ListResultsStream) {
	var config customerSourceListConfigModel
	if diags := req.Config.Get(ctx, &config); diags.HasError() {
		stream.Results = list.ListResultsStreamDiagnostics(diags)
		return
	}
	if r.client == nil {
		stream.Results = list.ListResultsStreamDiagnostics(diag.Diagnostics{notConfiguredDiagnostic()})
		return
	}
	customerID := config.Customer.ValueString()
	// The schema's validator has run, but a value it could not see (one
	// from a variable) is checked again, so that no path is built from it.
	if !isCustomerID(customerID) {
		var diags diag.Diagnostics
		diags.AddAttributeError(path.Root("customer"), "Invalid Customer ID",
			fmt.Sprintf("customer %s is not a customer id: expected %s.", quoteForError(customerID), customerIDShape))
		stream.Results = list.ListResultsStreamDiagnostics(diags)
		return
	}

	stream.Results = func(push func(list.ListResult) bool) {
		cus, err := r.client.GetCustomer(ctx, customerID)
		if err != nil {
			var diags diag.Diagnostics
			if client.IsNotFound(err) {
				diags.AddAttributeError(path.Root("customer"), "Customer Not Found",
					fmt.Sprintf("No customer with id %q exists for the account of the configured key, so it has no "+
						"payment methods to list. Set customer to the id of an existing customer of this account; "+
						"list them with a payments_customer list block.", customerID))
			} else {
				diags.Append(apiErrorDiagnostic("Error Listing Customer Sources", "the payment methods of customer "+customerID, err))
			}
			push(list.ListResult{Diagnostics: diags})
			return
		}
		// The customer object carries every method it has: one request
		// lists them all, and include_resource costs one more per method.
		for i, s := range cus.Sources.Data {
			if req.Limit > 0 && int64(i) >= req.Limit {
				return
			}
			result := req.NewListResult(ctx)
			result.DisplayName = sourceDisplayName(s.Brand, s.Last4, s.ID == cus.DefaultSource)
			result.Diagnostics.Append(setCustomerSourceIdentity(ctx, result.Identity, customerID, s.ID)...)
			if req.IncludeResource && !result.Diagnostics.HasError() {
				src, err := r.client.GetSource(ctx, customerID, s.ID)
				if client.IsNotFound(err) {
					continue // detached since the customer was read
				}
				if err != nil {
					result.Diagnostics.Append(apiErrorDiagnostic("Error Reading Customer Source",
						fmt.Sprintf("source %s of customer %s", s.ID, customerID), err))
				} else {
					m := listedCustomerSourceModel(src, cus.DefaultSource == src.ID)
					result.Diagnostics.Append(result.Resource.Set(ctx, m)...)
				}
			}
			if !push(result) {
				return
			}
		}
	}
}

// sourceDisplayName is how a person recognises a card: "visa •••• 4242",
// with "(default)" on the customer's default.
func sourceDisplayName(brand, last4 string, isDefault bool) string {
	if brand == "" {
		brand = "card"
	}
	name := brand
	if last4 != "" {
		name += " •••• " + last4
	}
	if isDefault {
		name += " (default)"
	}
	return name
}
