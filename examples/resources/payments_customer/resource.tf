resource "payments_customer" "example" {
  email = "ada@example.com"
  name  = "Ada Lovelace"
  phone = "+442071234567" # E.164: a plus sign and 8 to 15 digits

  metadata = {
    plan       = "pro"
    account_id = "acct-1815"
  }
}

output "customer_id" {
  value = payments_customer.example.id
}
