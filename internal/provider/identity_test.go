package provider

import (
	"context"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/path"
	fwresource "github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"
)

// identityVersionChecks: import blocks with identity need Terraform 1.12;
// OpenTofu has no resource identity, whatever its version number says.
var identityVersionChecks = []tfversion.TerraformVersionCheck{
	tfversion.SkipBelow(tfversion.Version1_12_0),
	skipOpenTofu("resource identity"),
}

func TestAccCustomer_IdentityImport(t *testing.T) {
	acct := newTestAccAccount(t)
	config := acct.ProviderConfig() + `
resource "payments_customer" "test" {
  name     = "Ada Lovelace"
  email    = "ada@example.com"
  metadata = { plan = "gold" }
}
`
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		TerraformVersionChecks:   identityVersionChecks,
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             acct.testAccCheckCustomersDestroyed,
		Steps: []resource.TestStep{
			{
				Config: config,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectIdentity(testAccCustomerAddr, map[string]knownvalue.Check{"id": customerIDCheck}),
					statecheck.ExpectIdentityValueMatchesState(testAccCustomerAddr, tfjsonpath.New("id")),
				},
			},
			{
				// An import block with identity = { id = … }: the plan
				// imports and changes nothing.
				ResourceName:    testAccCustomerAddr,
				ImportState:     true,
				ImportStateKind: resource.ImportBlockWithResourceIdentity,
				ImportPlanChecks: resource.ImportPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectKnownValue(testAccCustomerAddr, tfjsonpath.New("name"), knownvalue.StringExact("Ada Lovelace")),
					plancheck.ExpectKnownValue(testAccCustomerAddr, tfjsonpath.New("metadata"), knownvalue.MapExact(map[string]knownvalue.Check{
						"plan": knownvalue.StringExact("gold"),
					})),
				}},
			},
			{
				// The same with an import block's id.
				ResourceName:    testAccCustomerAddr,
				ImportState:     true,
				ImportStateKind: resource.ImportBlockWithID,
			},
			{
				// And terraform import, which every CLI has.
				ResourceName:      testAccCustomerAddr,
				ImportState:       true,
				ImportStateVerify: true,
				ImportStateVerifyIgnore: []string{
					"timeouts",
				},
			},
		},
	})
}

func TestAccCustomer_IdentityImportInvalid(t *testing.T) {
	acct := newTestAccAccount(t)
	missing := "cus_" + strings.Repeat("Z", 24)
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		TerraformVersionChecks:   identityVersionChecks,
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: acct.ProviderConfig() + `
import {
  to       = payments_customer.test
  identity = { id = "cus_123" }
}
resource "payments_customer" "test" {}
`,
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`(?s)Invalid Customer Import Identity.*"cus_123" is not a customer id`),
			},
			{
				Config: acct.ProviderConfig() + `
import {
  to       = payments_customer.test
  identity = { id = "` + missing + `" }
}
resource "payments_customer" "test" {}
`,
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`Cannot import non-existent remote object`),
			},
		},
	})
}

func TestAccCustomerSource_IdentityImport(t *testing.T) {
	acct := newTestAccAccount(t)
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		TerraformVersionChecks:   identityVersionChecks,
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             acct.testAccCheckSourcesDestroyed,
		Steps: []resource.TestStep{
			{
				Config: testAccSourceConfig(acct, "tok_visa", "default = true"),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectIdentity(testAccSourceAddr, map[string]knownvalue.Check{
						"customer": customerIDCheck,
						"id":       sourceIDCheck,
					}),
					statecheck.ExpectIdentityValueMatchesState(testAccSourceAddr, tfjsonpath.New("id")),
					statecheck.ExpectIdentityValueMatchesState(testAccSourceAddr, tfjsonpath.New("customer")),
				},
			},
			{
				// The service never tells the token: the import plans to
				// store the configured one in place, never a replacement.
				ResourceName:       testAccSourceAddr,
				ImportState:        true,
				ImportStateKind:    resource.ImportBlockWithResourceIdentity,
				ExpectNonEmptyPlan: true,
				ImportPlanChecks: resource.ImportPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(testAccSourceAddr, plancheck.ResourceActionUpdate),
					plancheck.ExpectKnownValue(testAccSourceAddr, tfjsonpath.New("token"), knownvalue.StringExact("tok_visa")),
					plancheck.ExpectKnownValue(testAccSourceAddr, tfjsonpath.New("brand"), knownvalue.StringExact("visa")),
					plancheck.ExpectKnownValue(testAccSourceAddr, tfjsonpath.New("last4"), knownvalue.StringExact("4242")),
				}},
			},
			{
				ResourceName:       testAccSourceAddr,
				ImportState:        true,
				ImportStateKind:    resource.ImportBlockWithID,
				ImportStateIdFunc:  testAccSourceImportID(testAccSourceAddr),
				ExpectNonEmptyPlan: true,
			},
			{
				ResourceName:            testAccSourceAddr,
				ImportState:             true,
				ImportStateIdFunc:       testAccSourceImportID(testAccSourceAddr),
				ImportStateVerify:       true,
				ImportStateVerifyIgnore: []string{"token", "timeouts"},
			},
		},
	})
}

func TestAccCustomerSource_IdentityImportInvalid(t *testing.T) {
	acct := newTestAccAccount(t)
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		TerraformVersionChecks:   identityVersionChecks,
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: acct.ProviderConfig() + `
import {
  to       = payments_customer_source.test
  identity = { customer = "cus_123", id = "card_1" }
}
resource "payments_customer_source" "test" {
  customer = "cus_` + strings.Repeat("A", 24) + `"
  token    = "tok_visa"
}
`,
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`(?s)identity.customer "cus_123" is not a customer id.*identity.id "card_1" is not a payment method id`),
			},
		},
	})
}

// TestImportState_IdentityOrID drives both ImportState functions directly:
// a string id and an identity end in the same state and identity, and
// neither is accepted malformed.
func TestImportState_IdentityOrID(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	cus, src := "cus_"+strings.Repeat("a", 24), "src_"+strings.Repeat("b", 24)
	prod, price := "prod_"+strings.Repeat("c", 24), "price_"+strings.Repeat("d", 24)
	for _, tc := range []struct {
		name     string
		res      fwresource.Resource
		id       string
		identity map[string]string
		wantErr  string
		want     map[string]string // state and identity attributes
	}{
		{"customer by id", NewCustomerResource(), cus, nil, "", map[string]string{"id": cus}},
		{"customer by identity", NewCustomerResource(), "", map[string]string{"id": cus}, "", map[string]string{"id": cus}},
		{"customer, bad id", NewCustomerResource(), "cus_1", nil, "Invalid Customer Import ID", nil},
		{"customer, bad identity", NewCustomerResource(), "", map[string]string{"id": src}, "Invalid Customer Import Identity", nil},
		{"source by id", NewCustomerSourceResource(), cus + "/" + src, nil, "", map[string]string{"customer": cus, "id": src}},
		{"source by identity", NewCustomerSourceResource(), "", map[string]string{"customer": cus, "id": src}, "", map[string]string{"customer": cus, "id": src}},
		{"source, bad id", NewCustomerSourceResource(), src, nil, "Invalid Customer Source Import ID", nil},
		{"source, swapped identity", NewCustomerSourceResource(), "", map[string]string{"customer": src, "id": cus}, "Invalid Customer Source Import Identity", nil},
		{"product by id", NewProductResource(), prod, nil, "", map[string]string{"id": prod}},
		{"product by identity", NewProductResource(), "", map[string]string{"id": prod}, "", map[string]string{"id": prod}},
		{"product, price id", NewProductResource(), price, nil, "Invalid Product Import ID", nil},
		{"product, bad identity", NewProductResource(), "", map[string]string{"id": cus}, "Invalid Product Import Identity", nil},
		{"price by id", NewPriceResource(), price, nil, "", map[string]string{"id": price}},
		{"price by identity", NewPriceResource(), "", map[string]string{"id": price}, "", map[string]string{"id": price}},
		{"price, short id", NewPriceResource(), "price_1", nil, "Invalid Price Import ID", nil},
		{"price, bad identity", NewPriceResource(), "", map[string]string{"id": prod}, "Invalid Price Import Identity", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var sresp fwresource.SchemaResponse
			tc.res.Schema(ctx, fwresource.SchemaRequest{}, &sresp)
			var iresp fwresource.IdentitySchemaResponse
			tc.res.(fwresource.ResourceWithIdentity).IdentitySchema(ctx, fwresource.IdentitySchemaRequest{}, &iresp)
			identityType := iresp.IdentitySchema.Type().TerraformType(ctx)
			identity := func(vals map[string]string) *tfsdk.ResourceIdentity {
				raw := tftypes.NewValue(identityType, nil)
				if vals != nil {
					m := map[string]tftypes.Value{}
					for name := range iresp.IdentitySchema.Attributes {
						m[name] = tftypes.NewValue(tftypes.String, vals[name])
					}
					raw = tftypes.NewValue(identityType, m)
				}
				return &tfsdk.ResourceIdentity{Schema: iresp.IdentitySchema, Raw: raw}
			}
			req := fwresource.ImportStateRequest{ID: tc.id}
			if tc.identity != nil {
				req.Identity = identity(tc.identity)
			}
			resp := fwresource.ImportStateResponse{
				State:    tfsdk.State{Schema: sresp.Schema, Raw: tftypes.NewValue(sresp.Schema.Type().TerraformType(ctx), nil)},
				Identity: identity(nil),
			}
			tc.res.(fwresource.ResourceWithImportState).ImportState(ctx, req, &resp)
			if tc.wantErr != "" {
				if !resp.Diagnostics.HasError() || !strings.Contains(resp.Diagnostics.Errors()[0].Summary(), tc.wantErr) {
					t.Fatalf("diagnostics %v, want an error %q", resp.Diagnostics, tc.wantErr)
				}
				return
			}
			if resp.Diagnostics.HasError() {
				t.Fatalf("diagnostics: %v", resp.Diagnostics)
			}
			for name, want := range tc.want {
				var got, gotIdentity string
				resp.Diagnostics.Append(resp.State.GetAttribute(ctx, path.Root(name), &got)...)
				resp.Diagnostics.Append(resp.Identity.GetAttribute(ctx, path.Root(name), &gotIdentity)...)
				if resp.Diagnostics.HasError() {
					t.Fatalf("reading %s: %v", name, resp.Diagnostics)
				}
				if got != want || gotIdentity != want {
					t.Errorf("%s: state %q, identity %q, want %q", name, got, gotIdentity, want)
				}
			}
		})
	}
}
