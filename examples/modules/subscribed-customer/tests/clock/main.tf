# A test clock and a monthly price for the tests: applied again with a
# later frozen_time, it advances the clock, and every renewal due runs.

terraform {
  required_providers {
    payments = {
      source = "paymentsdev/payments"
    }
  }
}

variable "frozen_time" {
  type = string
}

resource "payments_test_clock" "this" {
  name        = "subscribed-customer tests"
  frozen_time = var.frozen_time
}

resource "payments_product" "plan" {
  name = "Test plan"
}

resource "payments_price" "monthly" {
  product     = payments_product.plan.id
  currency    = "USD"
  unit_amount = 1500
  interval    = "month"
}

output "clock_id" {
  value = payments_test_clock.this.id
}

output "price_id" {
  value = payments_price.monthly.id
}
