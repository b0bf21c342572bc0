import {
  to = payments_subscription.example
  id = "sub_2nLw8yHs3V4fE9kQ2mZxR7bT"
}
