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
    customer_id = run.seeds_a_customer_with_a_card.customer_id
  }

  assert {
    condition     = data.payments_customer.this.email == "ci-seed@example.com"
    error_message = "The service should hold the customer's email."
  }

  assert {
    condition     = data.payments_customer.this.default_source == run.seeds_a_customer_with_a_card.card.id
    error_message = "The card should be the customer's default at the service."
  }

  assert {
    condition     = length(data.payments_payments.charged.payments) == 1 && data.payments_payments.charged.payments[0].amount == 1999
    error_message = "The service should hold one payment of 1999 minor units."
  }
}

run "a_rename_keeps_the_customer" {
  command = apply

  variables {
    name = "CI Seed, renamed"
  }

  assert {
    condition     = output.customer_id == run.seeds_a_customer_with_a_card.customer_id
    error_message = "A new name should update the customer in place, not replace it."
  }

  assert {
    condition     = output.first_payment.id == run.seeds_a_customer_with_a_card.first_payment.id
    error_message = "A new name should not charge the customer again."
  }
}
