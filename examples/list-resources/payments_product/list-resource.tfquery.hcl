# Every product of the account, newest first.
list "payments_product" "all" {
  provider = payments
}

# Only the products on sale, with their attributes (include_resource).
list "payments_product" "active" {
  provider         = payments
  include_resource = true

  config {
    active = true
  }
}
