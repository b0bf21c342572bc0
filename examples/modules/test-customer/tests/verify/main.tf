# Reads back, through the provider's data sources, what a run of the module
# made, so a test can assert on the service's view and not only on the
# module's outputs.

terraform {
  required_providers {
    payments = {
      source = "paymentsdev/payments"
    }
  }
}

variable "customer_id" {
  description = "The customer the module made."
  type        = string
}

variable "expected_card" {
  description = "The card the module should have made the default; read by the test's assertions."
  type        = string
  default     = null
}

data "payments_customer" "this" {
  id = var.customer_id
}

data "payments_payments" "charged" {
  customer = var.customer_id
}

output "email" {
  description = "The customer's email, as the service holds it."
  value       = data.payments_customer.this.email
}

output "default_source" {
  description = "The customer's default card, as the service holds it."
  value       = data.payments_customer.this.default_source
}

output "payment_amounts" {
  description = "The amounts of the customer's payments, in minor units."
  value       = [for p in data.payments_payments.charged.payments : p.amount]
}
