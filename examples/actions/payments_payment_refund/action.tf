# Refund payments that Terraform does not manage, for example those an
# application under test made, when a test environment is reset.
# Terraform 1.14 or later.
variable "payment_ids" {
  type = set(string)
}

action "payments_payment_refund" "reset" {
  for_each = var.payment_ids

  config {
    payment = each.value
    # amount = 500 # part of it; by default, everything that is left
  }
}

# On demand:
#   terraform apply -invoke='action.payments_payment_refund.reset["pay_7Hq2LmXw9RtK4sVb1NcY6pDz"]'
