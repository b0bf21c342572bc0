output "price" {
  value = provider::payments::format_amount(1999, "USD") # "19.99 USD"
}

resource "payments_payment" "order" {
  amount   = 1200
  currency = "JPY"
  source   = "tok_visa"
}

# "1200 JPY": the payment's amount as a person reads it.
output "charged" {
  value = provider::payments::format_amount(payments_payment.order.amount, payments_payment.order.currency)
}
