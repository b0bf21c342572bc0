# The subscriptions of one customer, with their attributes, to import them.
list "payments_subscription" "acme" {
  provider         = payments
  include_resource = true

  config {
    customer = "cus_7kQ2mZxR4fE9bT1nLw8yHs3V"
  }
}

# Every past_due subscription of the account.
list "payments_subscription" "past_due" {
  provider = payments

  config {
    status = "past_due"
  }
}
