# main.tf: the provider, configured as for any plan. The query uses it.
terraform {
  required_providers {
    payments = {
      source = "paymentsdev/payments"
    }
  }
}

provider "payments" {}
