terraform {
  # Actions need Terraform 1.14. Without actions.tf, the rest needs 1.11 (or
  # OpenTofu 1.11): ephemeral card tokens and write-only arguments.
  required_version = ">= 1.14.0"

  required_providers {
    payments = {
      source = "paymentsdev/payments"
    }
  }
}

# PAYMENTS_SECRET_KEY and PAYMENTS_BASE_URL point at a sandbox. A live key
# would need allow_livemode = true and allow_live_payments = true here.
provider "payments" {}
