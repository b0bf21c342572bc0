# The quick start: three customers with cards and metadata, one card made
# the default on purpose, a payment history charged to them (payments_payment),
# and the data sources reading it back. `make demo` runs it against a local
# sandbox; see the README.

terraform {
  required_version = ">= 1.5.0"

  required_providers {
    payments = {
      source = "paymentsdev/payments"
    }
  }
}

# The key and the address come from PAYMENTS_SECRET_KEY and
# PAYMENTS_BASE_URL, which `make demo` sets to a sandbox it starts.
provider "payments" {}

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
  customer = payments_customer.ada.id
  token    = "tok_visa"
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
  customer = payments_customer.grace.id
  token    = "tok_mastercard"
}

# Grace pays with her Amex, whichever card was attached first.
resource "payments_customer_source" "grace_amex" {
  customer = payments_customer.grace.id
  token    = "tok_amex"
  default  = true
}

resource "payments_customer" "alan" {
  email = "alan@example.com"
  name  = "Alan Turing"

  metadata = {
    plan = "trial"
  }
}

resource "payments_customer_source" "alan_visa" {
  customer = payments_customer.alan.id
  token    = "tok_declined" # a sandbox card whose charges are declined
}

# The payment history. Each is one charge: a change to amount, currency,
# customer or source would replace it (a new charge), and the plan says so.

resource "payments_payment" "ada_first_month" {
  amount      = 2500
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
  amount          = 2500
  currency        = "USD"
  customer        = payments_customer.ada.id
  description     = "Pro plan, second month"
  amount_refunded = 1000

  depends_on = [payments_customer_source.ada_visa]
}

# Charged to Grace's default card, the Amex.
resource "payments_payment" "grace_seats" {
  amount      = 4900
  currency    = "EUR"
  customer    = payments_customer.grace.id
  description = "Team plan, annual seats"

  depends_on = [payments_customer_source.grace_amex]
}

# A card that asks for 3-D Secure: the payment stays pending until the bank
# finishes it, which in the sandbox is a control (`make demo` calls it).
resource "payments_payment" "grace_addon" {
  amount      = 1500
  currency    = "EUR"
  customer    = payments_customer.grace.id
  source      = "tok_3ds"
  description = "Add-on, confirmed with 3-D Secure"
}

# Authorized now, captured later: set capture = true to capture it in place.
resource "payments_payment" "grace_deposit" {
  amount      = 20000
  currency    = "EUR"
  customer    = payments_customer.grace.id
  description = "Onboarding deposit, held"
  capture     = false

  depends_on = [payments_customer_source.grace_amex]
}

# Alan's default card is declined; his trial converts with a one-off token.
resource "payments_payment" "alan_trial" {
  amount      = 900
  currency    = "GBP"
  customer    = payments_customer.alan.id
  source      = "tok_mastercard"
  description = "Trial conversion"

  # Destroying a payment keeps it at the service; this one is refunded first.
  refund_on_destroy = true
}
