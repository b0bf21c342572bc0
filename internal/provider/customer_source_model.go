package provider

import (
	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/paymentsdev/terraform-provider-payments/internal/client"
)

// customerSourceResourceModel is payments_customer_source's state. Token
// is what the configuration gave, because the service never returns it
// (null after import). Default is a setting, not an observation: see the
// attribute's description.
type customerSourceResourceModel struct {
	ID       types.String   `tfsdk:"id"`
	Customer types.String   `tfsdk:"customer"`
	Token    types.String   `tfsdk:"token"`
	Default  types.Bool     `tfsdk:"default"`
	Brand    types.String   `tfsdk:"brand"`
	Last4    types.String   `tfsdk:"last4"`
	ExpMonth types.Int64    `tfsdk:"exp_month"`
	ExpYear  types.Int64    `tfsdk:"exp_year"`
	Timeouts timeouts.Value `tfsdk:"timeouts"`
}

func (m *customerSourceResourceModel) timeoutsValue() timeouts.Value { return m.Timeouts }

// fromAPI sets every attribute the service knows from its source; token
// and default are left as they are.
func (m *customerSourceResourceModel) fromAPI(s *client.Source) {
	m.ID = types.StringValue(s.ID)
	m.Customer = types.StringValue(s.Customer)
	m.Brand = nullableString(s.Brand)
	m.Last4 = nullableString(s.Last4)
	m.ExpMonth = nullableInt64(s.ExpMonth)
	m.ExpYear = nullableInt64(s.ExpYear)
}

// listedCustomerSourceModel is a listed method as payments_customer_source's
// state, through the resource's own mapping, as an import reads it: the
// token unknown to the service is null, and default tells whether the
// method is the customer's default.
func listedCustomerSourceModel(src *client.Source, isDefault bool) *customerSourceResourceModel {
	m := &customerSourceResourceModel{
		Token:    types.StringNull(),
		Default:  types.BoolValue(isDefault),
		Timeouts: nullTimeouts(),
	}
	m.fromAPI(src)
	return m
}
