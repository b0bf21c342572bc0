package main

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/paymentsdev/terraform-provider-payments/internal/tfcli"
	"github.com/paymentsdev/terraform-provider-payments/tools/internal/floor"
)

func TestGenerateConfig_Providers(t *testing.T) {
	for _, tc := range []struct {
		name string
		spec providerSpec
		n    int
		mix  mix
	}{
		{"payments", providerSpec{Local: "payments", Source: "paymentsdev/payments", Block: "max_retries = 3\n"}, 3, mixCards},
		{"floor", providerSpec{Local: "floor", Source: "bench/floor"}, 5, mixCards},
		{"none", providerSpec{Local: "floor", Source: "bench/floor"}, 0, mixCards},
		{"payments subscriptions", providerSpec{Local: "payments", Source: "paymentsdev/payments"}, 4, mixSubscriptions},
		{"floor subscriptions", providerSpec{Local: "floor", Source: "bench/floor"}, 2, mixSubscriptions},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := generateConfig(tc.spec, tc.n, tc.mix)
			if all := regexp.MustCompile(`(?m)^resource "`).FindAllString(got, -1); len(all) != tc.n*tc.mix.perCustomer() {
				t.Errorf("got %d resources, want %d × %d", len(all), tc.n, tc.mix.perCustomer())
			}
			if want := fmt.Sprintf("source = %q", tc.spec.Source); !strings.Contains(got, want) {
				t.Errorf("config lacks %s:\n%s", want, got)
			}
			if tc.spec.Block != "" && !strings.Contains(got, "  "+tc.spec.Block) {
				t.Errorf("provider block lacks %q:\n%s", tc.spec.Block, got)
			}
			customers := regexp.MustCompile(`(?m)^resource "`+tc.spec.Local+`_customer" "c(\d+)"`).FindAllStringSubmatch(got, -1)
			cards := regexp.MustCompile(`(?m)^resource "`+tc.spec.Local+`_customer_source" "c(\d+)"`).FindAllStringSubmatch(got, -1)
			if len(customers) != tc.n || len(cards) != tc.n {
				t.Fatalf("got %d customers and %d cards, want %d of each", len(customers), len(cards), tc.n)
			}
			for i := range tc.n {
				ref := fmt.Sprintf("customer = %s_customer.c%d.id", tc.spec.Local, i)
				if !strings.Contains(got, ref) {
					t.Errorf("card %d does not reference its customer (%s)", i, ref)
				}
			}
			if tc.n > 0 && strings.Count(got, `token    = "tok_visa"`) != tc.n {
				t.Errorf("want %d cards with token tok_visa", tc.n)
			}
			if strings.Contains(got, "default ") {
				t.Errorf("cards must not set default: the first card becomes default by itself")
			}
			if tc.mix != mixSubscriptions {
				if strings.Contains(got, "_subscription") || strings.Contains(got, "_price") || strings.Contains(got, "_product") {
					t.Errorf("mix %s has more than customers and cards:\n%s", tc.mix, got)
				}
				return
			}
			for i := range tc.n {
				for _, ref := range []string{
					fmt.Sprintf("product     = %s_product.c%d.id", tc.spec.Local, i),
					fmt.Sprintf("customer       = %s_customer.c%d.id", tc.spec.Local, i),
					fmt.Sprintf("default_source = %s_customer_source.c%d.id", tc.spec.Local, i),
					fmt.Sprintf("items          = [{ price = %s_price.c%d.id, quantity = 1 }]", tc.spec.Local, i),
				} {
					if !strings.Contains(got, ref) {
						t.Errorf("customer %d's plan lacks %s", i, ref)
					}
				}
			}
		})
	}
}

// TestGenerateConfig_SameShape checks that the two providers' configurations
// differ only in the provider's name and block, so their times compare.
func TestGenerateConfig_SameShape(t *testing.T) {
	for _, m := range mixes {
		pay := generateConfig(providerSpec{Local: "payments", Source: "x/payments"}, 4, m)
		flo := generateConfig(providerSpec{Local: "floor", Source: "x/floor"}, 4, m)
		if got := strings.ReplaceAll(pay, "payments", "floor"); got != flo {
			t.Errorf("mix %s: the configurations differ beyond the provider name:\n%s\n---\n%s", m, got, flo)
		}
	}
}

// TestCLIConfig_BothProviders checks that the CLI configuration serves both
// providers from -bin under the addresses they are served at.
func TestCLIConfig_BothProviders(t *testing.T) {
	got := tfcli.CLIConfig(paymentsSpec("/abs/bin").override(), floorSpec("/abs/bin").override())
	for _, want := range []string{
		`"registry.terraform.io/paymentsdev/payments" = "/abs/bin"`,
		`"` + floor.Address + `" = "/abs/bin"`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("CLI config lacks %s:\n%s", want, got)
		}
	}
}
