import {
  to = payments_customer_source.example
  identity = {
    customer = "cus_4fE9kQ2mZxR7bT1nLw8yHs3V"
    id       = "src_9KpL2wQx7RmN4tYb6VcZ1aHd"
  }
}
