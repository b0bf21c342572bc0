terraform {
  required_providers {
    payments = {
      source = "paymentsdev/payments"
    }
  }
}

# A live account. Keep the key out of the configuration: leave secret_key
# unset and export PAYMENTS_SECRET_KEY, or pass it in an ephemeral variable.
provider "payments" {
  base_url       = "https://api.payments.example" # the base URL of your account's service
  secret_key     = var.payments_secret_key        # sk_live_... (or sk_sandbox_...)
  allow_livemode = true                           # live keys are refused unless this is true
  max_retries    = 5                              # network errors, 429 and 5xx; writes reuse their idempotency key
}

variable "payments_secret_key" {
  type      = string
  sensitive = true
  ephemeral = true # Terraform 1.10 and later: kept out of saved plans and state
}

# A local sandbox (`payments-sandbox -addr 127.0.0.1:12111`) takes any
# sk_sandbox_ key of at least 8 more characters as its own, empty account:
#
# provider "payments" {
#   base_url   = "http://127.0.0.1:12111"
#   secret_key = "sk_sandbox_local_test_account"
# }
