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
	paymentSourceModel
	Customer types.String `tfsdk:"customer"`
	Token    types.String `tfsdk:"token"`
	TokenWO  types.String `tfsdk:"token_wo"` // write-only: null but in Create's config
	// TokenWOVersion versions TokenWO: the only change of it Terraform sees.
	TokenWOVersion types.Int64    `tfsdk:"token_wo_version"`
	Default        types.Bool     `tfsdk:"default"`
	Timeouts       timeouts.Value `tfsdk:"timeouts"`
}

func (m *customerSourceResourceModel) timeoutsValue() timeouts.Value { return m.Timeouts }

// fromAPI sets every attribute the service knows from its source; token
// and default are left as they are.
func (m *customerSourceResourceModel) fromAPI(s *client.Source) {
	m.paymentSourceModel = newPaymentSourceModel(s.ID, s.Brand, s.Last4, s.ExpMonth, s.ExpYear)
	m.Customer = types.StringValue(s.Customer)
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
