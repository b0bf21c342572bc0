resource "payments_product" "team" {
  name = "Team plan"
}

resource "payments_price" "team_monthly" {
  product     = payments_product.team.id
  currency    = "USD"
  unit_amount = 2900 # 29.00 USD a month
  interval    = "month"
}

resource "payments_price" "seat_monthly" {
  product     = payments_product.team.id
  currency    = "USD"
  unit_amount = 500 # 5.00 USD a seat a month
  interval    = "month"
}

resource "payments_customer" "acme" {
  name  = "Acme"
  email = "billing@acme.example"
}

resource "payments_customer_source" "acme_card" {
  customer = payments_customer.acme.id
  token    = "tok_visa"
}

# The plan and 12 seats, charged to the card every month after a 14-day
# trial. Changing the seats is an in-place update from the next period.
resource "payments_subscription" "acme" {
  customer       = payments_customer.acme.id
  default_source = payments_customer_source.acme_card.id
  items = [
    { price = payments_price.team_monthly.id },
    { price = payments_price.seat_monthly.id, quantity = 12 },
  ]
  trial_period_days = 14
  metadata          = { account = "acme" }

  # Destroying it lets the customer keep what they paid for.
  cancel_on_destroy = "at_period_end"
}
