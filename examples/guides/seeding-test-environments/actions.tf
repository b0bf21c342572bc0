# Refund, on demand, payments that the application under test made (not
# Terraform): terraform apply -invoke='action.payments_payment_refund.app["pay_…"]'
variable "app_payment_ids" {
  description = "Payments made by the application under test, to refund when the environment is reset."
  type        = set(string)
  default     = []
}

action "payments_payment_refund" "app" {
  for_each = var.app_payment_ids

  config {
    payment = each.value
  }
}
