output "customer_id" {
  description = "The customer's id."
  value       = payments_customer.this.id
}

output "card" {
  description = "The default card, as the API describes it."
  value = {
    id    = payments_customer_source.card.id
    brand = payments_customer_source.card.brand
    last4 = payments_customer_source.card.last4
  }
}

output "first_payment" {
  description = "The first payment's id, status and amount as a person reads it, or null."
  value = one([for p in payments_payment.first : {
    id     = p.id
    status = p.status
    amount = provider::payments::format_amount(p.amount, p.currency)
  }])
}
