# Integration tests of a card that pays the first period and declines every
# renewal (the sandbox's tok_declined_later): past_due after the first
# failed renewal, and, after the last of its retries 3, 5 and 7 days apart,
# the invoice uncollectible and the subscription canceled (the sandbox's
# default end of dunning). Run with `terraform test` (or `tofu test`).

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
    name       = "Declining Customer"
    card_token = "tok_declined_later"
    price      = run.clock_starts.price_id
    test_clock = run.clock_starts.clock_id
  }

  assert {
    condition     = output.status == "active"
    error_message = "The first charge should be approved: the subscription active."
  }
}

run "first_renewal_declined" {
  module {
    source = "./tests/clock"
  }

  variables {
    frozen_time = "2026-02-01T12:00:00Z"
  }
}

run "is_past_due" {
  module {
    source = "./tests/check"
  }

  variables {
    subscription_id = run.subscribes.subscription_id
  }

  assert {
    condition     = output.status == "past_due" && output.paid_cycles == 0
    error_message = "A declined renewal should leave the subscription past_due, the renewal unpaid."
  }
}

run "retries_run_out" {
  module {
    source = "./tests/clock"
  }

  variables {
    frozen_time = "2026-02-20T00:00:00Z"
  }
}

run "ends_canceled" {
  module {
    source = "./tests/check"
  }

  variables {
    subscription_id = run.subscribes.subscription_id
  }

  assert {
    condition     = output.status == "canceled" && output.uncollectible == 1
    error_message = "After the last retry the invoice should be uncollectible and the subscription canceled."
  }
}
