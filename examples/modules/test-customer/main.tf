# A module a team might keep to seed a sandbox customer for its tests: the
# customer, a card made its default, and an optional first payment whose
# amount is written the way people read it ("19.99") and converted to the
# currency's minor units by the provider's minor_units function.

terraform {
  required_version = ">= 1.8.0"

  required_providers {
    payments = {
      source = "paymentsdev/payments"
    }
  }
}

resource "payments_customer" "this" {
  email = var.email
  name  = var.name

  metadata = merge(var.metadata, { seeded_by = "terraform" })
}

resource "payments_customer_source" "card" {
  customer = payments_customer.this.id
  token    = var.card_token
  default  = true
}

resource "payments_payment" "first" {
  count = var.first_payment == null ? 0 : 1

  amount      = provider::payments::minor_units(var.first_payment.amount, var.first_payment.currency)
  currency    = var.first_payment.currency
  customer    = payments_customer.this.id
  description = var.first_payment.description

  # A test environment's payments are refunded when it is torn down.
  refund_on_destroy = true

  depends_on = [payments_customer_source.card]
}
