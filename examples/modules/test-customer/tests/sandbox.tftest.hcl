# Integration tests: they apply the module against a payments sandbox, named
# by PAYMENTS_BASE_URL and PAYMENTS_SECRET_KEY, and destroy what they made at
# the end. Run with `terraform test` (or `tofu test`).

provider "payments" {}

variables {
  email = "ci-seed@example.com"
  name  = "CI Seed"
  first_payment = {
    amount      = "19.99"
    currency    = "USD"
    description = "First month"
  }
}

run "seeds_a_customer_with_a_card" {
  command = apply

  assert {
    condition     = startswith(output.customer_id, "cus_")
    error_message = "The customer id should start with cus_."
  }

  assert {
    condition     = output.card.brand == "visa" && output.card.last4 == "4242"
    error_message = "The default card should be the sandbox's Visa ending 4242."
  }

  assert {
    condition     = output.first_payment.amount == "19.99 USD" && output.first_payment.status == "approved"
    error_message = "The first payment should be an approved 19.99 USD."
  }
}

run "the_service_agrees" {
  module {
    source = "./tests/verify"
  }

  variables {
    customer_id   = run.seeds_a_customer_with_a_card.customer_id
    expected_card = run.seeds_a_customer_with_a_card.card.id
  }

  assert {
    condition     = output.email == "ci-seed@example.com"
    error_message = "The service should hold the customer's email."
  }

  assert {
    condition     = output.default_source == var.expected_card
    error_message = "The card should be the customer's default at the service."
  }

  assert {
    condition     = output.payment_amounts == [1999]
    error_message = "The service should hold one payment of 1999 minor units."
  }
}

run "a_rename_keeps_the_customer" {
  command = apply

  # The earlier run's ids come in as variables: assertions read var and
  # output (OpenTofu does not let them read run.<name> directly).
  variables {
    name            = "CI Seed, renamed"
    before_customer = run.seeds_a_customer_with_a_card.customer_id
    before_payment  = run.seeds_a_customer_with_a_card.first_payment.id
  }

  assert {
    condition     = output.customer_id == var.before_customer
    error_message = "A new name should update the customer in place, not replace it."
  }

  assert {
    condition     = output.first_payment.id == var.before_payment
    error_message = "A new name should not charge the customer again."
  }
}
