# 19.99 USD is 1999 cents; 1200 JPY is 1200 yen (JPY has no decimals).
resource "payments_payment" "order" {
  amount   = provider::payments::minor_units("19.99", "USD")
  currency = "USD"
  source   = "tok_visa"
}

output "in_yen" {
  value = provider::payments::minor_units("1200", "JPY") # 1200
}
