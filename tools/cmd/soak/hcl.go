package main

import (
	"fmt"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox"
)

// configHCL is the soak's configuration: n customers, each with one card.
func configHCL(cfg config, baseURL, mixName string) string {
	return fmt.Sprintf(`terraform {
  required_providers {
    payments = {
      source = %q
    }
  }
}

provider "payments" {
  base_url    = %q
  max_retries = %d
}

resource "payments_customer" "soak" {
  count = %d
  email = "soak-${count.index}@example.com"
  name  = "Soak customer ${count.index}"
  metadata = {
    soak_mix   = %q
    soak_index = tostring(count.index)
  }
}

resource "payments_customer_source" "soak" {
  count    = %d
  customer = payments_customer.soak[count.index].id
  token    = %q
}
`, providerSource, baseURL, cfg.maxRetries, cfg.n, mixName, cfg.n, sandbox.TokenVisa)
}
