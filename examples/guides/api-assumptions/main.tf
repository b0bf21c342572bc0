terraform {
  required_providers {
    payments = {
      source = "paymentsdev/payments"
    }
  }
}

# Amounts are integers in each currency's minor unit (29), and the time
# filters compare with created_at, both ends included (31). The provider
# follows the pages of the list (17, 18) up to limit.
data "payments_payments" "march" {
  status         = "approved"
  created_after  = "2025-03-01T00:00:00Z"
  created_before = "2025-03-31T23:59:59Z"
  limit          = 100
}

locals {
  # ISO 4217 currencies without a minor unit; the others have cents.
  zero_decimal = ["JPY"]

  march_minor_units = {
    for p in data.payments_payments.march.payments : p.currency => p.amount...
  }
}

output "march_revenue" {
  value = {
    for currency, amounts in local.march_minor_units :
    currency => sum(amounts) / (contains(local.zero_decimal, currency) ? 1 : 100)
  }
}
