# The newest 20 approved payments of one customer in 2025.
data "payments_payments" "example" {
  customer       = "cus_4fE9kQ2mZxR7bT1nLw8yHs3V"
  status         = "approved"
  created_after  = "2025-01-01T00:00:00Z"
  created_before = "2026-01-01T00:00:00Z"
  limit          = 20
}

locals {
  amounts_by_currency = {
    for p in data.payments_payments.example.payments : p.currency => p.amount...
  }
}

output "approved_total_by_currency" {
  # Amounts are integers in each currency's minor unit (cents for USD).
  value = { for currency, amounts in local.amounts_by_currency : currency => sum(amounts) }
}
