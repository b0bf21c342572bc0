terraform {
  required_providers {
    payments = {
      source = "paymentsdev/payments"
    }
  }
}

# The provider reads PAYMENTS_BASE_URL and PAYMENTS_SECRET_KEY: point them
# at the local payments-sandbox, and sign in to its dashboard with the same
# key to watch this apply.
provider "payments" {}

resource "payments_customer" "ada" {
  email = "ada@example.com"
  name  = "Ada Lovelace"
}

resource "payments_customer_source" "ada_visa" {
  customer = payments_customer.ada.id
  token    = "tok_visa"
}

# Charged in yen, which has no minor unit: the dashboard shows ¥1,200.
resource "payments_payment" "tea_set" {
  amount      = 1200
  currency    = "JPY"
  customer    = payments_customer.ada.id
  description = "Tea set"

  depends_on = [payments_customer_source.ada_visa]
}

# A card that asks for 3-D Secure: the payment stays pending until you
# complete it on its page in the dashboard.
resource "payments_payment" "gift" {
  amount      = 1999
  currency    = "USD"
  source      = "tok_3ds"
  description = "Gift card"
}
