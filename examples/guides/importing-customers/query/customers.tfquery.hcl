# customers.tfquery.hcl: what to look for. terraform query reads every
# *.tfquery.hcl file of the working directory.
list "payments_customer" "team" {
  provider = payments
  limit    = 500
}

list "payments_customer_source" "ada" {
  provider = payments

  config {
    customer = "cus_4fE9kQ2mZxR7bT1nLw8yHs3V"
  }
}
