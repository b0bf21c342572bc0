# A test environment's customers and payment history, from one variable:
# add a row to seed one more payment; nothing else is charged again.

variable "customers" {
  description = "Customers to create, by key, with the token of their card."
  type = map(object({
    name  = string
    email = string
    card  = string
  }))
  default = {
    ada   = { name = "Ada Lovelace", email = "ada@example.com", card = "tok_visa" }
    grace = { name = "Grace Hopper", email = "grace@example.com", card = "tok_mastercard" }
  }
}

variable "payments" {
  description = "The payment history, by a stable key: changing a row's amount, currency or customer is a new charge."
  type = map(object({
    customer        = string
    amount          = number
    currency        = string
    description     = string
    capture         = optional(bool, true)
    amount_refunded = optional(number)
    source          = optional(string) # a token; null charges the customer's card
  }))
  default = {
    "ada-2026-01"   = { customer = "ada", amount = 2500, currency = "USD", description = "January" }
    "ada-2026-02"   = { customer = "ada", amount = 2500, currency = "USD", description = "February", amount_refunded = 2500 }
    "grace-deposit" = { customer = "grace", amount = 20000, currency = "EUR", description = "Deposit", capture = false }
    "grace-3ds"     = { customer = "grace", amount = 1500, currency = "EUR", description = "Add-on", source = "tok_3ds" }
  }
}

resource "payments_customer" "this" {
  for_each = var.customers

  name  = each.value.name
  email = each.value.email
}

resource "payments_customer_source" "card" {
  for_each = var.customers

  customer = payments_customer.this[each.key].id
  token    = each.value.card
}

resource "payments_payment" "history" {
  for_each = var.payments

  amount          = each.value.amount
  currency        = each.value.currency
  customer        = payments_customer.this[each.value.customer].id
  source          = each.value.source
  description     = each.value.description
  capture         = each.value.capture
  amount_refunded = each.value.amount_refunded

  metadata = {
    seed = each.key
  }

  # Tearing the environment down refunds what is left of each payment.
  refund_on_destroy = true

  depends_on = [payments_customer_source.card]
}

output "payment_ids" {
  value = { for k, p in payments_payment.history : k => "${p.id} ${p.status}" }
}
