# Reads back, through the provider's data sources, what a run of the module
# made, so a test can assert on the service's view and not only on the
# module's outputs.

terraform {
  required_providers {
    payments = {
      source = "paymentsdev/payments"
    }
  }
}

variable "customer_id" {
  description = "The customer the module made."
  type        = string
}

data "payments_customer" "this" {
  id = var.customer_id
}

data "payments_payments" "charged" {
  customer = var.customer_id
}
