terraform {
  required_providers {
    payments = {
      source = "paymentsdev/payments"
    }
  }
}

# An account whose rate limit is known (25 requests a second, say), on a
# service that can be slow: pace the provider to the limit, bound each
# attempt, and give the whole operation room for the retries.
provider "payments" {
  base_url                = "https://api.payments.example"
  max_requests_per_second = 25    # the account's limit; or PAYMENTS_MAX_REQUESTS_PER_SECOND
  request_timeout         = "20s" # one attempt, answer included; or PAYMENTS_REQUEST_TIMEOUT
  max_retries             = 10    # network errors, timeouts, 429 and 5xx
}

resource "payments_customer" "seed" {
  count = 80
  email = "seed-${count.index}@example.com"

  timeouts {
    create = "10m" # all the attempts of one create, waits included
  }
}

data "payments_payments" "recent" {
  status = "approved"

  timeouts {
    read = "2m"
  }
}
