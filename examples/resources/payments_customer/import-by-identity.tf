import {
  to = payments_customer.example
  identity = {
    id = "cus_4fE9kQ2mZxR7bT1nLw8yHs3V"
  }
}
