data "payments_payment" "example" {
  id = "pay_7hQ2nR5tW8yB1cD4fG6jK9mP"
}

output "payment_status" {
  value = "${data.payments_payment.example.status}: ${data.payments_payment.example.amount} ${data.payments_payment.example.currency}"
}
