# Read a product that another configuration (or the dashboard) manages.
data "payments_product" "gold" {
  id = "prod_7kQ2mZxR4fE9bT1nLw8yHs3V"
}

output "gold_is_on_sale" {
  value = data.payments_product.gold.active
}
