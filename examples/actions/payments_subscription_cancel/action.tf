# Cancel subscriptions that Terraform does not manage, for example those an
# application under test made, when a test environment is reset.
# Terraform 1.14 or later.
variable "subscription_ids" {
  type = set(string)
}

action "payments_subscription_cancel" "reset" {
  for_each = var.subscription_ids

  config {
    subscription = each.value
    # at = "at_period_end" # let it run to the end of the period it is in
  }
}

# On demand:
#   terraform apply -invoke='action.payments_subscription_cancel.reset["sub_7Hq2LmXw9RtK4sVb1NcY6pDz"]'
