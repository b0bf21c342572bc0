output "customer_id" {
  description = "The customer's id."
  value       = payments_customer.this.id
}

output "subscription_id" {
  description = "The subscription's id."
  value       = payments_subscription.this.id
}

output "status" {
  description = "The subscription's status when it was last applied."
  value       = payments_subscription.this.status
}
