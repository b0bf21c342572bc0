resource "payments_product" "gold" {
  name = "Gold"
}

# 19.99 USD every month.
resource "payments_price" "gold_monthly" {
  product     = payments_product.gold.id
  currency    = "USD"
  unit_amount = 1999 # in cents
  interval    = "month"
  nickname    = "Gold, monthly"
  lookup_key  = "gold_monthly"
}

# 199.00 USD every year.
resource "payments_price" "gold_yearly" {
  product     = payments_product.gold.id
  currency    = "USD"
  unit_amount = 19900
  interval    = "year"
  lookup_key  = "gold_yearly"
}

# 49.00 USD every three months.
resource "payments_price" "gold_quarterly" {
  product        = payments_product.gold.id
  currency       = "USD"
  unit_amount    = 4900
  interval       = "month"
  interval_count = 3
}

# A one-time price: no interval.
resource "payments_price" "setup_fee" {
  product     = payments_product.gold.id
  currency    = "USD"
  unit_amount = 5000
}
