terraform {
  required_providers {
    payments = {
      source = "paymentsdev/payments"
    }
  }
}

resource "payments_customer" "grace" {
  email = "grace@example.com"
  name  = "Grace Hopper"
}

# Attached first, so the service makes it the default by itself. With
# `default` unset (false) the provider never changes nor reports the
# customer's default because of this card.
resource "payments_customer_source" "mastercard" {
  customer = payments_customer.grace.id
  token    = "tok_mastercard"
}

# The card the provider keeps as the default: on create, and again on any
# apply after the default moved elsewhere.
resource "payments_customer_source" "amex" {
  customer = payments_customer.grace.id
  token    = "tok_amex"
  default  = true
}

# The customer as the service sees it, read once the cards are stored.
data "payments_customer" "grace" {
  id         = payments_customer.grace.id
  depends_on = [payments_customer_source.mastercard, payments_customer_source.amex]
}

output "default_source" {
  # Which card is the default: the amex card's id.
  value = data.payments_customer.grace.default_source
}
