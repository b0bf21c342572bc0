# A test clock is imported by its id.
terraform import payments_test_clock.example clock_2nLw8yHs3V4fE9kQ2mZxR7bT
