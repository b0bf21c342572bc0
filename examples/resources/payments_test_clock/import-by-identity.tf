import {
  to = payments_test_clock.example
  identity = {
    id = "clock_2nLw8yHs3V4fE9kQ2mZxR7bT"
  }
}
