# Unit tests: plan only, against a mocked provider, so they need no service,
# no key and no network. Run with `terraform test` (or `tofu test`).

mock_provider "payments" {
  mock_resource "payments_customer" {
    defaults = {
      id = "cus_mock00000000000000000000"
    }
  }

  mock_resource "payments_customer_source" {
    defaults = {
      id = "src_mock00000000000000000000"
    }
  }
}

variables {
  name  = "Unit"
  price = "price_mock00000000000000000000"
}

run "one_of_the_price_by_default" {
  command = plan

  assert {
    condition     = length(payments_subscription.this.items) == 1 && payments_subscription.this.items[0].quantity == 1
    error_message = "The subscription should have one item, of quantity 1."
  }

  assert {
    condition     = payments_customer.this.test_clock == null
    error_message = "The customer should be on real time without test_clock."
  }
}

run "quantity_must_be_positive" {
  command = plan

  variables {
    quantity = 0
  }

  expect_failures = [var.quantity]
}
