# Read a customer that another configuration (or the dashboard) manages.
data "payments_customer" "example" {
  id = "cus_4fE9kQ2mZxR7bT1nLw8yHs3V"
}

output "default_card" {
  # The customer's default source, among all its sources.
  value = one([
    for s in data.payments_customer.example.sources : "${s.brand} ending ${s.last4}"
    if s.id == data.payments_customer.example.default_source
  ])
}
