# A test environment's customers and payment history, from one variable:
# add a row to seed one more payment; nothing else is charged again.

variable "customers" {
  description = "Customers to create, by key, with the sandbox test card stored for each (a key of local.test_cards)."
  type = map(object({
    name  = string
    email = string
    card  = string
  }))
  default = {
    ada   = { name = "Ada Lovelace", email = "ada@example.com", card = "visa" }
    grace = { name = "Grace Hopper", email = "grace@example.com", card = "mastercard" }
  }
}

variable "payments" {
  description = "The payment history, by a stable key: changing a row's amount, currency or customer is a new charge."
  type = map(object({
    customer        = string
    amount          = string # in major units, as people write it: "25.00" USD, "3000" JPY
    currency        = string
    description     = string
    capture         = optional(bool, true)
    amount_refunded = optional(string)
    card            = optional(string) # a key of local.test_cards, charged once; null charges the customer's card
  }))
  default = {
    "ada-2026-01"   = { customer = "ada", amount = "25.00", currency = "USD", description = "January" }
    "ada-2026-02"   = { customer = "ada", amount = "25.00", currency = "USD", description = "February", amount_refunded = "25.00" }
    "ada-2026-03"   = { customer = "ada", amount = "3000", currency = "JPY", description = "March, in yen" }
    "grace-deposit" = { customer = "grace", amount = "200.00", currency = "EUR", description = "Deposit", capture = false }
    "grace-3ds"     = { customer = "grace", amount = "15.00", currency = "EUR", description = "Add-on", card = "three_d_secure" }
  }
}

# The sandbox's test card numbers (see the API assumptions guide). They are
# tokenized by payments_card_token for one run only: no card number or
# token is written to the state or the plan.
locals {
  test_cards = {
    visa           = { number = "4242424242424242", cvc = "123" }
    mastercard     = { number = "5555555555554444", cvc = "123" }
    amex           = { number = "378282246310005", cvc = "1234" }
    declined       = { number = "4000000000000002", cvc = "123" }
    three_d_secure = { number = "4000000000003220", cvc = "123" }
    dispute        = { number = "4000000000000259", cvc = "123" }
  }
  charged_cards = { for k, p in var.payments : k => p.card if p.card != null }
}

resource "payments_customer" "this" {
  for_each = var.customers

  name  = each.value.name
  email = each.value.email
}

ephemeral "payments_card_token" "stored" {
  for_each = var.customers

  number    = local.test_cards[each.value.card].number
  cvc       = local.test_cards[each.value.card].cvc
  exp_month = 12
  exp_year  = 2030
}

resource "payments_customer_source" "card" {
  for_each = var.customers

  customer         = payments_customer.this[each.key].id
  token_wo         = ephemeral.payments_card_token.stored[each.key].id
  token_wo_version = 1 # raise it to store a new card
}

ephemeral "payments_card_token" "charged" {
  for_each = local.charged_cards

  number    = local.test_cards[each.value].number
  cvc       = local.test_cards[each.value].cvc
  exp_month = 12
  exp_year  = 2030
}

resource "payments_payment" "history" {
  for_each = var.payments

  amount          = provider::payments::minor_units(each.value.amount, each.value.currency)
  currency        = each.value.currency
  customer        = payments_customer.this[each.value.customer].id
  description     = each.value.description
  capture         = each.value.capture
  amount_refunded = each.value.amount_refunded == null ? null : provider::payments::minor_units(each.value.amount_refunded, each.value.currency)

  # A row with its own card charges it once; the others charge the
  # customer's stored card.
  source_wo         = try(ephemeral.payments_card_token.charged[each.key].id, null)
  source_wo_version = each.value.card == null ? null : 1

  metadata = {
    seed = each.key
  }

  # Tearing the environment down refunds what is left of each payment.
  refund_on_destroy = true

  depends_on = [payments_customer_source.card]
}

output "payment_ids" {
  value = {
    for k, p in payments_payment.history :
    k => "${p.id} ${provider::payments::format_amount(p.amount, p.currency)} ${p.status}"
  }
}
