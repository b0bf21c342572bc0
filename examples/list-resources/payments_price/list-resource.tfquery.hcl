# The active prices of one product, with their attributes, to import them.
list "payments_price" "gold" {
  provider         = payments
  include_resource = true

  config {
    product = "prod_7kQ2mZxR4fE9bT1nLw8yHs3V"
    active  = true
  }
}
