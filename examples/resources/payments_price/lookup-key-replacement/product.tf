# The product of resource.tf, so that main.tf (shown on the page) validates
# on its own.
resource "payments_product" "gold" {
  name = "Gold"
}
