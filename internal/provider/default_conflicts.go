package provider

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/paymentsdev/terraform-provider-payments/internal/client"
)

// Two payments_customer_source of one customer with default = true take the
// default from each other on every apply. Nothing in one resource's plan
// shows the other, so the provider reports the conflict where it can see
// it: at apply, when a second card of a customer is made its default in the
// same run (defaultClaims), and at plan, when a card takes back a default
// that the refresh found on another card (privateDefaultMovedTo).

// privateDefaultMovedTo is the private-state key under which Read records,
// as a JSON string, the card the refresh found to be the customer's default
// when this card, configured as the default, was not.
const privateDefaultMovedTo = "default_moved_to"

// defaultClaims remembers, per configured client (one per provider
// configuration in a Terraform run) and customer, the card this run made the
// customer's default.
var defaultClaims sync.Map // defaultClaimKey -> string

type defaultClaimKey struct {
	client   *client.Client
	customer string
}

// claimDefault records that source was made customer's default, and
// returns the other card this run made its default before, or "".
func claimDefault(c *client.Client, customer, source string) string {
	prev, loaded := defaultClaims.Swap(defaultClaimKey{c, customer}, source)
	if p, _ := prev.(string); loaded && p != source {
		return p
	}
	return ""
}

// twoDefaultsDiagnostic is the apply-time warning: first and second were
// both made the customer's default in one run.
func twoDefaultsDiagnostic(customer, first, second string) diag.Diagnostic {
	return diag.NewWarningDiagnostic("Two Cards Claim the Default of One Customer",
		fmt.Sprintf("This apply made %s the default of customer %s, after it had made %s its default: both "+
			"payments_customer_source resources have default = true. Each following plan will take the default back "+
			"for one of them, on every apply. Set default = true on only one card of customer %s.",
			second, customer, first, customer))
}

// takeBackDiagnostic is the plan-time warning: source, configured as the
// default, takes the default back from current.
func takeBackDiagnostic(customer, source, current string) diag.Diagnostic {
	return diag.NewWarningDiagnostic("Card Takes Back the Default of Its Customer",
		fmt.Sprintf("%s has default = true, but the refresh found %s to be the default of customer %s; this plan "+
			"makes %s the default again. If %s is a payments_customer_source with default = true too, the two take "+
			"the default from each other on every apply and the plan is never empty: set default = true on only one "+
			"card of customer %s. If the default was moved outside of Terraform, this is the repair default = true asks for.",
			source, current, customer, source, current, customer))
}

// privateGetter and privateSetter are the private state of a request and
// of a response.
type privateGetter interface {
	GetKey(ctx context.Context, key string) ([]byte, diag.Diagnostics)
}

type privateSetter interface {
	SetKey(ctx context.Context, key string, value []byte) diag.Diagnostics
}

// setDefaultMovedTo records (or, with "", forgets) the card the refresh
// found to be the default instead of this one.
func setDefaultMovedTo(ctx context.Context, p privateSetter, source string) diag.Diagnostics {
	if source == "" {
		return p.SetKey(ctx, privateDefaultMovedTo, nil)
	}
	b, _ := json.Marshal(source)
	return p.SetKey(ctx, privateDefaultMovedTo, b)
}

// defaultMovedTo is what setDefaultMovedTo recorded, or "".
func defaultMovedTo(ctx context.Context, p privateGetter) (string, diag.Diagnostics) {
	b, diags := p.GetKey(ctx, privateDefaultMovedTo)
	if diags.HasError() || len(b) == 0 {
		return "", diags
	}
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return "", diags // an unreadable note only costs the warning
	}
	return s, diags
}
