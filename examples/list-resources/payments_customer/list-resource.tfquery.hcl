# Every customer of the account, newest first. Terraform stops at 100
# results unless limit says otherwise.
list "payments_customer" "all" {
  provider = payments
  limit    = 1000
}

# Only the customers with one e-mail address, compared ignoring case, with
# their attributes (include_resource).
list "payments_customer" "ada" {
  provider         = payments
  include_resource = true

  config {
    email = "ada@example.com"
  }
}
