# A clock that starts on 1 January 2026. Moving frozen_time forward and
# applying advances it: every renewal due by then runs, and the apply waits
# until the clock is ready.
resource "payments_test_clock" "billing" {
  name        = "Billing tests"
  frozen_time = "2026-01-01T00:00:00Z"
}

# A customer on the clock: its subscriptions follow the clock's time.
# Destroying the clock deletes the customer with it.
resource "payments_customer" "on_clock" {
  name       = "Clocked Customer"
  email      = "clocked@example.com"
  test_clock = payments_test_clock.billing.id
}
