# The renewals of one subscription that were paid, newest first.
data "payments_invoices" "paid_renewals" {
  subscription   = "sub_7Hq2LmXw9RtK4sVb1NcY6pDz"
  status         = "paid"
  billing_reason = "subscription_cycle"
}

output "renewals_paid" {
  value = length(data.payments_invoices.paid_renewals.invoices)
}

# A customer's invoices still waiting to be paid.
data "payments_invoices" "open" {
  customer = "cus_7kQ2mZxR4fE9bT1nLw8yHs3V"
  status   = "open"
}
