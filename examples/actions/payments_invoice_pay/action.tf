# Attempt the payment of an open or uncollectible invoice now, for example
# after storing a new card for a past_due or unpaid subscription, rather
# than wait for its retry. Terraform 1.14 or later.
data "payments_subscription" "past_due" {
  id = "sub_7Hq2LmXw9RtK4sVb1NcY6pDz"
}

action "payments_invoice_pay" "retry" {
  config {
    invoice = data.payments_subscription.past_due.latest_invoice
  }
}

# On demand:
#   terraform apply -invoke=action.payments_invoice_pay.retry
