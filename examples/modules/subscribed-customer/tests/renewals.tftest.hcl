# Integration tests through renewals: a test clock moves the customer three
# months on, in seconds, and the invoices tell what each renewal did. They
# run against a payments sandbox named by PAYMENTS_BASE_URL and
# PAYMENTS_SECRET_KEY, and destroy what they made at the end. Run with
# `terraform test` (or `tofu test`).

provider "payments" {}

run "clock_starts" {
  module {
    source = "./tests/clock"
  }

  variables {
    frozen_time = "2026-01-01T00:00:00Z"
  }
}

run "subscribes" {
  variables {
    name       = "Renewing Customer"
    price      = run.clock_starts.price_id
    test_clock = run.clock_starts.clock_id
  }

  assert {
    condition     = output.status == "active"
    error_message = "The first period should be paid: the subscription active."
  }
}

run "one_month_on" {
  module {
    source = "./tests/clock"
  }

  variables {
    frozen_time = "2026-02-01T12:00:00Z"
  }
}

run "two_months_on" {
  module {
    source = "./tests/clock"
  }

  variables {
    frozen_time = "2026-03-01T12:00:00Z"
  }
}

run "three_months_on" {
  module {
    source = "./tests/clock"
  }

  variables {
    frozen_time = "2026-04-01T12:00:00Z"
  }
}

run "three_renewals_paid" {
  module {
    source = "./tests/check"
  }

  variables {
    subscription_id = run.subscribes.subscription_id
  }

  assert {
    condition     = output.paid_cycles == 3
    error_message = "Three renewals should have made three paid subscription_cycle invoices."
  }

  assert {
    condition     = output.status == "active" && output.current_period_start == "2026-04-01T00:00:00Z"
    error_message = "The subscription should be active, in the period that began on 1 April."
  }
}
