# A card tokenized for this run only: the number, the CVC and the token are
# never written to the state or the plan.
ephemeral "payments_card_token" "visa" {
  number    = "4242424242424242" # a sandbox test card
  exp_month = 12
  exp_year  = 2030
  cvc       = "123"
}

resource "payments_customer" "ada" {
  email = "ada@example.com"
}

# token_wo is write-only: bump token_wo_version to store a new card.
resource "payments_customer_source" "ada_visa" {
  customer         = payments_customer.ada.id
  token_wo         = ephemeral.payments_card_token.visa.id
  token_wo_version = 1
}
