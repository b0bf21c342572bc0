# What the service says about a subscription now, read by each run that
# uses this module.

terraform {
  required_providers {
    payments = {
      source = "paymentsdev/payments"
    }
  }
}

variable "subscription_id" {
  type = string
}

data "payments_subscription" "this" {
  id = var.subscription_id
}

data "payments_invoices" "paid_cycles" {
  subscription   = var.subscription_id
  status         = "paid"
  billing_reason = "subscription_cycle"
}

data "payments_invoices" "uncollectible" {
  subscription = var.subscription_id
  status       = "uncollectible"
}

output "status" {
  value = data.payments_subscription.this.status
}

output "current_period_start" {
  value = data.payments_subscription.this.current_period_start
}

output "paid_cycles" {
  value = length(data.payments_invoices.paid_cycles.invoices)
}

output "uncollectible" {
  value = length(data.payments_invoices.uncollectible.invoices)
}
