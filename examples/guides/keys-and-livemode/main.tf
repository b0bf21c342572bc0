# One configuration, two environments: the sandbox by default, the live
# service only when the workspace says so.
terraform {
  required_providers {
    payments = {
      source = "paymentsdev/payments"
    }
  }
}

variable "payments_secret_key" {
  description = "sk_sandbox_... or sk_live_..."
  type        = string
  sensitive   = true
  ephemeral   = true # Terraform 1.10 and later: kept out of plan files and state
}

variable "live" {
  description = "Whether this run may act on the live service."
  type        = bool
  default     = false
}

provider "payments" {
  base_url       = var.live ? "https://api.payments.example" : "http://127.0.0.1:12111"
  secret_key     = var.payments_secret_key
  allow_livemode = var.live
}

resource "payments_customer" "example" {
  email = "ada@example.com"

  lifecycle {
    # Stop before writing to state if the key and base_url disagree with the
    # intended environment.
    postcondition {
      condition     = self.livemode == var.live
      error_message = "The customer's livemode does not match var.live: check the key and base_url."
    }
  }
}
