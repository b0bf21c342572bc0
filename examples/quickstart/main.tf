# The quick start: three customers with cards and metadata, one card made
# the default on purpose, and the data sources reading the payments charged
# to them. `make demo` runs it against a local sandbox; see the README.

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
