resource "payments_webhook_endpoint" "example" {
  url            = "https://hooks.example.com/payments"
  enabled_events = ["payment.approved", "payment.declined", "payment.refunded"]
  description    = "Order service"

  # Change to any other number to roll the signing secret in place; the new
  # secret alone signs from then on.
  secret_version = 1

  metadata = {
    team = "orders"
  }
}

# Hand the secret to the application that verifies Payments-Signature.
output "webhook_secret" {
  value     = payments_webhook_endpoint.example.secret
  sensitive = true
}
