# The quick start: three customers with cards and metadata, one card made
# the default on purpose, a payment history charged to them (payments_payment),
# a monthly plan Ada subscribes to, and the data sources reading it back. `make demo` runs it against a local
# sandbox; see the README.

terraform {
  # 1.11: the cards are tokenized by an ephemeral resource (1.10) and handed
  # to write-only arguments (1.11), so no card number or token is ever
  # written to the state or the plan; the amounts use provider functions
  # (1.8). On an older CLI, see the provider's index page for what to write.
  required_version = ">= 1.11.0"

  required_providers {
    payments = {
      source = "paymentsdev/payments"
    }
  }
}

# The key and the address come from PAYMENTS_SECRET_KEY and
# PAYMENTS_BASE_URL, which `make demo` sets to a sandbox it starts.
provider "payments" {}

# The sandbox's test cards, each tokenized for this run only: the number,
# the CVC and the single-use token (tok_...) never reach the state or the
# plan. Each run mints new tokens; token_wo_version and source_wo_version
# say when a resource should use one (a new card, a new charge).
locals {
  test_cards = {
    ada_visa         = { number = "4242424242424242", cvc = "123" }
    grace_mastercard = { number = "5555555555554444", cvc = "123" }
    grace_amex       = { number = "378282246310005", cvc = "1234" } # Amex: a 4-digit CVC
    alan_declined    = { number = "4000000000000002", cvc = "123" } # every charge is declined
    grace_3ds        = { number = "4000000000003220", cvc = "123" } # asks for 3-D Secure
    alan_mastercard  = { number = "5555555555554444", cvc = "123" }
  }
}

ephemeral "payments_card_token" "card" {
  for_each = local.test_cards

  number    = each.value.number
  exp_month = 12
  exp_year  = 2030
  cvc       = each.value.cvc
}

resource "payments_customer" "ada" {
  email = "ada@example.com"
  name  = "Ada Lovelace"
  phone = "+442071234567"

  metadata = {
    plan = "pro"
    team = "analytics"
  }
}

# Ada's only card: the first card attached becomes the default by itself.
resource "payments_customer_source" "ada_visa" {
  customer         = payments_customer.ada.id
  token_wo         = ephemeral.payments_card_token.card["ada_visa"].id
  token_wo_version = 1
}

resource "payments_customer" "grace" {
  email = "grace@example.com"
  name  = "Grace Hopper"
  phone = "+12025550143"

  metadata = {
    plan  = "team"
    seats = "12"
  }
}

resource "payments_customer_source" "grace_mastercard" {
  customer         = payments_customer.grace.id
  token_wo         = ephemeral.payments_card_token.card["grace_mastercard"].id
  token_wo_version = 1
}

# Grace pays with her Amex, whichever card was attached first.
resource "payments_customer_source" "grace_amex" {
  customer         = payments_customer.grace.id
  token_wo         = ephemeral.payments_card_token.card["grace_amex"].id
  token_wo_version = 1
  default          = true
}

resource "payments_customer" "alan" {
  email = "alan@example.com"
  name  = "Alan Turing"

  metadata = {
    plan = "trial"
  }
}

# A card the sandbox declines: `make demo` charges it between two applies.
resource "payments_customer_source" "alan_visa" {
  customer         = payments_customer.alan.id
  token_wo         = ephemeral.payments_card_token.card["alan_declined"].id
  token_wo_version = 1
}

# The payment history. Each is one charge: a change to amount, currency,
# customer, source or source_wo_version would replace it (a new charge), and
# the plan says so. minor_units turns "25.00" USD into the API's 2500 cents.

resource "payments_payment" "ada_first_month" {
  amount      = provider::payments::minor_units("25.00", "USD")
  currency    = "USD"
  customer    = payments_customer.ada.id
  description = "Pro plan, first month"

  metadata = {
    invoice = "INV-1001"
  }

  depends_on = [payments_customer_source.ada_visa]
}

# Refunded in part; raising amount_refunded later refunds the difference.
resource "payments_payment" "ada_second_month" {
  amount          = provider::payments::minor_units("25.00", "USD")
  currency        = "USD"
  customer        = payments_customer.ada.id
  description     = "Pro plan, second month"
  amount_refunded = provider::payments::minor_units("10.00", "USD")

  depends_on = [payments_customer_source.ada_visa]
}

# Charged to Grace's default card, the Amex.
resource "payments_payment" "grace_seats" {
  amount      = provider::payments::minor_units("49.00", "EUR")
  currency    = "EUR"
  customer    = payments_customer.grace.id
  description = "Team plan, annual seats"

  depends_on = [payments_customer_source.grace_amex]
}

# A card that asks for 3-D Secure: the payment stays pending until the bank
# finishes it, which in the sandbox is a control (`make demo` calls it).
resource "payments_payment" "grace_addon" {
  amount      = provider::payments::minor_units("15.00", "EUR")
  currency    = "EUR"
  customer    = payments_customer.grace.id
  description = "Add-on, confirmed with 3-D Secure"

  source_wo         = ephemeral.payments_card_token.card["grace_3ds"].id
  source_wo_version = 1
}

# Authorized now, captured later: set capture = true to capture it in place.
resource "payments_payment" "grace_deposit" {
  amount      = provider::payments::minor_units("200.00", "EUR")
  currency    = "EUR"
  customer    = payments_customer.grace.id
  description = "Onboarding deposit, held"
  capture     = false

  depends_on = [payments_customer_source.grace_amex]
}

# Alan's default card is declined; his trial converts with another card,
# charged once and not stored.
resource "payments_payment" "alan_trial" {
  amount      = provider::payments::minor_units("9.00", "GBP")
  currency    = "GBP"
  customer    = payments_customer.alan.id
  description = "Trial conversion"

  source_wo         = ephemeral.payments_card_token.card["alan_mastercard"].id
  source_wo_version = 1

  # Destroying a payment keeps it at the service; this one is refunded first.
  refund_on_destroy = true
}

# The catalog: one product and its monthly price. Prices can't change, so a
# new amount is a new price; destroying one archives it.
resource "payments_product" "pro" {
  name        = "Pro plan"
  description = "Everything a small analytics team needs."
}

resource "payments_price" "pro_monthly" {
  product     = payments_product.pro.id
  currency    = "USD"
  unit_amount = provider::payments::minor_units("25.00", "USD")
  interval    = "month"
  nickname    = "Pro, monthly"
}

# Ada on the Pro plan, charged to her Visa every month. Destroying the
# subscription cancels it at once (cancel_on_destroy = "immediately").
resource "payments_subscription" "ada_pro" {
  customer       = payments_customer.ada.id
  default_source = payments_customer_source.ada_visa.id
  items          = [{ price = payments_price.pro_monthly.id }]

  metadata = {
    plan = "pro"
  }
}
