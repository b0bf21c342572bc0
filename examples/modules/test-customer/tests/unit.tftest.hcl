# Unit tests: plan only, against a mocked provider, so they need no service,
# no key and no network. Run with `terraform test` (or `tofu test`).

mock_provider "payments" {
  mock_resource "payments_customer" {
    defaults = {
      id = "cus_mock00000000000000000000"
    }
  }
}

variables {
  email = "unit@example.com"
}

run "no_payment_by_default" {
  command = plan

  assert {
    condition     = length(payments_payment.first) == 0
    error_message = "No payment should be planned without first_payment."
  }

  assert {
    condition     = payments_customer.this.metadata["seeded_by"] == "terraform"
    error_message = "The customer should be marked seeded_by = terraform."
  }
}

run "amount_in_minor_units" {
  command = plan

  variables {
    first_payment = {
      amount   = "1200"
      currency = "JPY"
    }
  }

  assert {
    condition     = payments_payment.first[0].amount == 1200 && payments_payment.first[0].currency == "JPY"
    error_message = "1200 JPY should be planned as 1200 minor units (JPY has no decimals)."
  }
}

run "cents" {
  command = plan

  variables {
    first_payment = {
      amount   = "12.5"
      currency = "EUR"
    }
  }

  assert {
    condition     = payments_payment.first[0].amount == 1250
    error_message = "12.5 EUR should be planned as 1250 minor units."
  }
}

run "rejects_a_malformed_email" {
  command = plan

  variables {
    email = "not-an-address"
  }

  expect_failures = [var.email]
}
