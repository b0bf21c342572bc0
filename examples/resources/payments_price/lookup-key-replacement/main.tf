# Changing unit_amount replaces the price. With create_before_destroy, the
# new price is created first and, with transfer_lookup_key, takes the
# lookup key from the price it replaces; the old price is then archived.
# Whatever finds the price by its lookup key finds the new one at once.
resource "payments_price" "gold_monthly" {
  product             = payments_product.gold.id
  currency            = "USD"
  unit_amount         = 2499 # was 1999
  interval            = "month"
  lookup_key          = "gold_monthly"
  transfer_lookup_key = true

  lifecycle {
    create_before_destroy = true
  }
}

# Elsewhere, or in another configuration: the current gold monthly price.
data "payments_price" "gold_monthly" {
  lookup_key = "gold_monthly"
  depends_on = [payments_price.gold_monthly]
}
