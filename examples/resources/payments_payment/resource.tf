resource "payments_customer" "ada" {
  email = "ada@example.com"
  name  = "Ada Lovelace"
}

resource "payments_customer_source" "ada_visa" {
  customer = payments_customer.ada.id
  token    = "tok_visa"
}

# Charges the customer's default card. A change to amount, currency,
# customer or source replaces the payment, which is a new charge: the plan
# warns when it does.
resource "payments_payment" "first_month" {
  amount      = 2500 # minor units: 25.00 USD
  currency    = "USD"
  customer    = payments_customer.ada.id
  description = "Pro plan, first month"

  metadata = {
    invoice = "INV-1001"
  }

  # Payments cannot be deleted; on destroy, refund what is left of it.
  refund_on_destroy = true

  depends_on = [payments_customer_source.ada_visa]
}

# A refunded payment: raising amount_refunded later refunds the difference.
resource "payments_payment" "second_month" {
  amount          = 2500
  currency        = "USD"
  customer        = payments_customer.ada.id
  source          = payments_customer_source.ada_visa.id
  description     = "Pro plan, second month"
  amount_refunded = 1000

  refund_on_destroy = true
}

# Authorized only; set capture = true later to capture it in place.
resource "payments_payment" "hold" {
  amount      = 9900
  currency    = "EUR"
  source      = "tok_mastercard" # a token, charged without a customer
  description = "Deposit hold"
  capture     = false
}

output "payment_statuses" {
  value = {
    first_month  = payments_payment.first_month.status  # approved
    second_month = payments_payment.second_month.status # partially_refunded
    hold         = payments_payment.hold.status         # authorized
  }
}
