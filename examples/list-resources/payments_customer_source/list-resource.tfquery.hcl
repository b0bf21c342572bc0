# The cards stored on one customer, in the order they were stored.
list "payments_customer_source" "ada" {
  provider = payments

  config {
    customer = "cus_4fE9kQ2mZxR7bT1nLw8yHs3V"
  }
}
