resource "payments_customer" "example" {
  email = "grace@example.com"
  name  = "Grace Hopper"
}

# The first card attached to a customer becomes its default source.
resource "payments_customer_source" "mastercard" {
  customer = payments_customer.example.id
  token    = "tok_mastercard" # a card token made by your client-side integration
}

# default = true makes this card the default, whatever was attached before.
resource "payments_customer_source" "example" {
  customer = payments_customer.example.id
  token    = "tok_visa"
  default  = true
}

output "default_card" {
  value = "${payments_customer_source.example.brand} ending ${payments_customer_source.example.last4}, expires ${payments_customer_source.example.exp_month}/${payments_customer_source.example.exp_year}"
}
