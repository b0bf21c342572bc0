# customers.tf: the configuration that -generate-config-out wrote, reviewed
# and moved out of generated.tf.
resource "payments_customer" "ada" {
  email = "ada@example.com"
  name  = "Ada Lovelace"
  phone = "+442071234567"
  metadata = {
    plan = "pro"
  }
}

resource "payments_customer_source" "ada_visa" {
  customer = payments_customer.ada.id
  # The service never returns a token, so the generated configuration has
  # token = null; put back the token the card was attached with.
  token   = "tok_visa"
  default = true
}
