# A module a team might keep to put a customer on a plan: the customer
# (optionally on a test clock, so that a test can run it through renewals),
# its card, and a subscription to one recurring price.

terraform {
  required_version = ">= 1.8.0"

  required_providers {
    payments = {
      source = "paymentsdev/payments"
    }
  }
}

resource "payments_customer" "this" {
  name       = var.name
  email      = var.email
  test_clock = var.test_clock
}

resource "payments_customer_source" "card" {
  customer = payments_customer.this.id
  token    = var.card_token
  default  = true
}

resource "payments_subscription" "this" {
  customer       = payments_customer.this.id
  default_source = payments_customer_source.card.id
  items          = [{ price = var.price, quantity = var.quantity }]
  metadata       = { seeded_by = "terraform" }
}
