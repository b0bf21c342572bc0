resource "payments_product" "gold" {
  name        = "Gold"
  description = "Everything in Silver, and priority support."

  metadata = {
    tier = "3"
  }
}

output "product_id" {
  value = payments_product.gold.id
}
