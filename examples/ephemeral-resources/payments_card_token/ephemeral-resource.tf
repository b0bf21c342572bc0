# The card's details come from an ephemeral variable (TF_VAR_card, or a
# secret store), so that they are in neither the state, the plan, nor the
# configuration's text.
variable "card" {
  type = object({
    number    = string
    exp_month = number
    exp_year  = number
    cvc       = string
  })
  sensitive = true
  ephemeral = true
}

# A card tokenized for this run only: the token is never written to the
# state or the plan either.
ephemeral "payments_card_token" "this" {
  number    = var.card.number # in the sandbox, a test card such as 4242424242424242
  exp_month = var.card.exp_month
  exp_year  = var.card.exp_year
  cvc       = var.card.cvc
}

resource "payments_customer" "ada" {
  email = "ada@example.com"
}

# token_wo is write-only: bump token_wo_version to store a new card.
resource "payments_customer_source" "ada_card" {
  customer         = payments_customer.ada.id
  token_wo         = ephemeral.payments_card_token.this.id
  token_wo_version = 1
}
