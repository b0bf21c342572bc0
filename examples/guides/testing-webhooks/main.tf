terraform {
  required_providers {
    payments = {
      source = "paymentsdev/payments"
    }
  }
}

# The provider reads PAYMENTS_BASE_URL and PAYMENTS_SECRET_KEY: point them
# at the local payments-sandbox.
provider "payments" {}

resource "payments_webhook_endpoint" "local" {
  # The handler under test, on this machine: the sandbox delivers to
  # loopback addresses only, unless started with -webhook-allow.
  url            = "http://127.0.0.1:4242/webhooks"
  enabled_events = ["payment.approved", "payment.declined", "payment.refunded"]
  description    = "Local handler under test"
}

output "webhook_endpoint_id" {
  value = payments_webhook_endpoint.local.id
}

# terraform output -raw webhook_secret hands it to the handler.
output "webhook_secret" {
  value     = payments_webhook_endpoint.local.secret
  sensitive = true
}
